//! Component data: the map (locations, roads, castles, resources, capitals, recruitment mons,
//! setup icons), the 96 blocks, both 55-card decks, the two disks and the recruitment row.
//!
//! The embedded file `data/sekigahara.json` is transcribed from the reference file
//! sekigahara_gmt.json (README: component data and its provenance) with the provenance of every item (`read`, `inferred`,
//! `placeholder`). The copies of the non-setup blocks are **placeholders** (no public source
//! gives the sticker-sheet counts); a replacement file with the same schema can be passed as the
//! config key `"data"` and is validated here before any game uses it.

use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::SetupError;
use crate::games::provenance::{bad, check as check_provenance};

pub const EMBEDDED: &str = include_str!("data/sekigahara.json");

/// Seat 0 plays Tokugawa (black), seat 1 Ishida (gold).
pub const TOKUGAWA: u8 = 0;
pub const ISHIDA: u8 = 1;
pub const SIDES: [&str; 2] = ["tokugawa", "ishida"];
pub const TURNS: [&str; 2] = ["A", "B"];
pub const NONE: u8 = u8::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Plain,
    Arquebus,
    Cavalry,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiskRule {
    /// 9.1 Toyotomi Hideyori: last unit to fall; captured = Tokugawa victory.
    Hideyori,
    /// 9.2 Sanada Masayuki: may take any siege loss at its castle instead of a block.
    Sanada,
}

#[derive(Clone, Debug)]
pub struct Clan {
    pub id: String,
    pub side: u8,
}

#[derive(Clone, Debug)]
pub struct Location {
    pub id: String,
    pub name: String,
    pub kanji: Option<String>,
    /// Natural owner of the castle here (4.3), if there is one.
    pub castle: Option<u8>,
    pub resource: bool,
    /// Capital of this side (4.5).
    pub capital: Option<u8>,
    /// Clans whose mon is printed here (recruitment location, 7.2).
    pub recruit: Vec<u8>,
    /// Blocks drawn at random from the owner's bag at setup (5.2.2) and the side they belong to.
    pub random_setup: u8,
    pub random_side: u8,
    pub xy: [i32; 2],
    /// `(neighbour, road index)`, ascending by neighbour.
    pub adj: Vec<(u8, u8)>,
}

#[derive(Clone, Copy, Debug)]
pub struct Road {
    pub a: u8,
    pub b: u8,
    /// Highway (main road, 7.3.3).
    pub main: bool,
}

/// Where a block starts the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    Bag,
    Location(u8),
    MoriBox,
}

#[derive(Clone, Debug)]
pub struct Block {
    pub id: String,
    pub side: u8,
    pub clan: u8,
    pub mons: u8,
    pub unit: Unit,
    pub leader: bool,
    /// Tokugawa Ieyasu / Ishida Mitsunari (3 dots): its elimination wins the game (2.1).
    pub commander: bool,
    /// 8.2.2: deployable with a card of any clan (Ishida Mitsunari, Ii Naomasa).
    pub any_card: bool,
    pub start: Start,
    pub name: Option<String>,
}

impl Block {
    /// Blocks with the same face are interchangeable for every rule.
    pub fn face(&self) -> (u8, u8, Unit, bool, bool, bool) {
        (self.clan, self.mons, self.unit, self.leader, self.commander, self.any_card)
    }
}

/// One card type (a deck has several copies of each).
#[derive(Clone, Debug)]
pub struct CardType {
    pub id: String,
    pub side: u8,
    /// `None` for Loyalty Challenge cards.
    pub clan: Option<u8>,
    pub initiative: u8,
    pub sword: bool,
    pub double: bool,
    pub loyalty: bool,
    pub count: u8,
}

#[derive(Clone, Debug)]
pub struct Disk {
    pub id: String,
    pub side: u8,
    pub location: u8,
    pub rule: DiskRule,
}

/// The whole component set, as typed tables.
#[derive(Clone, Debug)]
pub struct Data {
    pub clans: Vec<Clan>,
    pub locations: Vec<Location>,
    pub roads: Vec<Road>,
    pub blocks: Vec<Block>,
    /// Card types of both sides; `side_cards[s]` lists the indices of side `s`.
    pub cards: Vec<CardType>,
    pub side_cards: [Vec<u8>; 2],
    pub disks: Vec<Disk>,
    pub box_start: [u8; 2],
    /// Blocks drawn into the recruitment box at the reinforcement step of week `w` (index w-1).
    pub recruitment_row: Vec<u8>,
    /// Where Mori box blocks enter the map (9.3).
    pub mori_exit: u8,
    pub hand_start: u8,
    pub weeks: u8,
    /// Counts per provenance class, for `GameInfo::provenance`.
    pub provenance: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    schema: String,
    #[serde(default)]
    #[allow(dead_code)] // documentation in the file only
    source: String,
    sides: Vec<String>,
    clans: Vec<FileClan>,
    locations: Vec<FileLocation>,
    roads: Vec<FileRoad>,
    blocks: Vec<FileBlock>,
    cards: Vec<FileCard>,
    disks: Vec<FileDisk>,
    recruitment_box_start: FileBoxStart,
    recruitment_row: FileRow,
    mori_box: FileMori,
    hand_start: u8,
    weeks: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileClan {
    id: String,
    side: String,
    #[serde(default)]
    #[allow(dead_code)] // documentation in the file only
    leader: Option<String>,
    #[serde(default)]
    #[allow(dead_code)] // documentation in the file only
    kanji: Option<String>,
    provenance: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileLocation {
    id: String,
    name: String,
    #[serde(default)]
    kanji: Option<String>,
    castle: Option<String>,
    resource: bool,
    capital: Option<String>,
    recruit: Vec<String>,
    random_setup: u8,
    xy: [i32; 2],
    provenance: String,
    #[serde(default)]
    #[allow(dead_code)] // documentation in the file only
    note: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileRoad {
    a: String,
    b: String,
    main: bool,
    provenance: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileBlock {
    id: String,
    side: String,
    clan: String,
    mons: u8,
    unit: Option<String>,
    leader: bool,
    leader_dots: u8,
    any_card: bool,
    start: Option<String>,
    name: Option<String>,
    provenance: String,
    #[serde(default)]
    #[allow(dead_code)] // documentation in the file only
    note: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileCard {
    id: String,
    side: String,
    clan: Option<String>,
    initiative: u8,
    sword: bool,
    double: bool,
    loyalty: bool,
    count: u8,
    provenance: String,
    #[serde(default)]
    #[allow(dead_code)] // documentation in the file only
    note: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDisk {
    id: String,
    side: String,
    location: String,
    rule: String,
    provenance: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileBoxStart {
    tokugawa: u8,
    ishida: u8,
    provenance: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileMori {
    exit: String,
    provenance: String,
    #[serde(default)]
    #[allow(dead_code)] // documentation in the file only
    note: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileRow {
    weeks: Vec<u8>,
    provenance: String,
    #[serde(default)]
    #[allow(dead_code)] // documentation in the file only
    note: Option<String>,
}

fn side_of(s: &str, what: &str) -> Result<u8, SetupError> {
    SIDES.iter().position(|&x| x == s).map(|i| i as u8).ok_or_else(|| bad(format!("{what}: unknown side {}", crate::input::quote(s))))
}

impl Data {
    pub fn embedded() -> Data {
        Data::from_value(&serde_json::from_str(EMBEDDED).expect("embedded data is json")).expect("embedded data is valid")
    }

    pub fn from_value(v: &Value) -> Result<Data, SetupError> {
        let f: File = serde_json::from_value(v.clone()).map_err(|e| bad(format!("does not match the schema: {e}")))?;
        if f.schema != "kassen.sekigahara.data/1" {
            return Err(bad(format!("unknown schema {:?}", f.schema)));
        }
        if f.sides != SIDES {
            return Err(bad("sides must be [\"tokugawa\", \"ishida\"]"));
        }
        let mut counts = std::collections::BTreeMap::<String, u32>::new();
        let mut count = |p: &str| *counts.entry(p.to_string()).or_default() += 1;

        // --- clans ---
        let mut clans = Vec::new();
        for c in &f.clans {
            check_provenance(&c.provenance, &format!("clan {}", c.id))?;
            if clans.iter().any(|x: &Clan| x.id == c.id) {
                return Err(bad(format!("duplicate clan {}", c.id)));
            }
            clans.push(Clan { id: c.id.clone(), side: side_of(&c.side, &c.id)? });
        }
        if clans.is_empty() || clans.len() > 16 {
            return Err(bad("1 to 16 clans supported"));
        }
        let clan_of = |s: &str, what: &str| -> Result<u8, SetupError> {
            clans
                .iter()
                .position(|c| c.id == s)
                .map(|i| i as u8)
                .ok_or_else(|| bad(format!("{what}: unknown clan {}", crate::input::quote(s))))
        };

        // --- locations ---
        let n = f.locations.len();
        if !(2..=60).contains(&n) {
            return Err(bad(format!("{n} locations (2 to 60 supported)")));
        }
        let mut locations = Vec::with_capacity(n);
        for l in &f.locations {
            check_provenance(&l.provenance, &format!("location {}", l.id))?;
            count(&l.provenance);
            if locations.iter().any(|x: &Location| x.id == l.id) {
                return Err(bad(format!("duplicate location {}", l.id)));
            }
            let castle = l.castle.as_deref().map(|s| side_of(s, &l.id)).transpose()?;
            let capital = l.capital.as_deref().map(|s| side_of(s, &l.id)).transpose()?;
            let mut recruit = Vec::new();
            for r in &l.recruit {
                recruit.push(clan_of(r, &l.id)?);
            }
            // The side of a random setup draw is the side of the castle, capital or mons printed here.
            let random_side = castle.or(capital).or(recruit.first().map(|&c| clans[c as usize].side)).unwrap_or(NONE);
            if l.random_setup > 0 && random_side == NONE {
                return Err(bad(format!("location {}: random setup blocks but no side (castle, capital or mon)", l.id)));
            }
            locations.push(Location {
                id: l.id.clone(),
                name: l.name.clone(),
                kanji: l.kanji.clone(),
                castle,
                resource: l.resource || capital.is_some(),
                capital,
                recruit,
                random_setup: l.random_setup,
                random_side,
                xy: l.xy,
                adj: Vec::new(),
            });
        }
        let loc_ids: Vec<String> = locations.iter().map(|l| l.id.clone()).collect();
        let loc_of = |s: &str, what: &str| -> Result<u8, SetupError> {
            loc_ids
                .iter()
                .position(|l| l == s)
                .map(|i| i as u8)
                .ok_or_else(|| bad(format!("{what}: unknown location {}", crate::input::quote(s))))
        };

        // --- roads ---
        if f.roads.len() > 64 {
            return Err(bad("at most 64 roads supported"));
        }
        let mut roads = Vec::new();
        for (i, r) in f.roads.iter().enumerate() {
            check_provenance(&r.provenance, &format!("road {i}"))?;
            count(&r.provenance);
            let (a, b) = (loc_of(&r.a, "road")?, loc_of(&r.b, "road")?);
            if a == b || roads.iter().any(|x: &Road| (x.a, x.b) == (a, b) || (x.a, x.b) == (b, a)) {
                return Err(bad(format!("road {i} ({}-{}) is a loop or a duplicate", r.a, r.b)));
            }
            roads.push(Road { a, b, main: r.main });
        }
        for (i, r) in roads.iter().enumerate() {
            locations[r.a as usize].adj.push((r.b, i as u8));
            locations[r.b as usize].adj.push((r.a, i as u8));
        }
        for l in &mut locations {
            l.adj.sort_unstable();
            if l.adj.is_empty() {
                return Err(bad(format!("location {} has no road", l.id)));
            }
        }

        // --- blocks ---
        let mut blocks = Vec::new();
        for b in &f.blocks {
            let what = format!("block {}", b.id);
            check_provenance(&b.provenance, &what)?;
            count(&b.provenance);
            let side = side_of(&b.side, &what)?;
            let clan = clan_of(&b.clan, &what)?;
            if clans[clan as usize].side != side {
                return Err(bad(format!("{what}: clan of the other side")));
            }
            if !(1..=4).contains(&b.mons) {
                return Err(bad(format!("{what}: mons must be 1 to 4")));
            }
            let unit = match b.unit.as_deref() {
                None => Unit::Plain,
                Some("arquebus") => Unit::Arquebus,
                Some("cavalry") => Unit::Cavalry,
                Some(u) => return Err(bad(format!("{what}: unknown unit {}", crate::input::quote(u)))),
            };
            let start = match b.start.as_deref() {
                None => Start::Bag,
                Some("mori_box") => Start::MoriBox,
                Some(l) => Start::Location(loc_of(l, &what)?),
            };
            if start == Start::MoriBox && side != ISHIDA {
                return Err(bad(format!("{what}: only Ishida blocks start in the Mori box")));
            }
            blocks.push(Block {
                id: b.id.clone(),
                side,
                clan,
                mons: b.mons,
                unit,
                leader: b.leader,
                commander: b.leader && b.leader_dots >= 3,
                any_card: b.any_card,
                start,
                name: b.name.clone(),
            });
        }
        if blocks.is_empty() || blocks.len() > 128 {
            return Err(bad("1 to 128 blocks supported"));
        }
        for side in 0..2u8 {
            if blocks.iter().filter(|b| b.side == side && b.commander).count() != 1 {
                return Err(bad(format!("{} needs exactly one commander block (leader_dots 3)", SIDES[side as usize])));
            }
        }

        // --- cards ---
        let mut cards = Vec::new();
        let mut side_cards: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
        for c in &f.cards {
            let what = format!("card {}", c.id);
            check_provenance(&c.provenance, &what)?;
            count(&c.provenance);
            let side = side_of(&c.side, &what)?;
            let clan = c.clan.as_deref().map(|s| clan_of(s, &what)).transpose()?;
            if c.loyalty == clan.is_some() {
                return Err(bad(format!("{what}: a card has a clan unless it is a Loyalty Challenge")));
            }
            if c.count == 0 {
                return Err(bad(format!("{what}: count 0")));
            }
            side_cards[side as usize].push(cards.len() as u8);
            cards.push(CardType {
                id: c.id.clone(),
                side,
                clan,
                initiative: c.initiative,
                sword: c.sword,
                double: c.double,
                loyalty: c.loyalty,
                count: c.count,
            });
        }
        if side_cards.iter().any(|v| v.is_empty() || v.len() > 16) {
            return Err(bad("each side needs 1 to 16 card types"));
        }
        if cards.iter().map(|c| c.count as u32).sum::<u32>() > 250 {
            return Err(bad("at most 250 cards in all"));
        }

        // --- disks ---
        let mut disks = Vec::new();
        for d in &f.disks {
            check_provenance(&d.provenance, &format!("disk {}", d.id))?;
            count(&d.provenance);
            let location = loc_of(&d.location, &d.id)?;
            if locations[location as usize].castle.is_none() {
                return Err(bad(format!("disk {} is not at a castle", d.id)));
            }
            let rule = match d.rule.as_str() {
                "hideyori" => DiskRule::Hideyori,
                "sanada" => DiskRule::Sanada,
                r => return Err(bad(format!("disk {}: unknown rule {r:?}", d.id))),
            };
            disks.push(Disk { id: d.id.clone(), side: side_of(&d.side, &d.id)?, location, rule });
        }
        if disks.len() > 8 {
            return Err(bad("at most 8 disks"));
        }
        check_provenance(&f.recruitment_box_start.provenance, "recruitment_box_start")?;
        check_provenance(&f.recruitment_row.provenance, "recruitment_row")?;
        check_provenance(&f.mori_box.provenance, "mori_box")?;
        let mori_exit = loc_of(&f.mori_box.exit, "mori_box")?;
        if f.weeks == 0 || f.weeks > 20 || f.recruitment_row.weeks.len() != f.weeks as usize {
            return Err(bad("weeks must be 1 to 20, with one recruitment_row entry per week"));
        }
        // The printed row says 0 to 2; a bound keeps the blocks due each week countable.
        if let Some(w) = f.recruitment_row.weeks.iter().position(|&n| n > 16) {
            return Err(bad(format!("recruitment_row.weeks[{w}]: {} blocks (0 to 16 supported)", f.recruitment_row.weeks[w])));
        }
        // The bag must hold every random draw made at setup.
        for side in 0..2u8 {
            let in_bag = blocks.iter().filter(|b| b.side == side && b.start == Start::Bag).count();
            let random: usize = locations.iter().filter(|l| l.random_side == side).map(|l| l.random_setup as usize).sum::<usize>()
                + [f.recruitment_box_start.tokugawa, f.recruitment_box_start.ishida][side as usize] as usize;
            if random > in_bag {
                return Err(bad(format!("{}: {random} random setup draws but {in_bag} blocks in the bag", SIDES[side as usize])));
            }
        }
        let placeholders: Vec<usize> = (0..2u8)
            .map(|side| f.blocks.iter().filter(|b| b.side == SIDES[side as usize] && b.provenance == "placeholder").count())
            .collect();
        let notes = if placeholders.iter().any(|&n| n > 0) {
            format!(
                "Map, setup blocks, cards, disks and tracks are read from the published components. {} Tokugawa and {} Ishida blocks are placeholders: copies of non-setup block faces whose numbers are invented so that each side has its full manifest; pass a replacement file as config \"data\" to use the real manifest.",
                placeholders[0], placeholders[1]
            )
        } else {
            "No block is a placeholder in this data file.".to_string()
        };
        let provenance = json!({"counts": counts, "notes": notes});
        Ok(Data {
            clans,
            locations,
            roads,
            blocks,
            cards,
            side_cards,
            disks,
            box_start: [f.recruitment_box_start.tokugawa, f.recruitment_box_start.ishida],
            recruitment_row: f.recruitment_row.weeks,
            mori_exit,
            hand_start: f.hand_start,
            weeks: f.weeks,
            provenance,
        })
    }

    pub fn loc(&self, id: &str) -> Option<u8> {
        self.locations.iter().position(|l| l.id == id).map(|i| i as u8)
    }

    pub fn block(&self, id: &str) -> Option<u8> {
        self.blocks.iter().position(|b| b.id == id).map(|i| i as u8)
    }

    pub fn clan(&self, id: &str) -> Option<u8> {
        self.clans.iter().position(|c| c.id == id).map(|i| i as u8)
    }

    pub fn card(&self, id: &str) -> Option<u8> {
        self.cards.iter().position(|c| c.id == id).map(|i| i as u8)
    }

    /// The road between two locations.
    pub fn road(&self, a: u8, b: u8) -> Option<u8> {
        self.locations[a as usize].adj.iter().find(|&&(n, _)| n == b).map(|&(_, r)| r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

    fn embedded_value() -> Value {
        serde_json::from_str(EMBEDDED).unwrap()
    }

    #[test]
    fn embedded_data_matches_the_published_components() {
        let d = Data::embedded();
        assert_eq!(d.locations.len(), 51);
        assert_eq!(d.roads.len(), 62);
        assert_eq!(d.roads.iter().filter(|r| r.main).count(), 19);
        assert_eq!(d.locations.iter().filter(|l| l.castle.is_some()).count(), 9);
        assert_eq!(d.locations.iter().filter(|l| l.resource).count(), 9);
        assert_eq!(d.locations.iter().filter(|l| l.capital.is_some()).count(), 2);
        for side in 0..2u8 {
            assert_eq!(d.blocks.iter().filter(|b| b.side == side).count(), 48);
            assert_eq!(d.side_cards[side as usize].iter().map(|&c| d.cards[c as usize].count as u32).sum::<u32>(), 55);
        }
        assert_eq!(d.locations[d.mori_exit as usize].id, "osaka");
        assert_eq!(d.recruitment_row, vec![0, 2, 2, 2, 1, 1, 1]);
        assert_eq!(d.provenance["counts"]["placeholder"], 68);
        // Every location is reachable from Kyoto.
        let mut seen = vec![false; d.locations.len()];
        let mut stack = vec![d.loc("kyoto").unwrap()];
        while let Some(l) = stack.pop() {
            if !std::mem::replace(&mut seen[l as usize], true) {
                stack.extend(d.locations[l as usize].adj.iter().map(|&(n, _)| n));
            }
        }
        assert!(seen.iter().all(|&x| x));
    }

    #[test]
    fn a_replacement_manifest_is_accepted_and_validated() {
        let mut v = embedded_value();
        let i = v["blocks"].as_array().unwrap().iter().position(|b| b["provenance"] == "placeholder").unwrap();
        v["blocks"][i]["mons"] = serde_json::json!(2);
        v["blocks"][i]["provenance"] = serde_json::json!("read");
        let d = Data::from_value(&v).expect("a corrected manifest loads");
        assert_eq!(d.blocks[i].mons, 2);

        let broken = |f: &dyn Fn(&mut Value)| {
            let mut v = embedded_value();
            f(&mut v);
            Data::from_value(&v).map(|_| ()).unwrap_err()
        };
        for err in [
            broken(&|v| v["blocks"][0]["provenance"] = serde_json::json!("guess")),
            broken(&|v| v["blocks"][0]["clan"] = serde_json::json!("mori")),
            broken(&|v| v["roads"][0]["b"] = serde_json::json!("atlantis")),
            broken(&|v| v["schema"] = serde_json::json!("other")),
            broken(&|v| v["blocks"][0]["mons"] = serde_json::json!(9)),
            broken(&|v| v["cards"][1]["clan"] = serde_json::Value::Null),
            broken(&|v| v["extra"] = serde_json::json!(1)),
        ] {
            assert_eq!(err.code(), ErrorCode::InvalidData, "{err}");
        }
    }
}
