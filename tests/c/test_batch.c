/* kassen_batch: episodes of every registered game stepped in batches, the same results for
 * any thread count, the same games as single states, the legal-id lists agreeing with the
 * masks, and the error paths. */
#include <stdbool.h>
#include <stdint.h>

#include "harness.h"

#define NUM_ENVS 4

/* Buffers of one batch, sized from its dims. */
typedef struct {
    kassen_batch_dims d;
    kassen_batch_out out;
} buffers;

static void alloc_buffers(const kassen_batch *b, buffers *x) {
    memset(x, 0, sizeof *x);
    CHECK_OK(kassen_batch_get_dims(b, &x->d));
    size_t n = x->d.num_envs, obs = n * x->d.obs_len;
    if (x->d.obs_uint8) {
        x->out.obs_u8 = calloc(obs, 1);
    } else {
        x->out.obs_f32 = calloc(obs, sizeof(float));
    }
    x->out.obs_len = obs;
    x->out.mask = calloc(n * x->d.num_actions, 1);
    x->out.mask_len = n * x->d.num_actions;
    x->out.player = calloc(n, sizeof(int32_t));
    x->out.player_len = n;
    x->out.rewards = calloc(n * x->d.num_players, sizeof(float));
    x->out.rewards_len = n * x->d.num_players;
    x->out.terminated = calloc(n, 1);
    x->out.terminated_len = n;
    x->out.truncated = calloc(n, 1);
    x->out.truncated_len = n;
    x->out.final_returns = calloc(n * x->d.num_players, sizeof(float));
    x->out.final_returns_len = n * x->d.num_players;
    x->out.episode_len = calloc(n, sizeof(uint32_t));
    x->out.episode_len_len = n;
    x->out.legal_count = calloc(n, sizeof(uint32_t));
    x->out.legal_count_len = n;
    x->out.legal_ids = calloc(n * x->d.max_legal_actions, sizeof(uint32_t));
    x->out.legal_ids_len = n * x->d.max_legal_actions;
}

static void free_buffers(buffers *x) {
    free(x->out.obs_f32);
    free(x->out.obs_u8);
    free(x->out.mask);
    free(x->out.player);
    free(x->out.rewards);
    free(x->out.terminated);
    free(x->out.truncated);
    free(x->out.final_returns);
    free(x->out.episode_len);
    free(x->out.legal_count);
    free(x->out.legal_ids);
}

static bool same_outputs(const buffers *a, const buffers *b) {
    size_t n = a->d.num_envs, p = a->d.num_players;
    bool obs = a->d.obs_uint8 ? memcmp(a->out.obs_u8, b->out.obs_u8, a->out.obs_len) == 0
                              : memcmp(a->out.obs_f32, b->out.obs_f32, a->out.obs_len * sizeof(float)) == 0;
    return obs && memcmp(a->out.mask, b->out.mask, a->out.mask_len) == 0 &&
           memcmp(a->out.player, b->out.player, n * sizeof(int32_t)) == 0 &&
           memcmp(a->out.rewards, b->out.rewards, n * p * sizeof(float)) == 0 &&
           memcmp(a->out.terminated, b->out.terminated, n) == 0 && memcmp(a->out.truncated, b->out.truncated, n) == 0 &&
           memcmp(a->out.final_returns, b->out.final_returns, n * p * sizeof(float)) == 0 &&
           memcmp(a->out.episode_len, b->out.episode_len, n * sizeof(uint32_t)) == 0 &&
           memcmp(a->out.legal_count, b->out.legal_count, n * sizeof(uint32_t)) == 0;
}

/* A random legal action of every env, from the legal-id lists, which must list exactly the
 * ids set in the mask, ascending. */
static void pick(const buffers *x, uint32_t *actions, uint64_t *rng) {
    for (size_t i = 0; i < x->d.num_envs; i++) {
        const uint8_t *m = x->out.mask + i * x->d.num_actions;
        const uint32_t *ids = x->out.legal_ids + i * x->d.max_legal_actions;
        size_t legal = 0;
        for (size_t a = 0; a < x->d.num_actions; a++) legal += m[a];
        CHECK(legal > 0 && legal == x->out.legal_count[i] && legal <= x->d.max_legal_actions);
        for (size_t j = 0; j < legal && j < x->d.max_legal_actions; j++) {
            CHECK(ids[j] < x->d.num_actions && m[ids[j]] == 1 && (j == 0 || ids[j - 1] < ids[j]));
        }
        actions[i] = legal ? ids[rng_next(rng) % legal] : 0;
    }
}

/* Steps a 1-thread and a 2-thread batch side by side until every env ended an episode,
 * checking env 0's first episode against a single state. */
static void episodes(const char *id, const char *options1, const char *options2, bool single_agent) {
    kassen_game *game = NULL;
    CHECK_OK(kassen_game_new(id, NULL, &game));
    kassen_batch *b1 = NULL, *b2 = NULL;
    CHECK_OK(kassen_batch_new(game, options1, &b1));
    CHECK_OK(kassen_batch_new(game, options2, &b2));
    if (b1 == NULL || b2 == NULL) {
        kassen_batch_free(b1);
        kassen_batch_free(b2);
        kassen_game_free(game);
        return;
    }
    buffers x1, x2;
    alloc_buffers(b1, &x1);
    alloc_buffers(b2, &x2);
    CHECK(x1.d.num_envs == NUM_ENVS);
    CHECK_OK(kassen_batch_reset(b1, NULL, &x1.out));
    CHECK_OK(kassen_batch_reset(b2, NULL, &x2.out));
    CHECK(same_outputs(&x1, &x2));
    kassen_state *single = NULL;
    CHECK_OK(kassen_state_new(game, kassen_batch_episode_seed(7, 0, 0), &single));
    uint8_t *mask = malloc(x1.d.num_actions);
    uint32_t actions[NUM_ENVS];
    uint64_t rng = 99;
    int ended[NUM_ENVS] = {0}, all_ended = 0, terminated = 0;
    long steps = 0;
    for (; steps < 200000 && !all_ended; steps++) {
        if (single != NULL && !single_agent) {
            size_t len = 0;
            int32_t p = 0;
            CHECK_OK(kassen_state_legal_actions_mask(single, mask, x1.d.num_actions, &len));
            CHECK(memcmp(mask, x1.out.mask, len) == 0);
            CHECK_OK(kassen_state_current_player(single, &p));
            CHECK(p == x1.out.player[0]);
            if (x1.d.obs_compact) {
                /* The batch's default observation is the state's compact observation. */
                size_t clen = 0, got = 0;
                CHECK_OK(kassen_game_compact_len(game, &clen));
                uint8_t *obs = malloc(clen);
                CHECK_OK(kassen_state_compact_observation(single, p >= 0 ? p : -1, obs, clen, &got));
                CHECK(got == clen && clen == x1.d.obs_len && memcmp(obs, x1.out.obs_u8, clen) == 0);
                free(obs);
            }
        }
        pick(&x1, actions, &rng);
        CHECK_OK(kassen_batch_step(b1, actions, NUM_ENVS, &x1.out));
        CHECK_OK(kassen_batch_step(b2, actions, NUM_ENVS, &x2.out));
        if (!same_outputs(&x1, &x2)) {
            CHECK(!"1 and 2 threads differ");
            break;
        }
        if (single != NULL && !single_agent) {
            CHECK_OK(kassen_state_apply_in_place(single, actions[0]));
        }
        all_ended = 1;
        for (int i = 0; i < NUM_ENVS; i++) {
            if (x1.out.terminated[i] || x1.out.truncated[i]) {
                CHECK(x1.out.episode_len[i] > 0);
                ended[i]++;
                terminated += x1.out.terminated[i];
                if (i == 0 && single != NULL) {
                    uint8_t done = 0;
                    CHECK_OK(kassen_state_is_terminal(single, &done));
                    CHECK(single_agent || done == (x1.out.terminated[0] == 1));
                    kassen_state_free(single);
                    single = NULL;
                }
            }
            all_ended &= ended[i] > 0;
        }
    }
    CHECK(all_ended);
    printf("%s (%s): every env ended an episode within %ld steps, %d by the rules\n", id, options1, steps, terminated);
    kassen_state_free(single);
    free(mask);
    free_buffers(&x1);
    free_buffers(&x2);
    kassen_batch_free(b1);
    kassen_batch_free(b2);
    kassen_game_free(game);
}

static void errors(void) {
    kassen_game *game = NULL;
    kassen_batch *b = NULL;
    CHECK_OK(kassen_game_new("samurai", NULL, &game));
    CHECK_STATUS(kassen_batch_new(NULL, "{\"num_envs\": 2}", &b), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_batch_new(game, NULL, &b), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_batch_new(game, "{\"num_envs\": 2}", NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_batch_new(game, "{\"num_envs\": ", &b), KASSEN_STATUS_INVALID_CONFIG);
    CHECK_STATUS(kassen_batch_new(game, "{}", &b), KASSEN_STATUS_INVALID_CONFIG);
    CHECK_STATUS(kassen_batch_new(game, "{\"num_envs\": 2, \"colour\": 1}", &b), KASSEN_STATUS_UNKNOWN_CONFIG_KEY);
    CHECK_STATUS(kassen_batch_new(game, "{\"num_envs\": 0}", &b), KASSEN_STATUS_CONFIG_OUT_OF_RANGE);
    CHECK_STATUS(kassen_batch_new(game, "{\"num_envs\": 2, \"obs_seat\": 9}", &b), KASSEN_STATUS_CONFIG_OUT_OF_RANGE);
    CHECK_STATUS(kassen_batch_new(game, "{\"num_envs\": 2, \"opponent\": \"nobody\"}", &b), KASSEN_STATUS_INVALID_CONFIG);
    CHECK_STATUS(kassen_batch_new(game, "{\"num_envs\": 2, \"opponent\": \"monte_carlo:0\"}", &b), KASSEN_STATUS_INVALID_CONFIG);
    /* Hostile sizes are checked against their documented bounds before any allocation
     * (issue 24.1); a learner seat the game lacks is refused without an opponent too (24.5). */
    CHECK_STATUS(kassen_batch_new(game, "{\"num_envs\": 4294967295}", &b), KASSEN_STATUS_CONFIG_OUT_OF_RANGE);
    CHECK_STATUS(kassen_batch_new(game, "{\"num_envs\": 65537}", &b), KASSEN_STATUS_CONFIG_OUT_OF_RANGE);
    CHECK_STATUS(kassen_batch_new(game, "{\"num_envs\": 18446744073709551615}", &b), KASSEN_STATUS_CONFIG_OUT_OF_RANGE);
    CHECK_STATUS(kassen_batch_new(game, "{\"num_envs\": 2, \"threads\": 4294967295}", &b), KASSEN_STATUS_CONFIG_OUT_OF_RANGE);
    CHECK_STATUS(kassen_batch_new(game, "{\"num_envs\": 2, \"learner_seat\": 9}", &b), KASSEN_STATUS_CONFIG_OUT_OF_RANGE);
    CHECK(b == NULL);
    /* kassen_batch_new_n: the options with their length; a NUL inside is rejected, never cut
     * short, and the string need not end in one. */
    const char opts[] = "{\"num_envs\": 3, \"seed\": 5}\0{\"num_envs\": 0}";
    CHECK_STATUS(kassen_batch_new_n(game, (const uint8_t *)opts, sizeof opts - 1, &b), KASSEN_STATUS_INVALID_ARGUMENT);
    CHECK(b == NULL && strstr(kassen_last_error_message(), "NUL") != NULL);
    CHECK_STATUS(kassen_batch_new_n(game, NULL, 4, &b), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_batch_new_n(game, NULL, 0, &b), KASSEN_STATUS_INVALID_CONFIG); /* "" is not JSON */
    CHECK_STATUS(kassen_batch_new_n(game, (const uint8_t *)"\xff", 1, &b), KASSEN_STATUS_INVALID_UTF8);
    CHECK_STATUS(kassen_batch_new_n(NULL, (const uint8_t *)opts, strlen(opts), &b), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_batch_new_n(game, (const uint8_t *)"{\"num_envs\": 0}", 15, &b), KASSEN_STATUS_CONFIG_OUT_OF_RANGE);
    CHECK(b == NULL);
    kassen_batch *by_len = NULL;
    CHECK_OK(kassen_batch_new_n(game, (const uint8_t *)opts, strlen(opts), &by_len));
    kassen_batch_dims dims_n;
    memset(&dims_n, 0, sizeof dims_n);
    CHECK_OK(kassen_batch_get_dims(by_len, &dims_n));
    CHECK(dims_n.num_envs == 3);
    CHECK_OK(kassen_batch_new(game, "{\"num_envs\": 3, \"seed\": 5}", &b));
    buffers x;
    alloc_buffers(b, &x);
    CHECK_OK(kassen_batch_reset(b, NULL, &x.out));
    uint32_t actions[3];
    uint64_t rng = 1;
    pick(&x, actions, &rng);
    uint8_t *before = malloc(x.out.mask_len);
    memcpy(before, x.out.mask, x.out.mask_len);
    CHECK_STATUS(kassen_batch_step(NULL, actions, 3, &x.out), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_batch_step(b, NULL, 3, &x.out), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_batch_step(b, actions, 3, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_batch_step(b, actions, 2, &x.out), KASSEN_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(kassen_last_error_message(), "actions") != NULL);
    x.out.mask_len--;
    CHECK_STATUS(kassen_batch_step(b, actions, 3, &x.out), KASSEN_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(kassen_last_error_message(), "mask") != NULL);
    x.out.mask_len++;
    uint8_t *mask = x.out.mask;
    x.out.mask = NULL;
    CHECK_STATUS(kassen_batch_step(b, actions, 3, &x.out), KASSEN_STATUS_NULL_POINTER);
    x.out.mask = mask;
    /* The default observation is the compact one: bytes in obs_u8, obs_f32 NULL. */
    CHECK(x.d.obs_uint8 == 1 && x.d.obs_compact == 1 && x.out.obs_f32 == NULL);
    uint8_t *obs = x.out.obs_u8;
    x.out.obs_u8 = mask;
    CHECK_STATUS(kassen_batch_step(b, actions, 3, &x.out), KASSEN_STATUS_INVALID_ARGUMENT);
    /* A float buffer beside the bytes is refused. */
    x.out.obs_u8 = obs;
    x.out.obs_f32 = x.out.rewards;
    CHECK_STATUS(kassen_batch_step(b, actions, 3, &x.out), KASSEN_STATUS_INVALID_ARGUMENT);
    x.out.obs_f32 = NULL;
    /* A NULL observation buffer is the documented NULL_POINTER (issue 24.5). */
    x.out.obs_u8 = NULL;
    CHECK_STATUS(kassen_batch_step(b, actions, 3, &x.out), KASSEN_STATUS_NULL_POINTER);
    CHECK(strstr(kassen_last_error_message(), "obs_u8") != NULL);
    x.out.obs_u8 = obs;
    /* A misaligned buffer is refused, not written through (issue 24.5). */
    float *misaligned = malloc(x.out.rewards_len * sizeof(float) + 1);
    float *rewards = x.out.rewards;
    x.out.rewards = (float *)(void *)((char *)misaligned + 1);
    CHECK_STATUS(kassen_batch_step(b, actions, 3, &x.out), KASSEN_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(kassen_last_error_message(), "aligned") != NULL);
    x.out.rewards = rewards;
    free(misaligned);
    /* One buffer passed as two outputs, or an output over the actions, is refused. */
    uint32_t *episode_len = x.out.episode_len;
    x.out.episode_len = (uint32_t *)(void *)x.out.player;
    CHECK_STATUS(kassen_batch_step(b, actions, 3, &x.out), KASSEN_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(kassen_last_error_message(), "overlap") != NULL);
    x.out.episode_len = episode_len;
    uint8_t *terminated = x.out.terminated;
    x.out.terminated = x.out.mask + 1;
    CHECK_STATUS(kassen_batch_step(b, actions, 3, &x.out), KASSEN_STATUS_INVALID_ARGUMENT);
    x.out.terminated = terminated;
    CHECK_STATUS(kassen_batch_step(b, x.out.legal_count, 3, &x.out), KASSEN_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(kassen_last_error_message(), "actions") != NULL);
    CHECK(memcmp(before, x.out.mask, x.out.mask_len) == 0);
    uint32_t *ids = x.out.legal_ids;
    x.out.legal_ids = NULL;
    CHECK_STATUS(kassen_batch_step(b, actions, 3, &x.out), KASSEN_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(kassen_last_error_message(), "legal") != NULL);
    x.out.legal_ids = ids;
    x.out.legal_ids_len--;
    CHECK_STATUS(kassen_batch_step(b, actions, 3, &x.out), KASSEN_STATUS_INVALID_ARGUMENT);
    x.out.legal_ids_len++;
    uint32_t bad[3] = {actions[0], actions[1], actions[2]};
    for (uint32_t a = 0; a < x.d.num_actions; a++) {
        if (!x.out.mask[x.d.num_actions + a]) {
            bad[1] = a;
            break;
        }
    }
    CHECK_STATUS(kassen_batch_step(b, bad, 3, &x.out), KASSEN_STATUS_ILLEGAL_ACTION);
    CHECK(strstr(kassen_last_error_message(), "env 1") != NULL);
    bad[1] = (uint32_t)x.d.num_actions;
    CHECK_STATUS(kassen_batch_step(b, bad, 3, &x.out), KASSEN_STATUS_ACTION_OUT_OF_RANGE);
    CHECK(memcmp(before, x.out.mask, x.out.mask_len) == 0);
    /* The legal-id lists are optional. */
    uint32_t *count = x.out.legal_count;
    x.out.legal_count = NULL;
    x.out.legal_ids = NULL;
    CHECK_OK(kassen_batch_step(b, actions, 3, &x.out));
    x.out.legal_count = count;
    x.out.legal_ids = ids;
    uint64_t seed = 5;
    CHECK_OK(kassen_batch_reset(b, &seed, &x.out));
    CHECK(memcmp(before, x.out.mask, x.out.mask_len) == 0);
    CHECK_STATUS(kassen_batch_get_dims(b, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_batch_reset(NULL, NULL, &x.out), KASSEN_STATUS_NULL_POINTER);
    /* The batch made from the same options by length steps identically. */
    buffers y;
    alloc_buffers(by_len, &y);
    CHECK_OK(kassen_batch_reset(by_len, &seed, &y.out));
    CHECK(same_outputs(&x, &y));
    free_buffers(&y);
    kassen_batch_free(by_len);
    free(before);
    free_buffers(&x);
    kassen_batch_free(b);
    kassen_batch_free(NULL);
    kassen_game_free(game);
}

/* The built-in bots play whole games; rollouts are deterministic and reach the end. */
static void bots(const char *id) {
    kassen_game *game = NULL;
    kassen_state *s = NULL;
    kassen_bot *rnd = NULL, *mc = NULL;
    CHECK_OK(kassen_game_new(id, NULL, &game));
    CHECK_OK(kassen_state_new(game, 3, &s));
    CHECK_OK(kassen_bot_new_random(1, &rnd));
    CHECK_OK(kassen_bot_new_monte_carlo(2, 2, &mc));
    CHECK_STATUS(kassen_bot_new_monte_carlo(2, 0, &mc), KASSEN_STATUS_INVALID_ARGUMENT);
    uint32_t n = 0;
    CHECK_OK(kassen_game_num_players(game, &n));
    double r1[8], r2[8];
    size_t len = 0;
    CHECK_STATUS(kassen_state_random_rollouts(s, 5, 2, r1, 1, &len), KASSEN_STATUS_BUFFER_TOO_SMALL);
    CHECK(len == 2 * n);
    CHECK_OK(kassen_state_random_rollouts(s, 5, 2, r1, 8, &len));
    CHECK(len == 2 * n);
    CHECK_OK(kassen_state_random_rollouts(s, 5, 2, r2, 8, &len));
    CHECK(memcmp(r1, r2, len * sizeof(double)) == 0);
    CHECK_STATUS(kassen_state_random_rollouts(NULL, 5, 2, r2, 8, &len), KASSEN_STATUS_NULL_POINTER);
    uint8_t done = 0;
    int steps = 0;
    while (!done && steps < 100000) {
        uint32_t a = 0;
        /* The Monte Carlo bot decides the first two moves (it is slow), the random bot the rest. */
        CHECK_OK(kassen_bot_choose(steps < 2 ? mc : rnd, s, &a));
        CHECK_OK(kassen_state_apply_in_place(s, a));
        CHECK_OK(kassen_state_is_terminal(s, &done));
        steps++;
    }
    CHECK(done);
    uint32_t a = 0;
    CHECK_STATUS(kassen_bot_choose(rnd, s, &a), KASSEN_STATUS_GAME_OVER);
    CHECK_STATUS(kassen_bot_choose(NULL, s, &a), KASSEN_STATUS_NULL_POINTER);
    kassen_bot_free(rnd);
    kassen_bot_free(mc);
    kassen_bot_free(NULL);
    kassen_state_free(s);
    kassen_game_free(game);
}

/* A mask buffer written over between calls (as a new buffer at the address of a freed one
 * would be) is written in full after kassen_batch_forget_mask: the same mask as a batch that
 * stepped into an untouched buffer. */
static void forget_mask(const char *id) {
    kassen_game *game = NULL;
    CHECK_OK(kassen_game_new(id, NULL, &game));
    const char *options = "{\"num_envs\": 4, \"seed\": 3, \"threads\": 2}";
    kassen_batch *b1 = NULL, *b2 = NULL;
    CHECK_OK(kassen_batch_new(game, options, &b1));
    CHECK_OK(kassen_batch_new(game, options, &b2));
    buffers x1, x2;
    alloc_buffers(b1, &x1);
    alloc_buffers(b2, &x2);
    CHECK_OK(kassen_batch_reset(b1, NULL, &x1.out));
    CHECK_OK(kassen_batch_reset(b2, NULL, &x2.out));
    uint32_t actions[NUM_ENVS];
    uint64_t rng = 5;
    for (int step = 0; step < 20; step++) {
        pick(&x1, actions, &rng);
        memset(x1.out.mask, 0xAB, x1.out.mask_len);
        CHECK_OK(kassen_batch_forget_mask(b1));
        CHECK_OK(kassen_batch_step(b1, actions, NUM_ENVS, &x1.out));
        CHECK_OK(kassen_batch_step(b2, actions, NUM_ENVS, &x2.out));
        CHECK(same_outputs(&x1, &x2));
    }
    CHECK(kassen_batch_forget_mask(NULL) == KASSEN_STATUS_NULL_POINTER);
    free_buffers(&x1);
    free_buffers(&x2);
    kassen_batch_free(b1);
    kassen_batch_free(b2);
    kassen_game_free(game);
}

int main(void) {
    char ids[16][64];
    int n = registered_games(ids, 16);
    CHECK(n >= 4);
    for (int g = 0; g < n; g++) {
        episodes(ids[g], "{\"num_envs\": 4, \"seed\": 7, \"max_episode_steps\": 3000}",
                 "{\"num_envs\": 4, \"seed\": 7, \"max_episode_steps\": 3000, \"threads\": 2}", false);
        episodes(ids[g], "{\"num_envs\": 4, \"seed\": 7, \"max_episode_steps\": 3000, \"opponent\": \"random\", \"obs_dtype\": \"uint8\"}",
                 "{\"num_envs\": 4, \"seed\": 7, \"max_episode_steps\": 3000, \"opponent\": \"random\", \"obs_dtype\": \"uint8\", \"threads\": 2}",
                 true);
    }
    /* The Monte Carlo bot as the opponent (a short step limit: it searches every decision). */
    episodes("samurai", "{\"num_envs\": 4, \"seed\": 7, \"max_episode_steps\": 8, \"opponent\": \"monte_carlo:2\"}",
             "{\"num_envs\": 4, \"seed\": 7, \"max_episode_steps\": 8, \"opponent\": \"monte_carlo:2\", \"threads\": 2}", true);
    for (int g = 0; g < n; g++) {
        bots(ids[g]);
        forget_mask(ids[g]);
    }
    errors();
    return summary();
}
