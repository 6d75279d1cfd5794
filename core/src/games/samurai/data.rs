//! Component data: the hex board and the 20 tokens, loaded once into typed tables.
//!
//! The embedded file `data/samurai.json` is transcribed from the reference file samurai.json
//! (README: component data and its provenance) with the provenance of every item. A replacement file with the same schema can be passed
//! as the config key `"data"`; it is validated here (ids, symmetric adjacency that matches the
//! hex coordinates, figure counts that fill the board exactly) before any game uses it.

use serde::Deserialize;
use serde_json::Value;

use crate::error::SetupError;
use crate::games::provenance::{bad, check as check_provenance};

/// The embedded component data.
pub const EMBEDDED: &str = include_str!("data/samurai.json");

pub const FIGURE_TYPES: [&str; 3] = ["helmet", "buddha", "rice"];
pub const NO_HEX: u8 = u8::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HexKind {
    Sea,
    Land,
    Village,
    City,
    Edo,
}

impl HexKind {
    pub fn name(self) -> &'static str {
        match self {
            HexKind::Sea => "sea",
            HexKind::Land => "land",
            HexKind::Village => "village",
            HexKind::City => "city",
            HexKind::Edo => "edo",
        }
    }

    pub fn is_settlement(self) -> bool {
        matches!(self, HexKind::Village | HexKind::City | HexKind::Edo)
    }

    /// How many figures the settlement holds (rulebook 4.4: city 2, village 1; Edo 3).
    pub fn slots(self) -> u8 {
        match self {
            HexKind::Village => 1,
            HexKind::City => 2,
            HexKind::Edo => 3,
            _ => 0,
        }
    }
}

/// What a token is (rulebook 2.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// Helmet, Buddha or Rice token: influences its own figure type.
    Figure(u8),
    Samurai,
    Ronin,
    Ship,
    FigureSwap,
    TokenSwap,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub kind: TokenKind,
    pub name: String,
    pub strength: u8,
    /// Printed with a Japanese character: any number per turn (rulebook 2.4).
    pub quick: bool,
    /// Bit f set: influences figure type f.
    pub influences: u8,
}

impl Token {
    pub fn on_sea(&self) -> bool {
        self.kind == TokenKind::Ship
    }

    /// Placed on the board by an ordinary placement (the exchanges are played differently).
    pub fn is_placed(&self) -> bool {
        !matches!(self.kind, TokenKind::FigureSwap | TokenKind::TokenSwap)
    }

    /// Identical to `other` (2.1: the printed kind and strength, and so everything else).
    pub fn same_as(&self, other: &Token) -> bool {
        self.kind == other.kind && self.strength == other.strength && self.quick == other.quick && self.influences == other.influences
    }

    /// May be picked up by a token exchange: a placed token without a Japanese character.
    pub fn exchangeable(&self) -> bool {
        matches!(self.kind, TokenKind::Figure(_) | TokenKind::Samurai)
    }
}

#[derive(Clone, Debug)]
pub struct Hex {
    pub id: u8,
    pub col: i32,
    pub row: i32,
    pub kind: HexKind,
    pub island: Option<String>,
    /// Bit n set: used in an n-player game.
    pub players: u8,
    pub neighbors: Vec<u8>,
    /// Settlement indices adjacent to this hex.
    pub settlements: Vec<u8>,
}

#[derive(Clone, Debug)]
pub struct Settlement {
    pub hex: u8,
    pub kind: HexKind,
    pub players: u8,
    pub land: Vec<u8>,
    pub sea: Vec<u8>,
}

/// The loaded, validated component data.
#[derive(Clone, Debug)]
pub struct Data {
    pub hexes: Vec<Hex>,
    pub settlements: Vec<Settlement>,
    /// Settlement index of a hex, or `NO_HEX`.
    pub settlement_at: Vec<u8>,
    pub tokens: Vec<Token>,
    /// Figures of each type for 2, 3, 4 players (index n - 2).
    pub figures_per_type: [u8; 3],
    pub figure_swap: u8,
    pub token_swap: u8,
    /// Provenance summary for the game info.
    pub provenance: Value,
}

// --- the file schema ---

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileHex {
    id: u32,
    col: i32,
    row: i32,
    kind: String,
    island: Option<String>,
    players: Vec<u32>,
    neighbors: Vec<u32>,
    provenance: String,
}

#[derive(Deserialize)]
struct FileBoard {
    provenance: String,
    hexes: Vec<FileHex>,
}

#[derive(Deserialize)]
struct FileToken {
    index: u32,
    #[serde(rename = "type")]
    kind: String,
    strength: u32,
    quick: bool,
    influences: Vec<String>,
    provenance: String,
}

#[derive(Deserialize)]
struct FileFigures {
    types: Vec<String>,
    per_type: std::collections::BTreeMap<String, u32>,
    provenance: String,
}

#[derive(Deserialize)]
struct File {
    schema: String,
    board: FileBoard,
    tokens: Vec<FileToken>,
    figures: FileFigures,
}

fn figure_index(name: &str) -> Option<u8> {
    FIGURE_TYPES.iter().position(|&t| t == name).map(|i| i as u8)
}

/// Hex coordinates are kept small enough that no arithmetic on them can overflow.
const MAX_COORDINATE: i32 = 1 << 16;

/// Axial coordinates of an odd-q offset hex.
fn axial(col: i32, row: i32) -> (i32, i32) {
    (col, row - (col - (col & 1)) / 2)
}

impl Data {
    pub fn embedded() -> Data {
        Data::from_value(&serde_json::from_str(EMBEDDED).expect("embedded data is json")).expect("embedded data is valid")
    }

    pub fn from_value(v: &Value) -> Result<Data, SetupError> {
        let file: File = serde_json::from_value(v.clone()).map_err(|e| bad(format!("does not match the schema: {e}")))?;
        if file.schema != "kassen.samurai.data/1" {
            return Err(bad(format!("unknown schema {:?}", file.schema)));
        }
        check_provenance(&file.board.provenance, "board")?;
        check_provenance(&file.figures.provenance, "figures")?;
        if file.figures.types != FIGURE_TYPES {
            return Err(bad("figures.types must be [\"helmet\", \"buddha\", \"rice\"]"));
        }

        // --- hexes ---
        let n = file.board.hexes.len();
        if n == 0 || n > 250 {
            return Err(bad(format!("{n} hexes (1 to 250 supported)")));
        }
        let mut hexes = Vec::with_capacity(n);
        for (i, h) in file.board.hexes.iter().enumerate() {
            if h.id as usize != i {
                return Err(bad(format!("hex at position {i} has id {}; ids must be 0..n in order", h.id)));
            }
            check_provenance(&h.provenance, &format!("hex {i}"))?;
            if h.col.unsigned_abs() > MAX_COORDINATE as u32 || h.row.unsigned_abs() > MAX_COORDINATE as u32 {
                return Err(bad(format!("hex {i}: col/row ({}, {}) out of -{MAX_COORDINATE}..{MAX_COORDINATE}", h.col, h.row)));
            }
            let kind = match h.kind.as_str() {
                "sea" => HexKind::Sea,
                "land" => HexKind::Land,
                "village" => HexKind::Village,
                "city" => HexKind::City,
                "edo" => HexKind::Edo,
                k => return Err(bad(format!("hex {i}: unknown kind {}", crate::input::quote(k)))),
            };
            let mut players = 0u8;
            for &p in &h.players {
                if !(2..=4).contains(&p) {
                    return Err(bad(format!("hex {i}: player count {p} out of 2..4")));
                }
                players |= 1 << p;
            }
            let mut neighbors = Vec::new();
            for &nb in &h.neighbors {
                if nb as usize >= n || nb as usize == i {
                    return Err(bad(format!("hex {i}: bad neighbour {nb}")));
                }
                neighbors.push(nb as u8);
            }
            neighbors.sort_unstable();
            neighbors.dedup();
            hexes.push(Hex {
                id: i as u8,
                col: h.col,
                row: h.row,
                kind,
                island: h.island.clone(),
                players,
                neighbors,
                settlements: Vec::new(),
            });
        }
        // Adjacency must be symmetric and agree with the coordinates.
        let pos: std::collections::HashMap<(i32, i32), u8> = hexes.iter().map(|h| (axial(h.col, h.row), h.id)).collect();
        if pos.len() != n {
            return Err(bad("two hexes share coordinates"));
        }
        for h in &hexes {
            let (q, r) = axial(h.col, h.row);
            let mut expected: Vec<u8> = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
                .iter()
                .filter_map(|(dq, dr)| pos.get(&(q + dq, r + dr)).copied())
                .collect();
            expected.sort_unstable();
            if expected != h.neighbors {
                return Err(bad(format!("hex {}: neighbours {:?} do not match the coordinates ({:?})", h.id, h.neighbors, expected)));
            }
        }
        // --- settlements ---
        let mut settlements = Vec::new();
        let mut settlement_at = vec![NO_HEX; n];
        for h in &hexes {
            if h.kind.is_settlement() {
                if settlements.len() >= 64 {
                    return Err(bad("more than 64 settlements"));
                }
                settlement_at[h.id as usize] = settlements.len() as u8;
                let land = h.neighbors.iter().copied().filter(|&x| hexes[x as usize].kind == HexKind::Land).collect::<Vec<_>>();
                let sea = h.neighbors.iter().copied().filter(|&x| hexes[x as usize].kind == HexKind::Sea).collect::<Vec<_>>();
                if land.is_empty() {
                    return Err(bad(format!("settlement at hex {} has no land neighbour", h.id)));
                }
                settlements.push(Settlement { hex: h.id, kind: h.kind, players: h.players, land, sea });
            }
        }
        for (si, s) in settlements.iter().enumerate() {
            for &x in s.land.iter().chain(&s.sea) {
                hexes[x as usize].settlements.push(si as u8);
                if hexes[x as usize].players & s.players != s.players {
                    return Err(bad(format!("settlement at hex {} has a neighbour missing from one of its player counts", s.hex)));
                }
            }
        }
        if hexes.iter().filter(|h| h.kind == HexKind::Edo).count() != 1 {
            return Err(bad("the board needs exactly one Edo"));
        }
        for p in 2..=4u8 {
            // 4.4: Edo receives one figure of each type in every game.
            if !settlements.iter().any(|s| s.kind == HexKind::Edo && s.players & (1 << p) != 0) {
                return Err(bad(format!("board.hexes: Edo is not on the {p}-player board")));
            }
        }

        // --- tokens ---
        // 4.2: every player keeps 5 tokens (HAND) behind the screen, so he needs at least 5.
        if file.tokens.len() > 32 || file.tokens.len() < super::HAND as usize {
            return Err(bad(format!("tokens: {} per player; 5 to 32 are supported (4.2: each player keeps 5)", file.tokens.len())));
        }
        let mut tokens = Vec::new();
        for (i, t) in file.tokens.iter().enumerate() {
            if t.index as usize != i {
                return Err(bad(format!("token at position {i} has index {}", t.index)));
            }
            check_provenance(&t.provenance, &format!("token {i}"))?;
            let kind = match t.kind.as_str() {
                "samurai" => TokenKind::Samurai,
                "ronin" => TokenKind::Ronin,
                "ship" => TokenKind::Ship,
                "figure_swap" => TokenKind::FigureSwap,
                "token_swap" => TokenKind::TokenSwap,
                k => TokenKind::Figure(figure_index(k).ok_or_else(|| bad(format!("token {i}: unknown type {}", crate::input::quote(k))))?),
            };
            let mut influences = 0u8;
            for f in &t.influences {
                influences |= 1 << figure_index(f).ok_or_else(|| bad(format!("token {i}: unknown figure {}", crate::input::quote(f))))?;
            }
            if t.strength > 20 {
                return Err(bad(format!("token {i}: strength {} too large", t.strength)));
            }
            tokens.push(Token { kind, name: format!("{}-{}", t.kind, t.strength), strength: t.strength as u8, quick: t.quick, influences });
        }
        let only = |k: TokenKind| -> Result<u8, SetupError> {
            let v: Vec<usize> = tokens.iter().enumerate().filter(|(_, t)| t.kind == k).map(|(i, _)| i).collect();
            if v.len() == 1 {
                Ok(v[0] as u8)
            } else {
                Err(bad(format!("exactly one {k:?} token is required")))
            }
        };
        let figure_swap = only(TokenKind::FigureSwap)?;
        let token_swap = only(TokenKind::TokenSwap)?;
        tokens[figure_swap as usize].name = "figure-exchange".into();
        tokens[token_swap as usize].name = "token-exchange".into();
        if tokens[token_swap as usize].quick {
            return Err(bad("the token exchange is the turn's normal token, it cannot be quick"));
        }
        // 2.4: a token is known by its picture and number; tokens that look the same must be
        // the same (N14 makes them one move, and action texts name them by look).
        for (i, t) in tokens.iter().enumerate() {
            if let Some(j) = tokens[..i].iter().position(|u| u.name == t.name && !u.same_as(t)) {
                return Err(bad(format!("tokens: token {i} looks like token {j} ({}) but differs in quick or influences", t.name)));
            }
        }

        // --- figures: the supply must fill every settlement of each player count ---
        if let Some(k) = file.figures.per_type.keys().find(|k| !["2", "3", "4"].contains(&k.as_str())) {
            return Err(bad(format!("figures.per_type: unknown player count {}", crate::input::quote(k))));
        }
        let mut figures_per_type = [0u8; 3];
        for p in 2..=4u8 {
            let per = *file.figures.per_type.get(&p.to_string()).ok_or_else(|| bad(format!("figures.per_type lacks {p}")))?;
            let on_board = |k: HexKind| settlements.iter().filter(|s| s.kind == k && s.players & (1 << p) != 0).count() as u64;
            let slots = on_board(HexKind::Village) + 2 * on_board(HexKind::City) + 3 * on_board(HexKind::Edo);
            if per as u64 * 3 != slots {
                return Err(bad(format!("figures.per_type.{p}: {per} figures per type do not fill {slots} settlement slots")));
            }
            // 4.4-4.5: Edo takes one of each type; the players must have figures left to place.
            if per < 2 {
                return Err(bad(format!("figures.per_type.{p}: {per} per type leaves nothing to place after Edo (4.4)")));
            }
            // INTERPRETATION (RULES_NOTES.md N1, N15): the cities are filled first with two
            // different figures each (4.7). With more cities than figures left per type after
            // Edo, the players can use up two types in cities and be left holding only the
            // third with cities still half full: no legal placement.
            let cities = on_board(HexKind::City);
            if cities > per as u64 - 1 {
                return Err(bad(format!(
                    "figures.per_type.{p}: {cities} cities but {} figures per type after Edo; cities could be left unfillable (4.7)",
                    per - 1
                )));
            }
            figures_per_type[(p - 2) as usize] = per as u8;
        }

        let mut counts = std::collections::BTreeMap::<String, u32>::new();
        for h in &file.board.hexes {
            *counts.entry(h.provenance.clone()).or_default() += 1;
        }
        let mut token_counts = std::collections::BTreeMap::<String, u32>::new();
        for t in &file.tokens {
            *token_counts.entry(t.provenance.clone()).or_default() += 1;
        }
        let provenance = serde_json::json!({
            "hexes": counts,
            "tokens": token_counts,
            "figures": file.figures.provenance,
            "reconstructed": [],
            "note": v.get("board").and_then(|b| b.get("note")).cloned().unwrap_or(Value::Null),
        });
        Ok(Data { hexes, settlements, settlement_at, tokens, figures_per_type, figure_swap, token_swap, provenance })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;
    use crate::game::Game;
    use crate::games::samurai::{Phase, Samurai};

    fn embedded() -> Value {
        serde_json::from_str(EMBEDDED).unwrap()
    }

    /// Figure counts that fill the settlements of every player count again.
    fn refill(v: &mut Value) {
        for p in 2..=4u64 {
            let slots: u64 = v["board"]["hexes"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|h| h["players"].as_array().unwrap().contains(&json!(p)))
                .map(|h| match h["kind"].as_str().unwrap() {
                    "village" => 1,
                    "city" => 2,
                    "edo" => 3,
                    _ => 0,
                })
                .sum();
            v["figures"]["per_type"][p.to_string()] = json!(slots / 3);
        }
    }

    fn rejected(v: &Value, field: &str) {
        match Data::from_value(v) {
            Err(SetupError::InvalidData(msg)) => assert!(msg.contains(field), "{msg:?} should name {field}"),
            other => panic!("expected InvalidData naming {field}, got {other:?}"),
        }
    }

    #[test]
    fn r4_4_edo_as_the_only_settlement_is_rejected() {
        let mut v = embedded();
        for h in v["board"]["hexes"].as_array_mut().unwrap() {
            if h["kind"] == "village" || h["kind"] == "city" {
                h["kind"] = json!("land");
            }
        }
        refill(&mut v);
        assert_eq!(v["figures"]["per_type"]["2"], 1);
        rejected(&v, "figures.per_type.2");
    }

    #[test]
    fn figure_counts_that_overflow_are_rejected() {
        let mut v = embedded();
        // 1431655766 * 3 = 2^32 + 2: in 32 bits that wrapped to 2.
        v["figures"]["per_type"]["2"] = json!(1431655766u64);
        rejected(&v, "figures.per_type.2");
        v["figures"]["per_type"]["2"] = json!(7);
        v["figures"]["per_type"]["5"] = json!(7);
        rejected(&v, "figures.per_type");
    }

    #[test]
    fn r4_2_fewer_than_five_tokens_are_rejected() {
        let mut v = embedded();
        let keep = [0usize, 3, 18, 19];
        let tokens: Vec<Value> = keep
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                let mut x = v["tokens"][t].clone();
                x["index"] = json!(i);
                x
            })
            .collect();
        v["tokens"] = json!(tokens);
        rejected(&v, "tokens");
    }

    #[test]
    fn tokens_that_look_alike_but_differ_are_rejected() {
        let mut v = embedded();
        v["tokens"][10]["quick"] = json!(true);
        rejected(&v, "token 10 looks like token 9");
    }

    #[test]
    fn hex_coordinates_that_could_overflow_are_rejected() {
        let mut v = embedded();
        v["board"]["hexes"][5]["col"] = json!(i32::MIN);
        rejected(&v, "hex 5");
    }

    #[test]
    fn edo_missing_from_a_player_count_is_rejected() {
        let mut v = embedded();
        let edo = v["board"]["hexes"].as_array().unwrap().iter().position(|h| h["kind"] == "edo").unwrap();
        v["board"]["hexes"][edo]["players"] = json!([3, 4]);
        rejected(&v, "Edo is not on the 2-player board");
    }

    /// N15: with more cities than figures per type left after Edo, random placements get
    /// stuck. Shown on data built past the validator: 12 of the 2-player villages made cities.
    #[test]
    fn n15_too_many_cities_can_leave_no_legal_placement() {
        let mut v = embedded();
        let mut made = 0;
        for h in v["board"]["hexes"].as_array_mut().unwrap() {
            if h["kind"] == "village" && h["players"].as_array().unwrap().contains(&json!(2)) && made < 12 {
                h["kind"] = json!("city");
                made += 1;
            }
        }
        refill(&mut v);
        rejected(&v, "cities");
        // The same board, built without the validator's city check.
        let mut d = Data::embedded();
        let mut made = 0;
        for st in d.settlements.iter_mut() {
            if st.kind == HexKind::Village && st.players & (1 << 2) != 0 && made < 12 {
                st.kind = HexKind::City;
                d.hexes[st.hex as usize].kind = HexKind::City;
                made += 1;
            }
        }
        d.figures_per_type[0] = 11; // 2 villages + 14 cities * 2 + Edo 3 = 33 slots
        let g = Samurai::new(2, std::sync::Arc::new(d)).unwrap();
        let stuck = (0..200u64).any(|seed| {
            let mut rng = crate::rng::Rng::from_seed(seed);
            let mut s = g.new_initial_state(seed);
            let mut legal = Vec::new();
            while s.phase == Phase::ChooseTokens || s.phase == Phase::PlaceFigures {
                legal.clear();
                g.legal_actions(&s, &mut legal);
                if legal.is_empty() {
                    return true;
                }
                let a = legal[rng.below(legal.len() as u32) as usize];
                g.apply(&mut s, a, &mut crate::events::Events::off());
            }
            false
        });
        assert!(stuck, "some random placement gets stuck with 14 cities and 10 figures per type left");
    }
}
