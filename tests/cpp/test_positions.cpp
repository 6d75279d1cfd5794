// Constructed positions (docs/positions.md) through include/kassen.hpp, for every registered
// game: State::from_position and Game::load_position, the round trip of to_position_json, play
// to the end with a save and reload half-way (the save records the position), the board drawn,
// and the exceptions of broken documents; and every position file of the repository
// (core/src/games/<id>/positions/, scenarios of the rule tests) loads, round-trips and plays to
// the end. Last line: "N passed, M failed".
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "kassen.hpp"
#include "../c/harness.h"  // CHECK, the counters, rng_next and summary()
#include "check_throws.hpp"  // CHECK_THROWS
#include "game_ids.hpp"  // game_ids()

static uint32_t random_action(const kassen::State &s, uint64_t *rng) {
    std::vector<uint32_t> legal = s.legal_actions();
    return legal[rng_next(rng) % legal.size()];
}

static void check_game(const std::string &id, const std::string &other_id) {
    kassen::Game game(id);
    kassen::State s = game.new_initial_state(5);
    uint64_t rng = 17;
    for (int i = 0; i < 25 && !s.is_terminal(); i++) s.apply_action(random_action(s, &rng));

    const std::string doc = s.to_position_json();
    kassen::State p = kassen::State::from_position(doc);
    CHECK(p.started_at_position() && !s.started_at_position());
    CHECK(p.history().empty());
    CHECK(p.current_player() == s.current_player() && p.legal_actions() == s.legal_actions());
    CHECK(p.to_position_json() == doc);
    CHECK(game.load_position(doc) == p);
    // Written by name, it loads back to the same state.
    const std::string named = s.to_named_position_json();
    CHECK(named.find("\"format\":\"kassen-position-named-1\"") != std::string::npos);
    CHECK(kassen::State::from_position(named) == p);

    size_t steps = 0;
    while (!p.is_terminal()) {
        p.apply_action(random_action(p, &rng));
        if (++steps == 5) {
            std::string save = p.to_json();
            CHECK(save.find("\"position\":{") != std::string::npos);
            kassen::State back = kassen::State::from_json(save);
            CHECK(back == p);
            p = std::move(back);
        }
    }
    CHECK(p.render_svg(kassen::SPECTATOR).rfind("<svg", 0) == 0);

    CHECK_THROWS(kassen::State::from_position("{"), KASSEN_STATUS_MALFORMED_JSON);
    CHECK_THROWS(kassen::State::from_position(doc.substr(0, doc.size() - 1) + ",\"extra\":1}"),
                 KASSEN_STATUS_INVALID_POSITION);
    if (!other_id.empty()) {
        kassen::Game other(other_id);
        CHECK_THROWS(other.load_position(doc), KASSEN_STATUS_WRONG_GAME);
    }
}

#ifndef KASSEN_REPO
#define KASSEN_REPO "."  // run.sh passes the repository
#endif

// Every core/src/games/<id>/positions/*.json; returns how many files it played.
static int check_position_files(const std::string &id) {
    namespace fs = std::filesystem;
    fs::path dir = fs::path(KASSEN_REPO) / "core" / "src" / "games" / id / "positions";
    if (!fs::is_directory(dir)) return 0;
    std::vector<fs::path> files;
    for (const auto &e : fs::directory_iterator(dir)) {
        if (e.path().extension() == ".json") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    uint64_t rng = 29;
    for (const auto &path : files) {
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        kassen::State p = kassen::State::from_position(text.str());
        CHECK(p.started_at_position());
        // Equal as positions: a file may stop at a chance node, which loading resolves.
        const std::string doc = p.to_position_json();
        CHECK(kassen::State::from_position(doc).to_position_json() == doc);
        while (!p.is_terminal()) p.apply_action(random_action(p, &rng));
        CHECK(p.returns().size() == static_cast<size_t>(p.game().num_players()));
    }
    return static_cast<int>(files.size());
}

int main() {
    auto ids = game_ids();
    CHECK(!ids.empty());
    for (size_t i = 0; i < ids.size(); i++) {
        try {
            check_game(ids[i], ids.size() > 1 ? ids[(i + 1) % ids.size()] : std::string());
        } catch (const kassen::Error &e) {
            g_failed++;
            std::fprintf(stderr, "%s: unexpected %s\n", ids[i].c_str(), e.what());
        }
    }
    int files = 0;
    for (const auto &id : ids) {
        try {
            files += check_position_files(id);
        } catch (const kassen::Error &e) {
            g_failed++;
            std::fprintf(stderr, "%s position files: unexpected %s\n", id.c_str(), e.what());
        }
    }
    CHECK(files > 0);
    std::printf("positions: %d files played\n", files);
    return summary();
}
