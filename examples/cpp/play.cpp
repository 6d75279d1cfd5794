// Plays one random game of every registered game through kassen.hpp and prints the returns.
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "kassen.hpp"

int main() {
    if (kassen::abi_version() != KASSEN_ABI_VERSION) return 1;  // header and library differ
    std::string games = kassen::games_json();
    std::mt19937 rng(7);
    for (size_t at = 0; (at = games.find("\"id\":\"", at)) != std::string::npos;) {
        at += 6;
        std::string id = games.substr(at, games.find('"', at) - at);
        try {
            kassen::Game game(id);
            kassen::State state = game.new_initial_state(42);
            std::vector<uint32_t> legal = state.legal_actions();
            legal.reserve(game.num_distinct_actions());  // apply_step reuses it: no allocation
            for (int32_t p = state.current_player(); p != kassen::TERMINAL;) {
                p = state.apply_step(legal[rng() % legal.size()], legal);
            }
            std::printf("%s:", id.c_str());
            for (double r : state.returns()) std::printf(" %+g", r);
            std::printf("\n");
        } catch (const kassen::Error &e) {
            std::fprintf(stderr, "%s: %s (code %d)\n", id.c_str(), e.what(), e.code());
            return 1;
        }
    }
    return 0;
}
