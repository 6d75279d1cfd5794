//! Views (JSON), the observation tensor and action texts. Everything is public (R 4.1: only
//! the deck order is unknown, and it is in no view); the RNG state is never shown.
//!
//! ## Observation tensor layout (flat f32, perspective of the observer; the spectator sees
//! the East's perspective)
//! 1. `HEX_PLANES` planes of one value per hex (row-major hex index), in this order:
//!    plain, hill, mountain, all-sea (base terrain), working castle, fallen castle, 京, road
//!    hex; river hexside N, NE, SE, S, SW, NW; road hexside N…NW; castle mine, castle the
//!    enemy's, 京 mine; my face-up counters /6, my flipped /6, enemy face-up /6, enemy
//!    flipped /6, my commander, enemy commander, my garrison, enemy garrison; in the enemy's
//!    ZOC (for me), in my ZOC (for the enemy); the acting commander's hex; the attacked hex.
//! 2. Tracks: the 調略 marker one-hot over its boxes, each 戦意 marker one-hot over its
//!    boxes, each entry track one-hot over its boxes plus 登場.
//! 3. Cards: in the deck, in the discard pile, the card being carried out (one value per card).
//! 4. Per counter: on the map, flipped, mine, removed, in the acting group, has acted this card.
//! 5. Scalars: turn / max_turns, movement points / 12, I am East, I am to act, and the pending
//!    decision one-hot (`PENDING_KINDS`).

use std::borrow::Cow;

use serde::Serialize;
use serde_json::{json, Value};

use super::action::{Action, ACT_NAMES};
use super::data::{Kind, Terrain, EAST, FACTION_NAMES, NONE, NO_HEX, RIVER, ROAD, SIDES};
use super::state::{bit, Mode, Pending, State, DEAD, TRACK};
use super::Daisakusen;
use crate::game::{ActionId, Player};
use crate::quantize::Value as ObsValue;

pub const HEX_PLANES: usize = 35;
pub const PENDING_KINDS: [&str; 15] = [
    "setup",
    "draw",
    "plot",
    "plot_die",
    "marker",
    "commander",
    "action",
    "select",
    "strategic_die",
    "moving",
    "target",
    "dice",
    "allocate",
    "advance",
    "over",
];

/// A short human prompt per entry of [`PENDING_KINDS`].
const PROMPTS: [&str; 15] = [
    "place the next tozama unit",
    "a card is drawn",
    "plot: 調略 or 恫喝, or pass",
    "the plot die is rolled",
    "choose a morale marker",
    "choose the commander to activate",
    "choose what the commander does",
    "select units for the group",
    "the strategic die is rolled",
    "move the group or stop",
    "choose the hex to attack",
    "the battle dice are rolled",
    "choose a unit to take the hit",
    "advance into the hex or stay",
    "the game is over",
];

fn pending_index(p: &Pending) -> usize {
    match p {
        Pending::Setup { .. } => 0,
        Pending::Draw => 1,
        Pending::Plot => 2,
        Pending::PlotDie { .. } => 3,
        Pending::Marker => 4,
        Pending::Commander => 5,
        Pending::ActionChoice => 6,
        Pending::Select { .. } => 7,
        Pending::StratDie => 8,
        Pending::Moving => 9,
        Pending::Target => 10,
        Pending::Dice => 11,
        Pending::Allocate { .. } => 12,
        Pending::Advance => 13,
        Pending::Over => 14,
    }
}

pub fn tensor_len(g: &Daisakusen) -> usize {
    let d = &g.data;
    HEX_PLANES * d.hexes.len()
        + d.chouryaku_labels.len()
        + d.morale_tracks.iter().map(|t| t.values.len()).sum::<usize>()
        + d.entry.iter().map(|e| e.boxes.len() + 1).sum::<usize>()
        + 3 * d.cards.len()
        + 6 * d.counters.len()
        + 5
        + PENDING_KINDS.len()
}

/// What the observation encoder precomputes when the rules object is built.
#[derive(Clone, Debug, Default)]
pub struct TensorTables {
    /// The hex planes that no state changes (base terrain, 京, road hex, river and road
    /// hexsides: planes 0-3 and 6-19), with zeros in the castle planes 4 and 5 between them;
    /// every observation starts with a copy of them and zeros after.
    map_planes: Vec<f32>,
    /// The same as bytes, for uint8 observations.
    map_planes_u8: Vec<u8>,
    /// Per castle hex: (hex, castle).
    castles: Vec<(usize, u8)>,
    /// The 京 hexes.
    kyoto: Vec<usize>,
}

/// Hex planes 0..`STATIC_PLANES` come from [`TensorTables`]; the later ones depend on the state.
const STATIC_PLANES: usize = 20;

impl TensorTables {
    pub fn new(g: &Daisakusen) -> TensorTables {
        let d = &g.data;
        let n = d.hexes.len();
        let mut map_planes = vec![0.0; STATIC_PLANES * n];
        let mut set = |plane: usize, h: usize| map_planes[plane * n + h] = 1.0;
        for (h, hx) in d.hexes.iter().enumerate() {
            set(
                match hx.base {
                    Terrain::Plain => 0,
                    Terrain::Hill => 1,
                    Terrain::Mountain => 2,
                    Terrain::Sea => 3,
                },
                h,
            );
            if hx.kyoto {
                set(6, h);
            }
            if hx.road {
                set(7, h);
            }
            for dd in 0..6 {
                if hx.sides[dd] & RIVER != 0 {
                    set(8 + dd, h);
                }
                if hx.sides[dd] & ROAD != 0 {
                    set(14 + dd, h);
                }
            }
        }
        let castles = d.hexes.iter().enumerate().filter(|(_, hx)| hx.castle != NONE).map(|(h, hx)| (h, hx.castle)).collect();
        let kyoto = d.hexes.iter().enumerate().filter(|(_, hx)| hx.kyoto).map(|(h, _)| h).collect();
        let map_planes_u8 = map_planes.iter().map(|&v| u8::of(v)).collect();
        TensorTables { map_planes, map_planes_u8, castles, kyoto }
    }
}

/// A value of a counter plane (counters / 6, clamped) with one counter more. The bytes of 0 to
/// 6 sixths added up in floats are seven different bytes ([`SIXTHS`]), so a byte tells how
/// many counters it counts.
trait Count: ObsValue {
    fn one_more(self) -> Self;
}

impl Count for f32 {
    fn one_more(self) -> f32 {
        (self + 1.0 / 6.0).min(1.0)
    }
}

impl Count for u8 {
    fn one_more(self) -> u8 {
        let k = SIXTHS.iter().position(|&b| b == self).unwrap_or(6);
        SIXTHS[(k + 1).min(6)]
    }
}

/// The bytes of 0, 1, ... 6 counters on a plane, each the byte of the float value (added up
/// as `f32::one_more` does).
const SIXTHS: [u8; 7] = {
    let (mut bytes, mut v, mut k) = ([0u8; 7], 0.0f32, 1);
    while k < 7 {
        v = (v + 1.0 / 6.0).min(1.0);
        bytes[k] = crate::quantize::byte(v);
        k += 1;
    }
    bytes
};

pub fn tensor(g: &Daisakusen, s: &State, player: Player, out: &mut [f32]) {
    tensor_values(g, s, player, out, &g.tensor.map_planes)
}

/// The tensor as bytes ([`crate::quantize`]), written directly.
pub fn tensor_u8(g: &Daisakusen, s: &State, player: Player, out: &mut [u8]) {
    tensor_values(g, s, player, out, &g.tensor.map_planes_u8)
}

/// Writes the tensor as floats or bytes, starting from `map_planes` (the constant planes as `T`).
fn tensor_values<T: Count>(g: &Daisakusen, s: &State, player: Player, out: &mut [T], map_planes: &[T]) {
    let d = &g.data;
    let t = &g.tensor;
    let me = if player == 1 { 1u8 } else { 0u8 };
    let n = d.hexes.len();
    let (map, rest) = out.split_at_mut(STATIC_PLANES * n);
    map.copy_from_slice(map_planes);
    rest.fill(T::default());
    for &(h, c) in &t.castles {
        out[(if g.castle_alive(s, h as u16) { 4 } else { 5 }) * n + h] = T::ONE;
        out[(if g.castle_owner(s, c) == me { 20 } else { 21 }) * n + h] = T::ONE;
    }
    if s.kyoto_owner == me {
        for &h in &t.kyoto {
            out[22 * n + h] = T::ONE;
        }
    }
    // ZOC planes from the counters outward (the same rule as `enemy_zoc`, R 6.3).
    for (u, x) in s.units.iter().enumerate() {
        if !Daisakusen::on_map(x.loc) || !g.has_zoc(u as u8) {
            continue;
        }
        let plane = if x.side == me { 32 } else { 31 };
        let h = x.loc as usize;
        let hx = &d.hexes[h];
        let mut mark = |k: usize| {
            if d.hexes[k].passable() && !g.castle_alive(s, k as u16) {
                out[plane * n + k] = T::ONE;
            }
        };
        mark(h);
        for dd in 0..6 {
            if hx.nb[dd] != NO_HEX {
                mark(hx.nb[dd] as usize);
            }
        }
    }
    for (u, x) in s.units.iter().enumerate() {
        if !Daisakusen::on_map(x.loc) {
            continue;
        }
        let h = x.loc as usize;
        let mine = x.side == me;
        let plane = match (mine, x.flipped) {
            (true, false) => 23,
            (true, true) => 24,
            (false, false) => 25,
            (false, true) => 26,
        };
        out[plane * n + h] = out[plane * n + h].one_more();
        match d.counters[u].kind {
            Kind::Commander => out[(if mine { 27 } else { 28 }) * n + h] = T::ONE,
            Kind::Garrison => out[(if mine { 29 } else { 30 }) * n + h] = T::ONE,
            _ => {}
        }
    }
    if s.cmdr != NONE && Daisakusen::on_map(s.units[s.cmdr as usize].loc) {
        out[33 * n + s.units[s.cmdr as usize].loc as usize] = T::ONE;
    }
    if let Some(f) = s.fight {
        out[34 * n + f.target as usize] = T::ONE;
    }
    let mut k = HEX_PLANES * n;
    out[k + s.chouryaku as usize] = T::ONE;
    k += d.chouryaku_labels.len();
    for (t, tr) in d.morale_tracks.iter().enumerate() {
        out[k + s.morale[t] as usize] = T::ONE;
        k += tr.values.len();
    }
    for (t, e) in d.entry.iter().enumerate() {
        out[k + s.entry[t] as usize] = T::ONE;
        k += e.boxes.len() + 1;
    }
    let c = d.cards.len();
    for i in 0..c {
        out[k + i] = T::flag(s.deck >> i & 1 != 0);
        out[k + c + i] = T::flag(s.discard >> i & 1 != 0);
        out[k + 2 * c + i] = T::flag(s.card as usize == i);
    }
    k += 3 * c;
    let un = d.counters.len();
    for (u, x) in s.units.iter().enumerate() {
        out[k + u] = T::flag(Daisakusen::on_map(x.loc));
        out[k + un + u] = T::flag(x.flipped);
        out[k + 2 * un + u] = T::flag(x.side == me);
        out[k + 3 * un + u] = T::flag(x.loc == DEAD);
        out[k + 4 * un + u] = T::flag(s.group & bit(u as u8) != 0);
        out[k + 5 * un + u] = T::flag(s.used & bit(u as u8) != 0);
    }
    k += 6 * un;
    out[k] = T::of((s.turn as f32 / g.max_turns as f32).min(1.0));
    out[k + 1] = T::of((s.mp as f32 / 12.0).min(1.0));
    out[k + 2] = T::flag(me == EAST);
    out[k + 3] = T::flag(player >= 0 && g.current_player(s) == player);
    out[k + 4] = T::flag(g.hideyori_may_leave(s));
    out[k + 5 + pending_index(&s.pending)] = T::ONE;
}

use crate::game::Game;

fn hex_id(g: &Daisakusen, h: u16) -> Option<&str> {
    g.data.hexes.get(h as usize).map(|x| x.id.as_str())
}

/// Where a counter is: a hex id, `removed` or `entry_track:<name>`.
fn loc_name(g: &Daisakusen, loc: u16) -> Option<Cow<'_, str>> {
    if loc == DEAD {
        Some(Cow::Borrowed("removed"))
    } else if loc >= TRACK {
        Some(Cow::Owned(format!("entry_track:{}", g.data.entry[(loc - TRACK) as usize].name)))
    } else {
        hex_id(g, loc).map(Cow::Borrowed)
    }
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Commander => "commander",
        Kind::Busho => "busho",
        Kind::Ashigaru => "ashigaru",
        Kind::Garrison => "garrison",
        Kind::Special => "special",
    }
}

fn mode_name(m: Mode) -> &'static str {
    match m {
        Mode::Move => "move",
        Mode::Strategic => "strategic",
        Mode::Attack => "attack",
        Mode::Recover => "recover",
        Mode::Advance => "advance",
    }
}

// Field order in the structs below: the keys in ascending order, as `serde_json::Value`
// objects print them (the view JSON is the same bytes either way).

#[derive(Serialize)]
pub struct Decision<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    hex: Option<Option<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    intimidate: Option<bool>,
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    mode: Option<&'static str>,
    prompt: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    side: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unit: Option<String>,
}

/// The pending decision for the view envelope (the game has no hidden information).
pub fn pending_json<'a>(g: &'a Daisakusen, s: &State) -> Decision<'a> {
    let k = pending_index(&s.pending);
    let mut p = Decision { hex: None, intimidate: None, kind: PENDING_KINDS[k], mode: None, prompt: PROMPTS[k], side: None, unit: None };
    match s.pending {
        Pending::Setup { next } => p.unit = Some(g.unit_name(g.data.tozama_units[next as usize])),
        Pending::PlotDie { hex, intimidate } => {
            p.hex = Some(hex_id(g, hex));
            p.intimidate = Some(intimidate);
        }
        Pending::Select { mode } => p.mode = Some(mode_name(mode)),
        Pending::Allocate { side } => p.side = Some(SIDES[side as usize]),
        _ => {}
    }
    p
}

#[derive(Serialize)]
struct CardView<'a> {
    activations_left: u8,
    id: &'a str,
    name: &'a str,
}

#[derive(Serialize)]
struct Chouryaku<'a> {
    #[serde(rename = "box")]
    label: &'a str,
    index: u8,
}

#[derive(Serialize)]
struct MoraleView<'a> {
    #[serde(rename = "box")]
    at: u8,
    track: &'a str,
    value: u8,
}

#[derive(Serialize)]
struct EntryView<'a> {
    #[serde(rename = "box")]
    label: &'a str,
    index: u8,
    track: &'a str,
}

#[derive(Serialize)]
struct CastleView<'a> {
    double: bool,
    hex: Option<&'a str>,
    name: &'a str,
    owner: &'static str,
    working: bool,
}

#[derive(Serialize)]
struct UnitView<'a> {
    at: Option<Cow<'a, str>>,
    attack: u8,
    command: Option<u8>,
    faction: &'static str,
    flipped: bool,
    id: &'a str,
    morale: Option<u8>,
    name: &'a str,
    side: &'static str,
    #[serde(rename = "type")]
    kind: &'static str,
}

#[derive(Serialize)]
struct FightView<'a> {
    from: Option<&'a str>,
    hits_to_allocate: u8,
    modifier: i8,
    siege: bool,
    stage: &'static str,
    target: Option<&'a str>,
}

/// The view body (the same for every observer).
#[derive(Serialize)]
pub struct View<'a> {
    card: Option<CardView<'a>>,
    castles: Vec<CastleView<'a>>,
    chouryaku: Chouryaku<'a>,
    commander: Option<String>,
    deck: Vec<&'a str>,
    discard: Vec<&'a str>,
    entry: Vec<EntryView<'a>>,
    fight: Option<FightView<'a>>,
    group: Vec<&'a str>,
    /// R 13.0(1): 豊臣秀頼 may leave 大坂 (for good once its condition has held).
    hideyori_may_leave: bool,
    kyoto_owner: &'static str,
    max_turns: u16,
    morale: Vec<MoraleView<'a>>,
    movement_points: u8,
    not_yet_in_deck: Vec<&'a str>,
    turn: u16,
    units: Vec<UnitView<'a>>,
}

pub fn view<'a>(g: &'a Daisakusen, s: &State, _player: Player) -> View<'a> {
    let d = &g.data;
    let cards = |mask: u32| -> Vec<&str> { (0..d.cards.len()).filter(|&i| mask >> i & 1 != 0).map(|i| d.cards[i].id.as_str()).collect() };
    let out_of_deck = !(s.deck | s.discard | if s.card != NONE { 1 << s.card } else { 0 }) & ((1u64 << d.cards.len()) - 1) as u32;
    View {
        turn: s.turn,
        max_turns: g.max_turns,
        card: (s.card != NONE).then(|| {
            let c = &d.cards[s.card as usize];
            CardView { id: &c.id, name: &c.name, activations_left: s.picks }
        }),
        deck: cards(s.deck),
        discard: cards(s.discard),
        not_yet_in_deck: cards(out_of_deck),
        chouryaku: Chouryaku { label: &d.chouryaku_labels[s.chouryaku as usize], index: s.chouryaku },
        morale: d
            .morale_tracks
            .iter()
            .enumerate()
            .map(|(t, tr)| MoraleView { track: &tr.name, at: s.morale[t], value: tr.values[s.morale[t] as usize] })
            .collect(),
        entry: d
            .entry
            .iter()
            .enumerate()
            .map(|(t, e)| EntryView {
                track: &e.name,
                label: e.boxes.get(s.entry[t] as usize).map_or("登場", |b| b.as_str()),
                index: s.entry[t],
            })
            .collect(),
        castles: d
            .castles
            .iter()
            .enumerate()
            .map(|(i, c)| CastleView {
                name: &c.name,
                hex: hex_id(g, c.hex),
                owner: SIDES[g.castle_owner(s, i as u8) as usize],
                working: s.castle_alive >> i & 1 != 0,
                double: c.double,
            })
            .collect(),
        kyoto_owner: SIDES[s.kyoto_owner as usize],
        units: s
            .units
            .iter()
            .enumerate()
            .map(|(u, x)| {
                let c = &d.counters[u];
                let commander = c.kind == Kind::Commander;
                UnitView {
                    id: &c.id,
                    name: &c.name,
                    side: SIDES[x.side as usize],
                    faction: FACTION_NAMES[x.faction as usize],
                    kind: kind_name(c.kind),
                    at: loc_name(g, x.loc),
                    flipped: x.flipped,
                    attack: c.attack[x.flipped as usize],
                    command: commander.then_some(c.command),
                    morale: commander.then(|| g.morale_of(s, u as u8)),
                }
            })
            .collect(),
        commander: (s.cmdr != NONE).then(|| g.unit_name(s.cmdr)),
        group: (0..s.units.len() as u8).filter(|&u| s.group & bit(u) != 0).map(|u| d.counters[u as usize].id.as_str()).collect(),
        movement_points: s.mp,
        hideyori_may_leave: g.hideyori_may_leave(s),
        fight: s.fight.map(|f| FightView {
            from: hex_id(g, f.from),
            target: hex_id(g, f.target),
            siege: f.siege,
            stage: if f.stage == 0 { "besieged_fire_first" } else { "attack" },
            hits_to_allocate: f.hits,
            modifier: f.modifier,
        }),
    }
}

pub fn action_string(g: &Daisakusen, s: &State, a: ActionId) -> String {
    let d = &g.data;
    let Some(action) = g.decode(a) else { return format!("invalid action {a}") };
    let dir = |k: u8| ["N", "NE", "SE", "S", "SW", "NW"][k as usize % 6];
    let from = if s.cmdr != NONE { s.units[s.cmdr as usize].loc } else { NO_HEX };
    let toward = |k: u8| -> String {
        if (from as usize) < d.hexes.len() {
            let n = d.hexes[from as usize].nb[k as usize % 6];
            if n != NO_HEX {
                return g.hex_name(n);
            }
        }
        "-".into()
    };
    match action {
        Action::Draw(c) => format!("draw {} {}", d.cards[c as usize].id, d.cards[c as usize].name),
        Action::Die(n) => format!("die {n}"),
        Action::Place(k) => format!("place at {}", g.hex_name(d.tozama_hexes[k as usize % d.tozama_hexes.len()].0)),
        Action::Pass => "pass".into(),
        Action::Commander(u) => format!("commander {}", g.unit_name(u)),
        Action::Act(k) => ACT_NAMES[k as usize % ACT_NAMES.len()].replace('_', " "),
        Action::Select(u) => format!("select {}", g.unit_name(u)),
        Action::Done => "done".into(),
        Action::Step(k) => format!("step {} to {}", dir(k), toward(k)),
        Action::Target(k) => format!("attack {} {}", dir(k), toward(k)),
        Action::Hit(u) => format!(
            "hit {}{}",
            g.unit_name(u),
            if s.units.get(u as usize).is_some_and(|x| x.flipped) { " (removed)" } else { " (flipped)" }
        ),
        Action::Advance => "advance".into(),
        Action::Stay => "stay".into(),
        Action::Marker(t) => format!("marker {}", d.morale_tracks[t as usize % d.morale_tracks.len()].name),
        Action::Chouryaku(h) => format!("調略判定 {}", g.hex_name(h)),
        Action::Intimidate(h) => format!("恫喝判定 {}", g.hex_name(h)),
    }
}

pub fn action_json(g: &Daisakusen, s: &State, a: ActionId) -> Value {
    let d = &g.data;
    let Some(action) = g.decode(a) else { return json!({"id": a, "verb": "invalid"}) };
    // The text a reader sees: a commander it names with the romanized name beside the Japanese.
    let mut text = action_string(g, s, a);
    if let Action::Commander(u) | Action::Select(u) | Action::Hit(u) = action {
        let name = g.unit_name(u);
        text = text.replacen(&name, &g.unit_label(&name), 1);
    }
    let (verb, extra) = match action {
        Action::Draw(c) => ("draw", json!({"card": d.cards[c as usize].id})),
        Action::Die(n) => ("die", json!({"value": n})),
        Action::Place(k) => ("place", json!({"hex": hex_id(g, d.tozama_hexes[k as usize].0)})),
        Action::Pass => ("pass", json!({})),
        Action::Commander(u) => ("commander", json!({"unit": d.counters[u as usize].id})),
        Action::Act(k) => ("act", json!({"action": ACT_NAMES[k as usize]})),
        Action::Select(u) => ("select", json!({"unit": d.counters[u as usize].id})),
        Action::Done => ("done", json!({})),
        Action::Step(k) => ("step", json!({"direction": k})),
        Action::Target(k) => ("target", json!({"direction": k})),
        Action::Hit(u) => ("hit", json!({"unit": d.counters[u as usize].id})),
        Action::Advance => ("advance", json!({})),
        Action::Stay => ("stay", json!({})),
        Action::Marker(t) => ("marker", json!({"track": d.morale_tracks[t as usize].name})),
        Action::Chouryaku(h) => ("chouryaku", json!({"hex": hex_id(g, h)})),
        Action::Intimidate(h) => ("intimidate", json!({"hex": hex_id(g, h)})),
    };
    let mut v = json!({"id": a, "verb": verb, "text": text});
    if let (Value::Object(m), Value::Object(e)) = (&mut v, extra) {
        m.extend(e);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::{Count, SIXTHS};

    #[test]
    fn a_byte_of_a_counter_plane_tells_its_count() {
        assert!(SIXTHS.windows(2).all(|w| w[0] < w[1]), "{SIXTHS:?}");
        assert_eq!((SIXTHS[0], SIXTHS[6]), (0, 255));
        let (mut f, mut b) = (0.0f32, 0u8);
        for _ in 0..9 {
            (f, b) = (f.one_more(), b.one_more());
            assert_eq!(b, crate::quantize::byte(f));
        }
    }
}
