/* The frontend-friendly entry points: one call per step (kassen_state_apply_step), strings
 * with an explicit length (kassen_game_new_n, kassen_state_from_json_n) and uint8_t flags,
 * for every registered game. */
#include <stdint.h>

#include "harness.h"

#define CAP 65536

static uint32_t g_step_legal[CAP];
static uint32_t g_ref_legal[CAP];

/* Plays one game with kassen_state_apply_step beside a reference state stepped with
 * apply_in_place + current_player + legal_actions: both must agree at every step. */
static int play_by_steps(const char *id, uint64_t seed) {
    kassen_game *game = NULL;
    CHECK_OK(kassen_game_new_n((const uint8_t *)id, strlen(id), NULL, 0, &game));
    if (game == NULL) {
        return 0;
    }
    kassen_state *s = NULL, *ref = NULL;
    CHECK_OK(kassen_state_new(game, seed, &s));
    CHECK_OK(kassen_state_new(game, seed, &ref));
    size_t len = 0, ref_len = 0;
    CHECK_OK(kassen_state_legal_actions(s, g_step_legal, CAP, &len));
    uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + 7;
    int steps = 0;
    uint8_t terminal = 0;
    while (len > 0 && steps < 100000) {
        uint32_t a = g_step_legal[rng_next(&rng) % len];
        if (steps % 50 == 0) {
            /* Too small a buffer: BUFFER_TOO_SMALL, the required number, the state as it was. */
            uint64_t before = 0, after = 1;
            size_t need = 0;
            int32_t untouched = 77;
            CHECK_OK(kassen_state_hash(s, &before));
            kassen_status st = kassen_state_apply_step(s, a, &untouched, NULL, 0, &need);
            CHECK_OK(kassen_state_hash(s, &after));
            if (st == KASSEN_STATUS_BUFFER_TOO_SMALL) {
                CHECK(before == after && untouched == 77 && need > 0);
            } else {
                /* Only a step into a finished game needs no room; undo it on the reference. */
                CHECK(st == KASSEN_STATUS_OK && need == 0 && untouched == -4);
                kassen_state_free(s);
                CHECK_OK(kassen_state_clone(ref, &s));
            }
        }
        int32_t next = 99;
        CHECK_OK(kassen_state_apply_step(s, a, &next, g_step_legal, CAP, &len));
        CHECK_OK(kassen_state_apply_in_place(ref, a));
        int32_t ref_next = 98;
        CHECK_OK(kassen_state_current_player(ref, &ref_next));
        CHECK_OK(kassen_state_legal_actions(ref, g_ref_legal, CAP, &ref_len));
        CHECK(next == ref_next && len == ref_len);
        CHECK(len == 0 || memcmp(g_step_legal, g_ref_legal, len * sizeof *g_step_legal) == 0);
        steps++;
    }
    CHECK_OK(kassen_state_is_terminal(s, &terminal));
    CHECK(terminal == 1);
    uint8_t equal = 2;
    CHECK_OK(kassen_state_equal(s, ref, &equal));
    CHECK(equal == 1);
    /* A rejected step leaves the state alone and writes nothing. */
    int32_t next = 55;
    size_t n = 55;
    CHECK_STATUS(kassen_state_apply_step(s, 0, &next, g_step_legal, CAP, &n), KASSEN_STATUS_GAME_OVER);
    CHECK(next == 55 && n == 55);
    CHECK_STATUS(kassen_state_apply_step(s, 0, NULL, g_step_legal, CAP, &n), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_apply_step(s, 0, &next, NULL, 4, &n), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_apply_step(NULL, 0, &next, g_step_legal, CAP, &n), KASSEN_STATUS_NULL_POINTER);

    /* The saved game loads through the explicit-length variant. */
    kassen_buf json = {NULL, 0};
    kassen_state *loaded = NULL;
    CHECK_OK(kassen_state_to_json(s, &json));
    CHECK_OK(kassen_state_from_json_n((const uint8_t *)json.data, json.len, &loaded));
    CHECK_OK(kassen_state_equal(s, loaded, &equal));
    CHECK(equal == 1);
    kassen_state_free(loaded);
    kassen_buf_free(&json);

    kassen_state_free(s);
    kassen_state_free(ref);
    kassen_game_free(game);
    return steps;
}

/* A NUL inside a length-delimited string is rejected, never cut short. */
static void test_embedded_nul(void) {
    kassen_game *game = NULL;
    const char config[] = "{\"players\": 3}\0{\"players\": 2}";
    CHECK_STATUS(kassen_game_new_n((const uint8_t *)"samurai", 7, (const uint8_t *)config, sizeof config - 1, &game),
                 KASSEN_STATUS_INVALID_ARGUMENT);
    CHECK(game == NULL && strstr(kassen_last_error_message(), "NUL") != NULL);
    CHECK_STATUS(kassen_game_new_n((const uint8_t *)"samurai\0x", 9, NULL, 0, &game), KASSEN_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(kassen_state_from_json_n((const uint8_t *)"{}\0", 3, NULL), KASSEN_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(kassen_game_new_n(NULL, 3, NULL, 0, &game), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_game_new_n((const uint8_t *)"samurai", 7, NULL, 5, &game), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_game_new_n((const uint8_t *)"\xff", 1, NULL, 0, &game), KASSEN_STATUS_INVALID_UTF8);
    /* The same config without the tail gives 3 players; a string need not end in NUL. */
    CHECK_OK(kassen_game_new_n((const uint8_t *)"samurai!", 7, (const uint8_t *)config, strlen(config), &game));
    uint32_t n = 0;
    CHECK_OK(kassen_game_num_players(game, &n));
    CHECK(n == 3);
    kassen_game_free(game);
}

int main(void) {
    test_embedded_nul();
    char ids[32][64];
    int n = registered_games(ids, 32);
    CHECK(n >= 1);
    for (int g = 0; g < n; g++) {
        int steps = play_by_steps(ids[g], 5);
        fprintf(stderr, "%s: %d steps through kassen_state_apply_step\n", ids[g], steps);
        CHECK(steps > 0);
    }
    return summary();
}
