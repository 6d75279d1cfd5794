/* Huge documents through the C ABI (issue 37.3, 37.7): a saved state or position document
 * longer than 16 MiB, or one whose array is longer than its game can hold (8 M zeros in 15 MB),
 * fails with KASSEN_STATUS_DOCUMENT_TOO_LARGE on every loading route before it is parsed, for
 * every registered game; a long finished game still saves and reloads; and an error message
 * that quotes a 10 MB argument stays short. */
#include <stdbool.h>
#include <stdint.h>

#include "harness.h"

#define MAX_ACTIONS 65536
#define ZEROS 8000000

static uint32_t g_legal[MAX_ACTIONS];

/* A new NUL-terminated string: head, `n` copies of `unit`, then tail. */
static char *repeat(const char *head, const char *unit, size_t n, const char *tail) {
    size_t h = strlen(head), u = strlen(unit), t = strlen(tail);
    char *s = malloc(h + u * n + t + 1);
    if (s == NULL) {
        return NULL;
    }
    memcpy(s, head, h);
    for (size_t i = 0; i < n; i++) {
        memcpy(s + h + i * u, unit, u);
    }
    memcpy(s + h + u * n, tail, t + 1);
    return s;
}

/* The rules_version of a game, copied into `out` (at most `cap` bytes). */
static bool rules_version(const kassen_game *g, char *out, size_t cap) {
    kassen_buf b = {NULL, 0};
    if (kassen_game_info_json(g, &b) != KASSEN_STATUS_OK) {
        return false;
    }
    const char *p = strstr(b.data, "\"rules_version\":\"");
    const char *end = p ? strchr(p + 17, '"') : NULL;
    bool ok = end != NULL && (size_t)(end - (p + 17)) < cap;
    if (ok) {
        memcpy(out, p + 17, (size_t)(end - (p + 17)));
        out[end - (p + 17)] = '\0';
    }
    kassen_buf_free(&b);
    return ok;
}

/* Every loading route refuses `text` with DOCUMENT_TOO_LARGE and writes no state. */
static void check_too_large(const kassen_game *g, const char *text) {
    kassen_state *s = NULL;
    size_t len = strlen(text);
    CHECK_STATUS(kassen_state_from_position(text, &s), KASSEN_STATUS_DOCUMENT_TOO_LARGE);
    CHECK_STATUS(kassen_state_from_position_n((const uint8_t *)text, len, &s), KASSEN_STATUS_DOCUMENT_TOO_LARGE);
    CHECK_STATUS(kassen_game_load_position(g, text, &s), KASSEN_STATUS_DOCUMENT_TOO_LARGE);
    CHECK_STATUS(kassen_game_load_position_n(g, (const uint8_t *)text, len, &s), KASSEN_STATUS_DOCUMENT_TOO_LARGE);
    CHECK_STATUS(kassen_state_from_json(text, &s), KASSEN_STATUS_DOCUMENT_TOO_LARGE);
    CHECK_STATUS(kassen_state_from_json_n((const uint8_t *)text, len, &s), KASSEN_STATUS_DOCUMENT_TOO_LARGE);
    CHECK(s == NULL);
    CHECK(strlen(kassen_last_error_message()) < 1100);
}

static void check_game(const char *id) {
    kassen_game *g = NULL;
    CHECK_OK(kassen_game_new(id, NULL, &g));
    if (g == NULL) {
        return;
    }
    char rules[256];
    CHECK(rules_version(g, rules, sizeof rules));
    char head[512];
    /* 8 M zeros in one array: 15 MB, under the 16 MiB cap, far longer than any array a
     * document of the game holds. */
    int w = snprintf(head, sizeof head,
                     "{\"format\":\"kassen-position-1\",\"game\":\"%s\",\"rules_version\":\"%s\",\"config\":{},"
                     "\"seed\":0,\"position\":[",
                     id, rules);
    CHECK(w > 0 && (size_t)w < sizeof head);
    char *zeros = repeat(head, "0,", ZEROS - 1, "0]}");
    CHECK(zeros != NULL && strlen(zeros) > 15000000 && strlen(zeros) < (16u << 20));
    if (zeros != NULL) {
        check_too_large(g, zeros);
    }
    free(zeros);
    w = snprintf(head, sizeof head,
                 "{\"format\":\"kassen.state/1\",\"game\":\"%s\",\"rules_version\":\"%s\",\"config\":{},"
                 "\"seed\":0,\"history\":[",
                 id, rules);
    CHECK(w > 0 && (size_t)w < sizeof head);
    zeros = repeat(head, "0,", ZEROS - 1, "0]}");
    if (zeros != NULL) {
        check_too_large(g, zeros);
    }
    free(zeros);

    /* A finished game saves and reloads. */
    kassen_state *s = NULL;
    CHECK_OK(kassen_state_new(g, 7, &s));
    uint64_t rng = 0x9e3779b97f4a7c15ULL;
    uint8_t over = 0;
    size_t n = 0;
    while (s != NULL && kassen_state_is_terminal(s, &over) == KASSEN_STATUS_OK && !over &&
           kassen_state_legal_actions(s, g_legal, MAX_ACTIONS, &n) == KASSEN_STATUS_OK && n > 0) {
        CHECK_OK(kassen_state_apply_in_place(s, g_legal[rng_next(&rng) % n]));
    }
    CHECK(over);
    kassen_buf saved = {NULL, 0};
    CHECK_OK(kassen_state_to_json(s, &saved));
    kassen_state *back = NULL;
    CHECK_OK(kassen_state_from_json_n((const uint8_t *)saved.data, saved.len, &back));
    kassen_buf_free(&saved);
    kassen_state_free(back);
    kassen_state_free(s);
    kassen_game_free(g);
}

int main(void) {
    char ids[16][64];
    int n = registered_games(ids, 16);
    CHECK(n > 0);
    kassen_game *g = NULL;
    CHECK_OK(kassen_game_new(n > 0 ? ids[0] : "samurai", NULL, &g));
    /* Past 16 MiB, whatever the text: a 19 MB position. */
    char *big = repeat("{\"format\":\"kassen-position-1\",\"pad\":\"", "x", 19000000, "\"}");
    CHECK(big != NULL);
    if (big != NULL && g != NULL) {
        check_too_large(g, big);
        /* A config of 19 MB is refused as a config, with a short message. */
        kassen_game *none = NULL;
        CHECK_STATUS(kassen_game_new("samurai", big, &none), KASSEN_STATUS_INVALID_CONFIG);
        CHECK(none == NULL && strlen(kassen_last_error_message()) < 1100);
    }
    free(big);
    kassen_game_free(g);
    for (int i = 0; i < n; i++) {
        check_game(ids[i]);
    }
    /* An error message quoting a 10 MB argument is cut (issue 37.7). */
    char *id = repeat("", "x", 10000000, "");
    kassen_game *none = NULL;
    CHECK(id != NULL);
    if (id != NULL) {
        CHECK_STATUS(kassen_game_new(id, NULL, &none), KASSEN_STATUS_UNKNOWN_GAME);
        CHECK(none == NULL);
        size_t len = strlen(kassen_last_error_message());
        CHECK(len > 0 && len < 1100);
    }
    free(id);
    CHECK(KASSEN_STATUS_DOCUMENT_TOO_LARGE == 308);
    CHECK(strcmp(kassen_status_name(KASSEN_STATUS_DOCUMENT_TOO_LARGE), "KASSEN_STATUS_DOCUMENT_TOO_LARGE") == 0);
    return summary();
}
