/* SVG boards over the C ABI: every registered game draws its board for every seat and the
 * spectator during a random game, a view drawn through the game gives the same
 * document, and bad arguments are errors that leave *out unwritten. */
#include <stdbool.h>
#include <stdint.h>

#include "harness.h"

static bool is_svg(const kassen_buf *b) {
    return b->data != NULL && b->len > 100 && strncmp((const char *)b->data, "<svg ", 5) == 0 &&
           strstr((const char *)b->data, "</svg>") != NULL;
}

static void test_game(const char *id) {
    kassen_game *game = NULL;
    kassen_state *state = NULL;
    CHECK_OK(kassen_game_new(id, NULL, &game));
    CHECK_OK(kassen_state_new(game, 3, &state));
    if (game == NULL || state == NULL) return;
    uint32_t players = 0;
    CHECK_OK(kassen_game_num_players(game, &players));
    uint64_t rng = 0x9e3779b97f4a7c15ULL;
    uint32_t actions[8192];
    for (int step = 0; step < 60; step++) {
        uint8_t over = 1;
        CHECK_OK(kassen_state_is_terminal(state, &over));
        if (over) break;
        size_t n = 0;
        CHECK_OK(kassen_state_legal_actions(state, actions, 8192, &n));
        if (n == 0) break;
        CHECK_OK(kassen_state_apply_in_place(state, actions[rng_next(&rng) % n]));
    }
    for (int32_t p = -1; p < (int32_t)players; p++) {
        kassen_buf svg = {NULL, 0};
        kassen_buf view = {NULL, 0};
        kassen_buf again = {NULL, 0};
        CHECK_OK(kassen_state_render_svg(state, p, &svg));
        CHECK(is_svg(&svg));
        CHECK_OK(kassen_state_view_json(state, p, &view));
        CHECK(view.data != NULL && strstr((const char *)view.data, "\"body\"") != NULL);
        CHECK_OK(kassen_game_render_view_svg(game, (const char *)view.data, &again));
        CHECK(again.len == svg.len && memcmp(again.data, svg.data, svg.len) == 0);
        /* The _n variant: the same drawing from (pointer, length); a NUL inside is rejected. */
        kassen_buf by_len = {NULL, 0};
        CHECK_OK(kassen_game_render_view_svg_n(game, (const uint8_t *)view.data, view.len, &by_len));
        CHECK(by_len.len == svg.len && memcmp(by_len.data, svg.data, svg.len) == 0);
        kassen_buf_free(&by_len);
        if (view.len > 2) {
            char *cut = malloc(view.len);
            memcpy(cut, view.data, view.len);
            cut[view.len / 2] = '\0';
            CHECK_STATUS(kassen_game_render_view_svg_n(game, (const uint8_t *)cut, view.len, &by_len),
                         KASSEN_STATUS_INVALID_ARGUMENT);
            CHECK(by_len.data == NULL);
            free(cut);
        }
        kassen_buf_free(&svg);
        kassen_buf_free(&view);
        kassen_buf_free(&again);
    }
    kassen_buf page = {NULL, 0};
    CHECK_OK(kassen_state_replay_html(state, 0, &page));
    CHECK(page.data != NULL && strncmp((const char *)page.data, "<!doctype html>", 15) == 0);
    CHECK(page.data != NULL && strstr((const char *)page.data, "replay-data") != NULL);
    kassen_buf_free(&page);
    kassen_buf out = {NULL, 0};
    CHECK_STATUS(kassen_state_replay_html(state, -2, &out), KASSEN_STATUS_INVALID_PLAYER);
    CHECK_STATUS(kassen_state_render_svg(state, (int32_t)players, &out), KASSEN_STATUS_INVALID_PLAYER);
    CHECK(out.data == NULL);
    CHECK_STATUS(kassen_state_render_svg(NULL, 0, &out), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_render_svg(state, 0, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_game_render_view_svg(game, "{\"game\":", &out), KASSEN_STATUS_MALFORMED_JSON);
    CHECK_STATUS(kassen_game_render_view_svg(game, "[1, 2]", &out), KASSEN_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(kassen_game_render_view_svg(game, "{\"game\": \"no_such_game\", \"seats\": [], \"body\": {}}", &out),
                 KASSEN_STATUS_WRONG_GAME);
    CHECK_STATUS(kassen_game_render_view_svg(game, NULL, &out), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_game_render_view_svg_n(game, NULL, 3, &out), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_game_render_view_svg_n(game, (const uint8_t *)"{\"game\":", 8, &out), KASSEN_STATUS_MALFORMED_JSON);
    CHECK_STATUS(kassen_game_render_view_svg_n(game, (const uint8_t *)"\xff", 1, &out), KASSEN_STATUS_INVALID_UTF8);
    CHECK(out.data == NULL);
    kassen_state_free(state);
    kassen_game_free(game);
}

int main(void) {
    char ids[16][64];
    int n = registered_games(ids, 16);
    CHECK(n >= 4);
    for (int i = 0; i < n; i++) test_game(ids[i]);
    return summary();
}
