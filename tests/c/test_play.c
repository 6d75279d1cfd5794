/* Complete games of every registered game, for every player count, with random legal
 * actions, through the public header only; every successful path of the API is used. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "harness.h"

#define MAX_ACTIONS 65536

static uint32_t g_actions[MAX_ACTIONS];
static uint8_t g_mask[MAX_ACTIONS];

/* Checks that save/load gives an equal state with the same hash. */
static void check_round_trip(const kassen_state *s) {
    kassen_buf json = {NULL, 0};
    kassen_state *loaded = NULL;
    uint8_t equal = 0;
    uint64_t h1 = 0, h2 = 1;
    CHECK_OK(kassen_state_to_json(s, &json));
    CHECK(json.data != NULL && json.len == strlen(json.data));
    CHECK_OK(kassen_state_from_json(json.data, &loaded));
    CHECK_OK(kassen_state_equal(s, loaded, &equal));
    CHECK(equal);
    CHECK_OK(kassen_state_hash(s, &h1));
    CHECK_OK(kassen_state_hash(loaded, &h2));
    CHECK(h1 == h2);
    kassen_state_free(loaded);
    kassen_buf_free(&json);
}

/* Exercises the read-only functions on a state where `player` is to act. */
static void check_views(const kassen_game *game, const kassen_state *s, uint32_t num_players) {
    size_t obs_len = 0, len = 0;
    CHECK_OK(kassen_game_observation_len(game, &obs_len));
    float *obs = malloc((obs_len ? obs_len : 1) * sizeof *obs);
    for (int32_t p = -1; p < (int32_t)num_players; p++) {
        kassen_buf view = {NULL, 0}, events = {NULL, 0};
        CHECK_OK(kassen_state_view_json(s, p, &view));
        CHECK(view.len > 1 && view.data[0] == '{');
        /* Every game's view has the same envelope; the game's own view is under "body". */
        CHECK(strstr(view.data, "\"schema\":\"kassen.view/2\"") != NULL);
        CHECK(strstr(view.data, "\"to_act\":{") != NULL && strstr(view.data, "\"body\":{") != NULL);
        CHECK_OK(kassen_state_events_json(s, p, &events));
        CHECK(events.len >= 2 && events.data[0] == '[');
        /* The tail from index 0 is the whole list; from past the end it is empty. */
        kassen_buf all = {NULL, 0}, none = {NULL, 0};
        CHECK_OK(kassen_state_events_since_json(s, p, 0, &all));
        CHECK(all.len == events.len && memcmp(all.data, events.data, events.len) == 0);
        CHECK_OK(kassen_state_events_since_json(s, p, UINT64_MAX, &none));
        CHECK(none.len == 2 && memcmp(none.data, "[]", 2) == 0);
        kassen_buf_free(&all);
        kassen_buf_free(&none);
        /* The same events with their sentences: one "text" per event, a string for every one. */
        kassen_buf texts = {NULL, 0};
        CHECK_OK(kassen_state_events_text_json(s, p, 0, &texts));
        CHECK(texts.len >= events.len && texts.data[0] == '[');
        size_t kinds = 0, strings = 0;
        for (const char *k = events.data; (k = strstr(k, "\"kind\":")) != NULL; k++) kinds++;
        for (const char *t = texts.data; (t = strstr(t, "\"text\":\"")) != NULL; t++) strings++;
        CHECK(kinds == strings);
        kassen_buf_free(&texts);
        CHECK_OK(kassen_state_observation_tensor(s, p, obs, obs_len, &len));
        CHECK(len == obs_len);
        /* Every feature of every game's observation layout is bounded by [0, 1]. */
        for (size_t i = 0; i < len; i++) CHECK(obs[i] >= 0.0f && obs[i] <= 1.0f);
        kassen_buf_free(&view);
        kassen_buf_free(&events);
    }
    free(obs);
}

/* Plays one game; returns the number of actions applied by players. `players` goes into the
 * config only for games with a choice of player counts (`choice`); the others take none. */
static int play(const char *id, uint32_t players, bool choice, bool explicit_chance, uint64_t seed) {
    char config[128];
    if (choice) {
        snprintf(config, sizeof config, "{\"players\": %u, \"explicit_chance\": %s}", players,
                 explicit_chance ? "true" : "false");
    } else {
        snprintf(config, sizeof config, "{\"explicit_chance\": %s}", explicit_chance ? "true" : "false");
    }
    kassen_game *game = NULL;
    CHECK_OK(kassen_game_new(id, config, &game));
    if (game == NULL) {
        return 0;
    }
    uint32_t n = 0, num_actions = 0;
    CHECK_OK(kassen_game_num_players(game, &n));
    CHECK(n == players);
    CHECK_OK(kassen_game_num_distinct_actions(game, &num_actions));
    CHECK(num_actions > 0 && num_actions <= MAX_ACTIONS);
    kassen_buf info = {NULL, 0};
    CHECK_OK(kassen_game_info_json(game, &info));
    long max_len = info.data ? json_int(info.data, "max_game_length", -1) : -1;
    CHECK(max_len > 0);
    /* The observation layout (named ranges tiling the tensor) starts at offset 0. */
    const char *layout = info.data ? strstr(info.data, "\"observation_layout\":[{") : NULL;
    CHECK(layout != NULL && json_int(layout, "offset", -1) == 0);
    kassen_buf_free(&info);

    kassen_state *s = NULL;
    CHECK_OK(kassen_state_new(game, seed, &s));
    /* The state keeps the game alive: a fresh handle from the state works after the free. */
    kassen_game_free(game);
    CHECK_OK(kassen_state_game(s, &game));

    uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + 1;
    int steps = 0, chance_steps = 0;
    uint8_t terminal = 0;
    for (int guard = 0; guard < 100000; guard++) {
        int32_t cur = 0;
        CHECK_OK(kassen_state_is_terminal(s, &terminal));
        CHECK_OK(kassen_state_current_player(s, &cur));
        if (terminal) {
            CHECK(cur == -4);
            break;
        }
        if (cur == -1) {
            /* A chance node (explicit chance only): draw from the listed distribution. */
            size_t count = 0, need = 0;
            CHECK(explicit_chance);
            CHECK_STATUS(kassen_state_chance_outcomes(s, NULL, NULL, 0, &need),
                         KASSEN_STATUS_BUFFER_TOO_SMALL);
            CHECK(need > 0);
            uint32_t *ids = malloc(need * sizeof *ids);
            double *probs = malloc(need * sizeof *probs);
            CHECK_OK(kassen_state_chance_outcomes(s, ids, probs, need, &count));
            CHECK(count == need);
            double total = 0.0, u = (double)(rng_next(&rng) >> 11) / 9007199254740992.0;
            size_t pick = count - 1;
            for (size_t i = 0; i < count; i++) {
                total += probs[i];
                if (u < total && pick == count - 1) {
                    pick = i;
                }
            }
            CHECK(fabs(total - 1.0) < 1e-9);
            CHECK_OK(kassen_state_apply_as(s, -1, ids[pick]));
            free(ids);
            free(probs);
            chance_steps++;
            continue;
        }
        CHECK(cur >= 0 && (uint32_t)cur < players);
        /* Not a chance node: no outcomes. */
        size_t count = 99;
        CHECK_OK(kassen_state_chance_outcomes(s, NULL, NULL, 0, &count));
        CHECK(count == 0);

        size_t need = 0, len = 0;
        CHECK_STATUS(kassen_state_legal_actions(s, NULL, 0, &need), KASSEN_STATUS_BUFFER_TOO_SMALL);
        CHECK(need > 0 && need <= MAX_ACTIONS);
        CHECK_OK(kassen_state_legal_actions(s, g_actions, MAX_ACTIONS, &len));
        CHECK(len == need);
        if (len == 0) {
            break;
        }
        size_t mask_len = 0, legal_in_mask = 0;
        CHECK_OK(kassen_state_legal_actions_mask(s, g_mask, MAX_ACTIONS, &mask_len));
        CHECK(mask_len == num_actions);
        for (size_t i = 0; i < mask_len; i++) {
            legal_in_mask += g_mask[i];
        }
        CHECK(legal_in_mask == len);
        for (size_t i = 1; i < len; i++) {
            CHECK(g_actions[i - 1] < g_actions[i]);
        }
        uint32_t a = g_actions[rng_next(&rng) % len];
        CHECK(g_mask[a] == 1);

        if (steps % 20 == 0) {
            kassen_buf text = {NULL, 0}, action_json = {NULL, 0};
            CHECK_OK(kassen_state_action_to_string(s, a, &text));
            CHECK(text.data != NULL && text.len > 0);
            CHECK_OK(kassen_state_action_to_json(s, a, &action_json));
            CHECK(action_json.len > 1 && action_json.data[0] == '{');
            kassen_buf_free(&text);
            kassen_buf_free(&action_json);
            check_views(game, s, players);
            check_round_trip(s);

            /* The pure transition equals the in-place one and leaves its input alone. */
            kassen_state *child = NULL, *copy = NULL;
            uint64_t before = 0, after = 1;
            uint8_t equal = 0;
            CHECK_OK(kassen_state_hash(s, &before));
            CHECK_OK(kassen_state_apply(s, a, &child));
            CHECK_OK(kassen_state_hash(s, &after));
            CHECK(before == after);
            CHECK_OK(kassen_state_clone(s, &copy));
            CHECK_OK(kassen_state_apply_in_place(copy, a));
            CHECK_OK(kassen_state_equal(child, copy, &equal));
            CHECK(equal);
            kassen_state_free(child);
            kassen_state_free(copy);
        }
        CHECK_OK(kassen_state_apply_as(s, cur, a));
        steps++;
    }
    CHECK(terminal);

    double returns[64];
    size_t nret = 0;
    CHECK_OK(kassen_state_returns(s, returns, 64, &nret));
    CHECK(nret == players);
    int nonzero = 0;
    for (size_t i = 0; i < nret; i++) {
        CHECK(isfinite(returns[i]));
        nonzero += returns[i] != 0.0;
    }
    (void)nonzero;
    CHECK(!explicit_chance || chance_steps > 0);
    check_views(game, s, players);
    check_round_trip(s);

    size_t hist_len = 0;
    CHECK_STATUS(kassen_state_history(s, NULL, 0, &hist_len), KASSEN_STATUS_BUFFER_TOO_SMALL);
    CHECK(hist_len >= (size_t)steps);
    CHECK((long)hist_len <= max_len);

    kassen_state_free(s);
    kassen_game_free(game);
    return steps;
}

int main(void) {
    char version[64];
    snprintf(version, sizeof version, "%d.%d.%d", KASSEN_VERSION_MAJOR, KASSEN_VERSION_MINOR,
             KASSEN_VERSION_PATCH);
    CHECK(strncmp(kassen_version(), version, strlen(version)) == 0);

    /* Games per player count (the last with explicit chance): KASSEN_C_SEEDS, default 3
     * (tests/c/valgrind.sh plays fewer under valgrind). */
    const char *env = getenv("KASSEN_C_SEEDS");
    uint64_t seeds = env ? strtoull(env, NULL, 10) : 3;
    if (seeds < 1) {
        seeds = 1;
    }
    char ids[32][64];
    int n = registered_games(ids, 32);
    CHECK(n >= 1);
    for (int g = 0; g < n; g++) {
        kassen_game *game = NULL;
        kassen_buf info = {NULL, 0};
        CHECK_OK(kassen_game_new(ids[g], NULL, &game));
        CHECK_OK(kassen_game_info_json(game, &info));
        long lo = json_int(info.data, "min_players", -1);
        long hi = json_int(info.data, "max_players", -1);
        CHECK(lo >= 1 && hi >= lo && hi <= 32);
        kassen_buf_free(&info);
        kassen_game_free(game);
        for (long players = lo; players <= hi; players++) {
            for (uint64_t seed = 1; seed <= seeds; seed++) {
                bool explicit_chance = seed == seeds;
                int steps = play(ids[g], (uint32_t)players, lo < hi, explicit_chance, seed);
                fprintf(stderr, "%s: %ld players, seed %llu%s: %d player actions\n", ids[g], players,
                        (unsigned long long)seed, explicit_chance ? " (explicit chance)" : "", steps);
                CHECK(steps > 0);
            }
        }
    }
    return summary();
}
