//! Sekigahara rule scenarios, named after the rulebook sections (docs/rules/sekigahara.md lists
//! them section by section; the Japanese translation is followed, the Korean one where
//! RULES_NOTES.md says so).
//!
//! Positions are built on the real map from the embedded component data: a game after its setup
//! draws, cleared (`Tb::blank`), then blocks placed by id. Every decision goes through
//! `Game::step`, so an action the engine does not offer fails the test.

use kassen_core::events::{Audience, Events};
use kassen_core::games::sekigahara::data::Start;
use kassen_core::games::sekigahara::{
    Action, Battle, Deploy, EndReason, Mode, Pending, Sekigahara, State, BAG, BOX, DEAD, ISHIDA, MORI_BOX, NONE, TOKUGAWA,
};
use kassen_core::rng::Rng;
use kassen_core::{Game, Player, RuleError, CHANCE, SPECTATOR, TERMINAL};
use serde_json::{Map, Value};

const T: u8 = TOKUGAWA;
const I: u8 = ISHIDA;

// Block flags, mirrored from state.rs (crate-private there).
const MOVED: u8 = 1;
const MUSTERED: u8 = 2;
const IN_CASTLE: u8 = 4;
const SELECTED: u8 = 8;
const DEPLOYED: u8 = 16;
const DEFECTED: u8 = 32;
const SHOWN: u8 = 64;

fn game() -> Sekigahara {
    Sekigahara::setup(&Map::new()).expect("default config")
}

fn resolve_chance(g: &Sekigahara, s: &mut State) {
    while g.current_player(s) == CHANCE {
        let a = g.sample_chance(s);
        g.apply(s, a, &mut Events::off());
    }
}

/// A block is face down (its identity hidden from the other side): on the map, in a box or the
/// bag, and neither deployed in the battle being fought, nor shown for command (3.1, 5.1,
/// 8.2.1, 7.3.4); eliminated blocks are shown (8.7.2).
fn face_down(s: &State, i: usize) -> bool {
    let b = &s.blocks[i];
    let in_battle = s.battle.as_ref().is_some_and(|x| x.deploys.iter().any(|d| d.block as usize == i));
    b.loc != MORI_BOX && b.loc != DEAD && b.flags & (DEPLOYED | DEFECTED | SHOWN) == 0 && !in_battle
}

#[derive(Clone)]
struct Tb {
    g: Sekigahara,
    s: State,
}

impl Tb {
    /// A new game after its setup draws (5).
    fn new(seed: u64) -> Tb {
        let g = game();
        let mut s = g.new_initial_state(seed);
        resolve_chance(&g, &mut s);
        Tb { g, s }
    }

    /// An empty map: every block in its bag (the Mori box too), empty hands, castles with their
    /// natural owners, the capitals held by their sides.
    fn blank() -> Tb {
        let mut t = Tb::new(1);
        for b in &mut t.s.blocks {
            b.loc = BAG;
            b.flags = 0;
            b.from = NONE;
        }
        t.hand(T, &[]);
        t.hand(I, &[]);
        let d = t.g.data();
        for (i, l) in d.locations.iter().enumerate() {
            t.s.castle[i] = l.castle.unwrap_or(NONE);
            t.s.resource[i] = if l.resource { l.capital.unwrap_or(NONE) } else { NONE };
        }
        t
    }

    fn b(&self, id: &str) -> u8 {
        self.g.data().block(id).unwrap_or_else(|| panic!("no block {id}"))
    }
    fn l(&self, id: &str) -> u8 {
        self.g.data().loc(id).unwrap_or_else(|| panic!("no location {id}"))
    }
    fn c(&self, id: &str) -> u8 {
        self.g.data().card(id).unwrap_or_else(|| panic!("no card {id}"))
    }
    fn r(&self, a: &str, b: &str) -> u8 {
        self.g.data().road(self.l(a), self.l(b)).unwrap_or_else(|| panic!("no road {a}-{b}"))
    }
    fn disk(&self, id: &str) -> u8 {
        self.g.data().disks.iter().position(|d| d.id == id).unwrap_or_else(|| panic!("no disk {id}")) as u8
    }

    fn put_at(&mut self, ids: &[&str], loc: u8) {
        for id in ids {
            let i = self.b(id) as usize;
            self.s.blocks[i].loc = loc;
            self.s.blocks[i].flags = 0;
            self.s.blocks[i].from = NONE;
        }
    }
    fn put(&mut self, ids: &[&str], loc: &str) {
        let l = self.l(loc);
        self.put_at(ids, l);
    }
    /// The blocks entered their location from `from` (8.8.2).
    fn came(&mut self, ids: &[&str], from: &str) {
        let f = self.l(from);
        for id in ids {
            let i = self.b(id) as usize;
            self.s.blocks[i].from = f;
        }
    }
    fn flag(&mut self, ids: &[&str], f: u8) {
        for id in ids {
            let i = self.b(id) as usize;
            self.s.blocks[i].flags |= f;
        }
    }
    fn at(&self, id: &str) -> u8 {
        self.s.blocks[self.b(id) as usize].loc
    }
    fn flags(&self, id: &str) -> u8 {
        self.s.blocks[self.b(id) as usize].flags
    }
    fn mori_box_filled(&mut self) {
        self.put_at(&["I_mori_02", "I_mori_03", "I_mori_04", "I_mori_05", "I_mori_06"], MORI_BOX);
    }

    /// The hand of `side` becomes exactly `cards` (the old hand goes back into the deck).
    fn hand(&mut self, side: u8, cards: &[&str]) {
        for &c in &self.g.data().side_cards[side as usize] {
            self.s.deck[c as usize] += self.s.hand[c as usize];
            self.s.hand[c as usize] = 0;
        }
        for id in cards {
            let c = self.c(id) as usize;
            assert!(self.s.deck[c] > 0, "no {id} left in the deck");
            self.s.deck[c] -= 1;
            self.s.hand[c] += 1;
        }
    }
    fn held(&self, card: &str) -> u8 {
        self.s.hand[self.c(card) as usize]
    }
    fn hand_size(&self, side: u8) -> u32 {
        self.s.hand_size(&self.g, side)
    }

    /// The movement phase of `side` starts (7).
    fn movement(&mut self, side: u8) {
        self.s.first = side;
        self.s.turn = 0;
        self.s.step = 0;
        for b in &mut self.s.blocks {
            b.flags &= !(MOVED | MUSTERED | SELECTED | SHOWN);
        }
        self.s.roads_used = 0;
        self.s.origins_used = 0;
        self.s.stacks_left = 0;
        self.s.muster_left = false;
        self.s.battle = None;
        self.s.pending = Pending::Mode;
    }

    /// The combat phase of `side` starts (8.1).
    fn combat(&mut self, side: u8) {
        self.s.first = side;
        self.s.turn = 0;
        self.s.step = 1;
        self.s.declared = 0;
        self.s.forced = None;
        self.s.battle = None;
        self.s.pending = Pending::Combat;
    }

    /// Movement phase of `side` in mode All, the two cards paid, at the menu.
    fn moving_all(&mut self, side: u8) {
        let cards: &[&str] = if side == T { &["T_date_2", "T_date_2", "T_maeda_2"] } else { &["I_mori_1", "I_mori_1", "I_ukita_1"] };
        self.hand(side, cards);
        self.movement(side);
        self.act(Action::Mode(Mode::All));
        let c = cards[0];
        self.act(Action::Discard(self.c(c)));
        self.act(Action::Discard(self.c(c)));
        assert_eq!(self.s.pending, Pending::Menu);
    }

    fn id(&self, a: Action) -> u32 {
        self.g.encode(a)
    }
    fn try_act(&mut self, a: Action) -> Result<Vec<Value>, RuleError> {
        let id = self.id(a);
        let mut ev = Events::recording();
        self.g.step(&mut self.s, id, &mut ev)?;
        Ok(ev.into_vec().into_iter().map(|e| serde_json::to_value(e).expect("event json")).collect())
    }
    /// Plays `a`, which must be legal; returns the events.
    fn act(&mut self, a: Action) -> Vec<Value> {
        match self.try_act(a) {
            Ok(ev) => ev,
            Err(e) => panic!("{a:?} at {:?}: {e}; legal: {:?}", self.s.pending, self.legal()),
        }
    }
    fn sel(&mut self, ids: &[&str]) {
        for id in ids {
            let b = self.b(id);
            self.act(Action::Select(b));
        }
    }
    fn legal(&self) -> Vec<Action> {
        let mut v = Vec::new();
        self.g.legal_actions(&self.s, &mut v);
        v.into_iter().map(|a| self.g.decode(a).expect("decodes")).collect()
    }
    fn ok(&self, a: Action) -> bool {
        self.g.is_legal(&self.s, self.id(a))
    }
    fn cp(&self) -> Player {
        self.g.current_player(&self.s)
    }
    fn battle(&self) -> &Battle {
        self.s.battle.as_ref().expect("a battle")
    }
    fn impact(&self) -> [u16; 2] {
        self.battle().impact
    }
    fn initiative(&self) -> u8 {
        self.battle().initiative
    }
    /// The last deployment: (impact from mons and clan, special attack bonus, side).
    fn last_deploy(&self) -> (u8, u8, u8) {
        let d = self.battle().deploys.last().expect("a deployment");
        (d.impact, d.special, d.side)
    }
    fn selects(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .legal()
            .into_iter()
            .filter_map(|a| if let Action::Select(b) = a { Some(self.g.data().blocks[b as usize].id.clone()) } else { None })
            .collect();
        v.sort();
        v
    }
    fn steps(&self) -> Vec<(String, String)> {
        let d = self.g.data();
        self.legal()
            .into_iter()
            .filter_map(|a| if let Action::Step(r) = a { Some(r) } else { None })
            .map(|r| {
                let road = d.roads[r as usize];
                pair(&d.locations[road.a as usize].id, &d.locations[road.b as usize].id)
            })
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect()
    }
    fn count_at(&self, side: u8, loc: &str) -> u32 {
        self.s.count_at(&self.g, side, self.l(loc))
    }
    fn in_mori_box(&self) -> usize {
        self.s.blocks.iter().filter(|b| b.loc == MORI_BOX).count()
    }
    fn resolve_chance(&mut self) {
        resolve_chance(&self.g, &mut self.s);
    }

    /// Places a battle whose deployments are over except for `attacker`'s declaration, so that
    /// its next `EndDeploy` resolves it (8.7). `deploys`: (block, side it counts for now).
    fn staged(&mut self, loc: &str, attacker: u8, siege: bool, holder: u8, impact: [u16; 2], deploys: &[(&str, u8)]) {
        let l = self.l(loc);
        let mut ds = Vec::new();
        for &(id, side) in deploys {
            let i = self.b(id);
            let owner = self.g.data().blocks[i as usize].side;
            self.s.blocks[i as usize].flags |= DEPLOYED | if side != owner { DEFECTED } else { 0 };
            ds.push(Deploy { block: i, side, card: NONE, impact: self.g.data().blocks[i as usize].mons, special: 0 });
        }
        if siege {
            for (b, d) in self.s.blocks.iter_mut().zip(&self.g.data().blocks) {
                if b.loc == l && d.side == holder {
                    b.flags |= IN_CASTLE;
                }
            }
        }
        let mut done = [false; 2];
        done[1 - attacker as usize] = true;
        self.s.first = attacker;
        self.s.turn = 0;
        self.s.step = 1;
        self.s.declared = 1 << l;
        self.s.forced = None;
        self.s.battle = Some(Battle {
            loc: l,
            attacker,
            siege,
            holder,
            impact,
            initiative: attacker,
            done,
            carded: [true; 2],
            deploys: ds.into(),
            used: vec![0; self.g.data().cards.len()].into(),
            last: NONE,
            hits: [0; 2],
            lost: [0; 2],
            winner: NONE,
            commander_lost: [false; 2],
        });
        self.s.pending = Pending::Deploy;
    }

    fn view(&self, p: Player) -> Value {
        self.g.view(&self.s, p)
    }
}

fn kinds(ev: &[Value]) -> Vec<String> {
    ev.iter().map(|e| e["kind"].as_str().unwrap_or("").to_string()).collect()
}

fn has_kind(ev: &[Value], kind: &str) -> bool {
    ev.iter().any(|e| e["kind"] == kind)
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// A road as an unordered pair of location ids.
fn pair(a: &str, b: &str) -> (String, String) {
    if a <= b {
        (a.to_string(), b.to_string())
    } else {
        (b.to_string(), a.to_string())
    }
}

// === 7 movement: the worked example ("移動の例" A-E) ===

/// A game in the last phase of week `week`: the second player's (Ishida's) movement of turn B.
fn end_of_week(seed: u64, week: u8) -> Tb {
    let mut t = Tb::new(seed);
    t.s.week = week;
    t.s.first = T;
    t.s.turn = 1;
    t.s.step = 2;
    t.s.mode = Mode::Minimal;
    t.s.stacks_left = 0;
    t.s.muster_left = false;
    t.s.pending = Pending::Menu;
    t
}

fn modes(t: &Tb) -> Vec<Mode> {
    t.legal().into_iter().filter_map(|a| if let Action::Mode(m) = a { Some(m) } else { None }).collect()
}

fn origins(t: &Tb) -> Vec<String> {
    let mut v: Vec<String> = t
        .legal()
        .into_iter()
        .filter_map(|a| if let Action::Origin(l) = a { Some(t.g.data().locations[l as usize].id.clone()) } else { None })
        .collect();
    v.sort();
    v
}

fn musters(t: &Tb) -> usize {
    t.legal().iter().filter(|a| matches!(a, Action::MusterA(_) | Action::MusterB(_))).count()
}

/// How far a group of `n` blocks gets from Edo (Tokugawa capital: command) along the Tokaido
/// (all highway), with or without a forced march.
fn reach(n: usize, forced: bool) -> usize {
    let mut t = Tb::blank();
    let ids: Vec<String> = t.g.data().blocks.iter().filter(|b| b.side == T).take(n).map(|b| b.id.clone()).collect();
    let ids: Vec<&str> = ids.iter().map(|s| s.as_str()).collect();
    t.put(&ids, "edo");
    t.moving_all(T);
    t.act(Action::Origin(t.l("edo")));
    t.sel(&ids);
    if forced {
        let ev = t.act(Action::ForcedMarch(t.c("T_maeda_2")));
        assert!(has_kind(&ev, "card_discarded"));
        assert!(!t.legal().iter().any(|a| matches!(a, Action::ForcedMarch(_))), "one forced march per group");
    }
    let path = ["edo", "hakone", "numazu", "sunpu", "hamamatsu", "okazaki", "kiyosu"];
    let mut k = 0;
    while k + 1 < path.len() && t.ok(Action::Step(t.r(path[k], path[k + 1]))) {
        t.act(Action::Step(t.r(path[k], path[k + 1])));
        k += 1;
    }
    k
}

/// A field battle at `loc`: `att` (entered from `from`) attack `def`; the attacker's combat phase.
fn field(t: &mut Tb, loc: &str, attacker: u8, att: &[&str], from: &str, def: &[&str]) {
    t.put(def, loc);
    t.put(att, loc);
    t.came(att, from);
    t.combat(attacker);
    t.act(Action::Battle(t.l(loc)));
    assert_eq!(t.s.pending, Pending::Deploy);
    assert!(!t.battle().siege);
}

fn leaders(t: &Tb) -> Vec<String> {
    let mut v: Vec<String> = t
        .legal()
        .into_iter()
        .filter_map(|a| if let Action::Leader(b) = a { Some(t.g.data().blocks[b as usize].id.clone()) } else { None })
        .collect();
    v.sort();
    v
}

/// Tokugawa (`att`, from Iwamura) attacks Gifu castle held by `def`; Tokugawa's combat phase.
fn gifu_attack(att: &[&str], def: &[&str]) -> Tb {
    let mut t = Tb::blank();
    t.put(def, "gifu");
    t.put(att, "gifu");
    t.came(att, "iwamura");
    t.combat(T);
    t.act(Action::Battle(t.l("gifu")));
    t
}

fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// Events shown to both sides name a block only while it is face up (or as muster option A
/// shows it), and a card only where a card is played or discarded face up.
fn check_public_events(g: &Sekigahara, before: &State, after: &State, ev: &[Value]) {
    const CARD_SHOWN: [&str; 7] = [
        "card_discarded",
        "card_played",
        "block_deployed",
        "loyalty_challenge",
        "challenge_refuted",
        "bids_revealed",
        "reinforcement_discards",
    ];
    let d = g.data();
    for e in ev {
        if e["audience"] != "all" {
            let seats = e["audience"].as_array().expect("a seat list");
            assert_eq!(seats.len(), 1, "{e}");
            continue;
        }
        let kind = e["kind"].as_str().unwrap();
        assert!(!kind.ends_with("_private") && kind != "block_chosen", "{e}");
        let mut words = Vec::new();
        strings(e, &mut words);
        for w in &words {
            if let Some(b) = d.block(w) {
                let shown = kind == "muster" && e["option"] == "A";
                assert!(shown || !face_down(before, b as usize) || !face_down(after, b as usize), "{e} names a face-down block");
            }
            if d.card(w).is_some() {
                assert!(CARD_SHOWN.contains(&kind), "{e} names a card");
            }
        }
    }
}

/// Plays random legal actions (chance from the state's RNG) and calls `f` after each step. The
/// choice leans away from ending a phase, a stack, a move or a deployment, for more battles.
/// A random legal action that prefers doing something: four times in five, one that does not
/// end a phase, a stack, a deployment or choose not to move (so walks reach battles).
fn busy_choice(g: &Sekigahara, legal: &[u32], rng: &mut Rng) -> u32 {
    let busy: Vec<u32> = legal
        .iter()
        .copied()
        .filter(|&a| {
            !matches!(
                g.decode(a),
                Some(Action::EndPhase | Action::EndStack | Action::Stop | Action::EndDeploy | Action::Mode(Mode::NoMove))
            )
        })
        .collect();
    if !busy.is_empty() && rng.below(5) > 0 {
        busy[rng.below(busy.len() as u32) as usize]
    } else {
        legal[rng.below(legal.len() as u32) as usize]
    }
}

fn random_walk(seed: u64, steps: usize, mut f: impl FnMut(&Sekigahara, &State, &State, &[Value])) -> State {
    let g = game();
    let mut s = g.new_initial_state(seed);
    let mut rng = Rng::from_seed(seed ^ 0x5eca);
    let mut legal = Vec::new();
    for _ in 0..steps {
        let a = match g.current_player(&s) {
            TERMINAL => break,
            CHANCE => g.sample_chance(&mut s),
            _ => {
                legal.clear();
                g.legal_actions(&s, &mut legal);
                busy_choice(&g, &legal, &mut rng)
            }
        };
        let before = s.clone();
        let mut ev = Events::recording();
        g.step(&mut s, a, &mut ev).expect("legal");
        let ev: Vec<Value> = ev.into_vec().into_iter().map(|e| serde_json::to_value(e).unwrap()).collect();
        f(&g, &before, &s, &ev);
    }
    s
}

fn perft(s: &kassen_core::StateHandle, depth: u32) -> u64 {
    if depth == 0 || s.is_terminal() {
        return 1;
    }
    s.legal_actions().iter().map(|&a| perft(&s.child(a).unwrap(), depth - 1)).sum()
}

/// The first state of a seed's game whose pending decision is of `kind`, reached by always
/// taking the first legal action.
fn first_state(seed: u64, kind: &str) -> kassen_core::StateHandle {
    let g = kassen_core::load_game("sekigahara", None).unwrap();
    let mut s = g.new_initial_state(seed);
    while s.view(SPECTATOR).unwrap()["to_act"]["decision"]["kind"] != kind {
        let a = s.legal_actions()[0];
        s.apply_in_place(a).unwrap();
    }
    s
}

mod battle;
mod examples;
mod hidden;
mod movement;
mod perft;
mod siege_special_victory;
mod week;
