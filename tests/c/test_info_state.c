/* The information-state key through the C ABI: every registered game, random legal actions;
 * the hash is stable across repeated calls, clones and save/load, differs between seats, and
 * the JSON form is an object; bad arguments fail without writing the output. */
#include <stdbool.h>
#include <stdint.h>

#include "harness.h"

#define MAX_ACTIONS 65536
#define STEPS 40

static uint32_t g_actions[MAX_ACTIONS];

/* The key of `player` in `s`, in a clone and in a reloaded copy must agree. */
static uint64_t key_everywhere(const kassen_state *s, int32_t player) {
    uint64_t k1 = 0, k2 = 1, k3 = 2, k4 = 3;
    kassen_state *copy = NULL, *loaded = NULL;
    kassen_buf json = {NULL, 0};
    CHECK_OK(kassen_state_info_state_hash(s, player, &k1));
    CHECK_OK(kassen_state_info_state_hash(s, player, &k2));
    CHECK(k1 == k2);
    CHECK_OK(kassen_state_clone(s, &copy));
    CHECK_OK(kassen_state_info_state_hash(copy, player, &k3));
    CHECK(k1 == k3);
    CHECK_OK(kassen_state_to_json(s, &json));
    CHECK_OK(kassen_state_from_json(json.data, &loaded));
    CHECK_OK(kassen_state_info_state_hash(loaded, player, &k4));
    CHECK(k1 == k4);
    kassen_buf text = {NULL, 0};
    CHECK_OK(kassen_state_info_state_json(s, player, &text));
    CHECK(text.data != NULL && text.data[0] == '{' && strstr(text.data, "\"events\"") != NULL);
    kassen_buf_free(&text);
    kassen_buf_free(&json);
    kassen_state_free(loaded);
    kassen_state_free(copy);
    return k1;
}

static void check_bad_arguments(const kassen_state *s, uint32_t num_players) {
    uint64_t key = 42;
    kassen_buf text = {NULL, 0};
    CHECK_STATUS(kassen_state_info_state_hash(s, (int32_t)num_players, &key), KASSEN_STATUS_INVALID_PLAYER);
    CHECK_STATUS(kassen_state_info_state_hash(s, -2, &key), KASSEN_STATUS_INVALID_PLAYER);
    CHECK(key == 42);
    CHECK_STATUS(kassen_state_info_state_hash(NULL, 0, &key), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_info_state_hash(s, 0, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_info_state_json(s, (int32_t)num_players, &text), KASSEN_STATUS_INVALID_PLAYER);
    CHECK(text.data == NULL);
    CHECK_STATUS(kassen_state_info_state_json(NULL, 0, &text), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_info_state_json(s, 0, NULL), KASSEN_STATUS_NULL_POINTER);
}

int main(void) {
    char ids[32][64];
    int n = registered_games(ids, 32);
    CHECK(n >= 1);
    uint64_t rng = 0x1f0c0de;
    for (int g = 0; g < n; g++) {
        kassen_game *game = NULL;
        kassen_state *s = NULL;
        uint32_t players = 0;
        CHECK_OK(kassen_game_new(ids[g], NULL, &game));
        CHECK_OK(kassen_game_num_players(game, &players));
        CHECK_OK(kassen_state_new(game, 7, &s));
        check_bad_arguments(s, players);
        uint64_t first = 0, last = 0;
        for (int step = 0; step < STEPS; step++) {
            uint64_t keys[9];
            for (int32_t p = -1; p < (int32_t)players && p < 8; p++) {
                keys[p + 1] = key_everywhere(s, p);
                for (int32_t q = -1; q < p; q++) {
                    CHECK(keys[q + 1] != keys[p + 1]); /* the seat is part of its key */
                }
            }
            if (step == 0) {
                first = keys[0];
            }
            last = keys[0];
            uint8_t over = 0;
            size_t len = 0;
            CHECK_OK(kassen_state_is_terminal(s, &over));
            if (over) {
                break;
            }
            CHECK_OK(kassen_state_legal_actions(s, g_actions, MAX_ACTIONS, &len));
            CHECK_OK(kassen_state_apply_in_place(s, g_actions[rng_next(&rng) % len]));
        }
        /* Forty steps in, the public record has grown: the spectator's key moved on. */
        CHECK(first != last);
        kassen_state_free(s);
        kassen_game_free(game);
    }
    return summary();
}
