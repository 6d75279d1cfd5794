//! Samurai rule scenarios, named after the rulebook sections (docs/rules/samurai.md lists them
//! section by section).

use std::sync::Arc;

use kassen_core::events::Events;
use kassen_core::games::samurai::{score, Action, Data, EndReason, HexKind, Pending, Phase, Samurai, State, EMPTY};
use kassen_core::{Game, RuleError, SPECTATOR, TERMINAL};

// Token indices of the embedded data (data/samurai.json).
const HELMET_2: u8 = 0;
const HELMET_4: u8 = 2;
const BUDDHA_3: u8 = 4;
const RICE_2: u8 = 6;
const SAMURAI_1: u8 = 9;
const SAMURAI_3: u8 = 13;
const RONIN: u8 = 14;
const SHIP_1: u8 = 15;
const SHIP_2: u8 = 17;
const FIGURE_SWAP: u8 = 18;
const TOKEN_SWAP: u8 = 19;
const HELMET: u8 = 0;
const BUDDHA: u8 = 1;
const RICE: u8 = 2;

// Hexes of the 2-player board: village 45 touches land 46, 50 and sea 39, 40, 41, 44;
// land 46 also touches village 52 (land 46, 51, 57); land 50 also touches city 55.
const VILLAGE_45: u8 = 45;
const VILLAGE_52: u8 = 52;
const CITY_55: u8 = 55;
const EDO: u8 = 84;

struct Table {
    g: Samurai,
    s: State,
}

fn cell(seat: usize, token: u8) -> u8 {
    ((seat as u8) << 5) | token
}

impl Table {
    fn new(players: usize) -> Table {
        let g = Samurai::new(players, Arc::new(Data::embedded())).unwrap();
        let s = g.new_initial_state(7);
        Table { g, s }
    }

    /// A game in the play phase: every seat kept tokens 0-4, figures placed by the first legal choice.
    fn ready(players: usize) -> Table {
        let mut t = Table::new(players);
        for _ in 0..players {
            for k in 0..5 {
                t.act(Action::Keep { token: k });
            }
        }
        while t.s.phase == Phase::PlaceFigures {
            let first = t.legal()[0];
            t.act(first);
        }
        assert_eq!(t.s.phase, Phase::Play);
        t
    }

    fn id(&self, a: Action) -> u32 {
        self.g.encode(a)
    }

    fn try_act(&mut self, a: Action) -> Result<(), RuleError> {
        let id = self.id(a);
        self.g.step(&mut self.s, id, &mut Events::off())
    }

    fn act(&mut self, a: Action) {
        self.try_act(a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
    }

    fn act_events(&mut self, a: Action) -> Vec<serde_json::Value> {
        let id = self.id(a);
        let mut ev = Events::recording();
        self.g.step(&mut self.s, id, &mut ev).unwrap();
        ev.into_vec().into_iter().map(|e| serde_json::to_value(e).unwrap()).collect()
    }

    fn legal(&self) -> Vec<Action> {
        let mut v = Vec::new();
        self.g.legal_actions(&self.s, &mut v);
        v.into_iter().map(|a| self.g.decode(a).unwrap()).collect()
    }

    fn is_legal(&self, a: Action) -> bool {
        self.g.is_legal(&self.s, self.id(a))
    }

    fn settlement(&self, hex: u8) -> usize {
        self.g.data().settlement_at[hex as usize] as usize
    }

    fn set_figures(&mut self, hex: u8, mask: u8) {
        let st = self.settlement(hex);
        self.s.figures[st] = mask;
    }

    fn put(&mut self, hex: u8, seat: usize, token: u8) {
        self.s.cells[hex as usize] = cell(seat, token);
    }

    fn give(&mut self, seat: usize, tokens: &[u8]) {
        self.s.hands[seat] = tokens.iter().fold(0, |m, &t| m | 1 << t);
    }

    fn fill_land_except(&mut self, keep_empty: &[u8], seat: usize, token: u8) {
        for h in 0..self.s.cells.len() {
            let hex = &self.g.data().hexes[h];
            if hex.kind == HexKind::Land
                && hex.players & (1 << self.g.num_players()) != 0
                && !keep_empty.contains(&(h as u8))
                && self.s.cells[h] == EMPTY
            {
                self.s.cells[h] = cell(seat, token);
            }
        }
    }
}

// === 2. Figures and tokens (component data) ===

#[test]
fn r2_1_twenty_tokens_fifteen_normal_five_quick() {
    let d = Data::embedded();
    assert_eq!(d.tokens.len(), 20);
    assert_eq!(d.tokens.iter().filter(|t| t.quick).count(), 5);
    assert_eq!(d.tokens.iter().filter(|t| !t.quick).count(), 15);
    assert_eq!(d.tokens.iter().filter(|t| t.on_sea()).count(), 3);
    assert_eq!(d.tokens[TOKEN_SWAP as usize].strength, 0);
}

#[test]
fn r2_1_figures_per_player_count_fill_the_board() {
    let d = Data::embedded();
    assert_eq!(d.figures_per_type, [7, 10, 13]);
    for (players, hexes, land, villages, cities) in [(2, 91, 30, 14, 2), (3, 133, 43, 23, 2), (4, 174, 56, 30, 3)] {
        let bit = 1u8 << players;
        let of = |k: HexKind| d.hexes.iter().filter(|h| h.kind == k && h.players & bit != 0).count();
        assert_eq!(d.hexes.iter().filter(|h| h.players & bit != 0).count(), hexes);
        assert_eq!((of(HexKind::Land), of(HexKind::Village), of(HexKind::City), of(HexKind::Edo)), (land, villages, cities, 1));
    }
}

#[test]
fn data_every_land_hex_touches_two_settlements_and_adjacency_is_symmetric() {
    let d = Data::embedded();
    for h in &d.hexes {
        if h.kind == HexKind::Land {
            assert_eq!(h.settlements.len(), 2, "land hex {}", h.id);
        }
        for &n in &h.neighbors {
            assert!(d.hexes[n as usize].neighbors.contains(&h.id));
        }
    }
}

#[test]
fn data_replacement_file_is_validated() {
    let mut v: serde_json::Value = serde_json::from_str(kassen_core::games::samurai::data::EMBEDDED).unwrap();
    assert!(Data::from_value(&v).is_ok());
    v["board"]["hexes"][5]["neighbors"] = serde_json::json!([0]);
    let err = kassen_core::load_game("samurai", Some(&serde_json::json!({"data": v}))).unwrap_err();
    assert_eq!(err.code(), kassen_core::ErrorCode::InvalidData);
}

// === 4. Setup ===

#[test]
fn r4_2_each_seat_keeps_five_tokens_unseen_by_the_others() {
    let mut t = Table::new(2);
    assert_eq!(t.g.current_player(&t.s), 0);
    assert_eq!(t.legal().len(), 17, "20 tokens, 17 kinds (N14)");
    t.act(Action::Keep { token: SHIP_2 });
    let other = t.g.view(&t.s, 1);
    assert!(other["players"][0]["hand"].is_null());
    assert_eq!(other["players"][0]["hand_size"], 1);
    assert!(!other.to_string().contains("ship"), "seat 1 must not learn which token seat 0 kept");
    let own = t.g.view(&t.s, 0);
    assert_eq!(own["players"][0]["hand"][0]["token"], SHIP_2);
    for k in [0, 1, 2, 3] {
        t.act(Action::Keep { token: k });
    }
    assert_eq!(t.g.current_player(&t.s), 1, "the second seat chooses after the first");
    assert!(t.g.view(&t.s, 1)["players"][0]["hand"].is_null());
}

#[test]
fn r4_3_the_other_fifteen_become_the_face_down_stack() {
    let t = Table::ready(3);
    for p in 0..3 {
        assert_eq!(t.s.hands[p].count_ones(), 5);
        assert_eq!(t.s.stacks[p].count_ones(), 15);
        assert_eq!(t.s.hands[p] & t.s.stacks[p], 0);
    }
}

#[test]
fn r4_4_edo_holds_one_figure_of_each_type() {
    let t = Table::new(2);
    assert_eq!(t.s.figures[t.settlement(EDO)], 0b111);
    assert_eq!(t.s.supply, [6, 6, 6]);
}

#[test]
fn r4_5_cities_are_filled_first_then_villages_in_rotation() {
    let mut t = Table::new(2);
    for _ in 0..2 {
        for k in 0..5 {
            t.act(Action::Keep { token: k });
        }
    }
    assert_eq!(t.s.phase, Phase::PlaceFigures);
    assert_eq!(t.g.current_player(&t.s), 0, "the start player places first");
    let targets = |t: &Table| {
        t.legal()
            .iter()
            .map(|a| match a {
                Action::PlaceFigure { hex, .. } => *hex,
                _ => panic!(),
            })
            .collect::<std::collections::BTreeSet<_>>()
    };
    assert_eq!(targets(&t).into_iter().collect::<Vec<_>>(), vec![CITY_55, 105]);
    assert!(!t.is_legal(Action::PlaceFigure { figure: HELMET, hex: VILLAGE_45 }));
    t.act(Action::PlaceFigure { figure: HELMET, hex: CITY_55 });
    assert_eq!(t.g.current_player(&t.s), 1);
    // 4.7: the two figures of a city differ.
    assert!(!t.is_legal(Action::PlaceFigure { figure: HELMET, hex: CITY_55 }));
    t.act(Action::PlaceFigure { figure: RICE, hex: CITY_55 });
    t.act(Action::PlaceFigure { figure: BUDDHA, hex: 105 });
    t.act(Action::PlaceFigure { figure: RICE, hex: 105 });
    // Cities full: villages now, and the rotation continues with seat 0.
    assert_eq!(t.g.current_player(&t.s), 0);
    assert!(targets(&t).contains(&VILLAGE_45) && !targets(&t).contains(&CITY_55));
    while t.s.phase == Phase::PlaceFigures {
        let a = t.legal()[0];
        t.act(a);
    }
    assert_eq!(t.s.supply, [0, 0, 0]);
    assert_eq!(t.s.on_board, [7, 7, 7]);
    assert_eq!(t.g.current_player(&t.s), 0, "5.1: the start player takes the first turn");
}

// === 5. A turn ===

#[test]
fn r5_2_at_least_one_token_and_at_most_one_without_a_character() {
    let mut t = Table::ready(2);
    t.give(0, &[HELMET_2, BUDDHA_3, RONIN, SHIP_1, SAMURAI_1]);
    assert!(!t.is_legal(Action::EndTurn), "a turn needs at least one token");
    t.act(Action::PlaceToken { token: HELMET_2, hex: 46 });
    assert!(t.is_legal(Action::EndTurn));
    assert!(!t.is_legal(Action::PlaceToken { token: BUDDHA_3, hex: 51 }), "only one normal token per turn");
    assert!(!t.is_legal(Action::PlaceToken { token: SAMURAI_1, hex: 51 }));
    t.act(Action::PlaceToken { token: RONIN, hex: 51 });
    t.act(Action::PlaceToken { token: SHIP_1, hex: 39 });
    assert_eq!(t.s.turn.played, 3);
}

#[test]
fn r5_3_ships_on_empty_sea_others_on_empty_land_never_on_settlements() {
    let mut t = Table::ready(2);
    t.give(0, &[HELMET_2, SHIP_1, RONIN]);
    assert!(!t.is_legal(Action::PlaceToken { token: SHIP_1, hex: 46 }), "ship on land");
    assert!(!t.is_legal(Action::PlaceToken { token: HELMET_2, hex: 39 }), "land token at sea");
    assert!(!t.is_legal(Action::PlaceToken { token: RONIN, hex: VILLAGE_45 }), "on a village");
    assert!(!t.is_legal(Action::PlaceToken { token: RONIN, hex: EDO }), "on Edo");
    t.act(Action::PlaceToken { token: HELMET_2, hex: 46 });
    assert!(!t.is_legal(Action::PlaceToken { token: RONIN, hex: 46 }), "on an occupied hex");
    assert!(t.is_legal(Action::PlaceToken { token: SHIP_1, hex: 39 }));
    // A hex of the 4-player board is not on the 2-player board.
    assert!(!t.is_legal(Action::PlaceToken { token: RONIN, hex: 5 }));
}

#[test]
fn r5_5_the_hand_is_refilled_to_five_from_the_own_stack() {
    let mut t = Table::ready(2);
    t.act(Action::PlaceToken { token: HELMET_2, hex: 46 });
    t.act(Action::EndTurn);
    assert_eq!(t.s.phase, Phase::Refill);
    assert_eq!(t.g.current_player(&t.s), kassen_core::CHANCE);
    let before = t.s.stacks[0];
    let draw = t.legal()[0];
    t.act(draw);
    let Action::Draw { token } = draw else { panic!() };
    assert_eq!(t.s.stacks[0], before & !(1 << token));
    assert_eq!(t.s.hands[0].count_ones(), 5);
    assert_eq!(t.g.current_player(&t.s), 1, "5.7: play passes clockwise");
}

#[test]
fn r5_6_with_an_empty_stack_the_player_plays_on_with_fewer_tokens() {
    let mut t = Table::ready(2);
    t.s.stacks[0] = 0;
    t.act(Action::PlaceToken { token: HELMET_2, hex: 46 });
    t.act(Action::EndTurn);
    assert_eq!(t.s.phase, Phase::Play);
    assert_eq!(t.g.current_player(&t.s), 1);
    assert_eq!(t.s.hands[0].count_ones(), 4);
}

// === 3. Capturing figures ===

#[test]
fn r3_3_the_strongest_influence_takes_the_figure() {
    let mut t = Table::ready(2);
    t.set_figures(VILLAGE_45, 1 << HELMET);
    t.put(50, 1, SAMURAI_3); // seat 1: 3 on every type
    t.give(0, &[HELMET_4, SHIP_1]);
    t.act(Action::PlaceToken { token: SHIP_1, hex: 39 }); // sea hexes need not be filled
    assert!(!t.s.is_resolved(t.settlement(VILLAGE_45)));
    t.act(Action::PlaceToken { token: HELMET_4, hex: 46 }); // seat 0: 4 + ship 1 = 5 > 3
    assert!(t.s.is_resolved(t.settlement(VILLAGE_45)));
    assert_eq!(t.s.captured[0], [1, 0, 0]);
    assert_eq!(t.s.on_board[HELMET as usize], 6);
}

#[test]
fn r3_2_ships_on_adjacent_sea_add_influence() {
    let mut t = Table::ready(2);
    t.set_figures(VILLAGE_45, 1 << BUDDHA);
    t.put(50, 1, BUDDHA_3);
    t.put(40, 0, SHIP_2);
    t.put(41, 0, SHIP_1);
    t.give(0, &[RONIN]);
    t.act(Action::PlaceToken { token: RONIN, hex: 46 }); // seat 0: 1 + 2 + 1 = 4 > 3
    assert_eq!(t.s.captured[0], [0, 1, 0]);
}

#[test]
fn r3_3_the_active_player_gets_nothing_when_another_is_stronger() {
    let mut t = Table::ready(2);
    t.set_figures(VILLAGE_45, 1 << RICE);
    t.put(50, 1, RICE_2);
    t.give(0, &[SAMURAI_1]);
    t.act(Action::PlaceToken { token: SAMURAI_1, hex: 46 }); // 1 against 2
    assert_eq!(t.s.set_aside, [0, 0, 0]);
    assert_eq!(t.s.captured[1], [0, 0, 1], "the surrounding player need not be the winner");
}

#[test]
fn r3_4_equal_influence_sets_the_figure_aside() {
    let mut t = Table::ready(2);
    t.set_figures(VILLAGE_45, 1 << RICE);
    t.put(50, 1, RICE_2);
    t.give(0, &[SAMURAI_1]);
    t.put(40, 0, SHIP_1);
    let events = t.act_events(Action::PlaceToken { token: SAMURAI_1, hex: 46 }); // 1 + 1 = 2 vs 2
    assert_eq!(t.s.set_aside, [0, 0, 1]);
    assert_eq!(t.s.captured[0], [0, 0, 0]);
    assert_eq!(t.s.captured[1], [0, 0, 0]);
    assert!(events.iter().any(|e| e["kind"] == "figure_set_aside" && e["audience"] == "all"));
}

#[test]
fn r3_4_nobody_with_influence_is_a_tie_at_zero() {
    // INTERPRETATION (RULES_NOTES.md N5).
    let mut t = Table::ready(2);
    t.set_figures(VILLAGE_45, 1 << RICE);
    t.put(50, 0, HELMET_2);
    t.give(0, &[]);
    t.give(1, &[BUDDHA_3]);
    t.s.seat = 1;
    t.act(Action::PlaceToken { token: BUDDHA_3, hex: 46 });
    assert_eq!(t.s.set_aside, [0, 0, 1]);
}

#[test]
fn r5_4_one_token_can_complete_two_settlements() {
    // Hex 46 touches village 45 and village 52.
    let mut t = Table::ready(2);
    t.set_figures(VILLAGE_45, 1 << HELMET);
    t.set_figures(VILLAGE_52, 1 << BUDDHA);
    t.put(50, 1, HELMET_2);
    t.put(51, 1, BUDDHA_3);
    t.put(57, 1, RICE_2);
    t.give(0, &[SAMURAI_3]);
    t.act(Action::PlaceToken { token: SAMURAI_3, hex: 46 });
    assert!(t.s.is_resolved(t.settlement(VILLAGE_45)) && t.s.is_resolved(t.settlement(VILLAGE_52)));
    assert_eq!(t.s.captured[0], [1, 0, 0], "3 vs 2 helmet");
    assert_eq!(t.s.set_aside, [0, 1, 0], "3 vs 3 buddha");
}

#[test]
fn r3_tokens_stay_and_keep_influencing_the_other_settlement() {
    let mut t = Table::ready(2);
    t.set_figures(VILLAGE_45, 1 << HELMET);
    t.put(50, 1, HELMET_2);
    t.give(0, &[HELMET_4]);
    t.act(Action::PlaceToken { token: HELMET_4, hex: 46 });
    assert_eq!(t.s.cells[46], cell(0, HELMET_4));
    assert_eq!(t.s.cells[50], cell(1, HELMET_2));
}

// === 2.4 Figure exchange and token exchange ===

#[test]
fn r2_4_figure_exchange_swaps_any_two_figures_at_any_distance() {
    let mut t = Table::ready(2);
    t.set_figures(VILLAGE_45, 1 << HELMET);
    t.set_figures(126, 1 << RICE);
    t.give(0, &[FIGURE_SWAP]);
    t.act(Action::SwapFigure { figure: HELMET, hex: VILLAGE_45 });
    assert_eq!(t.s.turn.pending, Pending::SwapFigure { settlement: t.settlement(VILLAGE_45) as u8, figure: HELMET });
    assert!(!t.is_legal(Action::EndTurn), "the exchange must be completed");
    assert!(!t.is_legal(Action::SwapFigure { figure: HELMET, hex: 126 }), "the figure is not there");
    t.act(Action::SwapFigure { figure: RICE, hex: 126 });
    assert_eq!(t.s.figures[t.settlement(VILLAGE_45)], 1 << RICE);
    assert_eq!(t.s.figures[t.settlement(126)], 1 << HELMET);
    assert_eq!(t.s.hands[0] & (1 << FIGURE_SWAP), 0, "the exchange token leaves the game");
    assert!(t.is_legal(Action::EndTurn), "a lone quick token is a turn");
}

#[test]
fn r4_7_no_exchange_may_give_a_city_two_figures_of_a_type() {
    let mut t = Table::ready(2);
    t.set_figures(CITY_55, (1 << HELMET) | (1 << RICE));
    t.set_figures(VILLAGE_45, 1 << HELMET);
    t.give(0, &[FIGURE_SWAP]);
    t.act(Action::SwapFigure { figure: RICE, hex: CITY_55 });
    assert!(!t.is_legal(Action::SwapFigure { figure: HELMET, hex: VILLAGE_45 }), "city would hold two helmets");
    // Edo holds all three types: it can never take part (RULES_NOTES.md N3).
    assert!(t.legal().iter().all(|a| !matches!(a, Action::SwapFigure { hex: EDO, .. })));
}

#[test]
fn r2_4_token_exchange_moves_an_own_normal_token_and_leaves_a_zero() {
    let mut t = Table::ready(2);
    t.put(50, 0, HELMET_4);
    t.put(51, 0, RONIN);
    t.put(57, 1, HELMET_2);
    t.give(0, &[TOKEN_SWAP, SHIP_1, BUDDHA_3]);
    assert!(t.is_legal(Action::PickUp { hex: 50 }));
    assert!(!t.is_legal(Action::PickUp { hex: 51 }), "the ronin has a Japanese character");
    assert!(!t.is_legal(Action::PickUp { hex: 57 }), "not another player's token");
    t.act(Action::PickUp { hex: 50 });
    assert_eq!(t.s.cells[50], cell(0, TOKEN_SWAP));
    assert_eq!(t.s.turn.pending, Pending::ReplaceToken { token: HELMET_4 });
    assert_eq!(t.legal().len(), t.legal().iter().filter(|a| matches!(a, Action::PlaceToken { token: HELMET_4, .. })).count());
    t.act(Action::PlaceToken { token: HELMET_4, hex: 46 });
    assert!(t.s.turn.normal_used, "the exchange is the turn's normal token");
    assert!(!t.is_legal(Action::PlaceToken { token: BUDDHA_3, hex: 56 }));
    assert!(t.is_legal(Action::PlaceToken { token: SHIP_1, hex: 39 }));
}

#[test]
fn r2_4_the_replaced_token_can_capture_and_the_exchange_token_counts_zero() {
    let mut t = Table::ready(2);
    t.set_figures(VILLAGE_45, 1 << HELMET);
    t.put(50, 1, HELMET_2);
    t.put(57, 0, HELMET_4);
    t.give(0, &[TOKEN_SWAP]);
    t.act(Action::PickUp { hex: 57 });
    t.act(Action::PlaceToken { token: HELMET_4, hex: 46 });
    assert_eq!(t.s.captured[0], [1, 0, 0]);
    // Village 52 (land 46, 51, 57): the exchange token on 57 adds nothing.
    let infl = |t: &Table| {
        let st = t.settlement(VILLAGE_52);
        let s = &t.s;
        let d = t.g.data();
        d.settlements[st].land.iter().filter(|&&h| s.cells[h as usize] == cell(0, TOKEN_SWAP)).count()
    };
    assert_eq!(infl(&t), 1);
}

// === 6. Game end ===

#[test]
fn r6_1_the_last_figure_of_a_type_ends_the_game_at_once() {
    let mut t = Table::ready(2);
    t.set_figures(VILLAGE_45, 1 << HELMET);
    t.s.on_board = [1, 5, 5];
    t.put(50, 1, HELMET_2);
    t.give(0, &[HELMET_4, RONIN]);
    t.act(Action::PlaceToken { token: HELMET_4, hex: 46 });
    assert_eq!(t.s.phase, Phase::Over);
    assert_eq!(t.s.end, Some(EndReason::TypeExhausted(HELMET)));
    assert_eq!(t.g.current_player(&t.s), TERMINAL);
    assert_eq!(t.s.hands[0].count_ones(), 1, "the turn ends at once, no refill");
}

#[test]
fn r6_2_a_fourth_figure_set_aside_ends_the_game() {
    let mut t = Table::ready(2);
    t.set_figures(VILLAGE_45, 1 << RICE);
    t.s.set_aside = [1, 2, 0];
    t.put(50, 1, RICE_2);
    t.put(40, 0, SHIP_1);
    t.give(0, &[SAMURAI_1]);
    t.act(Action::PlaceToken { token: SAMURAI_1, hex: 46 });
    assert_eq!(t.s.end, Some(EndReason::FourSetAside));
}

#[test]
fn n9_a_player_who_cannot_play_passes_and_a_round_of_passes_ends_the_game() {
    let mut t = Table::ready(2);
    t.fill_land_except(&[], 1, HELMET_2);
    // Filling the board directly resolves nothing; give both seats ships only with the sea full.
    for h in 0..t.s.cells.len() {
        if t.g.data().hexes[h].kind == HexKind::Sea && t.s.cells[h] == EMPTY {
            t.s.cells[h] = cell(1, SHIP_1);
        }
    }
    t.give(0, &[SHIP_2]);
    t.give(1, &[SHIP_2]);
    t.s.stacks = [0; 4];
    assert_eq!(t.legal(), vec![Action::EndTurn]);
    t.act(Action::EndTurn);
    assert_eq!(t.s.passes, 1);
    assert_eq!(t.g.current_player(&t.s), 1);
    t.act(Action::EndTurn);
    assert_eq!(t.s.end, Some(EndReason::NobodyCanPlay));
}

// === 7. Scoring ===

#[test]
fn r7_worked_example_green_wins_with_six_other_figures() {
    // Green H3/B3/R4, Red H1/B4/R3, Blue H5/B3/R2, Yellow H4/B3/R3.
    let sc = score(&[[3, 3, 4], [1, 4, 3], [5, 3, 2], [4, 3, 3]]);
    assert_eq!(sc.majorities, [Some(2), Some(1), Some(0)], "Blue helmets, Red buddhas, Green rice; Yellow none");
    let other: Vec<(usize, u32)> = sc.candidates.iter().map(|c| (c.seat, c.other_figures)).collect();
    assert!(other.contains(&(0, 6)) && other.contains(&(2, 5)) && other.contains(&(1, 4)));
    assert!(!sc.candidates.iter().any(|c| c.seat == 3), "Yellow holds no majority and cannot win");
    assert_eq!(sc.winners, vec![0]);
    assert_eq!(sc.returns(), vec![1.0, 0.0, 0.0, 0.0]);
}

#[test]
fn r7_2_two_majorities_win_outright() {
    let sc = score(&[[3, 3, 0], [1, 1, 9]]);
    assert_eq!(sc.decided_by, "two_or_more_majorities");
    assert_eq!(sc.winners, vec![0]);
}

#[test]
fn r7_4_ties_go_to_total_figures_then_shared() {
    // Seat 0: helmet majority, others 2; seat 1: rice majority, others 2; totals decide.
    let sc = score(&[[4, 1, 1], [1, 1, 3], [0, 1, 0]]);
    assert_eq!(sc.majorities, [Some(0), None, Some(1)]);
    assert_eq!(sc.winners, vec![0], "6 figures against 5");
    let shared = score(&[[3, 1, 1], [1, 1, 3], [0, 1, 0]]);
    assert_eq!(shared.winners, vec![0, 1]);
    assert_eq!(shared.returns(), vec![0.5, 0.5, 0.0]);
}

#[test]
fn r7_5_without_any_majority_the_most_figures_win() {
    let sc = score(&[[2, 2, 1], [2, 2, 1], [1, 1, 1]]);
    assert_eq!(sc.decided_by, "most_figures");
    assert_eq!(sc.winners, vec![0, 1]);
}

// === Hidden information ===

#[test]
fn r3_3_two_player_captures_are_open_three_player_captures_hidden() {
    for players in [2, 3] {
        let mut t = Table::ready(players);
        t.set_figures(VILLAGE_45, 1 << HELMET);
        t.put(50, 1, HELMET_2);
        t.give(0, &[HELMET_4]);
        let events = t.act_events(Action::PlaceToken { token: HELMET_4, hex: 46 });
        let view = t.g.view(&t.s, 1);
        let public: Vec<_> = events.iter().filter(|e| e["audience"] == "all" && e["kind"] == "figure_captured").collect();
        assert_eq!(public.len(), 1);
        if players == 2 {
            assert_eq!(view["players"][0]["captured"]["helmet"], 1);
            assert_eq!(public[0]["figure"], "helmet");
        } else {
            assert!(view["players"][0]["captured"].is_null());
            assert_eq!(view["players"][0]["captured_count"], 1);
            assert!(public[0].get("figure").is_none());
            assert!(events.iter().any(|e| e["kind"] == "figure_captured_private" && e["audience"] == serde_json::json!([0])));
            assert_eq!(t.g.view(&t.s, 0)["players"][0]["captured"]["helmet"], 1);
        }
    }
}

#[test]
fn hidden_hands_stacks_and_captures_never_reach_another_seat() {
    let mut t = Table::ready(3);
    t.s.captured[0] = [1, 2, 0];
    let mut other = t.s.clone();
    // Seat 0's secrets differ: which of its 20 tokens are in hand and which in the stack, and
    // the types of its captured figures (same counts).
    let pool = t.s.hands[0] | t.s.stacks[0];
    let new_hand = (0..20u8).filter(|b| t.s.stacks[0] & (1 << b) != 0).take(5).fold(0u32, |m, b| m | 1 << b);
    other.hands[0] = new_hand;
    other.stacks[0] = pool & !new_hand;
    other.captured[0] = [2, 0, 1];
    assert_ne!(other, t.s);
    for observer in [SPECTATOR, 1, 2] {
        assert_eq!(t.g.view(&t.s, observer), t.g.view(&other, observer), "observer {observer}");
        let len = t.g.info().observation_shape[0];
        let (mut a, mut b) = (vec![0.0; len], vec![0.0; len]);
        t.g.observation_tensor(&t.s, observer, &mut a);
        t.g.observation_tensor(&other, observer, &mut b);
        assert_eq!(a, b, "observer {observer}");
    }
    assert_ne!(t.g.view(&t.s, 0), t.g.view(&other, 0), "the owner sees his own secrets");
}

#[test]
fn events_of_other_seats_do_not_depend_on_a_seats_secret_choices_and_draws() {
    use kassen_core::load_game;
    let g = load_game("samurai", Some(&serde_json::json!({"players": 3, "explicit_chance": true}))).unwrap();
    // Two games identical except for the tokens seat 0 keeps.
    let play = |keeps: [u32; 5]| {
        let mut s = g.new_initial_state(3);
        for k in keeps {
            s.apply_in_place(k).unwrap();
        }
        s
    };
    let a = play([0, 1, 2, 3, 4]);
    let b = play([15, 16, 17, 18, 19]);
    for p in [SPECTATOR, 1, 2] {
        assert_eq!(a.events(p).unwrap(), b.events(p).unwrap());
        assert_eq!(a.view(p).unwrap(), b.view(p).unwrap());
    }
    assert_ne!(a.events(0).unwrap(), b.events(0).unwrap());
}

// === Perft: counts of legal sequences ===

fn perft(s: &kassen_core::StateHandle, depth: u32) -> u64 {
    if depth == 0 || s.is_terminal() {
        return 1;
    }
    s.legal_actions().iter().map(|&a| perft(&s.child(a).unwrap(), depth - 1)).sum()
}

#[test]
fn perft_setup_counts_are_the_token_choices() {
    let g = kassen_core::load_game("samurai", Some(&serde_json::json!({"players": 2, "explicit_chance": true}))).unwrap();
    let s = g.new_initial_state(0);
    // 17 kinds of token (N14): 14 single ones and 3 pairs (samurai-1, samurai-2, ship-1).
    assert_eq!(perft(&s, 1), 17);
    // A single kept leaves 16 kinds, one of a pair leaves 17.
    assert_eq!(perft(&s, 2), 14 * 16 + 3 * 17);
    // Three different kinds, or one pair twice and another kind in any of three places.
    assert_eq!(perft(&s, 3), 17 * 16 * 15 + 3 * 16 * 3);
}

#[test]
fn perft_counts_from_fixed_seeds_in_play() {
    // Regression counts: random setups from fixed seeds, then the first turns, explicit chance.
    let mut found = Vec::new();
    for (players, seed) in [(2u64, 11u64), (3, 12), (4, 13)] {
        let g = kassen_core::load_game("samurai", Some(&serde_json::json!({"players": players, "explicit_chance": true}))).unwrap();
        let mut s = g.new_initial_state(seed);
        let mut rng = kassen_core::rng::Rng::from_seed(seed);
        while s.view(SPECTATOR).unwrap()["body"]["phase"] != "play" {
            let l = s.legal_actions();
            s.apply_in_place(l[rng.below(l.len() as u32) as usize]).unwrap();
        }
        found.push((perft(&s, 1), perft(&s, 2)));
    }
    assert_eq!(found, PERFT_EXPECTED, "counts changed: a rules change must update them knowingly");
}

// The random setups pick among 17 keeps instead of 20 since identical tokens are one move (N14),
// so 2 players reach another position (seat 0 holds buddha-2, rice-4, ronin-1, ship-2 and the
// token exchange: 134 moves, not 148); 3 and 4 players happen to keep the same counts.
// 4 players: four normal land tokens x 56 empty land hexes (the token exchange has nothing to
// pick up), after which only "end turn" is left.
const PERFT_EXPECTED: [(u64, u64); 3] = [(134, 11534), (193, 16705), (224, 224)];

#[test]
fn debug_output_of_a_state_handle_holds_no_secrets() {
    let g = kassen_core::load_game("samurai", None).unwrap();
    let s = g.new_initial_state(123456789);
    let text = format!("{s:?}");
    assert!(!text.contains("123456789"), "the seed determines every hidden draw: {text}");
    assert!(!text.contains("hand"), "{text}");
}

// === Identical tokens are one move (tracker issue 7, item 13) ===

fn strings(t: &Table) -> Vec<String> {
    let mut ids = Vec::new();
    t.g.legal_actions(&t.s, &mut ids);
    ids.iter().map(|&a| t.g.action_to_string(&t.s, a)).collect()
}

#[test]
fn r2_1_identical_tokens_are_kept_under_one_action() {
    let mut t = Table::new(2);
    // Tokens 9 and 10 are both samurai-1, 11 and 12 samurai-2, 15 and 16 ship-1: 17 distinct.
    assert_eq!(t.legal().len(), 17);
    assert!(t.is_legal(Action::Keep { token: SAMURAI_1 }));
    assert!(!t.is_legal(Action::Keep { token: SAMURAI_1 + 1 }), "the lower of two identical tokens is the move");
    t.act(Action::Keep { token: SAMURAI_1 });
    assert!(t.is_legal(Action::Keep { token: SAMURAI_1 + 1 }), "the second samurai-1 is still available");
    let texts = strings(&t);
    let mut unique = texts.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), texts.len(), "{texts:?}");
}

#[test]
fn r5_2_identical_tokens_in_hand_are_played_under_one_action() {
    let mut t = Table::ready(2);
    t.give(0, &[SAMURAI_1, SAMURAI_1 + 1, SHIP_1, SHIP_1 + 1]);
    let legal = t.legal();
    assert!(legal.iter().all(|a| !matches!(a, Action::PlaceToken { token, .. } if *token == SAMURAI_1 + 1 || *token == SHIP_1 + 1)));
    assert!(t.is_legal(Action::PlaceToken { token: SAMURAI_1, hex: 46 }));
    assert!(!t.is_legal(Action::PlaceToken { token: SAMURAI_1 + 1, hex: 46 }));
    assert!(!t.is_legal(Action::PlaceToken { token: SHIP_1 + 1, hex: 39 }));
    t.act(Action::PlaceToken { token: SHIP_1, hex: 39 });
    assert!(t.is_legal(Action::PlaceToken { token: SHIP_1 + 1, hex: 40 }), "the other ship-1 is the move now");
}

#[test]
fn r5_5_identical_tokens_are_one_draw_with_their_summed_probability() {
    let mut t = Table::ready(2);
    t.give(0, &[HELMET_2]);
    t.s.stacks[0] = (1 << SHIP_1) | (1 << (SHIP_1 + 1)) | (1 << SHIP_2);
    t.act(Action::PlaceToken { token: HELMET_2, hex: 46 });
    t.act(Action::EndTurn);
    assert_eq!(t.s.phase, Phase::Refill);
    let mut outcomes = Vec::new();
    t.g.chance_outcomes(&t.s, &mut outcomes);
    let ship_1 = t.id(Action::Draw { token: SHIP_1 });
    let ship_2 = t.id(Action::Draw { token: SHIP_2 });
    assert_eq!(outcomes.len(), 2);
    assert_eq!(outcomes[0].0, ship_1);
    assert!((outcomes[0].1 - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(outcomes[1].0, ship_2);
    assert_eq!(t.legal(), vec![Action::Draw { token: SHIP_1 }, Action::Draw { token: SHIP_2 }]);
    assert!(!t.is_legal(Action::Draw { token: SHIP_1 + 1 }));
    for seed in 0..20 {
        let mut s = t.s.clone();
        s.rng = kassen_core::rng::Rng::from_seed(seed);
        let a = t.g.sample_chance(&mut s);
        assert!(a == ship_1 || a == ship_2, "a chance draw is always a listed outcome");
    }
}

// === 7.1 The screens are lifted (tracker 7, item 12) ===

#[test]
fn r7_1_at_the_end_every_seat_sees_all_hands_and_captures_in_its_events() {
    for players in [2u32, 3, 4] {
        let g = kassen_core::load_game("samurai", Some(&serde_json::json!({"players": players}))).unwrap();
        let (s, _) = kassen_core::testing::random_playout(&*g, 21);
        let state = s.to_json()["state"].clone();
        for p in SPECTATOR..players as i32 {
            let events = s.events(p).unwrap();
            let lifted: Vec<_> = events.iter().filter(|e| e.body["kind"] == "screens_lifted").collect();
            assert_eq!(lifted.len(), 1, "{players}p seat {p}");
            assert!(lifted[0].audience.is_all());
            for seat in 0..players as usize {
                let shown = &lifted[0].body["seats"][seat];
                let hand = state["hands"][seat].as_u64().unwrap();
                let tokens: Vec<u64> = shown["hand"].as_array().unwrap().iter().map(|t| t["token"].as_u64().unwrap()).collect();
                assert_eq!(tokens, (0..20).filter(|t| hand & (1 << t) != 0).collect::<Vec<u64>>(), "{players}p seat {seat}");
                let captured = &state["captured"][seat];
                assert_eq!(shown["captured"], serde_json::json!({"helmet": captured[0], "buddha": captured[1], "rice": captured[2]}));
            }
        }
    }
}

// === Config and saves (tracker 7, items 8 and F) ===

#[test]
fn config_player_counts_out_of_range_and_non_numbers_have_their_own_codes() {
    use kassen_core::ErrorCode;
    let code = |players: serde_json::Value| {
        kassen_core::load_game("samurai", Some(&serde_json::json!({ "players": players }))).err().map(|e| e.code())
    };
    for n in [serde_json::json!(-1), serde_json::json!(0), serde_json::json!(1), serde_json::json!(5), serde_json::json!(1000)] {
        assert_eq!(code(n.clone()), Some(ErrorCode::ConfigOutOfRange), "players {n}");
    }
    for n in [serde_json::json!(i64::MIN), serde_json::json!(u64::MAX)] {
        assert_eq!(code(n.clone()), Some(ErrorCode::ConfigOutOfRange), "players {n}");
    }
    // A player count is a whole number written as one: 3.0 is refused like 2.5 (issue 37 item 7).
    for n in [
        serde_json::json!("3"),
        serde_json::json!(null),
        serde_json::json!(true),
        serde_json::json!([3]),
        serde_json::json!({}),
        serde_json::json!(2.5),
        serde_json::json!(-3.0),
        serde_json::json!(1e300),
        serde_json::json!(3.0),
    ] {
        assert_eq!(code(n.clone()), Some(ErrorCode::InvalidConfig), "players {n}");
    }
    assert_eq!(code(serde_json::json!(3)), None, "players 3");
}

#[test]
fn a_save_with_an_unknown_field_inside_the_state_does_not_load() {
    let g = kassen_core::load_game("samurai", Some(&serde_json::json!({"players": 3}))).unwrap();
    let (s, _) = kassen_core::testing::random_playout(&*g, 4);
    let good = s.to_json();
    assert!(kassen_core::StateHandle::from_value(&good).is_ok());
    let with = |path: &[&str]| {
        let mut v = good.clone();
        let mut at = &mut v["state"];
        for p in path {
            at = &mut at[*p];
        }
        at["extra"] = serde_json::json!(1);
        kassen_core::StateHandle::from_value(&v).err().map(|e| e.code())
    };
    assert_eq!(with(&[]), Some(kassen_core::ErrorCode::InvalidState), "a field beside phase, hands, ...");
    assert_eq!(with(&["turn"]), Some(kassen_core::ErrorCode::InvalidState), "a field inside the turn");
}
