//! Positions: every reachable state validates, each corruption is rejected with its rule,
//! samples keep the observer's view, and the scenario files are these
//! scenarios. The checks every game shares (position files load and play to the end, the
//! fuzz, playout-policy games): `crate::testing::positions`.

use std::sync::Arc;

use serde_json::json;

use super::super::action::Action;
use super::super::state::{cell, Pending, Phase, State, EMPTY};
use super::super::{Data, Samurai};
use super::{sample_position, validate_position};
use crate::events::Events;
use crate::game::{Game, Player};
use crate::rng::Rng;
use crate::testing::positions::{self, playout, Scenario};

fn game(players: usize) -> Samurai {
    Samurai::new(players, Arc::new(Data::embedded())).unwrap()
}

#[test]
fn every_state_of_random_games_validates() {
    let mut states = 0;
    for players in 2..=4 {
        states += positions::every_state_validates(&game(players), 0..300, 0x5a, |s| format!("{players}p {s:?}"));
    }
    println!("{states} states validated");
    assert!(states > 50_000, "{states}");
}

#[test]
fn samples_keep_the_observers_view_and_validate_and_vary() {
    let mut varied = 0;
    let mut compared = 0;
    for players in 2..=4 {
        let g = game(players);
        for seed in 0..12u64 {
            compared += positions::samples_keep_the_view(
                &g,
                seed,
                24,
                |step, s| step % 9 == 0 || g.is_terminal(s),
                |step, k| seed * 977 + step * 31 + k,
                |t| (t.hands, t.stacks, t.captured),
                |step, s, observer, distinct| {
                    // Something is hidden when another seat holds a hand it could hold otherwise.
                    let hands_hidden = (0..players).any(|p| {
                        p as Player != observer
                            && s.phase != Phase::Over
                            && s.hands[p] != 0
                            && (s.stacks[p] != 0 || s.phase == Phase::ChooseTokens)
                    });
                    let hidden = hands_hidden || captured_tables(s, players, observer) > 1;
                    if hidden {
                        assert!(distinct > 1, "{players}p seed {seed} step {step} seat {observer}: 24 samples were equal");
                        varied += 1;
                    } else {
                        assert_eq!(distinct, 1, "{players}p seed {seed} step {step} seat {observer}");
                    }
                },
            );
        }
    }
    assert!(varied > 100 && compared > 1000, "{varied} {compared}");
}

/// How many captured-type tables the observer cannot tell apart.
fn captured_tables(s: &State, players: usize, observer: Player) -> usize {
    if players == 2 || s.phase == Phase::Over {
        return 1;
    }
    let hidden: Vec<usize> = (0..players).filter(|&p| p as Player != observer).collect();
    let rows: Vec<u32> = hidden.iter().map(|&p| s.captured[p].iter().map(|&x| x as u32).sum()).collect();
    let cols: [u32; 3] = std::array::from_fn(|f| hidden.iter().map(|&p| s.captured[p][f] as u32).sum());
    let mut tables = Vec::new();
    super::fill(&rows, cols, &mut Vec::new(), &mut tables);
    tables.len()
}

#[test]
fn r4_2_a_hidden_hand_is_a_uniform_choice_among_the_unused_tokens() {
    // Seat 1's hand seen by seat 0 in mid play: each of its unused tokens is in the hand with
    // probability hand / unused (within five standard deviations over 4000 samples).
    let g = game(2);
    let mut s = None;
    playout(&g, g.new_initial_state(21), 21, |x| {
        if s.is_none() && x.phase == Phase::Play && x.seat == 0 && x.stacks[1].count_ones() >= 5 {
            s = Some(x.clone());
        }
    });
    let s = s.unwrap();
    let pool = s.hands[1] | s.stacks[1];
    let (k, n) = (s.hands[1].count_ones() as f64, pool.count_ones() as f64);
    let runs = 4000;
    let mut count = [0u32; 32];
    let mut rng = Rng::from_seed(5);
    for _ in 0..runs {
        let t = sample_position(&g, &s, 0, &mut rng);
        assert_eq!(t.hands[1] | t.stacks[1], pool);
        for b in super::super::bits(t.hands[1]) {
            count[b as usize] += 1;
        }
    }
    let p = k / n;
    let sigma = (runs as f64 * p * (1.0 - p)).sqrt();
    for b in super::super::bits(pool) {
        let dev = (count[b as usize] as f64 - runs as f64 * p).abs();
        assert!(dev < 5.0 * sigma, "token {b}: {} of {runs}, expected {}", count[b as usize], runs as f64 * p);
    }
}

#[test]
fn samples_depend_only_on_the_view() {
    for players in [2, 4] {
        positions::samples_depend_only_on_the_view(&game(players), 11, 13);
    }
}

#[test]
fn r3_3_hidden_captured_types_are_dealt_among_the_tables_the_counts_allow() {
    let g = game(3);
    let mut s = None;
    for seed in 0..50 {
        playout(&g, g.new_initial_state(seed), seed, |x| {
            if s.is_none() && x.phase == Phase::Play && (0..3).filter(|&p| x.captured[p].iter().sum::<u8>() >= 2).count() >= 2 {
                s = Some(x.clone());
            }
        });
    }
    let s = s.expect("a game where two seats captured two figures");
    let mut seen = std::collections::HashSet::new();
    for k in 0..40 {
        let t = sample_position(&g, &s, 0, &mut Rng::from_seed(k));
        assert_eq!(t.captured[0], s.captured[0], "the observer's own captures are kept");
        for p in 1..3 {
            assert_eq!(t.captured[p].iter().sum::<u8>(), s.captured[p].iter().sum::<u8>());
        }
        seen.insert(t.captured);
    }
    assert!(seen.len() > 1, "the types never varied");
}

// === corruptions ===

/// A 2-player game in play, turn 1: seat 0 kept tokens 0-4.
fn ready(players: usize) -> (Samurai, State) {
    let g = game(players);
    let mut s = g.new_initial_state(3);
    for _ in 0..players {
        for k in 0..5 {
            g.apply(&mut s, g.encode(Action::Keep { token: k }), &mut Events::off());
        }
    }
    let mut legal = Vec::new();
    while s.phase == Phase::PlaceFigures {
        legal.clear();
        g.legal_actions(&s, &mut legal);
        g.apply(&mut s, legal[0], &mut Events::off());
    }
    validate_position(&g, &s).unwrap();
    (g, s)
}

fn rejected(g: &Samurai, s: &State, needle: &str) {
    positions::assert_rejected(validate_position(g, s), needle);
}

#[test]
fn r2_1_a_token_in_two_places_or_nowhere_is_rejected() {
    let (g, s) = ready(2);
    let mut t = s.clone();
    t.cells[46] = cell(0, 10);
    rejected(&g, &t, "on the board and in its hand or stack (§2.1)");
    let mut t = s.clone();
    t.stacks[1] &= !(1 << 12);
    rejected(&g, &t, "token 12 (");
    let mut t = s.clone();
    t.stacks[0] |= 1;
    rejected(&g, &t, "both behind the screen and in the stack (§4.3)");
    let mut t = s.clone();
    t.hands[3] = 1;
    rejected(&g, &t, "hands[3]: holds a token that does not exist");
    let mut t = s.clone();
    t.cells[46] = cell(0, 10);
    t.cells[50] = cell(0, 10);
    t.stacks[0] &= !(1 << 10);
    rejected(&g, &t, "on the board twice (§2.1)");
}

#[test]
fn r5_3_tokens_on_the_wrong_hex_are_rejected() {
    let (g, s) = ready(2);
    let mut t = s.clone();
    t.stacks[0] &= !(1 << 15);
    t.cells[46] = cell(0, 15); // a ship on land
    rejected(&g, &t, "ships go on sea, other tokens on land (§5.3)");
    let mut t = s.clone();
    t.stacks[0] &= !(1 << 10);
    t.cells[45] = cell(0, 10); // a village
    rejected(&g, &t, "on a village hex");
    let mut t = s.clone();
    t.stacks[0] &= !(1 << 18);
    t.cells[46] = cell(0, 18);
    rejected(&g, &t, "figure exchange token never stands on the board (§2.4)");
    let mut t = s.clone();
    t.cells[46] = cell(2, 10);
    rejected(&g, &t, "no token of a seat in this game");
    let off = (0..g.data().hexes.len()).find(|&h| !g.in_play[h]).unwrap();
    let mut t = s.clone();
    t.stacks[0] &= !(1 << 10);
    t.cells[off] = cell(0, 10);
    rejected(&g, &t, "is not on the 2-player board");
}

#[test]
fn r2_1_figures_must_add_up_and_fit_their_settlements() {
    let (g, s) = ready(2);
    let village = g.villages[0] as usize;
    let mut t = s.clone();
    t.figures[village] = 0b011;
    rejected(&g, &t, "figures on a village of 1");
    let mut t = s.clone();
    t.on_board[0] -= 1;
    t.captured[0][0] += 1;
    rejected(&g, &t, "on_board[0]: 6 but 7 helmet figures stand");
    let mut t = s.clone();
    t.set_aside[1] = 1;
    rejected(&g, &t, "supply + board + set aside + captured = 8 buddha figures, the game has 7 (§2.1)");
    let edo =
        g.settlements.iter().copied().find(|&st| g.data().settlements[st as usize].kind == super::super::HexKind::Edo).unwrap() as usize;
    let mut t = s.clone();
    t.figures[edo] = 0b110;
    t.on_board[0] -= 1;
    t.captured[1][0] += 1;
    rejected(&g, &t, "Edo holds one figure of each type");
    let mut t = s.clone();
    t.figures[village] = 0b1000;
    rejected(&g, &t, "beyond the three");
}

#[test]
fn r5_4_surrounded_means_resolved_and_resolved_means_empty() {
    let (g, s) = ready(2);
    let st = g.data().settlement_at[45] as usize;
    let mut t = s.clone();
    t.cells[46] = cell(0, 10);
    t.cells[50] = cell(0, 11);
    t.stacks[0] &= !(3 << 10);
    rejected(&g, &t, &format!("resolved: settlement {st} is surrounded but not resolved (§5.4)"));
    let mut t = s.clone();
    t.resolved |= 1 << st;
    rejected(&g, &t, "still holds figures");
    let f = t.figures[st].trailing_zeros() as usize;
    t.figures[st] = 0;
    t.on_board[f] -= 1;
    t.captured[1][f] += 1;
    rejected(&g, &t, "is resolved but not surrounded (§3.1)");
}

#[test]
fn r5_5_hand_sizes_follow_the_refill() {
    let (g, s) = ready(2);
    let mut t = s.clone();
    let low = t.hands[1].trailing_zeros();
    t.hands[1] &= !(1 << low);
    t.stacks[1] |= 1 << low;
    rejected(&g, &t, "hands[1]: 4 tokens behind the screen with tokens left in the stack (§5.5)");
    let mut t = s.clone();
    t.turn.played = 1;
    rejected(&g, &t, "5 in hand and 1 played this turn");
    let mut t = s.clone();
    t.phase = Phase::Refill;
    rejected(&g, &t, "a refill with a full hand or an empty stack (§5.5)");
}

#[test]
fn r4_setup_phases_are_checked() {
    let g = game(3);
    let mut s = g.new_initial_state(1);
    validate_position(&g, &s).unwrap();
    s.hands[1] = 1;
    rejected(&g, &s, "seat 1 has not finished keeping its tokens (seat 0 keeps now) (§4.2)");
    let mut s = g.new_initial_state(1);
    s.cells[46] = cell(0, 10);
    rejected(&g, &s, "tokens on the board before play begins (§4.8)");
    let (g, mut s) = ready(3);
    s.phase = Phase::PlaceFigures;
    rejected(&g, &s, "supply: empty, so play has begun (§4.8)");
}

#[test]
fn r6_the_end_needs_its_cause_and_a_cause_needs_the_end() {
    let (g, s) = ready(2);
    let mut t = s.clone();
    t.phase = Phase::Over;
    rejected(&g, &t, "end: the game is over without a reason (§6)");
    t.end = Some(super::super::EndReason::FourSetAside);
    rejected(&g, &t, "does not match the board and the figures");
    let mut t = s.clone();
    t.end = Some(super::super::EndReason::NobodyCanPlay);
    rejected(&g, &t, "end: set while the game is not over (§6)");
    let mut t = s.clone();
    t.passes = 2;
    rejected(&g, &t, "a whole round of passes, so the game is over (N9)");
}

#[test]
fn r2_4_half_made_exchanges_are_checked() {
    let (g, s) = ready(2);
    // Seat 0 played helmet 2 on h46 and the figure exchange, and chose a figure.
    let village = g.villages[0];
    let absent = (0..3u8).find(|&f| s.figures[village as usize] & (1 << f) == 0).unwrap();
    let mut t = s.clone();
    t.hands[0] &= !1;
    t.cells[46] = cell(0, 0);
    t.turn.played = 2;
    t.turn.normal_used = true;
    t.turn.pending = Pending::SwapFigure { settlement: village, figure: absent };
    rejected(&g, &t, "4 in hand and 2 played this turn");
    t.turn.played = 1;
    rejected(&g, &t, "is not on the board (§2.4)");
    t.turn.pending = Pending::SwapFigure { settlement: village, figure: s.figures[village as usize].trailing_zeros() as u8 };
    rejected(&g, &t, "the exchange token was not played (§2.4)");
    t.stacks[0] &= !(1 << 18);
    validate_position(&g, &t).unwrap();
    let mut t = s.clone();
    t.turn.pending = Pending::ReplaceToken { token: 10 };
    rejected(&g, &t, "is not a picked-up token of seat 0");
    let mut t = s.clone();
    t.phase = Phase::Over;
    t.turn.pending = Pending::ReplaceToken { token: 10 };
    rejected(&g, &t, "only the player to act has a half-made decision");
}

#[test]
fn seat_out_of_range_is_rejected() {
    let (g, mut s) = ready(2);
    s.seat = 2;
    rejected(&g, &s, "seat: 2 is not a seat of a 2-player game");
}

// === scenario files (positions/*.json) ===

const HELMET_2: u8 = 0;
const HELMET_4: u8 = 2;
const BUDDHA_3: u8 = 4;
const RICE_2: u8 = 6;
const SAMURAI_3: u8 = 13;
const RONIN: u8 = 14;
const SHIP_1: u8 = 15;
const TOKEN_SWAP: u8 = 19;

/// Hand-made scenario edits that keep every token and figure in exactly one place.
struct Build {
    g: Samurai,
    s: State,
}

impl Build {
    fn new(players: usize) -> Build {
        let (g, s) = ready(players);
        Build { g, s }
    }

    /// Moves the figures `mask` onto the settlement at `hex` by exchanging contents with a
    /// settlement of the same size that holds them.
    fn figures(&mut self, hex: u8, mask: u8) {
        let st = self.g.data().settlement_at[hex as usize] as usize;
        let other =
            self.g.settlements.iter().map(|&x| x as usize).find(|&x| self.s.figures[x] == mask).expect("a settlement holds these figures");
        self.s.figures.swap(st, other);
    }

    /// Puts the token on the board; a token taken from the hand is replaced from the stack.
    fn put(&mut self, hex: u8, seat: usize, token: u8) {
        if self.s.hands[seat] & (1 << token) != 0 && self.s.stacks[seat] & !(1 << token) != 0 {
            let t = (self.s.stacks[seat] & !(1 << token)).trailing_zeros();
            self.s.stacks[seat] &= !(1 << t);
            self.s.hands[seat] |= 1 << t;
        }
        self.s.hands[seat] &= !(1 << token);
        self.s.stacks[seat] &= !(1 << token);
        self.s.cells[hex as usize] = cell(seat, token);
    }

    /// `tokens` behind the seat's screen, filled up to 5 from its stack (lowest first).
    fn give(&mut self, seat: usize, tokens: &[u8]) {
        let pool = self.s.hands[seat] | self.s.stacks[seat];
        let mut hand = tokens.iter().fold(0u32, |m, &t| m | 1 << t);
        assert_eq!(hand & !pool, 0, "the tokens are in hand or stack");
        for t in super::super::bits(pool & !hand) {
            if hand.count_ones() == 5 {
                break;
            }
            hand |= 1 << t;
        }
        self.s.hands[seat] = hand;
        self.s.stacks[seat] = pool & !hand;
    }

    fn act(&mut self, a: Action) {
        self.g.step(&mut self.s, self.g.encode(a), &mut Events::off()).unwrap();
    }
}

/// The first state of seeded random games (seeds from 0) that `pick` accepts.
fn found(players: usize, pick: impl Fn(&State) -> bool) -> State {
    positions::first_state(&game(players), 0..500, |s| s.phase == Phase::Play && s.turn.played == 0 && pick(s))
}

/// Every scenario: file name, player count, description, position.
fn scenarios() -> Vec<(&'static str, usize, &'static str, State)> {
    let mut out = Vec::new();

    let mut b = Build::new(2);
    b.figures(45, 1 << 0);
    b.put(50, 1, SAMURAI_3);
    b.give(0, &[HELMET_4, SHIP_1]);
    out.push((
        "capture_strongest_influence",
        2,
        "Village h45 (a helmet) has one empty land hex, h46; seat 1's samurai 3 stands on h50. Seat 0 holds helmet 4 and ship 1: ship 1 at sea (h39) and helmet 4 on h46 make 5 against 3 and take the helmet (rule §3.1-3.3)",
        b.s,
    ));

    let mut b = Build::new(2);
    b.figures(45, 1 << 0);
    b.figures(52, 1 << 1);
    b.put(50, 1, HELMET_2);
    b.put(51, 1, BUDDHA_3);
    b.put(57, 1, RICE_2);
    b.give(0, &[SAMURAI_3]);
    out.push((
        "one_token_two_settlements",
        2,
        "Land h46 is the last empty hex of both village h45 (a helmet) and village h52 (a buddha). Seat 0's samurai 3 there completes both: 3 against 2 takes the helmet, 3 against 3 sets the buddha aside (rule §5.4, §3.3-3.4)",
        b.s,
    ));

    let mut b = Build::new(2);
    b.put(50, 0, HELMET_4);
    b.put(51, 0, RONIN);
    b.put(57, 1, HELMET_2);
    b.give(0, &[TOKEN_SWAP, SHIP_1, BUDDHA_3]);
    b.act(Action::PickUp { hex: 50 });
    out.push((
        "token_exchange_replace",
        2,
        "Seat 0 played the token exchange on its helmet 4 at h50: the exchange token (strength 0) stands there and helmet 4 must be placed again at once on an empty land hex (rule §2.4, RULES_NOTES N4)",
        b.s,
    ));

    out.push((
        "endgame_last_figure_of_a_type",
        2,
        "Only one figure of some type is left on the board: surrounding its settlement ends the game at once, however it is resolved (rule §6.1, §7)",
        found(2, |s| s.on_board.contains(&1)),
    ));
    out.push((
        "three_figures_set_aside",
        3,
        "Three figures are set aside: the next tie (or zero influence) sets a fourth aside and ends the game (rule §6.2, §3.4)",
        found(3, |s| s.set_aside.iter().sum::<u8>() == 3),
    ));
    out.push((
        "four_players_hidden_captures",
        4,
        "A 4-player game in mid play with figures captured by three seats: each seat sees only how many figures the others hold, not their types (rule §3.3, RULES_NOTES N6)",
        found(4, |s| (0..4).filter(|&p| s.captured[p].iter().sum::<u8>() > 0).count() >= 3),
    ));
    out
}

/// The committed files are the scenarios' documents (`KASSEN_BLESS=1` rewrites them); each
/// shows tokens on the board.
#[test]
fn scenario_files_are_up_to_date() {
    let scenarios: Vec<Scenario<Samurai>> = scenarios()
        .into_iter()
        .map(|(name, players, description, s)| {
            assert!(s.cells.iter().any(|&c| c != EMPTY), "{name}: an empty board");
            (name, json!({ "players": players }), description, s)
        })
        .collect();
    positions::scenario_files_are_up_to_date::<Samurai>(&scenarios);
}
