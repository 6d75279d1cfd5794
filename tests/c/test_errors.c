/* Every error path of the C ABI: NULL pointers, bad UTF-8, unknown game, bad config,
 * illegal actions (state unchanged), wrong player, small buffers, malformed saved states,
 * and free(NULL) no-ops. Uses the public header only. */
#include <stdbool.h>
#include <stdint.h>

#include "harness.h"

static kassen_game *const SENTINEL_GAME = (kassen_game *)(uintptr_t)0x5e5e5e5e;
static kassen_state *const SENTINEL_STATE = (kassen_state *)(uintptr_t)0x5e5e5e5e;

/* The last error is set and mentions `needle`. */
static bool last_error_mentions(const char *needle) {
    const char *m = kassen_last_error_message();
    return m != NULL && m[0] != '\0' && strstr(m, needle) != NULL;
}

/* A fingerprint of a state: hash and saved JSON. */
typedef struct {
    uint64_t hash;
    char *json;
} snapshot;

static snapshot take_snapshot(const kassen_state *s) {
    snapshot snap = {0, NULL};
    kassen_buf b = {NULL, 0};
    CHECK_OK(kassen_state_hash(s, &snap.hash));
    CHECK_OK(kassen_state_to_json(s, &b));
    snap.json = malloc(b.len + 1);
    memcpy(snap.json, b.data, b.len + 1);
    kassen_buf_free(&b);
    return snap;
}

static void check_unchanged(const kassen_state *s, snapshot *before) {
    snapshot after = take_snapshot(s);
    CHECK(after.hash == before->hash);
    CHECK(strcmp(after.json, before->json) == 0);
    free(after.json);
}

static void test_free_null(void) {
    kassen_game_free(NULL);
    kassen_state_free(NULL);
    kassen_buf_free(NULL);
    kassen_buf empty = {NULL, 0};
    kassen_buf_free(&empty);
    kassen_buf b = {NULL, 0};
    CHECK_OK(kassen_games_json(&b));
    kassen_buf_free(&b);
    CHECK(b.data == NULL && b.len == 0);
    kassen_buf_free(&b); /* a second free of the same buffer is a no-op */
    CHECK(1);
}

static void test_statics(void) {
    CHECK(strcmp(kassen_status_name(KASSEN_STATUS_OK), "KASSEN_STATUS_OK") == 0);
    CHECK(strcmp(kassen_status_name(KASSEN_STATUS_ILLEGAL_ACTION), "KASSEN_STATUS_ILLEGAL_ACTION") == 0);
    CHECK(strcmp(kassen_status_name(-12345), "KASSEN_STATUS_UNKNOWN") == 0);
    CHECK(KASSEN_STATUS_NULL_POINTER == 1 && KASSEN_STATUS_UNKNOWN_GAME == 100);
    CHECK(KASSEN_STATUS_ILLEGAL_ACTION == 200 && KASSEN_STATUS_MALFORMED_JSON == 300);
    CHECK(kassen_version() != NULL && kassen_last_error_message() != NULL);
}

/* Whether a game has a choice of player counts (min_players < max_players in its info). */
static bool has_player_choice(const char *id) {
    kassen_game *game = NULL;
    kassen_buf info = {NULL, 0};
    CHECK_OK(kassen_game_new(id, NULL, &game));
    CHECK_OK(kassen_game_info_json(game, &info));
    long lo = info.data ? json_int(info.data, "min_players", -1) : -1;
    long hi = info.data ? json_int(info.data, "max_players", -1) : -1;
    CHECK(lo >= 1 && hi >= lo);
    kassen_buf_free(&info);
    kassen_game_free(game);
    return lo < hi;
}

static void test_setup_errors(const char *id) {
    kassen_game *g = SENTINEL_GAME;
    CHECK_STATUS(kassen_game_new(NULL, NULL, &g), KASSEN_STATUS_NULL_POINTER);
    CHECK(g == SENTINEL_GAME);
    CHECK(last_error_mentions("id"));
    CHECK_STATUS(kassen_game_new(id, NULL, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_game_new("\xff\xfe", NULL, &g), KASSEN_STATUS_INVALID_UTF8);
    CHECK_STATUS(kassen_game_new(id, "{\"players\": \"\xc3\x28\"}", &g), KASSEN_STATUS_INVALID_UTF8);
    CHECK_STATUS(kassen_game_new("no-such-game", NULL, &g), KASSEN_STATUS_UNKNOWN_GAME);
    CHECK(last_error_mentions("no-such-game"));
    CHECK_STATUS(kassen_game_new(id, "{not json", &g), KASSEN_STATUS_INVALID_CONFIG);
    CHECK_STATUS(kassen_game_new(id, "[1, 2]", &g), KASSEN_STATUS_INVALID_CONFIG);
    CHECK_STATUS(kassen_game_new(id, "{\"explicit_chance\": 3}", &g), KASSEN_STATUS_INVALID_CONFIG);
    /* "players" is a config key only of games with a choice of player counts. */
    CHECK_STATUS(kassen_game_new(id, "{\"players\": 99}", &g),
                 has_player_choice(id) ? KASSEN_STATUS_CONFIG_OUT_OF_RANGE : KASSEN_STATUS_UNKNOWN_CONFIG_KEY);
    CHECK_STATUS(kassen_game_new(id, "{\"no_such_key\": 1}", &g), KASSEN_STATUS_UNKNOWN_CONFIG_KEY);
    /* Every game takes replacement component data as "data", validated before use. */
    CHECK_STATUS(kassen_game_new(id, "{\"data\": 5}", &g), KASSEN_STATUS_INVALID_DATA);
    CHECK_STATUS(kassen_game_new(id, "{\"data\": {}}", &g), KASSEN_STATUS_INVALID_DATA);
    CHECK(last_error_mentions("data"));
    CHECK(g == SENTINEL_GAME);
    /* A success clears the last error. */
    CHECK_OK(kassen_game_new(id, "", &g));
    CHECK(strcmp(kassen_last_error_message(), "") == 0);
    kassen_game_free(g);

    kassen_buf b = {NULL, 0};
    uint32_t u = 7;
    size_t z = 7;
    CHECK_STATUS(kassen_games_json(NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_game_info_json(NULL, &b), KASSEN_STATUS_NULL_POINTER);
    CHECK(b.data == NULL);
    CHECK_STATUS(kassen_game_num_players(NULL, &u), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_game_num_distinct_actions(NULL, &u), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_game_observation_len(NULL, &z), KASSEN_STATUS_NULL_POINTER);
    CHECK(u == 7 && z == 7);
    kassen_state *s = SENTINEL_STATE;
    CHECK_STATUS(kassen_state_new(NULL, 1, &s), KASSEN_STATUS_NULL_POINTER);
    CHECK(s == SENTINEL_STATE);
}

static void test_state_null_pointers(kassen_game *game, kassen_state *s) {
    kassen_buf b = {NULL, 0};
    kassen_state *out = SENTINEL_STATE;
    kassen_game *gout = SENTINEL_GAME;
    int32_t p = 77;
    uint8_t flag = 1;
    uint64_t h = 77;
    uint32_t a[4];
    size_t len = 77;
    double d[4];
    float f[4];
    uint8_t m[4];

    CHECK_STATUS(kassen_game_info_json(game, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_game_num_players(game, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_new(game, 1, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_clone(NULL, &out), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_clone(s, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_game(NULL, &gout), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_current_player(NULL, &p), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_current_player(s, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_is_terminal(NULL, &flag), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_legal_actions(NULL, a, 4, &len), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_legal_actions(s, a, 4, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_legal_actions(s, NULL, 4, &len), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_legal_actions_mask(s, NULL, 4, &len), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_apply(NULL, 0, &out), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_apply(s, 0, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_apply_in_place(NULL, 0), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_apply_as(NULL, 0, 0), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_chance_outcomes(NULL, a, d, 4, &len), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_chance_outcomes(s, a, NULL, 4, &len), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_chance_outcomes(s, NULL, d, 4, &len), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_returns(s, NULL, 4, &len), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_returns(s, d, 4, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_history(NULL, a, 4, &len), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_action_to_string(NULL, 0, &b), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_action_to_string(s, 0, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_action_to_json(s, 0, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_view_json(NULL, 0, &b), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_view_json(s, 0, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_events_json(s, 0, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_observation_tensor(NULL, 0, f, 4, &len), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_observation_tensor(s, 0, NULL, 4, &len), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_to_json(NULL, &b), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_to_json(s, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_from_json(NULL, &out), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_from_json("{}", NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_hash(NULL, &h), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_hash(s, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_equal(s, NULL, &flag), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_equal(NULL, s, &flag), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_equal(s, s, NULL), KASSEN_STATUS_NULL_POINTER);
    (void)m;
    /* Nothing was written on failure. */
    CHECK(b.data == NULL && out == SENTINEL_STATE && gout == SENTINEL_GAME);
    CHECK(p == 77 && flag == 1 && h == 77 && len == 77);
}

static void test_rule_errors(kassen_state *s, uint32_t num_actions, uint32_t num_players) {
    int32_t cur = -9;
    CHECK_OK(kassen_state_current_player(s, &cur));
    CHECK(cur >= 0);

    size_t len = 0;
    uint32_t *legal = malloc(num_actions * sizeof *legal);
    CHECK_OK(kassen_state_legal_actions(s, legal, num_actions, &len));
    CHECK(len >= 2);
    /* The smallest id that is not legal. */
    uint32_t illegal = 0;
    for (size_t i = 0; i < len && legal[i] == illegal; i++) {
        illegal++;
    }
    CHECK(illegal < num_actions);

    snapshot before = take_snapshot(s);
    kassen_state *out = SENTINEL_STATE;

    CHECK_STATUS(kassen_state_apply_in_place(s, illegal), KASSEN_STATUS_ILLEGAL_ACTION);
    CHECK(last_error_mentions("not legal"));
    check_unchanged(s, &before);
    CHECK_STATUS(kassen_state_apply_in_place(s, num_actions), KASSEN_STATUS_ACTION_OUT_OF_RANGE);
    check_unchanged(s, &before);
    CHECK_STATUS(kassen_state_apply_in_place(s, UINT32_MAX), KASSEN_STATUS_ACTION_OUT_OF_RANGE);
    check_unchanged(s, &before);
    CHECK_STATUS(kassen_state_apply(s, illegal, &out), KASSEN_STATUS_ILLEGAL_ACTION);
    CHECK(out == SENTINEL_STATE);
    check_unchanged(s, &before);

    /* Wrong player: every other seat, the chance player and a nonexistent seat. */
    int32_t other = (cur + 1) % (int32_t)num_players;
    CHECK_STATUS(kassen_state_apply_as(s, other, legal[0]), KASSEN_STATUS_NOT_YOUR_TURN);
    CHECK(last_error_mentions("turn"));
    check_unchanged(s, &before);
    CHECK_STATUS(kassen_state_apply_as(s, -1, legal[0]), KASSEN_STATUS_NOT_CHANCE_NODE);
    check_unchanged(s, &before);
    CHECK_STATUS(kassen_state_apply_as(s, 1000, legal[0]), KASSEN_STATUS_INVALID_PLAYER);
    CHECK_STATUS(kassen_state_apply_as(s, -2, legal[0]), KASSEN_STATUS_INVALID_PLAYER);
    check_unchanged(s, &before);
    /* The right player with an illegal action. */
    CHECK_STATUS(kassen_state_apply_as(s, cur, illegal), KASSEN_STATUS_ILLEGAL_ACTION);
    check_unchanged(s, &before);

    /* Invalid observers. */
    kassen_buf b = {NULL, 0};
    CHECK_STATUS(kassen_state_view_json(s, (int32_t)num_players, &b), KASSEN_STATUS_INVALID_PLAYER);
    CHECK_STATUS(kassen_state_view_json(s, -2, &b), KASSEN_STATUS_INVALID_PLAYER);
    CHECK_STATUS(kassen_state_events_json(s, 99, &b), KASSEN_STATUS_INVALID_PLAYER);
    CHECK_STATUS(kassen_state_events_since_json(s, 99, 0, &b), KASSEN_STATUS_INVALID_PLAYER);
    CHECK_STATUS(kassen_state_events_since_json(s, 0, 0, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_events_since_json(NULL, 0, 0, &b), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_events_text_json(s, 99, 0, &b), KASSEN_STATUS_INVALID_PLAYER);
    CHECK_STATUS(kassen_state_events_text_json(s, 0, 0, NULL), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_events_text_json(NULL, 0, 0, &b), KASSEN_STATUS_NULL_POINTER);
    CHECK_STATUS(kassen_state_action_to_string(s, num_actions, &b), KASSEN_STATUS_ACTION_OUT_OF_RANGE);
    CHECK_STATUS(kassen_state_action_to_json(s, num_actions, &b), KASSEN_STATUS_ACTION_OUT_OF_RANGE);
    CHECK(b.data == NULL);
    float f[1];
    size_t flen = 0;
    CHECK_STATUS(kassen_state_observation_tensor(s, 99, f, 1, &flen), KASSEN_STATUS_INVALID_PLAYER);

    /* Small buffers: nothing copied, the required length reported. */
    uint32_t small[1] = {0xdeadbeef};
    size_t need = 0;
    CHECK_STATUS(kassen_state_legal_actions(s, small, 1, &need), KASSEN_STATUS_BUFFER_TOO_SMALL);
    CHECK(need == len && small[0] == 0xdeadbeef);
    CHECK(last_error_mentions("needed"));
    uint8_t mask[1] = {7};
    CHECK_STATUS(kassen_state_legal_actions_mask(s, mask, 1, &need), KASSEN_STATUS_BUFFER_TOO_SMALL);
    CHECK(need == num_actions && mask[0] == 7);
    double ret[1] = {42.0};
    CHECK_STATUS(kassen_state_returns(s, ret, 1, &need), KASSEN_STATUS_BUFFER_TOO_SMALL);
    CHECK(need == num_players && ret[0] == 42.0);
    size_t obs_len = 0;
    float obs[1] = {42.0f};
    CHECK_STATUS(kassen_state_observation_tensor(s, cur, obs, 1, &obs_len), KASSEN_STATUS_BUFFER_TOO_SMALL);
    CHECK(obs_len > 1 && obs[0] == 42.0f);
    check_unchanged(s, &before);

    free(before.json);
    free(legal);
}

static void test_game_over(kassen_state *s) {
    /* Play to the end with the first legal action, then every apply is GAME_OVER. */
    uint32_t a[1];
    size_t len = 0;
    uint8_t terminal = 0;
    for (int guard = 0; guard < 100000 && !terminal; guard++) {
        kassen_status st = kassen_state_legal_actions(s, a, 1, &len);
        CHECK(st == KASSEN_STATUS_OK || st == KASSEN_STATUS_BUFFER_TOO_SMALL);
        if (st == KASSEN_STATUS_BUFFER_TOO_SMALL) {
            uint32_t *all = malloc(len * sizeof *all);
            CHECK_OK(kassen_state_legal_actions(s, all, len, &len));
            a[0] = all[len - 1];
            free(all);
        }
        CHECK_OK(kassen_state_apply_in_place(s, a[0]));
        CHECK_OK(kassen_state_is_terminal(s, &terminal));
    }
    CHECK(terminal);
    snapshot before = take_snapshot(s);
    kassen_state *out = SENTINEL_STATE;
    CHECK_STATUS(kassen_state_apply_in_place(s, 0), KASSEN_STATUS_GAME_OVER);
    CHECK_STATUS(kassen_state_apply_as(s, 0, 0), KASSEN_STATUS_GAME_OVER);
    CHECK_STATUS(kassen_state_apply(s, 0, &out), KASSEN_STATUS_GAME_OVER);
    CHECK(out == SENTINEL_STATE);
    check_unchanged(s, &before);
    size_t hist_need = 0;
    uint32_t hist[1] = {7};
    CHECK_STATUS(kassen_state_history(s, hist, 1, &hist_need), KASSEN_STATUS_BUFFER_TOO_SMALL);
    CHECK(hist_need > 1 && hist[0] == 7);
    size_t n = 9;
    CHECK_OK(kassen_state_legal_actions(s, NULL, 0, &n));
    CHECK(n == 0);
    free(before.json);
}

/* Replaces the first occurrence of `from` in `text` by `to` (into a new string). */
static char *replace_once(const char *text, const char *from, const char *to) {
    const char *at = strstr(text, from);
    if (at == NULL) {
        return NULL;
    }
    size_t head = (size_t)(at - text), tail = strlen(at + strlen(from));
    char *out = malloc(head + strlen(to) + tail + 1);
    memcpy(out, text, head);
    memcpy(out + head, to, strlen(to));
    memcpy(out + head + strlen(to), at + strlen(from), tail + 1);
    return out;
}

static void test_load_errors(const kassen_state *s, const char *id) {
    kassen_state *out = SENTINEL_STATE;
    CHECK_STATUS(kassen_state_from_json("", &out), KASSEN_STATUS_MALFORMED_JSON);
    CHECK_STATUS(kassen_state_from_json("{\"format\": ", &out), KASSEN_STATUS_MALFORMED_JSON);
    CHECK_STATUS(kassen_state_from_json("\xff{}", &out), KASSEN_STATUS_INVALID_UTF8);
    CHECK_STATUS(kassen_state_from_json("{}", &out), KASSEN_STATUS_UNSUPPORTED_FORMAT);
    CHECK_STATUS(kassen_state_from_json("[1]", &out), KASSEN_STATUS_INVALID_STATE);
    CHECK(out == SENTINEL_STATE);

    kassen_buf b = {NULL, 0};
    CHECK_OK(kassen_state_to_json(s, &b));
    char game_field[96];
    snprintf(game_field, sizeof game_field, "\"game\":\"%s\"", id);
    char *unknown = replace_once(b.data, game_field, "\"game\":\"no-such-game\"");
    CHECK(unknown != NULL);
    if (unknown) {
        CHECK_STATUS(kassen_state_from_json(unknown, &out), KASSEN_STATUS_LOAD_UNKNOWN_GAME);
        free(unknown);
    }
    char *version = replace_once(b.data, "\"rules_version\":\"", "\"rules_version\":\"0.0.0-other-");
    CHECK(version != NULL);
    if (version) {
        CHECK_STATUS(kassen_state_from_json(version, &out), KASSEN_STATUS_RULES_VERSION_MISMATCH);
        free(version);
    }
    const char *h = strstr(b.data, "\"history\":[");
    bool empty_history = h != NULL && h[11] == ']';
    char *history = replace_once(b.data, "\"history\":[",
                                 empty_history ? "\"history\":[4000000000" : "\"history\":[4000000000,");
    CHECK(history != NULL);
    if (history) {
        CHECK_STATUS(kassen_state_from_json(history, &out), KASSEN_STATUS_INVALID_STATE);
        free(history);
    }
    char *format = replace_once(b.data, "kassen.state/1", "kassen.state/999");
    CHECK(format != NULL);
    if (format) {
        CHECK_STATUS(kassen_state_from_json(format, &out), KASSEN_STATUS_UNSUPPORTED_FORMAT);
        free(format);
    }
    CHECK(out == SENTINEL_STATE);
    kassen_buf_free(&b);
}

int main(void) {
    test_free_null();
    test_statics();

    char ids[32][64];
    int n = registered_games(ids, 32);
    CHECK(n >= 1);
    for (int g = 0; g < n; g++) {
        test_setup_errors(ids[g]);

        kassen_game *game = NULL;
        kassen_state *s = NULL;
        CHECK_OK(kassen_game_new(ids[g], NULL, &game));
        if (game == NULL) {
            continue;
        }
        uint32_t num_actions = 0, num_players = 0;
        CHECK_OK(kassen_game_num_distinct_actions(game, &num_actions));
        CHECK_OK(kassen_game_num_players(game, &num_players));
        CHECK_OK(kassen_state_new(game, 7, &s));
        test_state_null_pointers(game, s);
        test_rule_errors(s, num_actions, num_players);
        test_load_errors(s, ids[g]);
        test_game_over(s);
        test_load_errors(s, ids[g]);
        kassen_state_free(s);
        kassen_game_free(game);
    }
    return summary();
}
