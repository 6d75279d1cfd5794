//! What one side (or a spectator) may see, as JSON for frontends: the map with block counts,
//! its own blocks, cards and bid, the other side's face-up blocks only (Mori box, eliminated,
//! deployed in the current battle, a leader shown for command), card counts per pile (the
//! discard piles are not browsable, 3.3), control, the battle and the pending decision.

use serde::Serialize;

use super::control;
use super::data::{Unit, NONE, SIDES, TURNS};
use super::hidden::{deployed_blocks, face_down_given};
use super::state::{Pending, State, BAG, BOX, DEAD, IN_CASTLE, MORI_BOX, MOVED, MUSTERED, SELECTED};
use super::Sekigahara;
use crate::game::{Player, SPECTATOR};

// Field order in the structs below: the keys in ascending order, as `serde_json::Value`
// objects print them (the view JSON is the same bytes either way).

/// One value per side, keyed by side name.
#[derive(Serialize)]
struct Sides<T> {
    ishida: T,
    tokugawa: T,
}

fn sides<T>(f: impl Fn(u8) -> T) -> Sides<T> {
    Sides { tokugawa: f(0), ishida: f(1) }
}

fn side_name(s: u8) -> Option<&'static str> {
    (s < 2).then(|| SIDES[s as usize])
}

fn place(g: &Sekigahara, loc: u8) -> &str {
    match loc {
        BAG => "bag",
        BOX => "recruitment_box",
        MORI_BOX => "mori_box",
        DEAD => "eliminated",
        l => &g.data.locations[l as usize].id,
    }
}

#[derive(Serialize)]
struct BlockView<'a> {
    any_card: bool,
    at: &'a str,
    clan: &'a str,
    commander: bool,
    id: &'a str,
    in_castle: bool,
    leader: bool,
    mons: u8,
    moved: bool,
    mustered: bool,
    name: Option<&'a str>,
    selected: bool,
    side: &'static str,
    unit: Option<&'static str>,
}

fn block_view<'a>(g: &'a Sekigahara, s: &State, i: usize) -> BlockView<'a> {
    let d = &g.data.blocks[i];
    let b = &s.blocks[i];
    BlockView {
        id: &d.id,
        side: SIDES[d.side as usize],
        clan: &g.data.clans[d.clan as usize].id,
        mons: d.mons,
        unit: match d.unit {
            Unit::Plain => None,
            Unit::Arquebus => Some("arquebus"),
            Unit::Cavalry => Some("cavalry"),
        },
        leader: d.leader,
        commander: d.commander,
        any_card: d.any_card,
        name: d.name.as_deref(),
        at: place(g, b.loc),
        in_castle: b.flags & IN_CASTLE != 0,
        moved: b.flags & MOVED != 0,
        mustered: b.flags & MUSTERED != 0,
        selected: b.flags & SELECTED != 0,
    }
}

#[derive(Serialize)]
struct CardCount<'a> {
    card: &'a str,
    count: u8,
}

/// The cards of `side` in `pile` (a count per card type), those with a count only.
fn cards<'a>(g: &'a Sekigahara, pile: &[u8], side: u8) -> Vec<CardCount<'a>> {
    g.data.side_cards[side as usize]
        .iter()
        .filter(|&&c| pile[c as usize] > 0)
        .map(|&c| CardCount { card: &g.data.cards[c as usize].id, count: pile[c as usize] })
        .collect()
}

/// The pending decision for the view envelope (public: the same for every observer).
pub fn pending_json<'a>(g: &'a Sekigahara, s: &State) -> Decision<'a> {
    let (kind, prompt) = match s.pending {
        Pending::ReinforceDiscard { .. } => ("reinforce_discard", "discard a card for reinforcements"),
        Pending::Bid { .. } => ("bid", "bid a card for initiative"),
        Pending::ChooseFirst { .. } => ("choose_first", "choose who moves first"),
        Pending::Mode => ("mode", "choose a movement mode"),
        Pending::PayMode { .. } => ("pay_mode", "discard cards to pay for the movement mode"),
        Pending::Exchange { .. } => ("exchange", "exchange cards"),
        Pending::Menu => ("movement", "move a stack, muster, or end the movement phase"),
        Pending::Group => ("group", "move the selected group along a road or stop"),
        Pending::Muster { .. } => ("muster", "choose the blocks to muster"),
        Pending::Combat => ("choose_battle", "choose the next battle"),
        Pending::SiegeChoice { .. } => ("siege_choice", "fight a field battle or a siege"),
        Pending::Deploy => ("deploy", "deploy a block with a card or end deployment"),
        Pending::DeployBlock { .. } => ("deploy_block", "choose the block to deploy"),
        Pending::DeploySecond { .. } => ("deploy_second", "choose a second block to deploy"),
        Pending::Challenge => ("challenge", "challenge the loyalty of a deployed block or not"),
        Pending::Refute => ("refute", "refute the challenge with a card or not"),
        Pending::Casualty { .. } => ("casualty", "choose a block to lose"),
        Pending::RetreatCastle => ("retreat_into_castle", "retreat into the castle or not"),
        Pending::Retreat => ("retreat", "choose where to retreat"),
        Pending::JoinGarrison { .. } => ("join_garrison", "join the garrison or stay outside"),
        Pending::Over => ("over", "the game is over"),
    };
    let mut v = Decision { kind, prompt, at: None, card: None, cards_left: None, chance: None, discarded: None, option: None };
    match s.pending {
        Pending::PayMode { left } => v.cards_left = Some(left),
        Pending::Exchange { discarded } => v.discarded = Some(discarded),
        Pending::Muster { loc, option_a } => {
            v.at = Some(&g.data.locations[loc as usize].id);
            v.option = Some(if option_a { "A" } else { "B" });
        }
        Pending::DeployBlock { card } | Pending::DeploySecond { card } => v.card = Some(&g.data.cards[card as usize].id),
        Pending::JoinGarrison { to } => v.at = Some(&g.data.locations[to as usize].id),
        _ => {}
    }
    if s.due.any() {
        v.chance = Some(true);
    }
    v
}

#[derive(Serialize)]
pub struct Decision<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    at: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    card: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cards_left: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    chance: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    discarded: Option<u8>,
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    option: Option<&'static str>,
    prompt: &'static str,
}

#[derive(Serialize)]
struct DeployedView<'a> {
    block: BlockView<'a>,
    card: Option<&'a str>,
    #[serde(rename = "for")]
    for_side: &'static str,
    impact: u8,
    special: u8,
}

#[derive(Serialize)]
struct BattleView<'a> {
    at: &'a str,
    attacker: &'static str,
    cards_played: Vec<CardCount<'a>>,
    castle_holder: Option<&'static str>,
    casualties_left: Sides<u8>,
    deployed: Vec<DeployedView<'a>>,
    done: Sides<bool>,
    impact: Sides<u16>,
    initiative: &'static str,
    #[serde(rename = "type")]
    kind: &'static str,
    winner: Option<&'static str>,
}

fn battle_view<'a>(g: &'a Sekigahara, s: &State) -> Option<BattleView<'a>> {
    let b = s.battle.as_ref()?;
    Some(BattleView {
        at: &g.data.locations[b.loc as usize].id,
        attacker: SIDES[b.attacker as usize],
        kind: if b.siege { "siege" } else { "field" },
        castle_holder: side_name(b.holder),
        impact: sides(|x| b.impact[x as usize]),
        initiative: SIDES[b.initiative as usize],
        done: sides(|x| b.done[x as usize]),
        deployed: b
            .deploys
            .iter()
            .map(|d| DeployedView {
                block: block_view(g, s, d.block as usize),
                for_side: SIDES[d.side as usize],
                card: g.data.cards.get(d.card as usize).map(|c| c.id.as_str()),
                impact: d.impact + d.special,
                special: d.special,
            })
            .collect(),
        cards_played: (0..g.data.cards.len())
            .filter(|&c| b.used[c] > 0)
            .map(|c| CardCount { card: &g.data.cards[c].id, count: b.used[c] })
            .collect(),
        casualties_left: sides(|x| b.hits[x as usize]),
        winner: side_name(b.winner),
    })
}

#[derive(Serialize)]
struct LocationView<'a> {
    blocks: Sides<usize>,
    castle: Option<&'static str>,
    disks: Vec<&'a str>,
    id: &'a str,
    in_castle: Sides<usize>,
    moved: Sides<usize>,
    resource: Option<&'static str>,
}

#[derive(Serialize)]
struct MovementView {
    mode: &'static str,
    muster_left: bool,
    roads_used: Vec<usize>,
    stacks_left: StacksLeft,
}

#[derive(Serialize)]
#[serde(untagged)]
enum StacksLeft {
    Count(u8),
    All(&'static str),
}

#[derive(Serialize)]
struct GroupView<'a> {
    all_main_road: bool,
    at: &'a str,
    command: bool,
    forced_march: bool,
    must_step: bool,
    origin: &'a str,
    size: usize,
    steps: u8,
}

/// The view body of one observer.
#[derive(Serialize)]
pub struct View<'a> {
    active: &'static str,
    bag: Sides<usize>,
    battle: Option<BattleView<'a>>,
    bid_placed: Sides<bool>,
    blocks: Vec<BlockView<'a>>,
    deck_size: Sides<u32>,
    discard_size: Sides<u32>,
    eliminated: Sides<usize>,
    first: &'static str,
    group: Option<GroupView<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hand: Option<Vec<CardCount<'a>>>,
    hand_size: Sides<u32>,
    locations: Vec<LocationView<'a>>,
    mori_box: usize,
    movement: MovementView,
    #[serde(skip_serializing_if = "Option::is_none")]
    own_bag: Option<Vec<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    own_bid: Option<Option<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    own_reinforcement_discards: Option<Vec<CardCount<'a>>>,
    phase: &'static str,
    points: Sides<u32>,
    recruitment_box: Sides<usize>,
    reinforcement_discards: Sides<u32>,
    turn: &'static str,
    week: u8,
}

pub fn view<'a>(g: &'a Sekigahara, s: &State, player: Player) -> View<'a> {
    let d = &g.data;
    let me: Option<u8> = (player != SPECTATOR).then_some(player as u8);
    let deployed = deployed_blocks(s);
    let sees = |i: usize| me == Some(d.blocks[i].side) || !face_down_given(s, i, &deployed);
    // Blocks per side at each location (on the map, then the boxes): all, inside a castle, moved.
    let n = d.locations.len();
    let mut on_map = vec![[[0usize; 2]; 3]; n];
    let mut off_map = [[0usize; 2]; 4];
    for (b, x) in s.blocks.iter().zip(&d.blocks) {
        let side = x.side as usize;
        match b.loc {
            BAG => off_map[0][side] += 1,
            BOX => off_map[1][side] += 1,
            MORI_BOX => off_map[2][side] += 1,
            DEAD => off_map[3][side] += 1,
            l => {
                let c = &mut on_map[l as usize];
                c[0][side] += 1;
                c[1][side] += usize::from(b.flags & IN_CASTLE != 0);
                c[2][side] += usize::from(b.flags & MOVED != 0);
            }
        }
    }
    let locations = (0..n)
        .map(|l| LocationView {
            id: &d.locations[l].id,
            blocks: sides(|x| on_map[l][0][x as usize]),
            in_castle: sides(|x| on_map[l][1][x as usize]),
            moved: sides(|x| on_map[l][2][x as usize]),
            disks: d
                .disks
                .iter()
                .zip(&s.disks)
                .filter(|(x, &alive)| alive && x.location as usize == l)
                .map(|(x, _)| x.id.as_str())
                .collect(),
            resource: side_name(s.resource[l]),
            castle: side_name(s.castle[l]),
        })
        .collect();
    let points = control::points(g, s);
    let pile = |p: &[u8]| sides(|x| s.pile_size(g, p, x));
    View {
        week: s.week,
        turn: TURNS[s.turn as usize],
        first: SIDES[s.first as usize],
        phase: if s.in_movement() { "movement" } else { "combat" },
        active: SIDES[s.active() as usize],
        locations,
        blocks: (0..d.blocks.len()).filter(|&i| sees(i) && s.blocks[i].loc != BAG).map(|i| block_view(g, s, i)).collect(),
        recruitment_box: sides(|x| off_map[1][x as usize]),
        bag: sides(|x| off_map[0][x as usize]),
        mori_box: off_map[2][0] + off_map[2][1],
        eliminated: sides(|x| off_map[3][x as usize]),
        hand_size: sides(|x| s.hand_size(g, x)),
        deck_size: pile(&s.deck),
        discard_size: pile(&s.discard),
        reinforcement_discards: pile(&s.reinforce_discards),
        bid_placed: sides(|x| s.bid_made[x as usize]),
        movement: MovementView {
            mode: s.mode.name(),
            stacks_left: if s.stacks_left == u8::MAX { StacksLeft::All("all") } else { StacksLeft::Count(s.stacks_left) },
            muster_left: s.muster_left,
            roads_used: (0..d.roads.len()).filter(|&r| s.roads_used & (1 << r) != 0).collect(),
        },
        group: (s.pending == Pending::Group).then(|| GroupView {
            origin: &d.locations[s.group.origin as usize].id,
            at: &d.locations[s.group.at as usize].id,
            steps: s.group.steps,
            size: s.blocks.iter().filter(|b| b.flags & SELECTED != 0).count(),
            command: s.group.command,
            forced_march: s.group.forced,
            must_step: s.group.march_owed,
            all_main_road: s.group.all_main,
        }),
        battle: battle_view(g, s),
        points: sides(|x| points[x as usize]),
        hand: me.map(|m| cards(g, &s.hand, m)),
        own_bag: me.map(|m| {
            (0..d.blocks.len()).filter(|&i| d.blocks[i].side == m && s.blocks[i].loc == BAG).map(|i| d.blocks[i].id.as_str()).collect()
        }),
        own_bid: me.map(|m| {
            let bid = s.bids[m as usize];
            (bid != NONE).then(|| d.cards[bid as usize].id.as_str())
        }),
        own_reinforcement_discards: me.map(|m| cards(g, &s.reinforce_discards, m)),
    }
}
