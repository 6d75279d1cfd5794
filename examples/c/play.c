/* Plays one random game of Samurai through the kassen C ABI and prints the returns. */
#include <stdio.h>
#include <stdlib.h>

#include "kassen.h"

int main(void) {
    kassen_game *game = NULL;
    kassen_state *state = NULL;
    if (kassen_game_new("samurai", "{\"players\": 3}", &game) != KASSEN_STATUS_OK ||
        kassen_state_new(game, 42, &state) != KASSEN_STATUS_OK) {
        fprintf(stderr, "kassen: %s\n", kassen_last_error_message());
        return 1;
    }
    uint8_t over = 0;
    uint32_t actions[4096];
    size_t n = 0;
    while (kassen_state_is_terminal(state, &over) == KASSEN_STATUS_OK && !over &&
           kassen_state_legal_actions(state, actions, 4096, &n) == KASSEN_STATUS_OK) {
        kassen_state_apply_in_place(state, actions[rand() % n]);
    }
    double returns[4];
    kassen_state_returns(state, returns, 4, &n);
    for (size_t i = 0; i < n; i++) printf("seat %zu: %+.0f\n", i, returns[i]);
    kassen_state_free(state);
    kassen_game_free(game);
    return 0;
}
