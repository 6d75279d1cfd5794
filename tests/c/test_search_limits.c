#define _POSIX_C_SOURCE 199309L
/* The bounds of a search through the C ABI: the node budget (the result says when the tree is
 * full), the caps of budgets shared by search parameters and bot specs
 * (KASSEN_STATUS_CONFIG_OUT_OF_RANGE), and a parameter given twice (refused). */
#include <time.h>

#include "harness.h"

static void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static void node_budget(kassen_state *s) {
    /* A tiny budget: the search does every iteration, the tree stops at the budget. */
    kassen_search *search = NULL;
    CHECK_OK(kassen_search_start(s, "{\"iterations\": 2000, \"time_ms\": null, \"max_nodes\": 30, \"threads\": 2}", 1, &search));
    kassen_buf r = {NULL, 0};
    CHECK_OK(kassen_search_result_json(search, &r));
    CHECK(r.data && json_int(r.data, "iterations", -1) == 2000);
    CHECK(r.data && json_int(r.data, "nodes", -1) >= 1 && json_int(r.data, "nodes", -1) <= 30);
    CHECK(r.data && strstr(r.data, "\"tree_full\":true"));
    kassen_buf_free(&r);
    kassen_search_free(search);

    /* The largest iteration budget with a small node budget: stopped after many times more
     * iterations than nodes, the tree still within its budget. */
    CHECK_OK(kassen_search_start(s, "{\"iterations\": 1000000000, \"time_ms\": null, \"max_nodes\": 100}", 1, &search));
    kassen_search_progress p;
    memset(&p, 0, sizeof p);
    for (long i = 0; i < 600000 && p.iterations < 3000; i++) {
        CHECK_OK(kassen_search_poll(search, &p));
        sleep_ms(1);
    }
    CHECK(p.iterations >= 3000 && p.done == 0);
    CHECK_OK(kassen_search_stop(search));
    CHECK_OK(kassen_search_result_json(search, &r));
    CHECK(r.data && json_int(r.data, "nodes", -1) <= 100 && strstr(r.data, "\"tree_full\":true"));
    kassen_buf_free(&r);
    kassen_search_free(search);
}

static void caps(kassen_state *s) {
    static const char *over[] = {
        "{\"iterations\": 1000000001}", "{\"iterations\": 1000000000000000}", "{\"iterations\": 1e30}",
        "{\"time_ms\": 86400001}",      "{\"max_nodes\": 1000000001}",
    };
    kassen_search *search = NULL;
    for (size_t i = 0; i < sizeof over / sizeof over[0]; i++) {
        CHECK_STATUS(kassen_search_start(s, over[i], 1, &search), KASSEN_STATUS_CONFIG_OUT_OF_RANGE);
    }
    CHECK(search == NULL);
    CHECK_STATUS(kassen_search_start(s, "{\"max_nodes\": 0}", 1, &search), KASSEN_STATUS_INVALID_CONFIG);
    /* A key given twice is refused, not read as one of its values. */
    CHECK_STATUS(kassen_search_start(s, "{\"iterations\": 5, \"iterations\": 100000000}", 1, &search),
                 KASSEN_STATUS_INVALID_CONFIG);
    CHECK(strstr(kassen_last_error_message(), "twice") != NULL);
    CHECK(search == NULL);

    static const char *spec_over[] = {"ismcts:4294967295", "ismcts:easy@4294967295ms", "ismcts@86400001ms",
                                      "monte_carlo@86400001ms"};
    kassen_bot *bot = NULL;
    for (size_t i = 0; i < sizeof spec_over / sizeof spec_over[0]; i++) {
        CHECK_STATUS(kassen_bot_new(spec_over[i], 1, &bot), KASSEN_STATUS_CONFIG_OUT_OF_RANGE);
    }
    CHECK(bot == NULL);
    CHECK_OK(kassen_bot_new("ismcts:1000000000", 1, &bot));
    kassen_bot_free(bot);
    CHECK(strcmp(kassen_status_name(8), "KASSEN_STATUS_THREADS_UNAVAILABLE") == 0);
}

int main(void) {
    kassen_game *game = NULL;
    CHECK_OK(kassen_game_new("samurai", "{\"players\": 2}", &game));
    kassen_state *s = samurai_decision(game);
    node_budget(s);
    caps(s);
    kassen_state_free(s);
    kassen_game_free(game);
    return summary();
}
