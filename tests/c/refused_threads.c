#define _POSIX_C_SOURCE 200809L
/* Run by run.sh in a process whose thread starts the system refuses (every thread the library
 * starts asks for RUST_MIN_STACK bytes of stack, more than the address-space limit allows): a
 * search is KASSEN_STATUS_THREADS_UNAVAILABLE, a resource error, not a panic, and nothing
 * reaches stderr (run.sh checks). Built without sanitizers, which need address space. */
#include "harness.h"

int main(void) {
    kassen_game *game = NULL;
    CHECK_OK(kassen_game_new("samurai", "{\"players\": 2}", &game));
    kassen_state *s = samurai_decision(game);
    for (int i = 0; i < 64; i++) {
        kassen_search *search = NULL;
        CHECK_STATUS(kassen_search_start(s, "{\"iterations\": 100, \"time_ms\": null, \"threads\": 4}", 1, &search),
                     KASSEN_STATUS_THREADS_UNAVAILABLE);
        CHECK(search == NULL);
    }
    CHECK(strstr(kassen_last_error_message(), "thread") != NULL);
    /* The state is untouched and a bot on the calling thread still decides. */
    kassen_bot *bot = NULL;
    CHECK_OK(kassen_bot_new("ismcts:50", 1, &bot));
    uint32_t a = 0;
    CHECK_OK(kassen_bot_choose(bot, s, &a));
    kassen_bot_free(bot);
    kassen_state_free(s);
    kassen_game_free(game);
    return summary();
}
