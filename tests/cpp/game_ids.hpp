// game_ids() for the C++ tests: the id of every registered game, from kassen::games_json().
#ifndef KASSEN_GAME_IDS_HPP
#define KASSEN_GAME_IDS_HPP

#include <cstddef>
#include <string>
#include <vector>

#include "kassen.hpp"

inline std::vector<std::string> game_ids() {
    std::vector<std::string> ids;
    std::string games = kassen::games_json();
    for (std::size_t at = 0; (at = games.find("\"id\":\"", at)) != std::string::npos;) {
        at += 6;
        ids.push_back(games.substr(at, games.find('"', at) - at));
    }
    return ids;
}

#endif // KASSEN_GAME_IDS_HPP
