/* A bounded random fuzz of every entry point of kassen.h, run under ASan/UBSan by run.sh and
 * under valgrind by valgrind.sh: random games, states, action ids, seats, buffer sizes, NULL
 * pointers and damaged JSON texts. Whatever comes in, each call returns a known status, a
 * failed call writes no output and leaves the state as it was, and a successful one writes
 * what it promises. KASSEN_C_FUZZ sets the number of calls (default 20000). */
#include <stdbool.h>
#include <stdint.h>

#include "harness.h"

#define POOL 6
#define CAP 8192

static uint64_t g_rng = 0x6b617373656e;

static uint64_t pick(uint64_t n) { return n ? rng_next(&g_rng) % n : 0; }

static bool known_status(kassen_status s) { return strncmp(kassen_status_name((int32_t)s), "KASSEN_STATUS_", 14) == 0; }

/* A random action id: mostly legal or small, sometimes anything. */
static uint32_t any_action(const kassen_state *s) {
    uint32_t ids[CAP];
    size_t n = 0;
    switch (pick(4)) {
    case 0:
        if (kassen_state_legal_actions(s, ids, CAP, &n) == KASSEN_STATUS_OK && n > 0) {
            return ids[pick(n)];
        }
        return 0;
    case 1: return (uint32_t)pick(8000);
    case 2: return UINT32_MAX - (uint32_t)pick(3);
    default: return (uint32_t)rng_next(&g_rng);
    }
}

static int32_t any_player(void) {
    static const int32_t odd[] = {-1, -2, -4, 4, 5, 31, 32, INT32_MAX, INT32_MIN};
    return pick(2) ? (int32_t)pick(4) : odd[pick(sizeof odd / sizeof odd[0])];
}

/* A JSON text to load: a real save or config, damaged at random. */
static void damaged(char *text, size_t cap, const char *from) {
    size_t len = strlen(from);
    if (len >= cap) {
        len = cap - 1;
    }
    memcpy(text, from, len);
    text[len] = '\0';
    int edits = (int)pick(4);
    for (int i = 0; i < edits && len > 0; i++) {
        size_t at = pick(len);
        switch (pick(3)) {
        case 0: text[at] = (char)(1 + pick(255)); break; /* any byte but NUL */
        case 1: text[at] = '\0'; len = at; break;        /* cut */
        default: text[at] = "{}[]\",:0e-"[pick(10)]; break;
        }
    }
}

/* Checks that a failed mutation left `s` as it was. */
static void same_as(const kassen_state *s, uint64_t hash, const kassen_buf *json) {
    uint64_t h = 0;
    kassen_buf now = {NULL, 0};
    CHECK_OK(kassen_state_hash(s, &h));
    CHECK(h == hash);
    CHECK_OK(kassen_state_to_json(s, &now));
    CHECK(now.len == json->len && memcmp(now.data, json->data, now.len) == 0);
    kassen_buf_free(&now);
}

int main(void) {
    const char *env = getenv("KASSEN_C_FUZZ");
    long calls = env ? strtol(env, NULL, 10) : 20000;
    char ids[32][64];
    int ngames = registered_games(ids, 32);
    CHECK(ngames >= 1);
    kassen_game *games[32] = {NULL};
    for (int g = 0; g < ngames; g++) {
        CHECK_OK(kassen_game_new(ids[g], NULL, &games[g]));
    }
    kassen_state *pool[POOL] = {NULL};
    for (int i = 0; i < POOL; i++) {
        CHECK_OK(kassen_state_new(games[i % ngames], (uint64_t)i, &pool[i]));
    }
    static uint32_t u32s[CAP];
    static uint8_t u8s[CAP];
    static float floats[CAP * 4];
    static double doubles[CAP];
    static char text[1 << 17];
    for (long call = 0; call < calls; call++) {
        kassen_state *s = pool[pick(POOL)];
        kassen_state *const sentinel = (kassen_state *)&g_rng;
        kassen_state *out = sentinel;
        kassen_buf b = {NULL, 0};
        size_t len = 7777;
        size_t cap = pick(3) ? pick(CAP) : pick(4);
        kassen_status st;
        switch (pick(16)) {
        case 0: { /* apply in place, or as a player; a failure changes nothing */
            uint64_t h = 0;
            kassen_buf before = {NULL, 0};
            CHECK_OK(kassen_state_hash(s, &h));
            CHECK_OK(kassen_state_to_json(s, &before));
            st = pick(2) ? kassen_state_apply_in_place(s, any_action(s)) : kassen_state_apply_as(s, any_player(), any_action(s));
            CHECK(known_status(st) && st != KASSEN_STATUS_PANIC);
            if (st != KASSEN_STATUS_OK) {
                same_as(s, h, &before);
            }
            kassen_buf_free(&before);
            break;
        }
        case 1:
            st = kassen_state_apply(pick(8) ? s : NULL, any_action(s), pick(8) ? &out : NULL);
            CHECK(known_status(st) && st != KASSEN_STATUS_PANIC);
            CHECK((st == KASSEN_STATUS_OK) == (out != sentinel));
            if (st == KASSEN_STATUS_OK) {
                kassen_state_free(out);
            }
            break;
        case 2:
            st = kassen_state_legal_actions(s, pick(8) ? u32s : NULL, cap, &len);
            CHECK(known_status(st));
            CHECK(st != KASSEN_STATUS_OK || len <= cap);
            CHECK(st != KASSEN_STATUS_BUFFER_TOO_SMALL || len > cap);
            break;
        case 3:
            st = kassen_state_legal_actions_mask(s, pick(8) ? u8s : NULL, cap, &len);
            CHECK(known_status(st) && (st != KASSEN_STATUS_OK || len <= cap));
            break;
        case 4:
            st = kassen_state_observation_tensor(s, any_player(), pick(8) ? floats : NULL, pick(2) ? cap * 4 : cap, &len);
            CHECK(known_status(st));
            break;
        case 5:
            st = kassen_state_chance_outcomes(s, u32s, pick(8) ? doubles : NULL, cap, &len);
            CHECK(known_status(st));
            st = kassen_state_returns(s, doubles, cap, pick(8) ? &len : NULL);
            CHECK(known_status(st));
            st = kassen_state_history(s, pick(8) ? u32s : NULL, cap, &len);
            CHECK(known_status(st));
            break;
        case 6:
            st = pick(2) ? kassen_state_view_json(s, any_player(), pick(8) ? &b : NULL)
                         : kassen_state_events_since_json(s, any_player(), pick(3) ? pick(40) : rng_next(&g_rng), &b);
            CHECK(known_status(st) && (st == KASSEN_STATUS_OK) == (b.data != NULL));
            kassen_buf_free(&b);
            break;
        case 7:
            st = pick(2) ? kassen_state_action_to_string(s, any_action(s), &b) : kassen_state_action_to_json(s, any_action(s), &b);
            CHECK(known_status(st) && (st == KASSEN_STATUS_OK) == (b.data != NULL));
            kassen_buf_free(&b);
            break;
        case 8: { /* a damaged save of some state */
            kassen_buf save = {NULL, 0};
            CHECK_OK(kassen_state_to_json(pool[pick(POOL)], &save));
            damaged(text, sizeof text, save.data);
            kassen_buf_free(&save);
            st = kassen_state_from_json(pick(16) ? text : NULL, &out);
            CHECK(known_status(st) && st != KASSEN_STATUS_PANIC);
            CHECK((st == KASSEN_STATUS_OK) == (out != sentinel));
            if (st == KASSEN_STATUS_OK) {
                kassen_state_free(out);
            }
            break;
        }
        case 9: { /* a damaged config */
            static const char *configs[] = {"{\"players\": 3}", "{\"players\": -1, \"explicit_chance\": true}",
                                            "{\"data\": {\"schema\": 1}}", "[]", "{\"explicit_chance\": false}"};
            kassen_game *g = (kassen_game *)sentinel;
            damaged(text, sizeof text, configs[pick(5)]);
            st = kassen_game_new(pick(8) ? ids[pick((uint64_t)ngames)] : "no_such_game", pick(8) ? text : NULL, &g);
            CHECK(known_status(st) && st != KASSEN_STATUS_PANIC);
            CHECK((st == KASSEN_STATUS_OK) == (g != (kassen_game *)sentinel));
            if (st == KASSEN_STATUS_OK) {
                kassen_game_free(g);
            }
            break;
        }
        case 10: { /* replace a pool state: new, clone or a fresh game */
            int i = (int)pick(POOL);
            st = pick(2) ? kassen_state_clone(pool[pick(POOL)], &out)
                         : kassen_state_new(games[pick((uint64_t)ngames)], rng_next(&g_rng), &out);
            CHECK(st == KASSEN_STATUS_OK);
            if (st == KASSEN_STATUS_OK) {
                kassen_state_free(pool[i]);
                pool[i] = out;
            }
            break;
        }
        case 11: {
            uint8_t eq = 0;
            uint64_t h = 0;
            int32_t p = 0;
            CHECK_OK(kassen_state_equal(s, pool[pick(POOL)], &eq));
            CHECK_OK(kassen_state_hash(s, &h));
            CHECK_OK(kassen_state_current_player(s, &p));
            CHECK_OK(kassen_state_is_terminal(s, &eq));
            CHECK(kassen_state_equal(NULL, s, &eq) == KASSEN_STATUS_NULL_POINTER);
            break;
        }
        case 12: {
            kassen_game *g = NULL;
            uint32_t n = 0;
            CHECK_OK(kassen_state_game(s, &g));
            CHECK_OK(kassen_game_num_players(g, &n));
            CHECK_OK(kassen_game_num_distinct_actions(g, &n));
            CHECK_OK(kassen_game_observation_len(g, &len));
            CHECK_OK(kassen_game_info_json(g, &b));
            kassen_buf_free(&b);
            kassen_game_free(g);
            break;
        }
        case 13:
            CHECK(kassen_status_name((int32_t)rng_next(&g_rng)) != NULL);
            CHECK(kassen_version() != NULL && kassen_last_error_message() != NULL);
            CHECK_OK(kassen_games_json(&b));
            kassen_buf_free(&b);
            break;
        default: { /* play on: a legal action, so games reach their end */
            uint32_t a = 0;
            size_t n = 0;
            if (kassen_state_legal_actions(s, u32s, CAP, &n) == KASSEN_STATUS_OK && n > 0) {
                a = u32s[pick(n)];
                CHECK_OK(kassen_state_apply_in_place(s, a));
            }
            break;
        }
        }
    }
    for (int i = 0; i < POOL; i++) {
        kassen_state_free(pool[i]);
    }
    for (int g = 0; g < ngames; g++) {
        kassen_game_free(games[g]);
    }
    printf("fuzz: %ld calls\n", calls);
    return summary();
}
