// Tests of include/kassen.hpp over every registered game: complete games (with and without
// explicit chance), every error the wrapper can raise (state unchanged after each), move and
// clone semantics, views and events, save/load, and the golden playthroughs' final hashes.
// Usage: test_kassen [GOLDEN_LIST]   (lines "game<TAB>config<TAB>seed<TAB>hash<TAB>a,b,...",
// written by tests/cpp/run.sh from tests/golden/*.json). Last line: "N passed, M failed".
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "kassen.hpp"
#include "../c/harness.h"  // CHECK, the counters, rng_next and summary()
#include "check_throws.hpp"  // CHECK_THROWS
#include "game_ids.hpp"  // game_ids()

static_assert(!std::is_copy_constructible_v<kassen::Game>, "Game does not copy");
static_assert(!std::is_copy_constructible_v<kassen::State>, "State does not copy");
static_assert(!std::is_copy_assignable_v<kassen::State>, "State does not copy-assign");
static_assert(!std::is_copy_constructible_v<kassen::Buf>, "Buf does not copy");
static_assert(std::is_nothrow_move_constructible_v<kassen::State>, "State moves");
static_assert(std::is_nothrow_move_assignable_v<kassen::Game>, "Game moves");


static size_t count(const std::string &text, const std::string &needle) {
    size_t n = 0;
    for (size_t at = 0; (at = text.find(needle, at)) != std::string::npos; at += needle.size()) n++;
    return n;
}

// A complete random game; with explicit chance, outcomes are drawn by probability and applied
// as CHANCE. Checks buffers, events, views, save/load and purity along the way.
static void play(const std::string &id, bool explicit_chance, uint64_t seed) {
    kassen::Game game(id, explicit_chance ? "{\"explicit_chance\": true}" : "");
    const uint32_t players = game.num_players();
    CHECK(players >= 2);
    CHECK(game.info_json().find("\"" + id + "\"") != std::string::npos);
    kassen::State state = game.new_initial_state(seed);
    std::vector<uint32_t> legal(game.num_distinct_actions());
    std::vector<uint8_t> mask(game.num_distinct_actions());
    std::vector<float> obs(game.observation_len());
    std::vector<size_t> seen(players + 1, 0);
    uint64_t rng = seed * 7919 + 1;
    size_t steps = 0;
    bool ok = true;
    while (!state.is_terminal()) {
        int32_t p = state.current_player();
        if (p == kassen::CHANCE) {
            auto outcomes = state.chance_outcomes();
            double x = static_cast<double>(rng_next(&rng) >> 11) / 9007199254740992.0, acc = 0;
            uint32_t pick = outcomes.back().action;
            double total = 0;
            for (const auto &o : outcomes) total += o.probability;
            ok = ok && !outcomes.empty() && total > 1 - 1e-9 && total < 1 + 1e-9;
            for (const auto &o : outcomes) {
                acc += o.probability;
                if (x < acc) {
                    pick = o.action;
                    break;
                }
            }
            state.apply_action_as(kassen::CHANCE, pick);
        } else {
            size_t n = state.legal_actions(kassen::span<uint32_t>(legal));
            size_t m = state.legal_actions_mask(kassen::span<uint8_t>(mask));
            ok = ok && n > 0 && m == mask.size() && state.legal_actions() == std::vector<uint32_t>(legal.begin(), legal.begin() + n);
            ok = ok && state.observation_tensor(p, kassen::span<float>(obs)) == obs.size();
            uint32_t a = legal[rng_next(&rng) % n];
            ok = ok && mask[a] == 1;
            if (steps % 17 == 0) {
                kassen::State child = state.child(a);
                state.apply_action_as(p, a);
                ok = ok && child == state;
            } else {
                state.apply_action(a);
            }
        }
        steps++;
        // Poll events as a frontend does: the tail since the last poll extends the full log.
        if (steps % 5 == 0) {
            for (int32_t o = -1; o < static_cast<int32_t>(players); o++) {
                std::string tail = state.events_since_json(o, seen[o + 1]);
                ok = ok && tail.front() == '[' && tail.back() == ']';
                seen[o + 1] += count(tail, "\"step\":");
            }
        }
    }
    CHECK(ok);
    CHECK(steps > 0);
    CHECK(state.current_player() == kassen::TERMINAL);
    CHECK(state.legal_actions().empty());
    CHECK(state.returns().size() == players);
    double returns[8];
    CHECK(state.returns(kassen::span<double>(returns)) == players);
    for (int32_t o = -1; o < static_cast<int32_t>(players); o++) {
        std::string events = state.events_json(o);
        CHECK(count(events, "\"step\":") >= seen[o + 1]);
        CHECK(state.events_since_json(o, 1u << 30) == "[]");
        CHECK(count(state.events_text_json(o, 0), "\"text\":\"") == count(events, "\"step\":"));
        std::string view = state.view_json(o);
        CHECK(view.front() == '{' && view.back() == '}');
        CHECK(view.size() > 2 && view == state.view_json(o));
        CHECK(state.observation_tensor(o).size() == game.observation_len());
    }
    // Save, load, clone and hash agree.
    kassen::State loaded = kassen::State::from_json(state.to_json());
    CHECK(loaded == state);
    CHECK(loaded.hash() == state.hash());
    CHECK(loaded.history() == state.history());
    kassen::State copy = state.clone();
    CHECK(copy == state && copy.hash() == state.hash());
    kassen::Game again = state.game();
    CHECK(again.info_json() == game.info_json());
    std::printf("%s%s seed %llu: %zu steps, hash %llu\n", id.c_str(), explicit_chance ? " (explicit chance)" : "",
                static_cast<unsigned long long>(seed), steps, static_cast<unsigned long long>(state.hash()));
}

static void errors(const std::string &id) {
    CHECK_THROWS(kassen::Game("no_such_game"), KASSEN_STATUS_UNKNOWN_GAME);
    CHECK_THROWS(kassen::Game("\xff\xfe"), KASSEN_STATUS_INVALID_UTF8);
    CHECK_THROWS(kassen::Game(id, "{"), KASSEN_STATUS_INVALID_CONFIG);
    CHECK_THROWS(kassen::Game(id, "[1]"), KASSEN_STATUS_INVALID_CONFIG);
    CHECK_THROWS(kassen::Game(id, "{\"no_such_key\": 1}"), KASSEN_STATUS_UNKNOWN_CONFIG_KEY);
    CHECK_THROWS(kassen::Game(id, "{\"data\": {}}"), KASSEN_STATUS_INVALID_DATA);

    kassen::Game game(id);
    kassen::State state = game.new_initial_state(3);
    const uint64_t before = state.hash();
    const std::string saved = state.to_json();
    const int32_t p = state.current_player();
    const uint32_t n = game.num_distinct_actions();
    auto legal = state.legal_actions();
    auto mask = state.legal_actions_mask();
    uint32_t illegal = n;
    for (uint32_t a = 0; a < n; a++) {
        if (!mask[a]) {
            illegal = a;
            break;
        }
    }
    CHECK(illegal < n);
    CHECK_THROWS(state.apply_action(illegal), KASSEN_STATUS_ILLEGAL_ACTION);
    CHECK_THROWS(state.child(illegal), KASSEN_STATUS_ILLEGAL_ACTION);
    CHECK_THROWS(state.apply_action(n), KASSEN_STATUS_ACTION_OUT_OF_RANGE);
    CHECK_THROWS(state.apply_action_as((p + 1) % static_cast<int32_t>(game.num_players()), legal[0]),
                 KASSEN_STATUS_NOT_YOUR_TURN);
    CHECK_THROWS(state.apply_action_as(kassen::CHANCE, legal[0]), KASSEN_STATUS_NOT_CHANCE_NODE);
    CHECK_THROWS(state.apply_action_as(99, legal[0]), KASSEN_STATUS_INVALID_PLAYER);
    CHECK_THROWS(state.view_json(99), KASSEN_STATUS_INVALID_PLAYER);
    CHECK_THROWS(state.events_json(-2), KASSEN_STATUS_INVALID_PLAYER);
    CHECK_THROWS(state.events_since_json(99, 0), KASSEN_STATUS_INVALID_PLAYER);
    CHECK_THROWS(state.observation_tensor(99), KASSEN_STATUS_INVALID_PLAYER);
    CHECK_THROWS(state.action_to_string(n), KASSEN_STATUS_ACTION_OUT_OF_RANGE);
    CHECK_THROWS(state.action_to_json(n), KASSEN_STATUS_ACTION_OUT_OF_RANGE);
    uint32_t one[1];
    if (legal.size() > 1) {
        CHECK_THROWS(state.legal_actions(kassen::span<uint32_t>(one)), KASSEN_STATUS_BUFFER_TOO_SMALL);
    }
    uint8_t small_mask[1];
    CHECK_THROWS(state.legal_actions_mask(kassen::span<uint8_t>(small_mask)), KASSEN_STATUS_BUFFER_TOO_SMALL);
    float small_obs[1];
    CHECK_THROWS(state.observation_tensor(0, kassen::span<float>(small_obs)), KASSEN_STATUS_BUFFER_TOO_SMALL);
    double small_returns[1];
    CHECK_THROWS(state.returns(kassen::span<double>(small_returns)), KASSEN_STATUS_BUFFER_TOO_SMALL);
    CHECK_THROWS(kassen::State::from_json("{"), KASSEN_STATUS_MALFORMED_JSON);
    std::string other_format = saved;
    other_format.replace(other_format.find("kassen.state/1"), 14, "kassen.state/9");
    CHECK_THROWS(kassen::State::from_json(other_format), KASSEN_STATUS_UNSUPPORTED_FORMAT);
    std::string other_game = saved;
    size_t at = other_game.find("\"game\":\"" + id + "\"");
    CHECK(at != std::string::npos);
    if (at != std::string::npos) {
        other_game.replace(at, id.size() + 9, "\"game\":\"no_such_game\"");
        CHECK_THROWS(kassen::State::from_json(other_game), KASSEN_STATUS_LOAD_UNKNOWN_GAME);
    }
    std::string other_rules = saved;
    at = other_rules.find("\"rules_version\":\"");
    CHECK(at != std::string::npos);
    if (at != std::string::npos) {
        other_rules.insert(at + 17, "x");
        CHECK_THROWS(kassen::State::from_json(other_rules), KASSEN_STATUS_RULES_VERSION_MISMATCH);
    }
    std::string extra_field = saved;
    extra_field.insert(1, "\"no_such_field\":1,");
    CHECK_THROWS(kassen::State::from_json(extra_field), KASSEN_STATUS_INVALID_STATE);
    // None of the failures changed the state.
    CHECK(state.hash() == before);
    CHECK(state.to_json() == saved);
    CHECK(state.legal_actions() == legal);

    // A finished game rejects every action.
    kassen::State over = game.new_initial_state(4);
    while (!over.is_terminal()) over.apply_action(over.legal_actions().front());
    const uint64_t final_hash = over.hash();
    CHECK_THROWS(over.apply_action(0), KASSEN_STATUS_GAME_OVER);
    CHECK_THROWS(over.child(0), KASSEN_STATUS_GAME_OVER);
    CHECK(over.hash() == final_hash);

    // Moved-from handles are empty: every call reports a null handle instead of crashing.
    kassen::State moved = std::move(state);
    CHECK(moved.hash() == before);
    CHECK_THROWS(state.hash(), KASSEN_STATUS_NULL_POINTER);
    CHECK_THROWS(state.apply_action(legal[0]), KASSEN_STATUS_NULL_POINTER);
    CHECK_THROWS(state.legal_actions(), KASSEN_STATUS_NULL_POINTER);
    CHECK_THROWS(state.clone(), KASSEN_STATUS_NULL_POINTER);
    CHECK_THROWS(state == moved, KASSEN_STATUS_NULL_POINTER);
    kassen::Game taken = std::move(game);
    CHECK(taken.num_players() >= 2);
    CHECK_THROWS(game.num_players(), KASSEN_STATUS_NULL_POINTER);
    CHECK_THROWS(game.new_initial_state(1), KASSEN_STATUS_NULL_POINTER);
    CHECK_THROWS(game.info_json(), KASSEN_STATUS_NULL_POINTER);
    state = std::move(moved);  // move assignment back into the emptied handle
    CHECK(state.hash() == before);
}

// Buf owns library bytes: moves transfer them, the moved-from Buf is empty.
static void bufs() {
    kassen::Buf a;
    CHECK(a.view().empty());
    CHECK(kassen_games_json(a.out()) == KASSEN_STATUS_OK);
    const std::string games = a.str();
    CHECK(!games.empty() && games == kassen::games_json());
    kassen::Buf b = std::move(a);
    CHECK(a.view().empty() && b.view() == games);
    kassen::Buf c;
    c = std::move(b);
    CHECK(b.view().empty() && c.str() == games);
}

// Replays the golden playthroughs listed in `path`; each must end on the recorded hash.
static void golden(const char *path) {
    std::ifstream in(path);
    std::string line;
    int files = 0;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string id, config, seed, hash, actions;
        std::getline(fields, id, '\t');
        std::getline(fields, config, '\t');
        std::getline(fields, seed, '\t');
        std::getline(fields, hash, '\t');
        std::getline(fields, actions, '\t');
        kassen::State state = kassen::Game(id, config).new_initial_state(std::stoull(seed));
        std::istringstream list(actions);
        for (std::string a; std::getline(list, a, ',');) state.apply_action(static_cast<uint32_t>(std::stoul(a)));
        bool same = state.is_terminal() && std::to_string(state.hash()) == hash;
        if (!same) std::fprintf(stderr, "golden %s %s seed %s: hash %llu, recorded %s\n", id.c_str(), config.c_str(),
                                seed.c_str(), static_cast<unsigned long long>(state.hash()), hash.c_str());
        CHECK(same);
        files++;
    }
    CHECK(files > 0);
    std::printf("golden: %d playthroughs replayed\n", files);
}

int main(int argc, char **argv) {
    CHECK(kassen::abi_version() == KASSEN_ABI_VERSION);
    CHECK(kassen::version() == std::to_string(KASSEN_VERSION_MAJOR) + "." + std::to_string(KASSEN_VERSION_MINOR) +
                                   "." + std::to_string(KASSEN_VERSION_PATCH));
    CHECK(kassen::status_name(200) == "KASSEN_STATUS_ILLEGAL_ACTION");
    bufs();
    auto ids = game_ids();
    CHECK(ids.size() >= 4);
    for (const auto &id : ids) {
        try {
            play(id, false, 11);
            play(id, true, 12);
            errors(id);
        } catch (const kassen::Error &e) {
            g_failed++;
            std::fprintf(stderr, "%s: unexpected %s\n", id.c_str(), e.what());
        }
    }
    if (argc > 1) {
        try {
            golden(argv[1]);
        } catch (const std::exception &e) {
            g_failed++;
            std::fprintf(stderr, "golden: unexpected %s\n", e.what());
        }
    }
    return summary();
}
