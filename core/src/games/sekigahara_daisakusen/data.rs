//! Component data: the 22×25 hex map, 84 counters, the 調略, 戦意 and entry tracks, the 16
//! cards and the set-up (R 2.0-3.0).
//!
//! The embedded file `data/sekigahara_hex.json` is the reference file `sekigahara_hex.json`
//! (schema 2; README: component data and its provenance) unchanged: every section, counter and card keeps its provenance class
//! (ORIGINAL / INFERRED / RECONSTRUCTED). Config `"data"` replaces it with a file of the same
//! schema; [`Data::from_value`] validates it and names the bad field. Names become dense ids
//! here, once: hexes are row-major indices of the grid, counters and cards their list order.

use serde_json::{json, Value};

use crate::error::SetupError;
use crate::games::provenance::{bad, check as check_provenance};
use crate::hex::{Axial, Dir, Grid, OffsetLayout};

pub const EMBEDDED: &str = include_str!("data/sekigahara_hex.json");

pub const EAST: u8 = 0;
pub const WEST: u8 = 1;
pub const SIDES: [&str; 2] = ["east", "west"];
pub const NONE: u8 = u8::MAX;
pub const NO_HEX: u16 = u16::MAX;

/// Hexside flags (R 2.4(2)).
pub const ROAD: u8 = 1;
pub const RIVER: u8 = 2;
pub const SEA_SIDE: u8 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terrain {
    Plain,
    Hill,
    Mountain,
    Sea,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Commander,
    Busho,
    Ashigaru,
    Garrison,
    /// 豊臣秀頼 (R 13.0): led like a 武将, no ZOC.
    Special,
}

/// The five factions (R 2.3.1①), which decide 調略 (R 12.1) and the cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, Hash)]
pub enum Faction {
    Tokugawa = 0,
    Fudai = 1,
    EastTozama = 2,
    WestMain = 3,
    WestShosho = 4,
}

pub const FACTION_NAMES: [&str; 5] = ["徳川", "譜代", "東軍外様", "西軍主戦派", "西軍諸将"];

#[derive(Clone, Debug)]
pub struct Hex {
    pub id: String,
    pub base: Terrain,
    pub castle: u8,
    pub kyoto: bool,
    pub province: String,
    /// A road runs through the hex.
    pub road: bool,
    pub sides: [u8; 6],
    pub nb: [u16; 6],
}

impl Hex {
    pub fn passable(&self) -> bool {
        matches!(self.base, Terrain::Plain | Terrain::Hill)
    }
}

#[derive(Clone, Debug)]
pub struct Castle {
    pub name: String,
    pub hex: u16,
    pub double: bool,
    pub owner: u8,
}

#[derive(Clone, Debug)]
pub struct Counter {
    pub id: String,
    pub name: String,
    /// The name in Latin letters (`romaji` in the data; empty when it has none).
    pub romaji: String,
    pub side: u8,
    pub faction: Faction,
    pub clan: u8,
    pub also_leads: Vec<u8>,
    pub kind: Kind,
    pub command: u8,
    pub morale: u8,
    /// `NONE`: printed 戦意; otherwise the index of the 戦意 track that gives it (R 5.2).
    pub track: u8,
    pub attack: [u8; 2],
}

#[derive(Clone, Debug)]
pub struct MoraleTrack {
    pub name: String,
    /// 戦意 shown by each box, from the East end to the West end.
    pub values: Vec<u8>,
    pub start: u8,
    pub own_side: u8,
}

#[derive(Clone, Debug)]
pub struct EntryTrack {
    pub name: String,
    pub boxes: Vec<String>,
    pub hex: u16,
    pub commander: u8,
    pub group: Vec<u8>,
}

/// Who a card activates (R 5.1, card texts).
#[derive(Clone, Debug, PartialEq)]
pub enum Who {
    Named(Vec<u8>),
    /// Any commander of the card's side with 戦意 at least `min_morale`.
    Any,
    /// Commanders of a faction with 戦意 in the list (東軍外様諸将).
    Faction(Faction, Vec<u8>),
    /// Commanders whose 戦意 comes from a track (西軍諸将).
    Track(u8),
}

#[derive(Clone, Debug)]
pub struct Activation {
    pub who: Who,
    pub count: u8,
    pub min_morale: u8,
}

#[derive(Clone, Debug)]
pub struct MarkerEffect {
    /// The tracks to choose from (one entry: no choice).
    pub tracks: Vec<u8>,
    pub toward: u8,
    pub boxes: u8,
    /// Before the activation (毛利輝元, 毛利元康, 西軍諸将).
    pub first: bool,
    /// Only if this counter is in this province (大谷吉継 in 越前).
    pub only_if: Option<(u8, String)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enters {
    AtStart,
    /// 家康出馬: when 家康's group arrives on the map (R 4.2①).
    IeyasuArrives,
    /// 秀頼出陣: when 豊臣秀頼 leaves 大坂 (R 4.2②).
    HideyoriLeaves,
}

#[derive(Clone, Debug)]
pub struct Card {
    pub id: String,
    pub name: String,
    pub zh: String,
    /// EAST, WEST or NONE (強行軍).
    pub side: u8,
    pub enters: Enters,
    pub reshuffle: bool,
    pub draw_again: bool,
    pub judgement: bool,
    pub activation: Option<Activation>,
    pub marker: Option<MarkerEffect>,
}

#[derive(Clone, Debug)]
pub struct Data {
    pub grid: Grid,
    /// Per hex (the grid's dense index): its axial coordinates, so that a distance needs no
    /// division (the playout policy and the evaluation measure thousands per playout).
    pub axial: Vec<Axial>,
    pub hexes: Vec<Hex>,
    pub castles: Vec<Castle>,
    pub kyoto: u16,
    pub clans: Vec<String>,
    pub counters: Vec<Counter>,
    pub morale_tracks: Vec<MoraleTrack>,
    /// 調略 track: per box, the side it favours (EAST, WEST or NONE) and its number.
    pub chouryaku_side: Vec<u8>,
    pub chouryaku_value: Vec<u8>,
    pub chouryaku_labels: Vec<String>,
    pub chouryaku_start: u8,
    /// Boxes moved per trigger (R 11.0(1), 12.2(3)).
    pub mv_castle: u8,
    pub mv_double_castle: u8,
    pub mv_commander: u8,
    pub mv_defection: u8,
    pub mv_kyoto: u8,
    pub mv_failed_intimidation: u8,
    pub entry: Vec<EntryTrack>,
    pub cards: Vec<Card>,
    pub stacking: u8,
    pub stacks: Vec<(u16, Vec<u8>)>,
    pub tozama_hexes: Vec<(u16, u8)>,
    pub tozama_units: Vec<u8>,
    pub ieyasu: u8,
    pub ishida: u8,
    pub hideyori: u8,
    pub osaka: u16,
    /// The 戦意 track of 毛利輝元 (R 13.0(1)).
    pub terumoto_track: u8,
    pub provenance: Value,
}

fn get<'a>(v: &'a Value, path: &str) -> Result<&'a Value, SetupError> {
    let mut cur = v;
    for k in path.split('.') {
        cur = cur.get(k).ok_or_else(|| bad(format!("{path}: missing")))?;
    }
    Ok(cur)
}

fn s<'a>(v: &'a Value, key: &str, what: &str) -> Result<&'a str, SetupError> {
    v.get(key).and_then(Value::as_str).ok_or_else(|| bad(format!("{what}.{key}: expected a string")))
}

fn arr<'a>(v: &'a Value, what: &str) -> Result<&'a Vec<Value>, SetupError> {
    v.as_array().ok_or_else(|| bad(format!("{what}: expected an array")))
}

fn small(v: &Value, what: &str, lo: u64, hi: u64) -> Result<u8, SetupError> {
    match v.as_u64() {
        Some(n) if (lo..=hi).contains(&n) => Ok(n as u8),
        _ => Err(bad(format!("{what}: expected an integer in {lo}..={hi}, got {v}"))),
    }
}

/// The provenance class a text starts with (`ORIGINAL (…)` → `original`), checked.
/// Every item names its provenance class in capitals (`ORIGINAL`, `INFERRED`,
/// `RECONSTRUCTED`, …), possibly several for its parts; at least one must be present.
fn provenance_class(text: &str, what: &str) -> Result<(), SetupError> {
    let found = crate::games::provenance::CLASSES.iter().find(|c| text.contains(c.to_ascii_uppercase().as_str()));
    match found {
        Some(c) => check_provenance(c, what),
        None => Err(bad(format!("{what}: no provenance class (ORIGINAL, INFERRED, RECONSTRUCTED …) in {}", crate::input::quote(text)))),
    }
}

/// The first provenance class named in `text`.
fn class_of(text: &str) -> &'static str {
    let mut best: Option<(usize, &'static str)> = None;
    for c in crate::games::provenance::CLASSES {
        if let Some(i) = text.find(c.to_ascii_uppercase().as_str()) {
            if best.is_none_or(|(j, _)| i < j) {
                best = Some((i, c));
            }
        }
    }
    best.map_or("unknown", |b| b.1)
}

fn side_of(text: &str, what: &str) -> Result<u8, SetupError> {
    match text {
        "east" => Ok(EAST),
        "west" => Ok(WEST),
        _ => Err(bad(format!("{what}: expected \"east\" or \"west\", got {}", crate::input::quote(text)))),
    }
}

impl Data {
    pub fn embedded() -> Data {
        Data::from_value(&serde_json::from_str(EMBEDDED).expect("embedded data is json")).expect("embedded data is valid")
    }

    pub fn hex_index(&self, id: &str) -> Option<u16> {
        self.hexes.iter().position(|h| h.id == id).map(|i| i as u16)
    }

    pub fn counter_index(&self, name: &str) -> Option<u8> {
        self.counters.iter().position(|c| c.name == name || c.id == name).map(|i| i as u8)
    }

    pub fn from_value(v: &Value) -> Result<Data, SetupError> {
        if get(v, "schema_version")?.as_u64() != Some(2) {
            return Err(bad("schema_version: expected 2"));
        }
        let prov = get(v, "provenance")?;
        for key in ["map", "counters", "tracks.chouryaku", "tracks.morale", "tracks.entry", "cards", "setup"] {
            let p = prov.get(key).and_then(Value::as_str).ok_or_else(|| bad(format!("provenance.{key}: missing")))?;
            provenance_class(p, &format!("provenance.{key}"))?;
        }

        // === 2.4 the map ===
        let grid_v = get(v, "map.grid")?;
        let cols = small(get(grid_v, "cols")?, "map.grid.cols", 1, 60)? as i32;
        let rows = small(get(grid_v, "rows")?, "map.grid.rows", 1, 60)? as i32;
        // "even-numbered columns (1-based) are shifted half a hex south" = odd 0-based columns.
        let grid = Grid { cols, rows, layout: OffsetLayout::OddQ };
        let hexes_v = arr(get(v, "map.hexes")?, "map.hexes")?;
        if hexes_v.len() != grid.len() {
            return Err(bad(format!("map.hexes: expected {} hexes, got {}", grid.len(), hexes_v.len())));
        }
        let mut hexes: Vec<Hex> = Vec::with_capacity(grid.len());
        for _ in 0..grid.len() {
            hexes.push(Hex {
                id: String::new(),
                base: Terrain::Sea,
                castle: NONE,
                kyoto: false,
                province: String::new(),
                road: false,
                sides: [0; 6],
                nb: [NO_HEX; 6],
            });
        }
        for (k, h) in hexes_v.iter().enumerate() {
            let what = format!("map.hexes[{k}]");
            let col = small(get(h, "col")?, &format!("{what}.col"), 1, cols as u64)? as i32 - 1;
            let row = small(get(h, "row")?, &format!("{what}.row"), 1, rows as u64)? as i32 - 1;
            let i = grid.index(col, row).expect("in range");
            let id = s(h, "id", &what)?;
            if id != format!("{:02}{:02}", col + 1, row + 1) || !hexes[i].id.is_empty() {
                return Err(bad(format!("{what}.id: {} does not match its col/row or repeats", crate::input::quote(id))));
            }
            let base_name = h.get("base_terrain").and_then(Value::as_str).unwrap_or_else(|| h["terrain"].as_str().unwrap_or(""));
            let base = match base_name {
                "plain" | "kyoto" => Terrain::Plain,
                "hill" => Terrain::Hill,
                "mountain" => Terrain::Mountain,
                "all_sea" => Terrain::Sea,
                other => return Err(bad(format!("{what}.base_terrain: unknown terrain {}", crate::input::quote(other)))),
            };
            let terrain = s(h, "terrain", &what)?;
            if !["plain", "hill", "mountain", "all_sea", "castle", "kyoto"].contains(&terrain) {
                return Err(bad(format!("{what}.terrain: unknown terrain {}", crate::input::quote(terrain))));
            }
            let hx = &mut hexes[i];
            hx.id = id.to_string();
            hx.base = base;
            hx.kyoto = terrain == "kyoto";
            hx.province = h.get("province").and_then(Value::as_str).unwrap_or("").to_string();
        }
        for (i, hx) in hexes.iter_mut().enumerate() {
            for d in Dir::ALL {
                hx.nb[d as usize] = grid.neighbour(i, d).map_or(NO_HEX, |n| n as u16);
            }
        }
        let find = |id: &str, what: &str| -> Result<u16, SetupError> {
            let parsed = (id.len() == 4 && id.bytes().all(|b| b.is_ascii_digit()))
                .then(|| (id[..2].parse::<i32>().unwrap_or(0) - 1, id[2..].parse::<i32>().unwrap_or(0) - 1))
                .and_then(|(c, r)| grid.index(c, r));
            parsed.map(|i| i as u16).ok_or_else(|| bad(format!("{what}: unknown hex {}", crate::input::quote(id))))
        };
        let mut side_flags: Vec<[u8; 6]> = vec![[0; 6]; grid.len()];
        for (k, hs) in arr(get(v, "map.hexsides")?, "map.hexsides")?.iter().enumerate() {
            let what = format!("map.hexsides[{k}]");
            let pair = arr(get(hs, "hexes")?, &format!("{what}.hexes"))?;
            if pair.len() != 2 {
                return Err(bad(format!("{what}.hexes: expected two hexes")));
            }
            let a = find(pair[0].as_str().unwrap_or(""), &format!("{what}.hexes"))?;
            let b = find(pair[1].as_str().unwrap_or(""), &format!("{what}.hexes"))?;
            let d =
                Dir::from_name(s(hs, "side_of_first", &what)?).ok_or_else(|| bad(format!("{what}.side_of_first: unknown direction")))?;
            if hexes[a as usize].nb[d as usize] != b {
                return Err(bad(format!("{what}.side_of_first: {} is not the {} neighbour of {}", pair[1], d.name(), pair[0])));
            }
            let mut f = 0;
            if hs.get("road").is_some() {
                f |= ROAD;
            }
            if hs.get("river").is_some() {
                f |= RIVER;
            }
            if hs.get("all_sea").is_some_and(|x| x != &Value::Bool(false)) {
                f |= SEA_SIDE;
            }
            if f & ROAD != 0 && f & SEA_SIDE != 0 {
                return Err(bad(format!("{what}: a road across an all-sea hexside")));
            }
            side_flags[a as usize][d as usize] |= f;
            side_flags[b as usize][d.opposite() as usize] |= f;
        }
        for (i, f) in side_flags.into_iter().enumerate() {
            hexes[i].sides = f;
            hexes[i].road = f.iter().any(|x| x & ROAD != 0);
        }
        for (name, path) in get(v, "map.roads")?.as_object().ok_or_else(|| bad("map.roads: expected an object"))? {
            for h in arr(path, &format!("map.roads.{name}"))? {
                let i = find(h.as_str().unwrap_or(""), &format!("map.roads.{name}"))?;
                if !hexes[i as usize].passable() {
                    return Err(bad(format!("map.roads.{name}: road hex {} is mountain or all-sea", hexes[i as usize].id)));
                }
                hexes[i as usize].road = true;
            }
        }
        let mut castles = Vec::new();
        for (k, c) in arr(get(v, "map.castles")?, "map.castles")?.iter().enumerate() {
            let what = format!("map.castles[{k}]");
            let hex = find(s(c, "hex", &what)?, &format!("{what}.hex"))?;
            if !hexes[hex as usize].passable() || hexes[hex as usize].castle != NONE {
                return Err(bad(format!("{what}.hex: castle on impassable ground or twice")));
            }
            let double = get(c, "double_value")?.as_bool().ok_or_else(|| bad(format!("{what}.double_value: expected a boolean")))?;
            let owner = side_of(s(c, "initial_owner", &what)?, &format!("{what}.initial_owner"))?;
            hexes[hex as usize].castle = castles.len() as u8;
            castles.push(Castle { name: s(c, "name", &what)?.to_string(), hex, double, owner });
        }
        if castles.len() > 64 {
            return Err(bad("map.castles: at most 64"));
        }
        let kyotos: Vec<u16> = (0..hexes.len()).filter(|&i| hexes[i].kyoto).map(|i| i as u16).collect();
        if kyotos.len() != 1 || !hexes[kyotos[0] as usize].passable() {
            return Err(bad("map.hexes: expected exactly one passable kyoto hex"));
        }

        // === 2.3 counters ===
        let list = arr(get(v, "counters.list")?, "counters.list")?;
        if list.is_empty() || list.len() > 128 {
            return Err(bad("counters.list: expected 1..=128 counters"));
        }
        let mut clans: Vec<String> = Vec::new();
        let mut clan_id = |name: &str| -> u8 {
            if let Some(i) = clans.iter().position(|c| c == name) {
                i as u8
            } else {
                clans.push(name.to_string());
                (clans.len() - 1) as u8
            }
        };
        let track_names: Vec<String> = get(v, "tracks.morale.tracks")?
            .as_object()
            .ok_or_else(|| bad("tracks.morale.tracks: expected an object"))?
            .keys()
            .cloned()
            .collect();
        let mut counters: Vec<Counter> = Vec::new();
        for (k, c) in list.iter().enumerate() {
            let what = format!("counters.list[{k}]");
            let id = s(c, "id", &what)?.to_string();
            if counters.iter().any(|o| o.id == id) {
                return Err(bad(format!("{what}.id: {} repeats", crate::input::quote(&id))));
            }
            provenance_class(s(c, "value_provenance", &what)?, &format!("{what}.value_provenance"))?;
            let side = side_of(s(c, "side", &what)?, &format!("{what}.side"))?;
            let fname = s(c, "faction", &what)?;
            let faction = match FACTION_NAMES.iter().position(|&f| f == fname) {
                Some(0) => Faction::Tokugawa,
                Some(1) => Faction::Fudai,
                Some(2) => Faction::EastTozama,
                Some(3) => Faction::WestMain,
                Some(4) => Faction::WestShosho,
                _ => return Err(bad(format!("{what}.faction: unknown faction {}", crate::input::quote(fname)))),
            };
            if (faction as u8 <= 2) != (side == EAST) {
                return Err(bad(format!("{what}.faction: {fname} is not a faction of its side")));
            }
            let kind = match s(c, "type", &what)? {
                "commander" => Kind::Commander,
                "busho" => Kind::Busho,
                "ashigaru" => Kind::Ashigaru,
                "garrison" => Kind::Garrison,
                "special" => Kind::Special,
                other => return Err(bad(format!("{what}.type: unknown type {}", crate::input::quote(other)))),
            };
            let clan = match c.get("clan") {
                Some(Value::String(n)) if kind != Kind::Garrison => clan_id(n),
                Some(Value::Null) | None if kind == Kind::Garrison => NONE,
                _ => return Err(bad(format!("{what}.clan: a garrison has no clan (R 2.3.2(2)), every other counter one"))),
            };
            let mut also_leads = Vec::new();
            if let Some(Value::Array(a)) = c.get("also_leads_clans") {
                for n in a {
                    also_leads.push(clan_id(n.as_str().ok_or_else(|| bad(format!("{what}.also_leads_clans: expected strings")))?));
                }
            }
            let at = get(c, "attack")?;
            let attack = [
                small(get(at, "front")?, &format!("{what}.attack.front"), 0, 6)?,
                small(get(at, "back")?, &format!("{what}.attack.back"), 0, 6)?,
            ];
            let (mut command, mut morale, mut track) = (0, 0, NONE);
            if kind == Kind::Commander {
                command = small(get(c, "command")?, &format!("{what}.command"), 1, 6)?;
                morale = small(get(c, "morale")?, &format!("{what}.morale"), 0, 6)?;
                match s(c, "morale_source", &what)? {
                    "printed" => {}
                    "track" => {
                        let t = s(c, "morale_track", &what)?;
                        track = track_names
                            .iter()
                            .position(|n| n == t)
                            .ok_or_else(|| bad(format!("{what}.morale_track: unknown track {}", crate::input::quote(t))))?
                            as u8;
                    }
                    other => return Err(bad(format!("{what}.morale_source: unknown source {}", crate::input::quote(other)))),
                }
            }
            counters.push(Counter {
                id,
                name: s(c, "name", &what)?.to_string(),
                romaji: c.get("romaji").and_then(Value::as_str).unwrap_or("").to_string(),
                side,
                faction,
                clan,
                also_leads,
                kind,
                command,
                morale,
                track,
                attack,
            });
        }
        let by_name = |n: &str, what: &str| -> Result<u8, SetupError> {
            counters
                .iter()
                .position(|c| c.name == n)
                .map(|i| i as u8)
                .ok_or_else(|| bad(format!("{what}: no counter named {}", crate::input::quote(n))))
        };
        let ieyasu = by_name("徳川家康", "counters.list")?;
        let ishida = by_name("石田三成", "counters.list")?;
        let hideyori = by_name("豊臣秀頼", "counters.list")?;
        if counters[ieyasu as usize].side != EAST || counters[ieyasu as usize].kind != Kind::Commander {
            return Err(bad("counters.list: 徳川家康 must be an East commander"));
        }
        if counters[ishida as usize].side != WEST || counters[hideyori as usize].side != WEST {
            return Err(bad("counters.list: 石田三成 and 豊臣秀頼 must be West counters"));
        }

        // === 2.4(3) tracks ===
        let ch = get(v, "tracks.chouryaku")?;
        let boxes = arr(get(ch, "boxes")?, "tracks.chouryaku.boxes")?;
        if boxes.len() < 3 || boxes.len() > 41 || boxes.len() % 2 == 0 {
            return Err(bad("tracks.chouryaku.boxes: expected an odd number of boxes, 3..=41"));
        }
        let centre = boxes.len() / 2;
        let mut chouryaku_side = Vec::new();
        let mut chouryaku_value = Vec::new();
        let mut chouryaku_labels = Vec::new();
        for (k, b) in boxes.iter().enumerate() {
            let label = b.as_str().ok_or_else(|| bad(format!("tracks.chouryaku.boxes[{k}]: expected a string")))?;
            chouryaku_labels.push(label.to_string());
            let d = k.abs_diff(centre);
            chouryaku_side.push(if k < centre {
                EAST
            } else if k > centre {
                WEST
            } else {
                NONE
            });
            chouryaku_value.push(d.min(6) as u8);
        }
        let start_label = s(ch, "start", "tracks.chouryaku")?;
        let chouryaku_start = chouryaku_labels
            .iter()
            .position(|l| l == start_label)
            .filter(|&i| i > 0 && i + 1 < boxes.len())
            .ok_or_else(|| bad("tracks.chouryaku.start: not an inner box"))? as u8;
        let mv = get(ch, "moves")?;
        let m = |k: &str| -> Result<u8, SetupError> { small(get(mv, k)?, &format!("tracks.chouryaku.moves.{k}"), 0, 10) };
        let (mv_castle, mv_double_castle, mv_commander) =
            (m("capture_castle")?, m("capture_double_castle")?, m("eliminate_enemy_commander")?);
        let (mv_defection, mv_kyoto, mv_failed_intimidation) =
            (m("defection_of_a_commander")?, m("take_kyoto")?, m("failed_intimidation")?);

        let mut morale_tracks = Vec::new();
        for name in &track_names {
            let t = get(v, "tracks.morale.tracks")?.get(name).expect("listed");
            let what = format!("tracks.morale.tracks.{name}");
            let bx = arr(get(t, "boxes")?, &format!("{what}.boxes"))?;
            if bx.is_empty() || bx.len() > 15 {
                return Err(bad(format!("{what}.boxes: expected 1..=15 boxes")));
            }
            let values = bx
                .iter()
                .map(|b| small(b.get("value").unwrap_or(&Value::Null), &format!("{what}.boxes.value"), 0, 6))
                .collect::<Result<Vec<_>, _>>()?;
            let start = small(get(t, "start_box")?, &format!("{what}.start_box"), 0, bx.len() as u64 - 1)?;
            let own_side = side_of(s(t, "own_side", &what)?, &format!("{what}.own_side"))?;
            // Four tracks: INTERPRETATION (RULES_NOTES.md D25).
            morale_tracks.push(MoraleTrack { name: name.clone(), values, start, own_side });
        }
        let terumoto = by_name("毛利輝元", "counters.list")?;
        let terumoto_track = counters[terumoto as usize].track;
        if terumoto_track == NONE {
            return Err(bad("counters.list: 毛利輝元 must take his 戦意 from a track (R 5.2(2)②)"));
        }

        // === 3.0 set-up ===
        let setup = get(v, "setup")?;
        let stacking = small(get(setup, "stacking_limit")?, "setup.stacking_limit", 1, 12)?;
        let mut placed = vec![false; counters.len()];
        let mut place = |name: &str, what: &str| -> Result<u8, SetupError> {
            let i = counters
                .iter()
                .position(|c| c.id == name)
                .ok_or_else(|| bad(format!("{what}: unknown counter {}", crate::input::quote(name))))?;
            if std::mem::replace(&mut placed[i], true) {
                return Err(bad(format!("{what}: counter {name} placed twice")));
            }
            Ok(i as u8)
        };
        let mut stacks = Vec::new();
        for (hex, ids) in get(setup, "hex_stacks")?.as_object().ok_or_else(|| bad("setup.hex_stacks: expected an object"))? {
            let what = format!("setup.hex_stacks.{hex}");
            let h = find(hex, &what)?;
            if !hexes[h as usize].passable() {
                return Err(bad(format!("{what}: set-up hex is mountain or all-sea")));
            }
            let units = arr(ids, &what)?.iter().map(|x| place(x.as_str().unwrap_or(""), &what)).collect::<Result<Vec<_>, _>>()?;
            if units.len() > stacking as usize {
                return Err(bad(format!("{what}: more than {stacking} counters")));
            }
            stacks.push((h, units));
        }
        let mut tozama_hexes = Vec::new();
        for (k, t) in arr(get(setup, "tozama_setup_hexes")?, "setup.tozama_setup_hexes")?.iter().enumerate() {
            let what = format!("setup.tozama_setup_hexes[{k}]");
            let h = find(s(t, "hex", &what)?, &format!("{what}.hex"))?;
            if !hexes[h as usize].passable() || stacks.iter().any(|st| st.0 == h) {
                return Err(bad(format!("{what}.hex: impassable or also a fixed set-up hex")));
            }
            tozama_hexes.push((h, small(get(t, "capacity")?, &format!("{what}.capacity"), 1, stacking as u64)?));
        }
        if tozama_hexes.is_empty() || tozama_hexes.len() > 8 {
            return Err(bad("setup.tozama_setup_hexes: expected 1..=8 hexes"));
        }
        let mut tozama_units = Vec::new();
        for (k, ids) in get(setup, "tozama_suggested_placement")?
            .as_object()
            .ok_or_else(|| bad("setup.tozama_suggested_placement: expected an object"))?
            .values()
            .enumerate()
        {
            for x in arr(ids, &format!("setup.tozama_suggested_placement[{k}]"))? {
                tozama_units.push(place(x.as_str().unwrap_or(""), "setup.tozama_suggested_placement")?);
            }
        }
        tozama_units.sort_unstable();
        if tozama_units.len() > tozama_hexes.iter().map(|t| t.1 as usize).sum::<usize>() {
            return Err(bad("setup.tozama_setup_hexes: capacities hold fewer than the 外様主力 counters"));
        }
        let mut entry = Vec::new();
        for key in ["ieyasu", "hidetada"] {
            let what = format!("tracks.entry.{key}");
            let t = get(v, &what)?;
            let bx = arr(get(t, "boxes")?, &format!("{what}.boxes"))?;
            if bx.is_empty() || bx.len() > 15 {
                return Err(bad(format!("{what}.boxes: expected 1..=15 boxes")));
            }
            let hex = find(s(t, "enters_at", &what)?, &format!("{what}.enters_at"))?;
            if !hexes[hex as usize].passable() {
                return Err(bad(format!("{what}.enters_at: impassable entry hex")));
            }
            let ids = get(setup, &format!("tracks.track:{key}:START")).or_else(|_| {
                setup
                    .get("tracks")
                    .and_then(|tr| tr.get(format!("track:{key}:START")))
                    .ok_or_else(|| bad(format!("setup.tracks.track:{key}:START: missing")))
            })?;
            let group = arr(ids, &format!("setup.tracks.track:{key}:START"))?
                .iter()
                .map(|x| place(x.as_str().unwrap_or(""), &what))
                .collect::<Result<Vec<_>, _>>()?;
            let commander = *group
                .iter()
                .find(|&&u| counters[u as usize].kind == Kind::Commander)
                .ok_or_else(|| bad(format!("setup.tracks.track:{key}:START: no commander")))?;
            if group.len() > stacking as usize || counters[commander as usize].side != EAST {
                return Err(bad(format!("setup.tracks.track:{key}:START: too many counters or not East")));
            }
            entry.push(EntryTrack {
                name: key.into(),
                boxes: bx.iter().map(|b| b.as_str().unwrap_or("").to_string()).collect(),
                hex,
                commander,
                group,
            });
        }
        if entry[0].commander != ieyasu {
            return Err(bad("setup.tracks.track:ieyasu:START: 徳川家康 must lead the 東海道 group"));
        }
        if let Some(i) = placed.iter().position(|p| !p) {
            return Err(bad(format!("setup: counter {} is never placed", counters[i].id)));
        }
        let osaka = castles.iter().find(|c| c.name == "大坂").map(|c| c.hex).ok_or_else(|| bad("map.castles: no 大坂"))?;
        if !stacks.iter().any(|(h, u)| *h == osaka && u.contains(&hideyori)) {
            return Err(bad("setup.hex_stacks: 豊臣秀頼 must start in 大坂 (R 3.0(2)①)"));
        }

        // === 2.5 cards ===
        let clist = arr(get(v, "cards.list")?, "cards.list")?;
        if clist.is_empty() || clist.len() > 32 {
            return Err(bad("cards.list: expected 1..=32 cards"));
        }
        let mut cards: Vec<Card> = Vec::new();
        for (k, c) in clist.iter().enumerate() {
            let what = format!("cards.list[{k}]");
            provenance_class(s(c, "provenance", &what)?, &format!("{what}.provenance"))?;
            let side = match s(c, "side", &what)? {
                "either" => NONE,
                other => side_of(other, &format!("{what}.side"))?,
            };
            let effect = get(c, "effect").map_err(|_| bad(format!("{what}.effect: missing")))?;
            let start_deck = get(c, "in_start_deck")?.as_bool().ok_or_else(|| bad(format!("{what}.in_start_deck: expected a boolean")))?;
            let enters = if start_deck {
                Enters::AtStart
            } else {
                let cond = effect.get("enters_deck_when").and_then(Value::as_str).unwrap_or("");
                if cond.contains("徳川家康") {
                    Enters::IeyasuArrives
                } else if cond.contains("豊臣秀頼") {
                    Enters::HideyoriLeaves
                } else {
                    return Err(bad(format!("{what}.effect.enters_deck_when: a late card needs a known condition")));
                }
            };
            let activation = match effect.get("activates") {
                None => None,
                Some(a) => {
                    let count = small(a.get("count").unwrap_or(&json!(1)), &format!("{what}.effect.activates.count"), 1, 6)?;
                    let min_morale = small(a.get("min_morale").unwrap_or(&json!(0)), &format!("{what}.effect.activates.min_morale"), 0, 6)?;
                    let who = if let Some(Value::Array(names)) = a.get("commanders") {
                        let ids = names
                            .iter()
                            .map(|n| by_name(n.as_str().unwrap_or(""), &format!("{what}.effect.activates.commanders")))
                            .collect::<Result<Vec<_>, _>>()?;
                        if ids.iter().any(|&u| counters[u as usize].kind != Kind::Commander) {
                            return Err(bad(format!("{what}.effect.activates.commanders: not a commander")));
                        }
                        Who::Named(ids)
                    } else if let Some(f) = a.get("faction").and_then(Value::as_str) {
                        let fi = FACTION_NAMES
                            .iter()
                            .position(|&n| n == f)
                            .ok_or_else(|| bad(format!("{what}.effect.activates.faction: unknown")))?;
                        let fac = [Faction::Tokugawa, Faction::Fudai, Faction::EastTozama, Faction::WestMain, Faction::WestShosho][fi];
                        let ms = arr(get(a, "morale_in")?, &format!("{what}.effect.activates.morale_in"))?
                            .iter()
                            .map(|x| small(x, &format!("{what}.effect.activates.morale_in"), 0, 6))
                            .collect::<Result<Vec<_>, _>>()?;
                        Who::Faction(fac, ms)
                    } else if let Some(g) = a.get("group").and_then(Value::as_str) {
                        let t = track_names
                            .iter()
                            .position(|n| g.starts_with(n.as_str()))
                            .ok_or_else(|| bad(format!("{what}.effect.activates.group: unknown track")))?;
                        Who::Track(t as u8)
                    } else if a.get("any_commander").and_then(Value::as_bool) == Some(true) {
                        Who::Any
                    } else {
                        return Err(bad(format!("{what}.effect.activates: names no commanders")));
                    };
                    if side == NONE {
                        return Err(bad(format!("{what}.side: a card that activates belongs to a side")));
                    }
                    Some(Activation { who, count, min_morale })
                }
            };
            let marker = match effect.get("marker") {
                None => None,
                Some(mk) => {
                    let mw = format!("{what}.effect.marker");
                    let names: Vec<&str> = if let Some(Value::Array(a)) = mk.get("choose_one_of") {
                        a.iter().filter_map(Value::as_str).collect()
                    } else {
                        vec![s(mk, "track", &mw)?]
                    };
                    let tracks = names
                        .iter()
                        .map(|n| {
                            track_names
                                .iter()
                                .position(|t| t == n)
                                .map(|i| i as u8)
                                .ok_or_else(|| bad(format!("{mw}: unknown track {}", crate::input::quote(n))))
                        })
                        .collect::<Result<Vec<_>, _>>()?;
                    if tracks.is_empty() {
                        return Err(bad(format!("{mw}: no track")));
                    }
                    let toward = side_of(s(mk, "toward", &mw)?, &format!("{mw}.toward"))?;
                    let boxes = small(get(mk, "boxes")?, &format!("{mw}.boxes"), 0, 6)?;
                    let first = mk.get("first").and_then(Value::as_bool).unwrap_or(false);
                    let only_if = match mk.get("if").and_then(Value::as_str) {
                        None => None,
                        Some(cond) => {
                            let unit = counters.iter().position(|c| c.kind == Kind::Commander && cond.starts_with(c.name.as_str()));
                            let prov = hexes
                                .iter()
                                .map(|h| h.province.as_str())
                                .filter(|p| !p.is_empty() && cond.contains(p))
                                .max_by_key(|p| p.len());
                            match (unit, prov) {
                                (Some(u), Some(p)) => Some((u as u8, p.to_string())),
                                _ => return Err(bad(format!("{mw}.if: expected a commander and a province"))),
                            }
                        }
                    };
                    Some(MarkerEffect { tracks, toward, boxes, first, only_if })
                }
            };
            let judgement = effect.get("judgement").is_some();
            if judgement && side == NONE {
                return Err(bad(format!("{what}.side: a 調略 card belongs to a side")));
            }
            cards.push(Card {
                id: s(c, "id", &what)?.to_string(),
                name: s(c, "name", &what)?.to_string(),
                zh: s(c, "zh", &what)?.to_string(),
                side,
                enters,
                reshuffle: effect.get("after_use").is_some(),
                draw_again: effect.get("draw_again").is_some(),
                judgement,
                activation,
                marker,
            });
        }
        // Games must end: the turn (and so the max_turns cap) advances only through a
        // reshuffle card in the start deck (R 4.1(4)).
        if !cards.iter().any(|c| c.reshuffle && c.enters == Enters::AtStart && !c.draw_again) {
            return Err(bad("cards.list: the start deck needs a 家康行動 card (effect.after_use) that ends the turn"));
        }

        let mut counts = serde_json::Map::new();
        for c in list {
            let class = class_of(c["value_provenance"].as_str().unwrap_or(""));
            let n = counts.get(class).and_then(Value::as_u64).unwrap_or(0);
            counts.insert(class.to_string(), json!(n + 1));
        }
        let provenance = json!({
            "summary": prov.get("summary").cloned().unwrap_or(Value::Null),
            "map": prov["map"], "counters": prov["counters"], "cards": prov["cards"],
            "tracks": {"chouryaku": prov["tracks.chouryaku"], "morale": prov["tracks.morale"], "entry": prov["tracks.entry"]},
            "setup": prov["setup"], "counter_values": counts,
            "note": "No public copy of the printed map, counter values or track numbers exists: the map, most counter values and all track numbers are RECONSTRUCTED (see shared/reference/sekigahara_hex_notes.md)",
        });
        let axial = (0..grid.len())
            .map(|i| {
                let (col, row) = grid.coords(i);
                grid.layout.to_axial(col, row)
            })
            .collect();
        Ok(Data {
            grid,
            axial,
            hexes,
            castles,
            kyoto: kyotos[0],
            clans,
            counters,
            morale_tracks,
            chouryaku_side,
            chouryaku_value,
            chouryaku_labels,
            chouryaku_start,
            mv_castle,
            mv_double_castle,
            mv_commander,
            mv_defection,
            mv_kyoto,
            mv_failed_intimidation,
            entry,
            cards,
            stacking,
            stacks,
            tozama_hexes,
            tozama_units,
            ieyasu,
            ishida,
            hideyori,
            osaka,
            terumoto_track,
            provenance,
        })
    }
}
