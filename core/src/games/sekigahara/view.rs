//! What one side (or a spectator) may see, as JSON for frontends: the map with block counts,
//! its own blocks, cards and bid, the other side's face-up blocks only (Mori box, eliminated,
//! deployed in the current battle, a leader shown for command), card counts per pile (the
//! discard piles are not browsable, 3.3), control, the battle and the pending decision.

use serde_json::{json, Value};

use super::control;
use super::data::{Unit, NONE, SIDES, TURNS};
use super::hidden::face_down;
use super::state::{Pending, State, BAG, BOX, DEAD, IN_CASTLE, MORI_BOX, MOVED, MUSTERED, SELECTED};
use super::Sekigahara;
use crate::game::{Player, SPECTATOR};

fn side_name(s: u8) -> Value {
    if s < 2 {
        json!(SIDES[s as usize])
    } else {
        Value::Null
    }
}

fn place(g: &Sekigahara, loc: u8) -> Value {
    match loc {
        BAG => json!("bag"),
        BOX => json!("recruitment_box"),
        MORI_BOX => json!("mori_box"),
        DEAD => json!("eliminated"),
        l => json!(g.data.locations[l as usize].id),
    }
}

pub fn block_json(g: &Sekigahara, s: &State, i: usize) -> Value {
    let d = &g.data.blocks[i];
    let b = &s.blocks[i];
    json!({
        "id": d.id, "side": SIDES[d.side as usize], "clan": g.data.clans[d.clan as usize].id, "mons": d.mons,
        "unit": match d.unit { Unit::Plain => Value::Null, Unit::Arquebus => json!("arquebus"), Unit::Cavalry => json!("cavalry") },
        "leader": d.leader, "commander": d.commander, "any_card": d.any_card, "name": d.name,
        "at": place(g, b.loc), "in_castle": b.flags & IN_CASTLE != 0, "moved": b.flags & MOVED != 0,
        "mustered": b.flags & MUSTERED != 0, "selected": b.flags & SELECTED != 0,
    })
}

fn cards_json(g: &Sekigahara, pile: &[u8], side: u8) -> Value {
    json!(g.data.side_cards[side as usize]
        .iter()
        .filter(|&&c| pile[c as usize] > 0)
        .map(|&c| json!({"card": g.data.cards[c as usize].id, "count": pile[c as usize]}))
        .collect::<Vec<_>>())
}

/// The pending decision for the view envelope (public: the same for every observer).
pub fn pending_json(g: &Sekigahara, s: &State) -> Value {
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
    let mut v = json!({"kind": kind, "prompt": prompt});
    match s.pending {
        Pending::PayMode { left } => v["cards_left"] = json!(left),
        Pending::Exchange { discarded } => v["discarded"] = json!(discarded),
        Pending::Muster { loc, option_a } => {
            v["at"] = json!(g.data.locations[loc as usize].id);
            v["option"] = json!(if option_a { "A" } else { "B" });
        }
        Pending::DeployBlock { card } | Pending::DeploySecond { card } => v["card"] = json!(g.data.cards[card as usize].id),
        Pending::JoinGarrison { to } => v["at"] = json!(g.data.locations[to as usize].id),
        _ => {}
    }
    if s.due.any() {
        v["chance"] = json!(true);
    }
    v
}

fn battle_json(g: &Sekigahara, s: &State) -> Value {
    let Some(b) = s.battle.as_ref() else { return Value::Null };
    json!({
        "at": g.data.locations[b.loc as usize].id, "attacker": SIDES[b.attacker as usize], "type": if b.siege { "siege" } else { "field" },
        "castle_holder": side_name(b.holder),
        "impact": {"tokugawa": b.impact[0], "ishida": b.impact[1]}, "initiative": SIDES[b.initiative as usize],
        "done": {"tokugawa": b.done[0], "ishida": b.done[1]},
        "deployed": b.deploys.iter().map(|d| json!({
            "block": block_json(g, s, d.block as usize), "for": SIDES[d.side as usize],
            "card": g.data.cards.get(d.card as usize).map(|c| c.id.as_str()), "impact": d.impact + d.special, "special": d.special,
        })).collect::<Vec<_>>(),
        "cards_played": (0..g.data.cards.len()).filter(|&c| b.used[c] > 0).map(|c| json!({"card": g.data.cards[c].id, "count": b.used[c]})).collect::<Vec<_>>(),
        "casualties_left": {"tokugawa": b.hits[0], "ishida": b.hits[1]},
        "winner": side_name(b.winner),
    })
}

pub fn view(g: &Sekigahara, s: &State, player: Player) -> Value {
    let d = &g.data;
    let me: Option<u8> = (player != SPECTATOR).then_some(player as u8);
    let sees = |i: usize| me == Some(d.blocks[i].side) || !face_down(s, i);
    let count = |side: u8, loc: u8| s.blocks.iter().zip(&d.blocks).filter(|(b, x)| b.loc == loc && x.side == side).count();
    let locations: Vec<Value> = (0..d.locations.len() as u8)
        .map(|l| {
            let inside =
                |side: u8| s.blocks.iter().zip(&d.blocks).filter(|(b, x)| b.loc == l && x.side == side && b.flags & IN_CASTLE != 0).count();
            let moved =
                |side: u8| s.blocks.iter().zip(&d.blocks).filter(|(b, x)| b.loc == l && x.side == side && b.flags & MOVED != 0).count();
            let disks: Vec<&str> =
                d.disks.iter().zip(&s.disks).filter(|(x, &alive)| alive && x.location == l).map(|(x, _)| x.id.as_str()).collect();
            json!({
                "id": d.locations[l as usize].id,
                "blocks": {"tokugawa": count(0, l), "ishida": count(1, l)},
                "in_castle": {"tokugawa": inside(0), "ishida": inside(1)},
                "moved": {"tokugawa": moved(0), "ishida": moved(1)},
                "disks": disks,
                "resource": side_name(s.resource[l as usize]),
                "castle": side_name(s.castle[l as usize]),
            })
        })
        .collect();
    let visible: Vec<Value> = (0..d.blocks.len()).filter(|&i| sees(i) && s.blocks[i].loc != BAG).map(|i| block_json(g, s, i)).collect();
    let bag_of = |side: u8| count(side, BAG);
    let points = control::points(g, s);
    let mut v = json!({
        "week": s.week, "turn": TURNS[s.turn as usize], "first": SIDES[s.first as usize],
        "phase": if s.in_movement() { "movement" } else { "combat" }, "active": SIDES[s.active() as usize],
        "locations": locations,
        "blocks": visible,
        "recruitment_box": {"tokugawa": count(0, BOX), "ishida": count(1, BOX)},
        "bag": {"tokugawa": bag_of(0), "ishida": bag_of(1)},
        "mori_box": count(1, MORI_BOX) + count(0, MORI_BOX),
        "eliminated": {"tokugawa": count(0, DEAD), "ishida": count(1, DEAD)},
        "hand_size": {"tokugawa": s.hand_size(g, 0), "ishida": s.hand_size(g, 1)},
        "deck_size": {"tokugawa": s.pile_size(g, &s.deck, 0), "ishida": s.pile_size(g, &s.deck, 1)},
        "discard_size": {"tokugawa": s.pile_size(g, &s.discard, 0), "ishida": s.pile_size(g, &s.discard, 1)},
        "reinforcement_discards": {"tokugawa": s.pile_size(g, &s.reinforce_discards, 0), "ishida": s.pile_size(g, &s.reinforce_discards, 1)},
        "bid_placed": {"tokugawa": s.bid_made[0], "ishida": s.bid_made[1]},
        "movement": {"mode": s.mode.name(), "stacks_left": if s.stacks_left == u8::MAX { json!("all") } else { json!(s.stacks_left) },
                     "muster_left": s.muster_left,
                     "roads_used": (0..d.roads.len()).filter(|&r| s.roads_used & (1 << r) != 0).collect::<Vec<_>>()},
        "group": if s.pending == Pending::Group { json!({
            "origin": d.locations[s.group.origin as usize].id, "at": d.locations[s.group.at as usize].id, "steps": s.group.steps,
            "size": s.blocks.iter().filter(|b| b.flags & SELECTED != 0).count(), "command": s.group.command, "forced_march": s.group.forced, "must_step": s.group.march_owed,
            "all_main_road": s.group.all_main }) } else { Value::Null },
        "battle": battle_json(g, s),
        "points": {"tokugawa": points[0], "ishida": points[1]},
    });
    if let Some(m) = me {
        v["hand"] = cards_json(g, &s.hand, m);
        v["own_bag"] = json!((0..d.blocks.len())
            .filter(|&i| d.blocks[i].side == m && s.blocks[i].loc == BAG)
            .map(|i| d.blocks[i].id.as_str())
            .collect::<Vec<_>>());
        let bid = s.bids[m as usize];
        v["own_bid"] = if bid == NONE { Value::Null } else { json!(d.cards[bid as usize].id) };
        v["own_reinforcement_discards"] = cards_json(g, &s.reinforce_discards, m);
    }
    v
}
