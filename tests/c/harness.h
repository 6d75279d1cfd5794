/* A tiny test harness for the C tests of kassen: CHECK counts, the summary line is
 * "N passed, M failed". Uses nothing but the C standard library. */
#ifndef KASSEN_TEST_HARNESS_H
#define KASSEN_TEST_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kassen.h"

static int g_passed = 0;
static int g_failed = 0;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (cond) {                                                                  \
            g_passed++;                                                              \
        } else {                                                                     \
            g_failed++;                                                              \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

/* Checks a status; on mismatch also prints the names and the last error message. */
#define CHECK_STATUS(call, expected)                                                     \
    do {                                                                                 \
        kassen_status got_ = (call);                                                     \
        if (got_ == (expected)) {                                                        \
            g_passed++;                                                                  \
        } else {                                                                         \
            g_failed++;                                                                  \
            fprintf(stderr, "%s:%d: %s returned %s, expected %s (%s)\n", __FILE__,       \
                    __LINE__, #call, kassen_status_name((int32_t)got_),                  \
                    kassen_status_name((int32_t)(expected)), kassen_last_error_message()); \
        }                                                                                \
    } while (0)

#define CHECK_OK(call) CHECK_STATUS(call, KASSEN_STATUS_OK)

/* A small deterministic PRNG for choosing actions (xorshift64*). */
static inline uint64_t rng_next(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

static inline int summary(void) {
    printf("%d passed, %d failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}

/* The registered game ids, scanned from kassen_games_json ("id":"..."). Returns the count;
 * ids are written to ids[i] (NUL-terminated, at most 63 chars). */
static inline int registered_games(char ids[][64], int max) {
    kassen_buf b = {NULL, 0};
    int n = 0;
    if (kassen_games_json(&b) != KASSEN_STATUS_OK) {
        return -1;
    }
    const char *p = b.data;
    while (n < max && (p = strstr(p, "\"id\":\"")) != NULL) {
        p += 6;
        const char *end = strchr(p, '"');
        size_t len = end ? (size_t)(end - p) : 0;
        if (len == 0 || len > 63) {
            break;
        }
        memcpy(ids[n], p, len);
        ids[n][len] = '\0';
        n++;
        p = end;
    }
    kassen_buf_free(&b);
    return n;
}

/* The integer after "key": in a JSON text, or `fallback`. */
static inline long json_int(const char *json, const char *key, long fallback) {
    char pat[80];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(json, pat);
    return p ? strtol(p + strlen(pat), NULL, 10) : fallback;
}

/* A two-player Samurai state (seed 3) at the first decision with two or more legal actions:
 * the position the search tests start from. */
static inline kassen_state *samurai_decision(kassen_game *game) {
    kassen_state *s = NULL;
    CHECK_OK(kassen_state_new(game, 3, &s));
    uint32_t legal[8192];
    size_t n = 0;
    for (int i = 0; i < 100; i++) {
        int32_t p = 0;
        kassen_state_current_player(s, &p);
        if (kassen_state_legal_actions(s, legal, 8192, &n) != KASSEN_STATUS_OK) break;
        if (p >= 0 && n >= 2) break;
        kassen_state_apply_in_place(s, legal[0]);
    }
    return s;
}

#endif /* KASSEN_TEST_HARNESS_H */
