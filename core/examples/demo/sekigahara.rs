//! Sekigahara in the demo: one complete game between the demo's bots (`bots_for`), told the way a
//! spectator sees it.
//!
//! The log is built from the spectator's events (`events(-1)`) and the spectator's view
//! (`view(-1)`, for the changes of castle and resource control and the points), nothing else:
//! face-down blocks stay anonymous ("3 blocks move"), cards in hand and bids stay hidden until
//! they are shown. Names of locations and of revealed blocks come from the published
//! component data (`Data::embedded`), which every player knows.

use std::time::Instant;

use kassen_core::games::sekigahara::data::{Data, Unit};
use kassen_core::{Event, GameHandle, StateHandle, SPECTATOR};
use serde_json::Value;

const SIDES: [&str; 2] = ["Tokugawa", "Ishida"];

pub fn play(game: &GameHandle, name: &str, seed: u64) -> StateHandle {
    let mut bots = super::bots_for(2);
    println!();
    println!("=== {name} ({}), 2 players, seed {seed} ===", game.id());
    println!("rulebook: {}", game.info().rulebook);
    for (seat, bot) in bots.iter().enumerate() {
        println!("  seat {seat} ({}): {}", SIDES[seat], bot.name());
    }
    println!("  (spectator's log: face-down blocks, hands and bids stay hidden)");
    println!();

    let data = Data::embedded();
    let mut log = Log::new(&data);
    let mut state = game.new_initial_state(seed);
    let mut view = state.view(SPECTATOR).expect("the spectator is a valid observer")["body"].take();
    log.setup(&view);
    let mut seen = 0;
    let started = Instant::now();
    loop {
        let events = state.events(SPECTATOR).expect("the spectator is a valid observer");
        let now = state.view(SPECTATOR).expect("the spectator is a valid observer")["body"].take();
        for e in &events[seen..] {
            log.event(e, &now);
        }
        seen = events.len();
        log.control(&view, &now);
        view = now;
        if state.is_terminal() {
            break;
        }
        let seat = state.current_player() as usize;
        let action = bots[seat].choose(&state);
        state.apply_in_place(action).expect("bots choose legal actions");
    }
    log.flush();
    eprintln!("[Sekigahara game: {:.2} s]", started.elapsed().as_secs_f64());

    println!();
    println!("  game over: {} ({} actions incl. chance)", log.end.as_deref().unwrap_or("?"), state.history().len());
    let locations: &[Value] = view["locations"].as_array().map_or(&[], |v| v.as_slice());
    for (side, key) in ["tokugawa", "ishida"].iter().enumerate() {
        let castles = locations.iter().filter(|l| l["castle"] == *key).count();
        let resources = locations.iter().filter(|l| l["resource"] == *key).count();
        let on_map: u64 = locations.iter().map(|l| l["blocks"][key].as_u64().unwrap_or(0)).sum();
        println!(
            "    {:<8}  {:>2} points  ({castles} castles, {resources} resources; {on_map} blocks on the map, {} eliminated)",
            SIDES[side], view["points"][key], view["eliminated"][key]
        );
    }
    let returns = state.returns();
    let winner = returns.iter().position(|&r| r > 0.0);
    println!("  returns: Tokugawa {:+.0}, Ishida {:+.0}", returns[0], returns[1]);
    match winner {
        Some(w) => println!("  winner: seat {w}, {} ({})", SIDES[w], bots[w].name()),
        None => println!("  no winner"),
    }
    state
}

/// "1 block", "3 blocks".
fn plural(n: u64, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// "tokugawa" -> "Tokugawa".
fn side(v: &Value) -> &'static str {
    match v.as_str() {
        Some("tokugawa") => SIDES[0],
        Some("ishida") => SIDES[1],
        _ => "nobody",
    }
}

/// A line being built from consecutive events of one kind.
enum Run {
    /// `side` drew `n` cards.
    Cards { side: &'static str, n: u32 },
    /// `side` drew blocks into the recruitment box or placed them face down on the map.
    Blocks { side: &'static str, places: Vec<String> },
    /// `side` discarded these cards for `why`.
    Discards { side: &'static str, why: String, cards: Vec<String> },
    /// A group moving: `blocks` blocks along `path`.
    Move { side: &'static str, blocks: u64, path: Vec<String> },
    /// Blocks eliminated in a row.
    Eliminated { blocks: Vec<String> },
}

struct Log<'a> {
    data: &'a Data,
    run: Option<Run>,
    /// A phase header printed only when something happens in the phase.
    header: Option<String>,
    /// Inside a battle: its lines are indented further.
    in_battle: bool,
    /// How the game ended, once it is over.
    end: Option<String>,
    /// Play has begun (the first bid): before it, the random setup placements are already
    /// in the setup summary.
    started: bool,
}

impl<'a> Log<'a> {
    fn new(data: &'a Data) -> Self {
        Log { data, run: None, header: None, in_battle: false, end: None, started: false }
    }

    fn place(&self, v: &Value) -> String {
        let id = v.as_str().unwrap_or("?");
        match self.data.locations.iter().find(|l| l.id == id) {
            Some(l) => l.name.clone(),
            None => id.replace('_', " "),
        }
    }

    /// A revealed block: "Ii Naomasa (ii 3)", "maeda 2 arquebus".
    fn block(&self, v: &Value) -> String {
        let id = v.as_str().unwrap_or("?");
        let Some(b) = self.data.blocks.iter().find(|b| b.id == id) else { return id.to_string() };
        let clan = &self.data.clans[b.clan as usize].id;
        let unit = match b.unit {
            Unit::Plain => "",
            Unit::Arquebus => " arquebus",
            Unit::Cavalry => " cavalry",
        };
        match &b.name {
            Some(name) if b.leader => format!("{name} ({clan} {}{unit})", b.mons),
            _ => format!("{clan} {}{unit}", b.mons),
        }
    }

    /// A card: "T_maeda_2" -> "maeda 2".
    fn card(v: &Value) -> String {
        match v.as_str() {
            Some(id) => id.split_once('_').map_or(id, |(_, rest)| rest).replace('_', " "),
            None => "nothing".into(),
        }
    }

    /// A line of the current phase (its header is printed first, if still pending).
    fn line(&mut self, text: String) {
        self.flush();
        if let Some(h) = self.header.take() {
            println!("  {h}");
        }
        self.print(&text);
    }

    fn print(&self, text: &str) {
        let indent = if self.in_battle { "      " } else { "    " };
        println!("{indent}{text}");
    }

    fn flush(&mut self) {
        let Some(run) = self.run.take() else { return };
        let text = match run {
            // Draws finish what came before (an exchange, a battle): printed before the
            // header of a phase that has not shown anything yet.
            Run::Cards { side, n } => return self.print(&format!("{side} draws {}", plural(n as u64, "card"))),
            Run::Blocks { side, places } if places.iter().all(|p| p == "the recruitment box") => {
                return self.print(&format!("{side} draws {} into the recruitment box", plural(places.len() as u64, "block")));
            }
            Run::Blocks { side, places } => format!("{side}: face-down blocks placed at {}", places.join(", ")),
            Run::Discards { side, why, cards } => format!("{side} discards {} ({why})", cards.join(", ")),
            Run::Move { side, blocks, path } => format!("{side} moves {}: {}", plural(blocks, "block"), path.join(" -> ")),
            Run::Eliminated { blocks } => format!("eliminated: {}", blocks.join(", ")),
        };
        self.line(text);
    }

    /// Continues the current run with `e`, or starts a new one.
    fn extend(&mut self, next: Run) {
        let merged = match (&mut self.run, next) {
            (Some(Run::Cards { side, n }), Run::Cards { side: s2, n: n2 }) if *side == s2 => {
                *n += n2;
                None
            }
            (Some(Run::Blocks { side, places }), Run::Blocks { side: s2, places: p2 }) if *side == s2 => {
                places.extend(p2);
                None
            }
            (Some(Run::Discards { side, why, cards }), Run::Discards { side: s2, why: w2, cards: c2 }) if *side == s2 && *why == w2 => {
                cards.extend(c2);
                None
            }
            (Some(Run::Move { side, blocks, path }), Run::Move { side: s2, blocks: b2, path: p2 })
                if *side == s2 && *blocks == b2 && path.last() == p2.first() =>
            {
                path.extend(p2.into_iter().skip(1));
                None
            }
            (Some(Run::Eliminated { blocks }), Run::Eliminated { blocks: b2 }) => {
                blocks.extend(b2);
                None
            }
            (_, next) => Some(next),
        };
        if let Some(next) = merged {
            self.flush();
            self.run = Some(next);
        }
    }

    /// The public setup: how many blocks of each side stand where.
    fn setup(&mut self, view: &Value) {
        println!("  setup (face down, with the blocks drawn at random from the bags; a spectator sees how many stand where):");
        for (s, key) in ["tokugawa", "ishida"].iter().enumerate() {
            let mut at: Vec<String> = Vec::new();
            let mut total = 0;
            for l in view["locations"].as_array().into_iter().flatten() {
                let n = l["blocks"][key].as_u64().unwrap_or(0);
                if n > 0 {
                    at.push(format!("{} {n}", self.place(&l["id"])));
                    total += n;
                }
            }
            println!("    {:<8} {total} blocks: {}", SIDES[s], at.join(", "));
        }
        println!(
            "    recruitment boxes: Tokugawa {}, Ishida {}; Mori box {}; hands of {} cards",
            view["recruitment_box"]["tokugawa"], view["recruitment_box"]["ishida"], view["mori_box"], view["hand_size"]["tokugawa"]
        );
    }

    /// Castles and resources that changed hands between two spectator views.
    fn control(&mut self, before: &Value, after: &Value) {
        let (Some(a), Some(b)) = (before["locations"].as_array(), after["locations"].as_array()) else { return };
        let mut changes = Vec::new();
        for (x, y) in a.iter().zip(b) {
            for what in ["castle", "resource"] {
                if x[what] != y[what] {
                    changes.push(format!("{} {what} -> {}", self.place(&y["id"]), side(&y[what])));
                }
            }
        }
        if !changes.is_empty() {
            // Caused by what came before: printed before a pending phase header.
            self.flush();
            self.print(&format!("control: {}", changes.join(", ")));
        }
    }

    fn event(&mut self, e: &Event, view: &Value) {
        let b = &e.body.to_value();
        let who = side(&b["side"]);
        match b["kind"].as_str().unwrap_or("?") {
            // Restated by other lines, or carrying nothing a reader needs.
            "bid_placed" | "stack_selected" | "movement_done" | "card_played" | "no_challenge" | "battle_declared" => {}
            "week" => {
                self.flush();
                self.in_battle = false;
                self.header = None;
                println!();
                println!(
                    "  === week {} (points: Tokugawa {}, Ishida {}) ===",
                    b["week"], view["points"]["tokugawa"], view["points"]["ishida"]
                );
            }
            "reinforcement_discards" => {
                let shown: Vec<String> = b["cards"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|c| {
                        let n = c[1].as_u64().unwrap_or(1);
                        if n > 1 {
                            format!("{} x{n}", Self::card(&c[0]))
                        } else {
                            Self::card(&c[0])
                        }
                    })
                    .collect();
                if !shown.is_empty() {
                    self.line(format!("halved hands, discards shown: {}", shown.join(", ")));
                }
            }
            "reinforcements" => self.line(format!(
                "holdings: castles Tokugawa {}, Ishida {}; resources Tokugawa {}, Ishida {}",
                b["castles"][0], b["castles"][1], b["resources"][0], b["resources"][1]
            )),
            // The setup draws (random placements, the first recruitment boxes, the first
            // hands) are in the setup summary.
            "block_drawn" | "card_drawn" if !self.started => {}
            "card_drawn" => self.extend(Run::Cards { side: who, n: 1 }),
            "block_drawn" => {
                let to = if b["to"] == "recruitment_box" { "the recruitment box".to_string() } else { self.place(&b["to"]) };
                self.extend(Run::Blocks { side: who, places: vec![to] })
            }
            "deck_reshuffled" => self.line(format!("{who} reshuffles the discards into a new deck")),
            "bids_revealed" => {
                self.started = true;
                self.line(format!(
                    "bids: Tokugawa {}, Ishida {}; {} wins the initiative",
                    Self::card(&b["tokugawa"]),
                    Self::card(&b["ishida"]),
                    side(&b["winner"])
                ))
            }
            "first_player" => self.line(format!("{} goes first (chosen by {})", side(&b["first"]), side(&b["chosen_by"]))),
            "phase" => {
                self.flush();
                self.in_battle = false;
                self.header = Some(format!(
                    "-- week {}, turn {}: {} {} --",
                    b["week"],
                    b["turn"].as_str().unwrap_or("?"),
                    who,
                    b["phase"].as_str().unwrap_or("?")
                ));
            }
            "movement_mode" => {
                let mode = b["mode"].as_str().unwrap_or("?").replace('_', " ");
                if let Some(h) = self.header.as_mut() {
                    *h = format!("{} ({mode}) --", h.trim_end_matches(" --"));
                }
                if mode == "no move" {
                    self.line(format!("{who} does not move"));
                }
            }
            "card_discarded" => {
                let why = b["for"].as_str().unwrap_or("?").replace('_', " ");
                self.extend(Run::Discards { side: who, why, cards: vec![Self::card(&b["card"])] })
            }
            "muster" => {
                let at = self.place(&b["at"]);
                match b["blocks"].as_array() {
                    Some(ids) => {
                        let names: Vec<String> = ids.iter().map(|i| self.block(i)).collect();
                        self.line(format!("{who} musters at {at} (option A, face up): {}", names.join(", ")))
                    }
                    None => self
                        .line(format!("{who} musters {} at {at} (option B, face down)", plural(b["count"].as_u64().unwrap_or(0), "block"))),
                }
            }
            "move" => {
                let path = vec![self.place(&b["from"]), self.place(&b["to"])];
                self.extend(Run::Move { side: who, blocks: b["blocks"].as_u64().unwrap_or(0), path })
            }
            "block_dropped" => self.line(format!("{who} leaves a block at {}", self.place(&b["at"]))),
            "leader_revealed" => self.line(format!("leader shown to command: {}", self.block(&b["block"]))),
            "contact" => self.line(format!("{who} makes contact at {}", self.place(&b["at"]))),
            "mori_arrival" => self.line(format!("the Mori arrive at {}: {}", self.place(&b["to"]), self.block(&b["block"]))),
            "overrun" => self.line(format!("{who} overruns {} ({} blocks against {})", self.place(&b["at"]), b["blocks"], b["overrun"])),
            "battle_begins" => {
                self.flush();
                self.in_battle = false;
                self.line(format!(
                    "battle at {} ({}), {} attacks",
                    self.place(&b["at"]),
                    b["type"].as_str().unwrap_or("?"),
                    side(&b["attacker"])
                ));
                self.in_battle = true;
            }
            "stays_in_castle" => self.line(format!("{who} keeps its blocks inside the castle at {}", self.place(&b["at"]))),
            "block_deployed" => {
                let with = if b["card"].is_null() { "no card".to_string() } else { Self::card(&b["card"]) };
                let special = b["special"].as_u64().unwrap_or(0);
                let bonus = if special > 0 { format!(", {special} special") } else { String::new() };
                self.line(format!(
                    "{who} deploys {} with {with}: impact {}{bonus} (Tokugawa {} - Ishida {})",
                    self.block(&b["block"]),
                    b["impact"],
                    b["totals"]["tokugawa"],
                    b["totals"]["ishida"]
                ))
            }
            "deployment_done" => self.line(format!("{who} is done deploying")),
            "loyalty_challenge" => self.line(format!("{who} plays {} against {}", Self::card(&b["card"]), self.block(&b["block"]))),
            "challenge_refuted" => self.line(format!("{who} refutes the challenge, showing {}", Self::card(&b["shown"]))),
            "defection" => {
                let names: Vec<String> = b["blocks"].as_array().into_iter().flatten().map(|i| self.block(i)).collect();
                self.line(format!(
                    "defection: {} now fight{} for {} (Tokugawa {} - Ishida {})",
                    names.join(", "),
                    if names.len() == 1 { "s" } else { "" },
                    side(&b["to"]),
                    b["totals"]["tokugawa"],
                    b["totals"]["ishida"]
                ))
            }
            "battle_result" => self.line(format!(
                "{}, impact Tokugawa {} - Ishida {}; casualties Tokugawa {}, Ishida {}",
                if b["winner"].is_null() { "no winner".to_string() } else { format!("{} wins", side(&b["winner"])) },
                b["impact"]["tokugawa"],
                b["impact"]["ishida"],
                b["casualties"]["tokugawa"],
                b["casualties"]["ishida"]
            )),
            "block_eliminated" => {
                let text = format!("{} {}", side(&b["side"]), self.block(&b["block"]));
                self.extend(Run::Eliminated { blocks: vec![text] })
            }
            "disk_eliminated" => self.line(format!("disk eliminated: {}", b["disk"].as_str().unwrap_or("?").replace('_', " "))),
            "retreat_into_castle" => self.line(format!("a block withdraws into the castle at {}", self.place(&b["at"]))),
            "castle_falls" => self.line(format!("the castle at {} falls to {}", self.place(&b["at"]), side(&b["to"]))),
            "retreat" => self.line(format!(
                "{who} retreats {}: {} -> {}",
                plural(b["blocks"].as_u64().unwrap_or(0), "block"),
                self.place(&b["from"]),
                self.place(&b["to"])
            )),
            // The replenishment draws follow as card_drawn events.
            "battle_over" => {
                self.flush();
                self.in_battle = false;
            }
            "game_over" => {
                self.flush();
                self.in_battle = false;
                let end = match b["reason"].as_str() {
                    Some("points") => format!(
                        "after the last week on points, Tokugawa {} - Ishida {}: {} wins",
                        b["points"]["tokugawa"],
                        b["points"]["ishida"],
                        side(&b["winner"])
                    ),
                    _ => format!("a commander or Hideyori is lost: {} wins at once", side(&b["winner"])),
                };
                self.line(format!("GAME OVER {end}"));
                self.end = Some(end);
            }
            other => {
                // A kind this log does not know yet: shown as it is (it is public).
                let mut rest = b.clone();
                if let Some(o) = rest.as_object_mut() {
                    o.remove("kind");
                }
                self.line(format!("{other} {rest}"));
            }
        }
    }
}
