// kassen.hpp: a header-only C++17 wrapper over the kassen C ABI (kassen.h).
//
// - kassen::Game, kassen::State and kassen::Buf own their C handles (RAII): they move, never
//   copy; State::clone() is the explicit copy.
// - Every failure throws kassen::Error, which carries the C status (error.code() is the same
//   stable number as the C status and Python's exc.code) and the library's message. A call
//   that throws leaves the state exactly as it was.
// - Unbounded results come back as std::string (JSON text) or std::vector; the hot calls
//   (legal_actions, legal_actions_mask, observation_tensor, returns) also have overloads that
//   fill a caller buffer (kassen::span) and allocate nothing.
// - A moved-from handle is empty: calling it throws Error with KASSEN_STATUS_NULL_POINTER.
//
// Check the library at startup: kassen::abi_version() == KASSEN_ABI_VERSION.
#ifndef KASSEN_HPP
#define KASSEN_HPP

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "kassen.h"

namespace kassen {

/// The player id of chance nodes (current_player) and of the spectator (views, events).
constexpr int32_t CHANCE = -1;
/// The observer with public information only.
constexpr int32_t SPECTATOR = -1;
/// current_player() of a finished game.
constexpr int32_t TERMINAL = -4;

/// A failed kassen call: the status (code) and the library's message.
class Error : public std::runtime_error {
  public:
    Error(kassen_status status, const std::string &message)
        : std::runtime_error(std::string(kassen_status_name(static_cast<int32_t>(status))) + ": " + message),
          status_(status), message_(message) {}
    /// The C status of the failure.
    kassen_status status() const noexcept { return status_; }
    /// The stable error code (the C status as a number).
    int32_t code() const noexcept { return static_cast<int32_t>(status_); }
    /// The status constant's name, e.g. "KASSEN_STATUS_ILLEGAL_ACTION".
    const char *status_name() const noexcept { return kassen_status_name(code()); }
    /// The library's message (kassen_last_error_message at the time of the failure).
    const std::string &message() const noexcept { return message_; }

  private:
    kassen_status status_;
    std::string message_;
};

/// A view of `size` contiguous elements owned by the caller (std::span for C++17).
template <class T> class span {
  public:
    constexpr span() noexcept = default;
    constexpr span(T *data, std::size_t size) noexcept : data_(data), size_(size) {}
    template <std::size_t N> constexpr span(T (&array)[N]) noexcept : data_(array), size_(N) {}
    span(std::vector<T> &v) noexcept : data_(v.data()), size_(v.size()) {}
    /// A read-only span over a vector.
    template <class U, class = std::enable_if_t<std::is_const<T>::value && std::is_same<const U, T>::value>>
    span(const std::vector<U> &v) noexcept : data_(v.data()), size_(v.size()) {}
    constexpr T *data() const noexcept { return data_; }
    constexpr std::size_t size() const noexcept { return size_; }
    constexpr T *begin() const noexcept { return data_; }
    constexpr T *end() const noexcept { return data_ + size_; }
    constexpr T &operator[](std::size_t i) const noexcept { return data_[i]; }

  private:
    T *data_ = nullptr;
    std::size_t size_ = 0;
};

namespace detail {
/// Throws Error for any status but KASSEN_STATUS_OK.
inline void check(kassen_status status) {
    if (status != KASSEN_STATUS_OK) {
        throw Error(status, kassen_last_error_message());
    }
}

/// The bytes of `s` for the explicit-length (`_n`) inputs.
inline const uint8_t *bytes(std::string_view s) noexcept {
    return s.empty() ? nullptr : reinterpret_cast<const uint8_t *>(s.data());
}

/// State::apply_step's buffer for the legal actions of this thread's steps.
inline std::vector<uint32_t> &step_scratch() {
    thread_local std::vector<uint32_t> scratch;
    return scratch;
}

/// Runs `call(buf, cap, &len)` twice (size, then fill) into a new vector.
template <class T, class Call> std::vector<T> collect(Call &&call) {
    std::size_t len = 0;
    kassen_status status = call(nullptr, 0, &len);
    if (status == KASSEN_STATUS_OK) {
        return {};
    }
    if (status != KASSEN_STATUS_BUFFER_TOO_SMALL) {
        check(status);
    }
    std::vector<T> out(len);
    check(call(out.data(), out.size(), &len));
    out.resize(len);
    return out;
}
} // namespace detail

/// The version string of the linked library, e.g. "0.1.0".
inline std::string version() { return kassen_version(); }
/// The ABI version of the linked library; compare with KASSEN_ABI_VERSION.
inline uint32_t abi_version() noexcept { return kassen_abi_version(); }
/// The name of a status number, e.g. "KASSEN_STATUS_ILLEGAL_ACTION" for 200.
inline std::string status_name(int32_t status) { return kassen_status_name(status); }

/// A byte buffer the library allocated (JSON, strings); released with kassen_buf_free.
class Buf {
  public:
    Buf() noexcept = default;
    Buf(const Buf &) = delete;
    Buf &operator=(const Buf &) = delete;
    Buf(Buf &&other) noexcept : buf_(other.buf_) { other.buf_ = kassen_buf{nullptr, 0}; }
    Buf &operator=(Buf &&other) noexcept {
        if (this != &other) {
            kassen_buf_free(&buf_);
            buf_ = other.buf_;
            other.buf_ = kassen_buf{nullptr, 0};
        }
        return *this;
    }
    ~Buf() { kassen_buf_free(&buf_); }

    /// The bytes, valid while this Buf lives.
    std::string_view view() const noexcept {
        return buf_.data ? std::string_view(buf_.data, buf_.len) : std::string_view();
    }
    /// A copy of the bytes.
    std::string str() const { return std::string(view()); }
    /// The C buffer to pass as an output argument (freed first if it holds bytes).
    kassen_buf *out() noexcept {
        kassen_buf_free(&buf_);
        return &buf_;
    }

  private:
    kassen_buf buf_{nullptr, 0};
};

namespace detail {
/// Owns one C handle, freed with `Free`: moves (leaving the source empty), never copies.
template <class T, void (*Free)(T *)> class Owner {
  public:
    Owner() noexcept = default;
    explicit Owner(T *ptr) noexcept : ptr_(ptr) {}
    Owner(const Owner &) = delete;
    Owner &operator=(const Owner &) = delete;
    Owner(Owner &&other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
    Owner &operator=(Owner &&other) noexcept {
        if (this != &other) {
            Free(ptr_);
            ptr_ = std::exchange(other.ptr_, nullptr);
        }
        return *this;
    }
    ~Owner() { Free(ptr_); }
    operator T *() const noexcept { return ptr_; }
    /// The slot a C constructor writes the new handle to (this must be empty).
    T **out() noexcept { return &ptr_; }

  private:
    T *ptr_ = nullptr;
};

template <class Call> std::string text(Call &&call) {
    Buf buf;
    check(call(buf.out()));
    return buf.str();
}
} // namespace detail

/// The registered games as JSON: [{"id", "name", "configs": [...]}, ...].
inline std::string games_json() {
    return detail::text([](kassen_buf *out) { return kassen_games_json(out); });
}

class State;

/// A game under one configuration (owning handle of kassen_game).
class Game {
  public:
    /// Creates game `id` with `config_json` (a JSON object; empty for the defaults). A NUL
    /// byte inside either string throws Error(KASSEN_STATUS_INVALID_ARGUMENT).
    explicit Game(std::string_view id, std::string_view config_json = std::string_view()) {
        detail::check(kassen_game_new_n(detail::bytes(id), id.size(), detail::bytes(config_json),
                                        config_json.size(), game_.out()));
    }
    /// Takes ownership of a handle from the C API.
    static Game adopt(kassen_game *game) noexcept { return Game(game); }

    /// The C handle (still owned by this Game).
    const kassen_game *get() const noexcept { return game_; }

    /// id, name, players, num_distinct_actions, observation_shape, config, provenance, ...
    std::string info_json() const {
        return detail::text([this](kassen_buf *out) { return kassen_game_info_json(game_, out); });
    }
    uint32_t num_players() const {
        uint32_t n = 0;
        detail::check(kassen_game_num_players(game_, &n));
        return n;
    }
    uint32_t num_distinct_actions() const {
        uint32_t n = 0;
        detail::check(kassen_game_num_distinct_actions(game_, &n));
        return n;
    }
    std::size_t observation_len() const {
        std::size_t n = 0;
        detail::check(kassen_game_observation_len(game_, &n));
        return n;
    }
    /// Bytes of a compact observation (its fields: `compact_layout` in the info JSON).
    std::size_t compact_len() const {
        std::size_t n = 0;
        detail::check(kassen_game_compact_len(game_, &n));
        return n;
    }
    /// The initial state, its RNG seeded by `seed`.
    State new_initial_state(uint64_t seed) const;
    /// A game of this very game and config started at a constructed position (a position
    /// document, see docs/positions.md). Another game's document throws
    /// Error(KASSEN_STATUS_WRONG_GAME), a broken one Error(KASSEN_STATUS_INVALID_POSITION).
    State load_position(std::string_view position_json) const;
    /// A short primer on the game's rules for a language model's system prompt (markdown).
    std::string rules_primer() const {
        return detail::text([&](kassen_buf *out) { return kassen_game_rules_primer(game_, out); });
    }
    /// Draws a view of this game (JSON text, as State::view_json writes it) as SVG.
    /// A NUL byte inside `view_json` throws Error(KASSEN_STATUS_INVALID_ARGUMENT).
    std::string render_view_svg(std::string_view view_json) const {
        return detail::text([&](kassen_buf *out) {
            return kassen_game_render_view_svg_n(game_, detail::bytes(view_json), view_json.size(), out);
        });
    }

  private:
    explicit Game(kassen_game *game) noexcept : game_(game) {}
    detail::Owner<kassen_game, kassen_game_free> game_;
};

/// A chance outcome: its action id and probability.
struct ChanceOutcome {
    uint32_t action;
    double probability;
};

/// A game state (owning handle of kassen_state).
class State {
  public:
    /// Takes ownership of a handle from the C API.
    static State adopt(kassen_state *state) noexcept { return State(state); }
    /// Loads a state saved by to_json (the action log is replayed and checked).
    /// A NUL byte inside `json` throws Error(KASSEN_STATUS_INVALID_ARGUMENT).
    static State from_json(std::string_view json) {
        kassen_state *out = nullptr;
        detail::check(kassen_state_from_json_n(detail::bytes(json), json.size(), &out));
        return State(out);
    }
    /// A game started at a constructed position: a position document (format
    /// "kassen-position-1", see docs/positions.md) of any registered game, checked against its
    /// schema and rules (Error(KASSEN_STATUS_INVALID_POSITION) names the field and the rule).
    /// Its history holds only the actions after the position; to_json saves the position.
    static State from_position(std::string_view position_json) {
        kassen_state *out = nullptr;
        detail::check(kassen_state_from_position_n(detail::bytes(position_json), position_json.size(), &out));
        return State(out);
    }

    /// The C handle (still owned by this State).
    kassen_state *get() const noexcept { return state_; }

    /// An independent copy (position, RNG and action log).
    State clone() const {
        kassen_state *out = nullptr;
        detail::check(kassen_state_clone(state_, &out));
        return State(out);
    }
    /// The game of this state (a new handle).
    Game game() const {
        kassen_game *out = nullptr;
        detail::check(kassen_state_game(state_, &out));
        return Game::adopt(out);
    }
    /// A seat, CHANCE (-1, only with "explicit_chance") or TERMINAL (-4).
    int32_t current_player() const {
        int32_t p = 0;
        detail::check(kassen_state_current_player(state_, &p));
        return p;
    }
    bool is_terminal() const {
        uint8_t over = 0;
        detail::check(kassen_state_is_terminal(state_, &over));
        return over != 0;
    }
    /// The legal action ids, ascending (chance outcome ids at a chance node).
    std::vector<uint32_t> legal_actions() const {
        return detail::collect<uint32_t>([this](uint32_t *b, std::size_t c, std::size_t *n) {
            return kassen_state_legal_actions(state_, b, c, n);
        });
    }
    /// Fills `out` with the legal action ids and returns their number (no allocation);
    /// throws Error(KASSEN_STATUS_BUFFER_TOO_SMALL) if they do not fit.
    std::size_t legal_actions(span<uint32_t> out) const {
        std::size_t n = 0;
        detail::check(kassen_state_legal_actions(state_, out.data(), out.size(), &n));
        return n;
    }
    /// One flag per action id (1 legal, 0 not).
    std::vector<uint8_t> legal_actions_mask() const {
        return detail::collect<uint8_t>([this](uint8_t *b, std::size_t c, std::size_t *n) {
            return kassen_state_legal_actions_mask(state_, b, c, n);
        });
    }
    /// Fills `out` with the mask and returns its length (no allocation).
    std::size_t legal_actions_mask(span<uint8_t> out) const {
        std::size_t n = 0;
        detail::check(kassen_state_legal_actions_mask(state_, out.data(), out.size(), &n));
        return n;
    }
    /// The pure transition: a new state after `action`; this one is unchanged.
    State child(uint32_t action) const {
        kassen_state *out = nullptr;
        detail::check(kassen_state_apply(state_, action, &out));
        return State(out);
    }
    /// Applies `action` for whoever is to act; on failure the state is unchanged.
    void apply_action(uint32_t action) { detail::check(kassen_state_apply_in_place(state_, action)); }
    /// Applies `action` on behalf of `player` (CHANCE for a chance outcome).
    void apply_action_as(int32_t player, uint32_t action) {
        detail::check(kassen_state_apply_as(state_, player, action));
    }
    /// One call per step: applies `action` (as apply_action), fills `legal` with the legal
    /// actions of the new state and returns the player to act next (a seat, CHANCE or
    /// TERMINAL). `legal`'s capacity is reused: it allocates only when the actions do not fit
    /// (size it once with reserve(game.num_distinct_actions())). On failure it throws and
    /// both the state and `legal` are unchanged, so a loop may catch a rejected action and go
    /// on drawing from `legal`. The actions are written to a per-thread scratch buffer (grown
    /// to the largest count seen on the thread, never zero-filled per step) and copied into
    /// `legal` only on success.
    int32_t apply_step(uint32_t action, std::vector<uint32_t> &legal) {
        std::vector<uint32_t> &scratch = detail::step_scratch();
        if (scratch.size() < legal.capacity()) {
            scratch.resize(legal.capacity());  // once per thread and size
        }
        int32_t next = 0;
        std::size_t len = 0;
        kassen_status status =
            kassen_state_apply_step(state_, action, &next, scratch.data(), scratch.size(), &len);
        if (status == KASSEN_STATUS_BUFFER_TOO_SMALL) {  // the step was taken back
            scratch.resize(len);
            status = kassen_state_apply_step(state_, action, &next, scratch.data(), scratch.size(), &len);
        }
        detail::check(status);
        legal.assign(scratch.data(), scratch.data() + len);
        return next;
    }
    /// apply_step into a caller buffer: the number of legal actions goes to `legal_len`;
    /// throws Error(KASSEN_STATUS_BUFFER_TOO_SMALL) (the state unchanged) if they do not fit.
    int32_t apply_step(uint32_t action, span<uint32_t> legal, std::size_t &legal_len) {
        int32_t next = 0;
        detail::check(kassen_state_apply_step(state_, action, &next, legal.data(), legal.size(), &legal_len));
        return next;
    }
    /// The outcomes of a chance node (empty elsewhere). Not for players' eyes.
    std::vector<ChanceOutcome> chance_outcomes() const {
        std::size_t len = 0;
        kassen_status status = kassen_state_chance_outcomes(state_, nullptr, nullptr, 0, &len);
        if (status == KASSEN_STATUS_OK) {
            return {};
        }
        if (status != KASSEN_STATUS_BUFFER_TOO_SMALL) {
            detail::check(status);
        }
        std::vector<uint32_t> ids(len);
        std::vector<double> probs(len);
        detail::check(kassen_state_chance_outcomes(state_, ids.data(), probs.data(), len, &len));
        std::vector<ChanceOutcome> out;
        out.reserve(len);
        for (std::size_t i = 0; i < len; i++) {
            out.push_back(ChanceOutcome{ids[i], probs[i]});
        }
        return out;
    }
    /// The return of every seat (all 0 until the game is over).
    std::vector<double> returns() const {
        return detail::collect<double>([this](double *b, std::size_t c, std::size_t *n) {
            return kassen_state_returns(state_, b, c, n);
        });
    }
    /// Fills `out` with the returns and returns the number of seats (no allocation).
    std::size_t returns(span<double> out) const {
        std::size_t n = 0;
        detail::check(kassen_state_returns(state_, out.data(), out.size(), &n));
        return n;
    }
    /// The action log since the initial state. Not for players' eyes.
    std::vector<uint32_t> history() const {
        return detail::collect<uint32_t>([this](uint32_t *b, std::size_t c, std::size_t *n) {
            return kassen_state_history(state_, b, c, n);
        });
    }
    /// A short description of `action` (show a seat only its own legal actions).
    std::string action_to_string(uint32_t action) const {
        return detail::text([&](kassen_buf *out) { return kassen_state_action_to_string(state_, action, out); });
    }
    /// `action` as a JSON object (show a seat only its own legal actions).
    std::string action_to_json(uint32_t action) const {
        return detail::text([&](kassen_buf *out) { return kassen_state_action_to_json(state_, action, out); });
    }
    /// What `player` (a seat or SPECTATOR) may know, as JSON.
    std::string view_json(int32_t player) const {
        return detail::text([&](kassen_buf *out) { return kassen_state_view_json(state_, player, out); });
    }
    /// What `player` (a seat or SPECTATOR) knows as one text for a language-model agent
    /// (docs/text.md), with its numbered legal moves where it is to act.
    std::string text_observation(int32_t player) const {
        return detail::text([&](kassen_buf *out) { return kassen_state_text_observation(state_, player, out); });
    }
    /// The legal action of `player` that `text` means (a move string, its number or a JSON
    /// action); throws Error(KASSEN_STATUS_UNREADABLE_MOVE) when it names none or several.
    uint32_t parse_move(int32_t player, std::string_view text) const {
        uint32_t out = 0;
        detail::check(kassen_state_parse_move_n(state_, player, detail::bytes(text), text.size(), &out));
        return out;
    }
    /// The events `player` has seen, as a JSON array.
    std::string events_json(int32_t player) const {
        return detail::text([&](kassen_buf *out) { return kassen_state_events_json(state_, player, out); });
    }
    /// The events of `player` from its `from_index`-th on, as a JSON array.
    std::string events_since_json(int32_t player, uint64_t from_index) const {
        return detail::text(
            [&](kassen_buf *out) { return kassen_state_events_since_json(state_, player, from_index, out); });
    }
    /// `events_since_json` with a sentence (`"text"`) in each event.
    std::string events_text_json(int32_t player, uint64_t from_index) const {
        return detail::text(
            [&](kassen_buf *out) { return kassen_state_events_text_json(state_, player, from_index, out); });
    }
    /// The observation tensor of `player` (a seat or SPECTATOR).
    std::vector<float> observation_tensor(int32_t player) const {
        return detail::collect<float>([&](float *b, std::size_t c, std::size_t *n) {
            return kassen_state_observation_tensor(state_, player, b, c, n);
        });
    }
    /// Fills `out` with the observation tensor and returns its length (no allocation).
    std::size_t observation_tensor(int32_t player, span<float> out) const {
        std::size_t n = 0;
        detail::check(kassen_state_observation_tensor(state_, player, out.data(), out.size(), &n));
        return n;
    }
    /// The compact observation of `player` (a seat or SPECTATOR): every fact it may know, as
    /// bytes laid out as `compact_layout` in the info JSON.
    std::vector<uint8_t> compact_observation(int32_t player) const {
        return detail::collect<uint8_t>([&](uint8_t *b, std::size_t c, std::size_t *n) {
            return kassen_state_compact_observation(state_, player, b, c, n);
        });
    }
    /// Fills `out` with the compact observation and returns its length (no allocation).
    std::size_t compact_observation(int32_t player, span<uint8_t> out) const {
        std::size_t n = 0;
        detail::check(kassen_state_compact_observation(state_, player, out.data(), out.size(), &n));
        return n;
    }
    /// The saved state (every seat's secrets: not for players' eyes).
    std::string to_json() const {
        return detail::text([this](kassen_buf *out) { return kassen_state_to_json(state_, out); });
    }
    /// The current state as a position document (every seat's secrets: not for players' eyes).
    std::string to_position_json() const {
        return detail::text([this](kassen_buf *out) { return kassen_state_to_position_json(state_, out); });
    }
    /// The current state as a position document written by name ("kassen-position-named-1":
    /// places, pieces, cards and seats as the rulebook names them; every seat's secrets: not
    /// for players' eyes). from_position loads it back.
    std::string to_named_position_json() const {
        return detail::text([this](kassen_buf *out) { return kassen_state_to_named_position_json(state_, out); });
    }
    /// Whether the game started at a constructed position (from_position or its save).
    bool started_at_position() const {
        uint8_t yes = 0;
        detail::check(kassen_state_started_at_position(state_, &yes));
        return yes != 0;
    }
    /// The board as `player` (a seat or SPECTATOR) sees it, as an SVG document.
    std::string render_svg(int32_t player) const {
        return detail::text([&](kassen_buf *out) { return kassen_state_render_svg(state_, player, out); });
    }
    /// A self-contained HTML page replaying this game as `player` saw it.
    std::string replay_html(int32_t player) const {
        return detail::text([&](kassen_buf *out) { return kassen_state_replay_html(state_, player, out); });
    }
    /// The returns of `n` random games played from here (n rows of num_players), drawn from a
    /// generator seeded `seed`; the state is unchanged.
    std::vector<double> random_rollouts(uint64_t seed, std::size_t n) const {
        return detail::collect<double>([&](double *b, std::size_t c, std::size_t *len) {
            return kassen_state_random_rollouts(state_, seed, n, b, c, len);
        });
    }
    /// The stable hash, identical in Rust, C, C++, C# and Python.
    uint64_t hash() const {
        uint64_t h = 0;
        detail::check(kassen_state_hash(state_, &h));
        return h;
    }
    /// Same game, config, seed, action log and position.
    bool operator==(const State &other) const {
        uint8_t eq = 0;
        detail::check(kassen_state_equal(state_, other.state_, &eq));
        return eq != 0;
    }
    bool operator!=(const State &other) const { return !(*this == other); }

  private:
    explicit State(kassen_state *state) noexcept : state_(state) {}
    detail::Owner<kassen_state, kassen_state_free> state_;
};

inline State Game::new_initial_state(uint64_t seed) const {
    kassen_state *out = nullptr;
    detail::check(kassen_state_new(game_, seed, &out));
    return State::adopt(out);
}

inline State Game::load_position(std::string_view position_json) const {
    kassen_state *out = nullptr;
    detail::check(kassen_game_load_position_n(game_, detail::bytes(position_json), position_json.size(), &out));
    return State::adopt(out);
}

/// A built-in bot (owning handle of kassen_bot).
class Bot {
  public:
    /// Picks a uniformly random legal action; deterministic given `seed`.
    static Bot random(uint64_t seed) {
        kassen_bot *out = nullptr;
        detail::check(kassen_bot_new_random(seed, &out));
        return Bot(out);
    }
    /// Flat Monte Carlo over `playouts` random games per candidate action.
    static Bot monte_carlo(uint64_t seed, uint32_t playouts) {
        kassen_bot *out = nullptr;
        detail::check(kassen_bot_new_monte_carlo(seed, playouts, &out));
        return Bot(out);
    }
    /// Any built-in bot by name (see kassen_bot_new): "random", "monte_carlo[:P]",
    /// "ismcts:easy|normal|hard", "ismcts:N", optionally "@<T>ms".
    static Bot from_spec(std::string_view spec, uint64_t seed) {
        kassen_bot *out = nullptr;
        detail::check(kassen_bot_new_n(detail::bytes(spec), spec.size(), seed, &out));
        return Bot(out);
    }
    /// The built-in bots as JSON: [{"spec", "name", "description"}, ...].
    static std::string specs_json() {
        return detail::text([](kassen_buf *out) { return kassen_bots_json(out); });
    }
    /// The bot's action for the player to act in `state` (unchanged).
    uint32_t choose(const State &state) {
        uint32_t a = 0;
        detail::check(kassen_bot_choose(bot_, state.get(), &a));
        return a;
    }
    /// The statistics of the last decision of a search bot as JSON ("null" for other bots).
    std::string last_decision_json() const {
        return detail::text([&](kassen_buf *out) { return kassen_bot_last_decision_json(bot_, out); });
    }

  private:
    explicit Bot(kassen_bot *bot) noexcept : bot_(bot) {}
    detail::Owner<kassen_bot, kassen_bot_free> bot_;
};

/// An IS-MCTS search on worker threads (owning handle of kassen_search): starts at once,
/// poll() and stop() never block, wait() and result_json() block until it ends. All four may
/// be called from several threads at once (poll() while another thread waits answers "running"
/// or "done", never throws); only destruction needs the search to itself. Destroying it stops
/// the search and joins its threads.
class Search {
  public:
    /// Starts searching `state` (copied) with `params_json` (empty: the normal level; see
    /// kassen_search_start).
    Search(const State &state, std::string_view params_json, uint64_t seed) {
        detail::check(kassen_search_start_n(state.get(), detail::bytes(params_json), params_json.size(), seed,
                                            search_.out()));
    }
    kassen_search_progress poll() const {
        kassen_search_progress p{};
        detail::check(kassen_search_poll(search_, &p));
        return p;
    }
    void stop() const { detail::check(kassen_search_stop(search_)); }
    /// Blocks until the search ends; the chosen action.
    uint32_t wait() const {
        uint32_t a = 0;
        detail::check(kassen_search_wait(search_, &a));
        return a;
    }
    /// Blocks until the search ends; the decision with its statistics as JSON.
    std::string result_json() const {
        return detail::text([&](kassen_buf *out) { return kassen_search_result_json(search_, out); });
    }

  private:
    detail::Owner<kassen_search, kassen_search_free> search_;
};

/// Caller-owned output buffers of a Batch (see kassen_batch_out for their sizes); exactly one
/// of obs_f32 and obs_u8 is used, by the batch's observation type; legal_count and legal_ids
/// are optional (both empty: not written). Do not write into `mask` between calls.
struct BatchSpans {
    span<float> obs_f32;
    span<uint8_t> obs_u8;
    span<uint8_t> mask;
    span<int32_t> player;
    span<float> rewards;
    span<uint8_t> terminated;
    span<uint8_t> truncated;
    span<float> final_returns;
    span<uint32_t> episode_len;
    span<uint32_t> legal_count;
    span<uint32_t> legal_ids;

    kassen_batch_out to_c() const noexcept {
        bool u8 = obs_u8.size() > 0;
        return kassen_batch_out{u8 ? nullptr : obs_f32.data(),
                                u8 ? obs_u8.data() : nullptr,
                                u8 ? obs_u8.size() : obs_f32.size(),
                                mask.data(),
                                mask.size(),
                                player.data(),
                                player.size(),
                                rewards.data(),
                                rewards.size(),
                                terminated.data(),
                                terminated.size(),
                                truncated.data(),
                                truncated.size(),
                                final_returns.data(),
                                final_returns.size(),
                                episode_len.data(),
                                episode_len.size(),
                                legal_count.size() ? legal_count.data() : nullptr,
                                legal_count.size(),
                                legal_ids.size() ? legal_ids.data() : nullptr,
                                legal_ids.size()};
    }
};

/// Buffers sized for one batch, owned by this object (allocated once).
struct BatchBuffers {
    explicit BatchBuffers(const kassen_batch_dims &d)
        : obs_f32(d.obs_uint8 ? 0 : d.num_envs * d.obs_len), obs_u8(d.obs_uint8 ? d.num_envs * d.obs_len : 0),
          mask(d.num_envs * d.num_actions), player(d.num_envs), rewards(d.num_envs * d.num_players),
          terminated(d.num_envs), truncated(d.num_envs), final_returns(d.num_envs * d.num_players),
          episode_len(d.num_envs), legal_count(d.num_envs), legal_ids(d.num_envs * d.max_legal_actions) {}
    std::vector<float> obs_f32;
    std::vector<uint8_t> obs_u8;
    std::vector<uint8_t> mask;
    std::vector<int32_t> player;
    std::vector<float> rewards;
    std::vector<uint8_t> terminated;
    std::vector<uint8_t> truncated;
    std::vector<float> final_returns;
    std::vector<uint32_t> episode_len;
    /// Number of legal actions per env, and the first max_legal_actions of them per env.
    std::vector<uint32_t> legal_count;
    std::vector<uint32_t> legal_ids;

    BatchSpans spans() noexcept {
        return BatchSpans{span<float>(obs_f32),         span<uint8_t>(obs_u8),      span<uint8_t>(mask),
                          span<int32_t>(player),        span<float>(rewards),       span<uint8_t>(terminated),
                          span<uint8_t>(truncated),     span<float>(final_returns), span<uint32_t>(episode_len),
                          span<uint32_t>(legal_count),  span<uint32_t>(legal_ids)};
    }
};

/// N states of one game stepped by one call into caller buffers (owning handle of
/// kassen_batch); `options_json` as for kassen_batch_new, e.g. {"num_envs": 64, "seed": 1}.
class Batch {
  public:
    /// A NUL byte inside `options_json` throws Error(KASSEN_STATUS_INVALID_ARGUMENT).
    Batch(const Game &game, std::string_view options_json) {
        detail::check(kassen_batch_new_n(game.get(), detail::bytes(options_json), options_json.size(),
                                         batch_.out()));
    }

    /// The sizes of the batch's buffers.
    kassen_batch_dims dims() const {
        kassen_batch_dims d{};
        detail::check(kassen_batch_get_dims(batch_, &d));
        return d;
    }
    /// Starts the next episode in every env (reseeded when `seed` is non-NULL) and writes the
    /// first observations.
    void reset(const BatchSpans &out, const uint64_t *seed = nullptr) {
        kassen_batch_out c = out.to_c();
        detail::check(kassen_batch_reset(batch_, seed, &c));
    }
    /// Applies `actions[i]` to env i (ended episodes restart in the same call); on failure
    /// nothing changes.
    void step(span<const uint32_t> actions, const BatchSpans &out) {
        kassen_batch_out c = out.to_c();
        detail::check(kassen_batch_step(batch_, actions.data(), actions.size(), &c));
    }
    /// Makes the next `step` write the mask span in full (see `kassen_batch_forget_mask`):
    /// call it before stepping into a new mask buffer that may sit where the last one was.
    void forget_mask() { detail::check(kassen_batch_forget_mask(batch_)); }
    /// The seed of env `slot`'s `episode`-th episode in a batch seeded `seed`.
    static uint64_t episode_seed(uint64_t seed, std::size_t slot, uint64_t episode) noexcept {
        return kassen_batch_episode_seed(seed, slot, episode);
    }

  private:
    detail::Owner<kassen_batch, kassen_batch_free> batch_;
};

} // namespace kassen

#endif // KASSEN_HPP
