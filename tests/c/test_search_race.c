#define _POSIX_C_SOURCE 200809L
/* kassen_search_poll, _stop, _wait and _result_json on one search from several threads at
 * once (the header allows it): a poll loop, two waiters and the main thread. Every call
 * succeeds; a poll during a wait answers "running" or "done" with the chosen action; every
 * waiter gets the same action. run.sh runs it under ASan/UBSan, tsan.sh under
 * ThreadSanitizer. */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "harness.h"

static void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

struct shared {
    kassen_search *search;
    /* Written by each thread before it ends, read by main after joining it. */
    int poll_failures;
    long polls;
    /* Set by the poller when it sees the search running; main stops the search only after
     * that, so a poll during the search happens however late the poller thread starts. */
    atomic_int saw_running;
    kassen_search_progress last;
    uint32_t waited[2];
    kassen_status wait_status[2];
    kassen_status json_status;
    long json_action;
};

static void *poller(void *arg) {
    struct shared *sh = arg;
    kassen_search_progress p;
    memset(&p, 0, sizeof p);
    for (;;) {
        if (kassen_search_poll(sh->search, &p) != KASSEN_STATUS_OK) sh->poll_failures++;
        sh->polls++;
        if (!p.done) atomic_store(&sh->saw_running, 1);
        if (p.done) break;
    }
    sh->last = p;
    return NULL;
}

static void *waiter0(void *arg) {
    struct shared *sh = arg;
    sh->wait_status[0] = kassen_search_wait(sh->search, &sh->waited[0]);
    return NULL;
}

static void *waiter1(void *arg) {
    struct shared *sh = arg;
    sh->wait_status[1] = kassen_search_wait(sh->search, &sh->waited[1]);
    kassen_buf r = {NULL, 0};
    sh->json_status = kassen_search_result_json(sh->search, &r);
    sh->json_action = r.data ? json_int(r.data, "action", -1) : -1;
    kassen_buf_free(&r);
    return NULL;
}

int main(void) {
    kassen_game *game = NULL;
    CHECK_OK(kassen_game_new("samurai", "{\"players\": 2}", &game));
    kassen_state *s = samurai_decision(game);
    for (int round = 0; round < 3; round++) {
        struct shared sh;
        memset(&sh, 0, sizeof sh);
        CHECK_OK(kassen_search_start(s, "{\"iterations\": null, \"time_ms\": 600000, \"threads\": 2}", (uint64_t)round,
                                     &sh.search));
        pthread_t t[3];
        CHECK(pthread_create(&t[0], NULL, poller, &sh) == 0);
        CHECK(pthread_create(&t[1], NULL, waiter0, &sh) == 0);
        CHECK(pthread_create(&t[2], NULL, waiter1, &sh) == 0);
        kassen_search_progress p;
        memset(&p, 0, sizeof p);
        for (long i = 0; i < 600000 && (p.iterations < 300 || !atomic_load(&sh.saw_running)); i++) {
            CHECK_OK(kassen_search_poll(sh.search, &p));
            sleep_ms(1);
        }
        CHECK_OK(kassen_search_stop(sh.search));
        for (int i = 0; i < 3; i++) CHECK(pthread_join(t[i], NULL) == 0);
        CHECK(sh.poll_failures == 0);
        CHECK(atomic_load(&sh.saw_running) == 1);
        CHECK(sh.wait_status[0] == KASSEN_STATUS_OK && sh.wait_status[1] == KASSEN_STATUS_OK);
        CHECK(sh.waited[0] == sh.waited[1]);
        CHECK(sh.json_status == KASSEN_STATUS_OK && sh.json_action == (long)sh.waited[0]);
        CHECK(sh.last.done == 1 && sh.last.best_action == (int64_t)sh.waited[0]);
        uint32_t again = 0;
        CHECK_OK(kassen_search_wait(sh.search, &again));
        CHECK(again == sh.waited[0]);
        kassen_search_free(sh.search);
    }
    kassen_state_free(s);
    kassen_game_free(game);
    return summary();
}
