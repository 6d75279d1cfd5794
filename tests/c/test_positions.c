/* Constructed positions (docs/positions.md) through the C ABI, for every registered game: a
 * position taken along a random game loads (registry and game-handle routes, NUL-terminated and
 * (pointer, length) text), has no history, round-trips, plays to the end, saves with its
 * position and reloads mid-way, draws; broken documents fail with their statuses; a search bot
 * either moves or reports KASSEN_STATUS_POSITION_NOT_SUPPORTED. And every position file of the
 * repository (core/src/games/<id>/positions/, scenarios of the rule tests) loads, round-trips
 * and plays to the end. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>

#include "harness.h"

/* The repository, where the position files are (run.sh passes it; "." when run from there). */
#ifndef KASSEN_REPO
#define KASSEN_REPO "."
#endif

#define MAX_ACTIONS 65536

static uint32_t g_legal[MAX_ACTIONS];
static uint32_t g_legal2[MAX_ACTIONS];

/* A random legal action of `s` into `*out`; false if there is none. */
static bool random_action(const kassen_state *s, uint64_t *rng, uint32_t *out) {
    size_t n = 0;
    if (kassen_state_legal_actions(s, g_legal, MAX_ACTIONS, &n) != KASSEN_STATUS_OK || n == 0) {
        return false;
    }
    *out = g_legal[rng_next(rng) % n];
    return true;
}

static bool terminal(const kassen_state *s) {
    uint8_t t = 0;
    CHECK_OK(kassen_state_is_terminal(s, &t));
    return t != 0;
}

/* Same player to act and same legal actions. */
static void check_same_decision(const kassen_state *a, const kassen_state *b) {
    int32_t pa = 0, pb = 1;
    size_t na = 0, nb = 1;
    CHECK_OK(kassen_state_current_player(a, &pa));
    CHECK_OK(kassen_state_current_player(b, &pb));
    CHECK(pa == pb);
    CHECK_OK(kassen_state_legal_actions(a, g_legal, MAX_ACTIONS, &na));
    CHECK_OK(kassen_state_legal_actions(b, g_legal2, MAX_ACTIONS, &nb));
    CHECK(na == nb && memcmp(g_legal, g_legal2, na * sizeof *g_legal) == 0);
}

/* Plays `p` (owned, freed here) to the end; saves and reloads after a few steps. */
static void play_out(kassen_state *p, uint64_t seed) {
    uint64_t rng = seed * 2654435761u + 1;
    uint32_t a = 0;
    int steps = 0;
    while (!terminal(p) && steps < 100000) {
        CHECK(random_action(p, &rng, &a));
        CHECK_OK(kassen_state_apply_in_place(p, a));
        if (++steps == 5) {
            kassen_buf save = {NULL, 0};
            kassen_state *back = NULL;
            uint8_t equal = 0, started = 0;
            CHECK_OK(kassen_state_to_json(p, &save));
            CHECK(strstr(save.data, "\"position\":{") != NULL);
            CHECK_OK(kassen_state_from_json_n((const uint8_t *)save.data, save.len, &back));
            CHECK_OK(kassen_state_equal(p, back, &equal));
            CHECK(equal);
            CHECK_OK(kassen_state_started_at_position(back, &started));
            CHECK(started == 1);
            kassen_buf_free(&save);
            kassen_state_free(p);
            p = back;
        }
    }
    CHECK(terminal(p));
    kassen_buf svg = {NULL, 0};
    CHECK_OK(kassen_state_render_svg(p, -1, &svg));
    CHECK(svg.len > 4 && strncmp(svg.data, "<svg", 4) == 0);
    kassen_buf_free(&svg);
    kassen_state_free(p);
}

static void check_game(const char *id, const char *other_id) {
    kassen_game *game = NULL;
    kassen_state *s = NULL, *p = NULL, *q = NULL;
    kassen_buf doc = {NULL, 0}, again = {NULL, 0}, info = {NULL, 0};
    uint64_t rng = 11;
    uint32_t a = 0;
    uint8_t equal = 0, started = 1;
    size_t hist = 1;

    CHECK_OK(kassen_game_new(id, NULL, &game));
    CHECK_OK(kassen_state_new(game, 3, &s));
    for (int i = 0; i < 20 && !terminal(s); i++) {
        CHECK(random_action(s, &rng, &a));
        CHECK_OK(kassen_state_apply_in_place(s, a));
    }
    CHECK_OK(kassen_state_started_at_position(s, &started));
    CHECK(started == 0);

    /* Export, load through the registry and through the game handle. */
    CHECK_OK(kassen_state_to_position_json(s, &doc));
    CHECK(strstr(doc.data, "\"format\":\"kassen-position-1\"") != NULL);
    CHECK_OK(kassen_state_from_position(doc.data, &p));
    CHECK_OK(kassen_game_load_position_n(game, (const uint8_t *)doc.data, doc.len, &q));
    CHECK_OK(kassen_state_equal(p, q, &equal));
    CHECK(equal);
    kassen_state_free(q);
    q = NULL;
    CHECK_OK(kassen_state_started_at_position(p, &started));
    CHECK(started == 1);
    CHECK_OK(kassen_state_history(p, g_legal, MAX_ACTIONS, &hist));
    CHECK(hist == 0);
    check_same_decision(s, p);
    CHECK_OK(kassen_state_to_position_json(p, &again));
    CHECK(again.len == doc.len && memcmp(again.data, doc.data, doc.len) == 0);
    kassen_buf_free(&again);

    /* The same position written by name loads back to the same state; a NULL out is refused. */
    kassen_state *named = NULL;
    kassen_status named_st = kassen_state_to_named_position_json(p, &again);
    CHECK(named_st == KASSEN_STATUS_OK || named_st == KASSEN_STATUS_UNSUPPORTED_FORMAT);
    if (named_st == KASSEN_STATUS_OK) {
        CHECK(strstr(again.data, "\"format\":\"kassen-position-named-1\"") != NULL);
        CHECK_OK(kassen_state_from_position(again.data, &named));
        CHECK_OK(kassen_state_equal(p, named, &equal));
        CHECK(equal);
        kassen_state_free(named);
        kassen_buf_free(&again);
    }
    CHECK_STATUS(kassen_state_to_named_position_json(p, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_to_named_position_json(NULL, &again), KASSEN_STATUS_NULL_POINTER);

    /* A search bot moves, or says that the game cannot sample the position's hidden parts. */
    CHECK_OK(kassen_game_info_json(game, &info));
    bool hidden = strstr(info.data, "\"hidden_information\":true") != NULL;
    kassen_buf_free(&info);
    size_t n = 0;
    CHECK_OK(kassen_state_legal_actions(p, g_legal, MAX_ACTIONS, &n));
    int32_t seat = -4;
    CHECK_OK(kassen_state_current_player(p, &seat));
    if (seat >= 0 && n > 1) {
        kassen_bot *bot = NULL;
        uint32_t choice = UINT32_MAX;
        CHECK_OK(kassen_bot_new("ismcts:easy", 1, &bot));
        kassen_status st = kassen_bot_choose(bot, p, &choice);
        if (hidden) {
            CHECK(st == KASSEN_STATUS_OK || st == KASSEN_STATUS_POSITION_NOT_SUPPORTED);
            CHECK(st == KASSEN_STATUS_OK || choice == UINT32_MAX);
        } else {
            CHECK_OK(st);
        }
        kassen_bot_free(bot);
    }

    /* Play on from the position (and from its export as text with a length). */
    CHECK_OK(kassen_state_from_position_n((const uint8_t *)doc.data, doc.len, &q));
    play_out(p, 1);
    play_out(q, 2);
    p = q = NULL; /* freed by play_out */

    /* Broken documents. */
    CHECK_STATUS(kassen_state_from_position("{", &q), KASSEN_STATUS_MALFORMED_JSON);
    CHECK_STATUS(kassen_state_from_position("{\"format\":\"kassen-position-1\",\"extra\":1}", &q),
                 KASSEN_STATUS_INVALID_POSITION);
    CHECK_STATUS(kassen_state_from_position("{\"format\":\"kassen.state/1\"}", &q), KASSEN_STATUS_UNSUPPORTED_FORMAT);
    CHECK_STATUS(kassen_state_from_position(NULL, &q), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_from_position_n((const uint8_t *)"{\0}", 3, &q), KASSEN_STATUS_INVALID_ARGUMENT);
    CHECK(q == NULL);
    /* The position's generator replaced by a value of the wrong type. */
    char *bad = malloc(doc.len + 32);
    const char *rng_at = strstr(doc.data, "\"rng\":");
    CHECK(rng_at != NULL);
    if (rng_at != NULL) {
        size_t head = (size_t)(rng_at - doc.data) + 6;
        memcpy(bad, doc.data, head);
        strcpy(bad + head, "\"not a generator\",");
        /* Skip the original generator object {"s":[...]}. */
        const char *after = strchr(strchr(rng_at, ']'), '}') + 1;
        if (*after == ',') after++;
        else bad[strlen(bad) - 1] = '\0';
        strncat(bad, after, doc.len + 32 - strlen(bad) - 1);
        CHECK_STATUS(kassen_state_from_position(bad, &q), KASSEN_STATUS_INVALID_POSITION);
        CHECK(strstr(kassen_last_error_message(), "invalid position") != NULL);
    }
    free(bad);
    if (other_id != NULL) {
        kassen_game *other = NULL;
        CHECK_OK(kassen_game_new(other_id, NULL, &other));
        CHECK_STATUS(kassen_game_load_position(other, doc.data, &q), KASSEN_STATUS_WRONG_GAME);
        kassen_game_free(other);
    }
    CHECK(q == NULL);

    kassen_buf_free(&doc);
    kassen_state_free(s);
    kassen_game_free(game);
}

/* The whole file at `path` as a NUL-terminated string (free it), or NULL. */
static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    char *text = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long len = ftell(f);
        if (len >= 0 && fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)len + 1)) != NULL) {
            size_t got = fread(text, 1, (size_t)len, f);
            text[got] = '\0';
        }
    }
    fclose(f);
    return text;
}

/* Every core/src/games/<id>/positions/ *.json: loads, round-trips through to_position_json and
 * plays to the end (saving with its position on the way). Returns how many files it read. */
static int check_position_files(const char *id) {
    char dir[1024];
    int w = snprintf(dir, sizeof dir, "%s/core/src/games/%s/positions", KASSEN_REPO, id);
    CHECK(w > 0 && (size_t)w < sizeof dir);
    DIR *d = w > 0 && (size_t)w < sizeof dir ? opendir(dir) : NULL;
    if (d == NULL) {
        return 0;
    }
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0) {
            continue;
        }
        char path[sizeof dir + sizeof e->d_name + 2];
        w = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        CHECK(w > 0 && (size_t)w < sizeof path);
        char *text = read_file(path);
        CHECK(text != NULL);
        kassen_state *p = NULL, *q = NULL;
        if (text != NULL && kassen_state_from_position(text, &p) == KASSEN_STATUS_OK) {
            /* Equal as positions: a file may stop at a chance node, which the loader resolves,
             * so the loaded state's log holds that outcome and the reloaded one's does not. */
            kassen_buf doc = {NULL, 0}, again = {NULL, 0};
            uint8_t started = 0;
            CHECK_OK(kassen_state_started_at_position(p, &started));
            CHECK(started == 1);
            CHECK_OK(kassen_state_to_position_json(p, &doc));
            CHECK_OK(kassen_state_from_position_n((const uint8_t *)doc.data, doc.len, &q));
            CHECK_OK(kassen_state_to_position_json(q, &again));
            bool same = doc.len == again.len && memcmp(doc.data, again.data, doc.len) == 0;
            if (!same) {
                fprintf(stderr, "FAIL %s: the position does not round-trip\n", path);
            }
            CHECK(same);
            kassen_buf_free(&doc);
            kassen_buf_free(&again);
            kassen_state_free(q);
            play_out(p, (uint64_t)n + 1);
        } else {
            fprintf(stderr, "FAIL %s: %s\n", path, kassen_last_error_message());
            CHECK(false);
        }
        free(text);
        n++;
    }
    closedir(d);
    return n;
}

int main(void) {
    char ids[16][64];
    int n = registered_games(ids, 16);
    CHECK(n > 0);
    for (int i = 0; i < n; i++) {
        check_game(ids[i], n > 1 ? ids[(i + 1) % n] : NULL);
    }
    int files = 0;
    for (int i = 0; i < n; i++) {
        files += check_position_files(ids[i]);
    }
    CHECK(files > 0);
    CHECK(strcmp(kassen_status_name(KASSEN_STATUS_INVALID_POSITION), "KASSEN_STATUS_INVALID_POSITION") == 0);
    CHECK(KASSEN_STATUS_INVALID_POSITION == 306 && KASSEN_STATUS_POSITION_NOT_SUPPORTED == 307);
    return summary();
}
