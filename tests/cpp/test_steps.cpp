// Tests of the per-step and batch surfaces of include/kassen.hpp over every registered game:
// apply_step against apply_action + legal_actions, the view envelope (to_act, terminal,
// winners, returns), NUL bytes in string inputs, SVG and replay pages, bots, random rollouts,
// and Batch episodes replayed through single states.
// The envelope is checked by string search in the compact JSON (no JSON library): its
// top-level keys come last-sorted after "body", so the last occurrence of a key is the
// envelope's own.
// Usage: test_steps [GOLDEN_LIST] (ignored). Last line: "N passed, M failed".
#include <cstdio>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "kassen.hpp"
#include "../c/harness.h"  // CHECK, the counters, rng_next and summary()
#include "check_throws.hpp"  // CHECK_THROWS
#include "game_ids.hpp"  // game_ids()

// The text of the envelope's top-level `key` up to the next ',' or '}' at the same depth.
static std::string field(const std::string &view, const std::string &key) {
    std::size_t at = view.rfind("\"" + key + "\":");
    if (at == std::string::npos) return "<missing>";
    at += key.size() + 3;
    int depth = 0;
    std::size_t end = at;
    for (; end < view.size(); end++) {
        char c = view[end];
        if (c == '[' || c == '{') depth++;
        if ((c == ']' || c == '}') && depth-- == 0) break;
        if (c == ',' && depth == 0) break;
    }
    return view.substr(at, end - at);
}

// The seats with the highest return, none on a draw (every return equal), as the envelope's
// "winners" writes them.
static std::string winners_of(const std::vector<double> &returns) {
    double best = returns[0];
    for (double r : returns) best = r > best ? r : best;
    std::string out = "[";
    if (std::all_of(returns.begin(), returns.end(), [&](double r) { return r == best; })) return "[]";
    for (std::size_t i = 0; i < returns.size(); i++) {
        if (returns[i] == best) out += (out.size() > 1 ? "," : "") + std::to_string(i);
    }
    return out + "]";
}

// A random game stepped with apply_step, mirrored by apply_action + legal_actions on a clone;
// the envelope of the player to act is checked at every step, the result at the end.
static void steps(const std::string &id, uint64_t seed) {
    kassen::Game game(id);
    kassen::State state = game.new_initial_state(seed);
    kassen::State mirror = state.clone();
    std::vector<uint32_t> legal = state.legal_actions();
    legal.reserve(game.num_distinct_actions());
    const uint32_t *storage = legal.data();
    uint64_t rng = seed * 31 + 7;
    int32_t next = state.current_player();
    bool agree = true, envelope = true;
    std::size_t n = 0;
    while (next != kassen::TERMINAL) {
        std::string view = state.view_json(next);
        envelope &= field(view, "terminal") == "false" &&
                    field(field(view, "to_act") + "}", "seat") == std::to_string(next) &&
                    field(view, "winners") == "null";
        uint32_t a = legal[rng_next(&rng) % legal.size()];
        next = state.apply_step(a, legal);
        mirror.apply_action(a);
        agree &= next == mirror.current_player() && legal == mirror.legal_actions() && state == mirror;
        n++;
    }
    CHECK(agree && envelope && n > 0);
    CHECK(legal.empty() && state.is_terminal());
    CHECK(legal.data() == storage);  // the reserved capacity was reused, never reallocated
    std::vector<double> returns = state.returns();
    for (int32_t seat = kassen::SPECTATOR; seat < static_cast<int32_t>(game.num_players()); seat++) {
        std::string view = state.view_json(seat);
        CHECK(field(view, "terminal") == "true");
        CHECK(field(view, "winners") == winners_of(returns));
        CHECK(field(view, "to_act").find("\"seat\":null") != std::string::npos);
    }
    CHECK_THROWS(state.apply_step(0, legal), KASSEN_STATUS_GAME_OVER);
}

// apply_step's errors leave the state as it was.
static void step_errors(const std::string &id) {
    kassen::Game game(id);
    kassen::State state = game.new_initial_state(5);
    uint64_t hash = state.hash();
    std::vector<uint32_t> legal;
    CHECK_THROWS(state.apply_step(game.num_distinct_actions(), legal), KASSEN_STATUS_ACTION_OUT_OF_RANGE);
    CHECK(state.hash() == hash && legal.empty());
    uint32_t a = state.legal_actions().front();
    std::size_t len = 0;
    uint32_t none[1];
    kassen::State probe = state.child(a);
    if (probe.legal_actions().size() > 1) {
        CHECK_THROWS(state.apply_step(a, kassen::span<uint32_t>(none, 1), len), KASSEN_STATUS_BUFFER_TOO_SMALL);
        CHECK(state.hash() == hash && len == probe.legal_actions().size());
    }
    std::vector<uint32_t> empty;  // no capacity: apply_step grows it once
    CHECK(state.apply_step(a, empty) == probe.current_player() && empty == probe.legal_actions());
}

// A rejected apply_step leaves `legal` as it was (contents, size and storage), so a loop that
// catches the error goes on drawing from it; the README's loop never sees an empty vector.
static void step_rejected_keeps_legal(const std::string &id) {
    kassen::Game game(id);
    kassen::State state = game.new_initial_state(9);
    std::vector<uint32_t> legal = state.legal_actions();
    legal.reserve(game.num_distinct_actions());
    const std::vector<uint32_t> before = legal;
    const uint32_t *storage = legal.data();
    uint64_t hash = state.hash();
    uint32_t illegal = game.num_distinct_actions();
    for (uint32_t a = 0; a < game.num_distinct_actions(); a++) {
        if (std::find(legal.begin(), legal.end(), a) == legal.end()) {
            illegal = a;
            break;
        }
    }
    if (illegal < game.num_distinct_actions()) {
        CHECK_THROWS(state.apply_step(illegal, legal), KASSEN_STATUS_ILLEGAL_ACTION);
        CHECK(legal == before && legal.data() == storage && state.hash() == hash);
    }
    CHECK_THROWS(state.apply_step(game.num_distinct_actions(), legal), KASSEN_STATUS_ACTION_OUT_OF_RANGE);
    CHECK(legal == before && legal.data() == storage && state.hash() == hash);
    // The README loop with a rejected move in the middle: it recovers and plays to the end.
    uint64_t rng = 11;
    int rejected = 0;
    for (int32_t p = state.current_player(); p != kassen::TERMINAL;) {
        try {
            if (rng_next(&rng) % 7 == 0) {
                state.apply_step(game.num_distinct_actions(), legal);
            }
            p = state.apply_step(legal[rng_next(&rng) % legal.size()], legal);
        } catch (const kassen::Error &e) {
            rejected += e.code() == KASSEN_STATUS_ACTION_OUT_OF_RANGE;
            CHECK(!legal.empty());
        }
    }
    CHECK(rejected > 0 && state.is_terminal() && legal.empty());
}

// Strings with a NUL byte inside are rejected with INVALID_ARGUMENT (5), never cut short.
static void nul_bytes(const std::string &id) {
    using namespace std::string_literals;
    CHECK(static_cast<int32_t>(KASSEN_STATUS_INVALID_ARGUMENT) == 5);
    CHECK_THROWS(kassen::Game(id + "\0x"s), KASSEN_STATUS_INVALID_ARGUMENT);
    CHECK_THROWS(kassen::Game(id, "{}\0{\"x\":1}"s), KASSEN_STATUS_INVALID_ARGUMENT);
    kassen::Game game(std::string_view(id), std::string_view("{}"));
    kassen::State state = game.new_initial_state(3);
    std::string saved = state.to_json();
    CHECK(kassen::State::from_json(saved) == state);
    CHECK_THROWS(kassen::State::from_json(saved + "\0junk"s), KASSEN_STATUS_INVALID_ARGUMENT);
    CHECK_THROWS(game.render_view_svg(state.view_json(0) + "\0"s), KASSEN_STATUS_INVALID_ARGUMENT);
    CHECK_THROWS(kassen::Batch(game, "{\"num_envs\":1}\0"s), KASSEN_STATUS_INVALID_ARGUMENT);
}

// SVG of a state and of a view, the replay page, bots and rollouts.
static void drawing_and_bots(const std::string &id) {
    kassen::Game game(id);
    kassen::State state = game.new_initial_state(9);
    kassen::Bot bot = kassen::Bot::random(4);
    kassen::Bot mc = kassen::Bot::monte_carlo(4, 2);
    for (int i = 0; i < 6 && !state.is_terminal(); i++) {
        uint32_t a = bot.choose(state);
        std::vector<uint32_t> legal = state.legal_actions();
        CHECK(std::find(legal.begin(), legal.end(), a) != legal.end());
        state.apply_action(i % 2 ? mc.choose(state) : a);
    }
    std::string svg = state.render_svg(0);
    CHECK(svg.find("<svg") != std::string::npos && svg == game.render_view_svg(state.view_json(0)));
    CHECK(state.render_svg(kassen::SPECTATOR).find("</svg>") != std::string::npos);
    CHECK(state.replay_html(0).find("<html") != std::string::npos);
    CHECK_THROWS(state.render_svg(99), KASSEN_STATUS_INVALID_PLAYER);
    CHECK_THROWS(game.render_view_svg("{"), KASSEN_STATUS_MALFORMED_JSON);
    CHECK_THROWS(kassen::Bot::monte_carlo(1, 0), KASSEN_STATUS_INVALID_ARGUMENT);
    std::vector<double> rollouts = state.random_rollouts(7, 3);
    CHECK(rollouts.size() == 3 * game.num_players() && rollouts == state.random_rollouts(7, 3));
}

// The search bots: by name, their statistics, and the background search (stopped, and
// destroyed while it runs).
static void search(const std::string &id) {
    kassen::Game game(id);
    kassen::State state = game.new_initial_state(4);
    kassen::Bot walker = kassen::Bot::random(2);
    while (!state.is_terminal() && (state.history().size() < 15 || state.legal_actions().size() < 2))
        state.apply_action(walker.choose(state));
    if (state.is_terminal()) return;
    std::vector<uint32_t> legal = state.legal_actions();
    kassen::Bot a = kassen::Bot::from_spec("ismcts:30", 1), b = kassen::Bot::from_spec("ismcts:30", 1);
    CHECK(a.last_decision_json() == "null");
    uint32_t x = a.choose(state);
    CHECK(x == b.choose(state) && std::find(legal.begin(), legal.end(), x) != legal.end());
    CHECK(a.last_decision_json().find("\"candidates\"") != std::string::npos);
    CHECK(kassen::Bot::specs_json().find("ismcts:hard") != std::string::npos);
    CHECK_THROWS(kassen::Bot::from_spec("ismcts:extreme", 1), KASSEN_STATUS_INVALID_CONFIG);
    kassen::Search bounded(state, "{\"iterations\": 30, \"time_ms\": null}", 1);
    kassen::Search twin(state, "{\"iterations\": 30, \"time_ms\": null}", 1);
    uint32_t y = bounded.wait();
    CHECK(y == twin.wait() && bounded.poll().done == 1 && std::find(legal.begin(), legal.end(), y) != legal.end());
    CHECK(bounded.result_json().find("\"iterations\":30") != std::string::npos);
    CHECK(bounded.result_json().find("\"reason\":\"") != std::string::npos);
    kassen::Search open(state, "{\"iterations\": null, \"time_ms\": 60000, \"threads\": 2}", 2);
    CHECK(open.poll().done == 0);
    open.stop();
    uint32_t z = open.wait();
    CHECK(std::find(legal.begin(), legal.end(), z) != legal.end());
    { kassen::Search dropped(state, "{\"level\": \"hard\"}", 3); }
    CHECK_THROWS(kassen::Search(state, "{\"threads\": 0}", 1), KASSEN_STATUS_INVALID_CONFIG);
    CHECK_THROWS(kassen::Search(state, "{\"time_ms\": 86400001}", 1), KASSEN_STATUS_CONFIG_OUT_OF_RANGE);
    CHECK_THROWS(kassen::Bot::from_spec("ismcts:4294967295", 1), KASSEN_STATUS_CONFIG_OUT_OF_RANGE);
    // Polled from one thread while another waits (a const Search shared by both).
    const kassen::Search shared(state, "{\"iterations\": null, \"time_ms\": 60000, \"max_nodes\": 50}", 4);
    uint32_t waited = 0;
    std::thread waiter([&] { waited = shared.wait(); });
    kassen_search_progress p{};
    while (p.iterations < 200) p = shared.poll();
    shared.stop();
    while (!p.done) p = shared.poll();
    waiter.join();
    CHECK(p.best_action == static_cast<int64_t>(waited));
    CHECK(shared.result_json().find("\"tree_full\":true") != std::string::npos);
}

// Two envs stepped by their lowest legal action until env 0 ends an episode (the mask written
// over before every other step, and forgotten); the episode is replayed through a State from
// kassen_batch_episode_seed and must give the same length and returns.
static void batch(const std::string &id) {
    kassen::Game game(id);
    kassen::Batch b(game, "{\"num_envs\": 2, \"seed\": 17}");
    kassen_batch_dims d = b.dims();
    CHECK(d.num_envs == 2 && d.num_players == game.num_players() && d.num_actions == game.num_distinct_actions());
    kassen::BatchBuffers buf(d);
    b.reset(buf.spans());
    kassen::State replay = game.new_initial_state(kassen::Batch::episode_seed(17, 0, 0));
    std::vector<uint32_t> actions(2);
    bool same = true;
    std::size_t steps = 0;
    while (true) {
        for (std::size_t e = 0; e < 2; e++) {
            const uint8_t *row = buf.mask.data() + e * d.num_actions;
            actions[e] = 0;
            while (actions[e] + 1u < game.num_distinct_actions() && !row[actions[e]]) actions[e]++;
        }
        same &= buf.player[0] == replay.current_player() && replay.legal_actions().front() == actions[0];
        replay.apply_action(actions[0]);
        if (steps % 2) {
            // Written over between calls: forget_mask makes the step write the mask in full.
            std::fill(buf.mask.begin(), buf.mask.end(), uint8_t{0xAB});
            b.forget_mask();
        }
        b.step(kassen::span<const uint32_t>(actions), buf.spans());
        steps++;
        if (buf.terminated[0] || steps > 100000) break;
    }
    CHECK(same && replay.is_terminal());
    CHECK(buf.episode_len[0] == steps);
    std::vector<double> returns = replay.returns();
    for (std::size_t p = 0; p < d.num_players; p++) CHECK(buf.final_returns[p] == static_cast<float>(returns[p]));
    std::vector<uint32_t> bad(2, game.num_distinct_actions());
    CHECK_THROWS(b.step(kassen::span<const uint32_t>(bad), buf.spans()), KASSEN_STATUS_ACTION_OUT_OF_RANGE);
    CHECK_THROWS(b.step(kassen::span<const uint32_t>(actions.data(), 1), buf.spans()), KASSEN_STATUS_INVALID_ARGUMENT);

    kassen::Batch bytes(game, "{\"num_envs\": 2, \"seed\": 17, \"obs_dtype\": \"uint8\"}");
    kassen::BatchBuffers u8(bytes.dims());
    kassen::Batch floats(game, "{\"num_envs\": 2, \"seed\": 17, \"obs_dtype\": \"float32\"}");
    kassen::BatchBuffers f32(floats.dims());
    bytes.reset(u8.spans());
    floats.reset(f32.spans());
    bool rounded = u8.obs_f32.empty() && u8.obs_u8.size() == f32.obs_f32.size();
    for (std::size_t i = 0; rounded && i < f32.obs_f32.size(); i++) {
        float v = std::min(std::max(f32.obs_f32[i], 0.0f), 1.0f) * 255.0f;
        rounded = u8.obs_u8[i] == static_cast<uint8_t>(std::nearbyint(v));
    }
    CHECK(rounded && u8.mask == f32.mask);

    // The default observation is the compact one, as bytes.
    kassen::Batch compact(game, "{\"num_envs\": 2, \"seed\": 17}");
    kassen::BatchBuffers c8(compact.dims());
    compact.reset(c8.spans());
    CHECK(c8.obs_f32.empty() && game.compact_len() > 0 && c8.obs_u8.size() == 2 * game.compact_len());
}

int main() {
    CHECK(kassen::abi_version() == KASSEN_ABI_VERSION);
    auto ids = game_ids();
    CHECK(ids.size() >= 4);
    for (const auto &id : ids) {
        try {
            steps(id, 21);
            step_errors(id);
            step_rejected_keeps_legal(id);
            nul_bytes(id);
            drawing_and_bots(id);
            search(id);
            batch(id);
        } catch (const kassen::Error &e) {
            g_failed++;
            std::fprintf(stderr, "%s: unexpected %s\n", id.c_str(), e.what());
        }
    }
    return summary();
}
