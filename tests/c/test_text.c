/* The text face through the C ABI on every registered game: the text observation names the
 * game and lists the seat's numbered legal moves where it acts; a move string, its number and
 * a JSON action read back as the move with kassen_state_parse_move(_n); an answer that names
 * no move fails with KASSEN_STATUS_UNREADABLE_MOVE, a message naming the options, the output
 * unwritten and the state unchanged; the rules primer is a non-empty text; bad arguments fail
 * without writing the output. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "harness.h"

#define MAX_ACTIONS 65536
#define STEPS 30

static uint32_t g_actions[MAX_ACTIONS];

static void check_moves_read_back(const kassen_state *s, int32_t seat) {
    size_t len = 0;
    CHECK_OK(kassen_state_legal_actions(s, g_actions, MAX_ACTIONS, &len));
    kassen_buf text = {NULL, 0};
    CHECK_OK(kassen_state_text_observation(s, seat, &text));
    CHECK(text.data != NULL && strstr(text.data, "## Your legal moves") != NULL);
    kassen_buf_free(&text);
    for (size_t i = 0; i < len && i < 12; i++) {
        kassen_buf name = {NULL, 0};
        CHECK_OK(kassen_state_action_to_string(s, g_actions[i], &name));
        uint32_t got = UINT32_MAX;
        CHECK_OK(kassen_state_parse_move(s, seat, name.data, &got));
        CHECK(got == g_actions[i]);
        char answer[128];
        snprintf(answer, sizeof answer, "I choose option %zu", i + 1);
        got = UINT32_MAX;
        CHECK_OK(kassen_state_parse_move_n(s, seat, (const uint8_t *)answer, strlen(answer), &got));
        /* A move named like the sentence could mean that move instead: only the number is checked. */
        if (strstr(name.data, "option") == NULL) {
            CHECK(got == g_actions[i]);
        }
        snprintf(answer, sizeof answer, "{\"id\": %u}", g_actions[i]);
        got = UINT32_MAX;
        CHECK_OK(kassen_state_parse_move(s, seat, answer, &got));
        CHECK(got == g_actions[i]);
        kassen_buf_free(&name);
    }
}

static void check_refusals(const kassen_state *s, int32_t seat, uint32_t players) {
    kassen_buf before = {NULL, 0}, after = {NULL, 0};
    CHECK_OK(kassen_state_to_json(s, &before));
    uint32_t got = 7;
    CHECK_STATUS(kassen_state_parse_move(s, seat, "xyzzy plugh frobnicate", &got), KASSEN_STATUS_UNREADABLE_MOVE);
    CHECK(got == 7);
    CHECK(strstr(kassen_last_error_message(), "1. ") != NULL);
    CHECK_STATUS(kassen_state_parse_move(s, seat, "", &got), KASSEN_STATUS_UNREADABLE_MOVE);
    CHECK_STATUS(kassen_state_parse_move(s, seat, "999999", &got), KASSEN_STATUS_UNREADABLE_MOVE);
    CHECK_STATUS(kassen_state_parse_move(s, (int32_t)players, "1", &got), KASSEN_STATUS_INVALID_PLAYER);
    if (players > 1) {
        CHECK_STATUS(kassen_state_parse_move(s, (seat + 1) % (int32_t)players, "1", &got), KASSEN_STATUS_NOT_YOUR_TURN);
    }
    CHECK_STATUS(kassen_state_parse_move(NULL, seat, "1", &got), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_parse_move(s, seat, NULL, &got), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_parse_move(s, seat, "1", NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_parse_move(s, seat, "\xff\xfe", &got), KASSEN_STATUS_INVALID_UTF8);
    CHECK_STATUS(kassen_state_parse_move_n(s, seat, (const uint8_t *)"1\0" "2", 3, &got), KASSEN_STATUS_INVALID_ARGUMENT);
    CHECK(got == 7);
    CHECK_OK(kassen_state_to_json(s, &after));
    CHECK(strcmp(before.data, after.data) == 0);
    kassen_buf_free(&before);
    kassen_buf_free(&after);
    kassen_buf text = {NULL, 0};
    CHECK_STATUS(kassen_state_text_observation(s, (int32_t)players, &text), KASSEN_STATUS_INVALID_PLAYER);
    CHECK_STATUS(kassen_state_text_observation(s, -2, &text), KASSEN_STATUS_INVALID_PLAYER);
    CHECK(text.data == NULL);
    CHECK_STATUS(kassen_state_text_observation(NULL, 0, &text), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_text_observation(s, 0, NULL), KASSEN_STATUS_NULL_POINTER);
}

int main(void) {
    char ids[32][64];
    int n = registered_games(ids, 32);
    CHECK(n >= 1);
    uint64_t rng = 0x7e47;
    for (int g = 0; g < n; g++) {
        kassen_game *game = NULL;
        kassen_state *s = NULL;
        uint32_t players = 0;
        CHECK_OK(kassen_game_new(ids[g], NULL, &game));
        CHECK_OK(kassen_game_num_players(game, &players));
        kassen_buf primer = {NULL, 0};
        CHECK_OK(kassen_game_rules_primer(game, &primer));
        CHECK(primer.data != NULL && primer.data[0] == '#' && primer.len > 1000);
        kassen_buf_free(&primer);
        CHECK_STATUS(kassen_game_rules_primer(NULL, &primer), KASSEN_STATUS_NULL_POINTER);
        CHECK_STATUS(kassen_game_rules_primer(game, NULL), KASSEN_STATUS_NULL_POINTER);
        CHECK_OK(kassen_state_new(game, 11, &s));
        for (int step = 0; step < STEPS; step++) {
            uint8_t over = 0;
            int32_t seat = 0;
            CHECK_OK(kassen_state_is_terminal(s, &over));
            if (over) {
                break;
            }
            CHECK_OK(kassen_state_current_player(s, &seat));
            kassen_buf spectator = {NULL, 0};
            CHECK_OK(kassen_state_text_observation(s, -1, &spectator));
            CHECK(spectator.data != NULL && spectator.data[0] == '#' && strstr(spectator.data, "spectator") != NULL);
            kassen_buf_free(&spectator);
            if (seat >= 0) {
                check_moves_read_back(s, seat);
                if (step % 10 == 0) {
                    check_refusals(s, seat, players);
                }
            }
            size_t len = 0;
            CHECK_OK(kassen_state_legal_actions(s, g_actions, MAX_ACTIONS, &len));
            CHECK_OK(kassen_state_apply_in_place(s, g_actions[rng_next(&rng) % len]));
        }
        kassen_state_free(s);
        kassen_game_free(game);
    }
    return summary();
}
