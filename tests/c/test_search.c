#define _POSIX_C_SOURCE 199309L
/* The IS-MCTS bots through the C ABI: bots by name, decisions with statistics, and the
 * non-blocking search (poll, stop, free during a search, the state freed under it), on every
 * registered game. Run under ASan/UBSan (run.sh) and valgrind (valgrind.sh). */
#include <time.h>

#include "harness.h"

static void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* A state of `id` after a few random moves, at a decision with two or more legal actions. */
static kassen_state *position(kassen_game *game, uint64_t seed) {
    kassen_state *s = NULL;
    CHECK_OK(kassen_state_new(game, seed, &s));
    uint32_t legal[8192];
    size_t n = 0;
    uint64_t rng = seed + 1;
    for (int i = 0; i < 200; i++) {
        uint8_t over = 0;
        kassen_state_is_terminal(s, &over);
        if (over || kassen_state_legal_actions(s, legal, 8192, &n) != KASSEN_STATUS_OK) break;
        if (i >= 20 && n >= 2) return s;
        kassen_state_apply_in_place(s, legal[rng_next(&rng) % n]);
    }
    return s;
}

static int is_legal(kassen_state *s, uint32_t a) {
    uint32_t legal[8192];
    size_t n = 0;
    if (kassen_state_legal_actions(s, legal, 8192, &n) != KASSEN_STATUS_OK) return 0;
    for (size_t i = 0; i < n; i++)
        if (legal[i] == a) return 1;
    return 0;
}

static void bots_by_name(const char *id) {
    kassen_game *game = NULL;
    CHECK_OK(kassen_game_new(id, NULL, &game));
    kassen_state *s = position(game, 5);
    kassen_bot *bot = NULL, *again = NULL;
    CHECK_OK(kassen_bot_new("ismcts:40", 9, &bot));
    CHECK_OK(kassen_bot_new_n((const uint8_t *)"ismcts:40", 9, 9, &again));
    kassen_buf before = {NULL, 0};
    CHECK_OK(kassen_bot_last_decision_json(bot, &before));
    CHECK(before.data && strcmp(before.data, "null") == 0);
    kassen_buf_free(&before);
    uint32_t a = 0, b = 1;
    CHECK_OK(kassen_bot_choose(bot, s, &a));
    CHECK_OK(kassen_bot_choose(again, s, &b));
    CHECK(a == b); /* an iteration budget without a time limit: deterministic */
    CHECK(is_legal(s, a));
    kassen_buf d = {NULL, 0};
    CHECK_OK(kassen_bot_last_decision_json(bot, &d));
    CHECK(d.data && strstr(d.data, "\"candidates\"") && strstr(d.data, "\"visits\""));
    CHECK(json_int(d.data, "action", -1) == (long)a);
    kassen_buf_free(&d);
    kassen_bot *bad = NULL;
    CHECK_STATUS(kassen_bot_new("ismcts:extreme", 1, &bad), KASSEN_STATUS_INVALID_CONFIG);
    CHECK_STATUS(kassen_bot_new(NULL, 1, &bad), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_bot_new_n((const uint8_t *)"random\0x", 8, 1, &bad), KASSEN_STATUS_INVALID_ARGUMENT);
    CHECK(bad == NULL);
    CHECK_STATUS(kassen_bot_last_decision_json(NULL, &d), KASSEN_STATUS_NULL_POINTER);
    kassen_bot_free(bot);
    kassen_bot_free(again);
    kassen_state_free(s);
    kassen_game_free(game);
}

static void background(const char *id) {
    kassen_game *game = NULL;
    CHECK_OK(kassen_game_new(id, NULL, &game));
    kassen_state *s = position(game, 7);

    /* A budget of iterations: runs to the end by itself; the same seed gives the same action
     * as the blocking bot with the same budget. */
    kassen_search *search = NULL;
    CHECK_OK(kassen_search_start(s, "{\"iterations\": 60, \"time_ms\": null}", 3, &search));
    kassen_search_progress p;
    memset(&p, 0, sizeof p);
    for (long i = 0; i < 600000 && !p.done; i++) {
        CHECK_OK(kassen_search_poll(search, &p));
        if (!p.done) sleep_ms(1);
    }
    CHECK(p.done == 1);
    uint32_t a = 0;
    CHECK_OK(kassen_search_wait(search, &a));
    CHECK(is_legal(s, a));
    kassen_buf r = {NULL, 0};
    CHECK_OK(kassen_search_result_json(search, &r));
    CHECK(r.data && json_int(r.data, "action", -1) == (long)a);
    /* Every candidate is explained in words (issue 34 item 4). */
    CHECK(strstr(r.data, "\"reason\":\"") != NULL && strstr(r.data, "\"reason\":null") == NULL);
    kassen_buf_free(&r);
    kassen_search_free(search);

    /* No iteration limit: stopped from outside; the state is freed while the search runs (it
     * searches its own copy). */
    kassen_state *copy = NULL;
    CHECK_OK(kassen_state_clone(s, &copy));
    CHECK_OK(kassen_search_start(copy, "{\"iterations\": null, \"time_ms\": 60000, \"threads\": 2}", 4, &search));
    kassen_state_free(copy);
    sleep_ms(30);
    CHECK_OK(kassen_search_poll(search, &p));
    CHECK(p.done == 0);
    CHECK_OK(kassen_search_stop(search));
    CHECK_OK(kassen_search_wait(search, &a));
    CHECK(is_legal(s, a));
    CHECK_OK(kassen_search_poll(search, &p));
    CHECK(p.done == 1 && p.best_action == (int64_t)a);
    kassen_search_free(search);

    /* Freed in the middle of a search: stops it and waits for its threads. */
    CHECK_OK(kassen_search_start_n(s, (const uint8_t *)"{\"level\": \"hard\", \"threads\": 2}", 31, 5, &search));
    sleep_ms(10);
    kassen_search_free(search);
    kassen_search_free(NULL);

    /* Bad input. */
    search = NULL;
    CHECK_STATUS(kassen_search_start(s, "{\"level\": \"extreme\"}", 1, &search), KASSEN_STATUS_INVALID_CONFIG);
    CHECK_STATUS(kassen_search_start(s, "{\"iterations\": 0}", 1, &search), KASSEN_STATUS_INVALID_CONFIG);
    CHECK_STATUS(kassen_search_start(s, "{\"threads\": 0}", 1, &search), KASSEN_STATUS_INVALID_CONFIG);
    CHECK_STATUS(kassen_search_start(s, "{\"colour\": 1}", 1, &search), KASSEN_STATUS_INVALID_CONFIG);
    CHECK_STATUS(kassen_search_start(s, "[1", 1, &search), KASSEN_STATUS_INVALID_CONFIG);
    CHECK_STATUS(kassen_search_start(NULL, NULL, 1, &search), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_search_start(s, NULL, 1, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK(search == NULL);
    CHECK_STATUS(kassen_search_poll(NULL, &p), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_search_stop(NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_search_wait(NULL, &a), KASSEN_STATUS_NULL_POINTER);
    kassen_state_free(s);
    kassen_game_free(game);
}

int main(void) {
    char ids[16][64];
    int n = registered_games(ids, 16);
    CHECK(n >= 4);
    kassen_buf specs = {NULL, 0};
    CHECK_OK(kassen_bots_json(&specs));
    CHECK(specs.data && strstr(specs.data, "\"ismcts:hard\"") && strstr(specs.data, "\"random\""));
    kassen_buf_free(&specs);
    for (int g = 0; g < n; g++) {
        bots_by_name(ids[g]);
        background(ids[g]);
    }
    return summary();
}
