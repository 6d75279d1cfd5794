/*
 * Random playouts through the C ABI of kassen (include/kassen.h), one core, no threads.
 * The same two passes as the Rust bench (core/benches/playouts.rs):
 *   1. throughput: uniformly random games back to back for KASSEN_BENCH_SECONDS (default 1)
 *      seconds; each step asks kassen_state_is_terminal, fills the legal actions and applies
 *      one. Steps = player actions + the chance outcomes the engine resolves itself (taken
 *      from the length of the action log at the end of each game);
 *   2. per call: 200 seeded random games are recorded and replayed; at every state
 *      current_player, legal_actions and observation_tensor are timed over blocks of repeated
 *      calls, apply_in_place over each whole game.
 *
 * Usage: bench [GAME_ID CONFIG_JSON]...   (default: samurai with 2, 3 and 4 players, sekigahara,
 *        three_kingdoms_redux, sekigahara_daisakusen)
 * Prints JSON on stdout, progress on stderr.
 *
 * Build: cc -O2 -std=c11 -Iinclude bench/c/bench.c target/release/libkassen.a -lpthread -ldl -lm
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kassen.h"

#define REPS_CURRENT_PLAYER 256
#define REPS_LEGAL 16
#define REPS_TENSOR 4
#define RECORDED_GAMES 200

#define CHECK(call)                                                                        \
    do {                                                                                   \
        kassen_status st_ = (call);                                                        \
        if (st_ != KASSEN_STATUS_OK) {                                                     \
            fprintf(stderr, "%s:%d: %s failed with status %d: %s\n", __FILE__, __LINE__, \
                    #call, (int)st_, kassen_last_error_message());                         \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

/* SplitMix64: the bench's own RNG for choosing actions. */
static uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint32_t rng_below(uint64_t *s, uint32_t n) {
    return (uint32_t)(((rng_next(s) >> 32) * (uint64_t)n) >> 32);
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

static size_t history_len(const kassen_state *s) {
    size_t len = 0;
    kassen_status st = kassen_state_history(s, NULL, 0, &len);
    if (st != KASSEN_STATUS_OK && st != KASSEN_STATUS_BUFFER_TOO_SMALL) {
        fprintf(stderr, "kassen_state_history failed with status %d: %s\n", (int)st, kassen_last_error_message());
        exit(1);
    }
    return len;
}

static int is_terminal(const kassen_state *s) {
    uint8_t t = 0;
    CHECK(kassen_state_is_terminal(s, &t));
    return t;
}

/* Plays one random game; appends its actions to *out (if not NULL). Returns player steps. */
static uint64_t random_game(const kassen_game *g, uint64_t seed, uint64_t *rng, uint32_t *legal, size_t cap,
                            uint64_t *total_steps, uint32_t **out, size_t *out_len) {
    kassen_state *s = NULL;
    CHECK(kassen_state_new(g, seed, &s));
    uint64_t steps = 0;
    size_t out_cap = 0;
    while (!is_terminal(s)) {
        size_t n = 0;
        CHECK(kassen_state_legal_actions(s, legal, cap, &n));
        uint32_t a = legal[rng_below(rng, (uint32_t)n)];
        CHECK(kassen_state_apply_in_place(s, a));
        if (out) {
            if (*out_len == out_cap) {
                out_cap = out_cap ? 2 * out_cap : 256;
                uint32_t *grown = realloc(*out, out_cap * sizeof **out);
                if (!grown) {
                    fprintf(stderr, "out of memory\n");
                    exit(1);
                }
                *out = grown;
            }
            (*out)[(*out_len)++] = a;
        }
        steps++;
    }
    if (total_steps) *total_steps += history_len(s);
    kassen_state_free(s);
    return steps;
}

static void bench_config(const char *id, const char *config, double budget, int first) {
    kassen_game *g = NULL;
    CHECK(kassen_game_new(id, config, &g));
    uint32_t num_actions = 0;
    size_t obs_len = 0;
    CHECK(kassen_game_num_distinct_actions(g, &num_actions));
    CHECK(kassen_game_observation_len(g, &obs_len));
    uint32_t players = 0;
    CHECK(kassen_game_num_players(g, &players));
    uint32_t *legal = xmalloc(num_actions * sizeof *legal);
    float *tensor = xmalloc(obs_len * sizeof *tensor);

    /* 1. throughput */
    uint64_t rng = 0xbe9c, games = 0, player_steps = 0, total_steps = 0, seed = 0;
    double t0 = now(), seconds = 0;
    for (;;) {
        player_steps += random_game(g, seed++, &rng, legal, num_actions, &total_steps, NULL, NULL);
        games++;
        if (games % 64 == 0 && (seconds = now() - t0) >= budget) break;
    }

    /* 2. per call */
    uint32_t *rec[RECORDED_GAMES];
    size_t rec_len[RECORDED_GAMES];
    for (int i = 0; i < RECORDED_GAMES; i++) {
        uint64_t r = (1000000u + (uint64_t)i) ^ 0x5eed;
        rec[i] = NULL;
        rec_len[i] = 0;
        random_game(g, 1000000u + (uint64_t)i, &r, legal, num_actions, NULL, &rec[i], &rec_len[i]);
    }
    double t_apply = 0, t_cp = 0, t_legal = 0, t_tensor = 0;
    uint64_t applies = 0, states = 0;
    for (int i = 0; i < RECORDED_GAMES; i++) {
        kassen_state *s = NULL;
        CHECK(kassen_state_new(g, 1000000u + (uint64_t)i, &s));
        double t = now();
        for (size_t k = 0; k < rec_len[i]; k++) CHECK(kassen_state_apply_in_place(s, rec[i][k]));
        t_apply += now() - t;
        applies += rec_len[i];
        kassen_state_free(s);
    }
    volatile int32_t sink = 0;
    for (int i = 0; i < RECORDED_GAMES; i++) {
        kassen_state *s = NULL;
        CHECK(kassen_state_new(g, 1000000u + (uint64_t)i, &s));
        for (size_t k = 0; k < rec_len[i]; k++) {
            int32_t seat = 0;
            double t = now();
            for (int r = 0; r < REPS_CURRENT_PLAYER; r++) {
                CHECK(kassen_state_current_player(s, &seat));
                sink += seat;
            }
            t_cp += now() - t;
            t = now();
            for (int r = 0; r < REPS_LEGAL; r++) {
                size_t n = 0;
                CHECK(kassen_state_legal_actions(s, legal, num_actions, &n));
                sink += (int32_t)n;
            }
            t_legal += now() - t;
            t = now();
            for (int r = 0; r < REPS_TENSOR; r++) {
                size_t n = 0;
                CHECK(kassen_state_observation_tensor(s, seat, tensor, obs_len, &n));
                sink += (int32_t)n;
            }
            t_tensor += now() - t;
            CHECK(kassen_state_apply_in_place(s, rec[i][k]));
            states++;
        }
        kassen_state_free(s);
        free(rec[i]);
    }
    (void)sink;

    double ns_cp = 1e9 * t_cp / (double)(states * REPS_CURRENT_PLAYER);
    double ns_legal = 1e9 * t_legal / (double)(states * REPS_LEGAL);
    double ns_tensor = 1e9 * t_tensor / (double)(states * REPS_TENSOR);
    double ns_apply = 1e9 * t_apply / (double)applies;
    fprintf(stderr, "%-8s %-16s %12.0f steps/s %12.0f player steps/s %9.0f games/s %8.2f us/game | ns: cur %.1f legal %.1f apply %.1f obs %.1f\n",
            id, config, (double)total_steps / seconds, (double)player_steps / seconds, (double)games / seconds,
            1e6 * seconds / (double)games, ns_cp, ns_legal, ns_apply, ns_tensor);
    printf("%s\n    {\"game\": \"%s\", \"config\": %s, \"players\": %u, \"games\": %llu, \"seconds\": %.6f,\n"
           "     \"player_steps\": %llu, \"chance_steps\": %llu, \"total_steps\": %llu,\n"
           "     \"steps_per_sec\": %.1f, \"player_steps_per_sec\": %.1f, \"games_per_sec\": %.2f, \"us_per_game\": %.3f,\n"
           "     \"ns_per_call\": {\"current_player\": %.2f, \"legal_actions\": %.2f, \"apply_action\": %.2f, \"observation_tensor\": %.2f},\n"
           "     \"per_call_states\": %llu}",
           first ? "" : ",", id, config, players, (unsigned long long)games, seconds, (unsigned long long)player_steps,
           (unsigned long long)(total_steps - player_steps), (unsigned long long)total_steps, (double)total_steps / seconds,
           (double)player_steps / seconds, (double)games / seconds, 1e6 * seconds / (double)games, ns_cp, ns_legal, ns_apply,
           ns_tensor, (unsigned long long)states);
    free(legal);
    free(tensor);
    kassen_game_free(g);
}

int main(int argc, char **argv) {
    static const char *defaults[] = {"samurai", "{\"players\": 2}", "samurai", "{\"players\": 3}",
                                     "samurai", "{\"players\": 4}", "sekigahara", "{}",
                                     "three_kingdoms_redux", "{}", "sekigahara_daisakusen", "{}"};
    const char **pairs = (const char **)(argv + 1);
    int n = argc - 1;
    if (n == 0) {
        pairs = defaults;
        n = (int)(sizeof defaults / sizeof defaults[0]);
    }
    if (n % 2 != 0) {
        fprintf(stderr, "usage: %s [GAME_ID CONFIG_JSON]...\n", argv[0]);
        return 2;
    }
    const char *env = getenv("KASSEN_BENCH_SECONDS");
    double budget = env ? atof(env) : 1.0;
    if (budget <= 0) budget = 1.0;
    printf("{\n  \"surface\": \"c\",\n  \"kassen_version\": \"%s\",\n  \"threads\": 1,\n  \"seconds_per_config\": %g,\n"
           "  \"method\": \"same passes as the Rust bench, through include/kassen.h; the bench's own SplitMix64 picks actions\",\n"
           "  \"results\": [",
           kassen_version(), budget);
    for (int i = 0; i < n; i += 2) bench_config(pairs[i], pairs[i + 1], budget, i == 0);
    printf("\n  ]\n}\n");
    return 0;
}
