//! Actions as text and JSON for logs and frontends. Uses only the action id, public data and
//! the pending decision (public), so describing an opponent's action never tells more than the
//! id itself.

use serde_json::{json, Value};

use super::state::{Pending, State};
use super::{Action, Sekigahara};
use crate::game::ActionId;

fn parts(g: &Sekigahara, a: Action) -> (&'static str, Value) {
    let d = &g.data;
    let card = |c: u8| json!(d.cards[c as usize].id);
    let loc = |l: u8| json!(d.locations[l as usize].id);
    let block = |b: u8| json!(d.blocks[b as usize].id);
    let road = |r: u8| {
        let r = d.roads[r as usize];
        json!([d.locations[r.a as usize].id, d.locations[r.b as usize].id])
    };
    match a {
        Action::Bid(c) => ("bid", json!({"card": card(c)})),
        Action::BidNothing => ("bid_nothing", json!({})),
        Action::First(s) => ("first", json!({"side": super::data::SIDES[s as usize]})),
        Action::Discard(c) => ("discard", json!({"card": card(c)})),
        Action::Done => ("done", json!({})),
        Action::Mode(m) => ("mode", json!({"mode": m.name()})),
        Action::Origin(l) => ("origin", json!({"location": loc(l)})),
        Action::MusterA(l) => ("muster_a", json!({"location": loc(l)})),
        Action::MusterB(l) => ("muster_b", json!({"location": loc(l)})),
        Action::Select(b) => ("select", json!({"block": block(b)})),
        Action::Step(r) => ("step", json!({"road": road(r)})),
        Action::Drop(b) => ("drop", json!({"block": block(b)})),
        Action::Stop => ("stop", json!({})),
        Action::EndStack => ("end_stack", json!({})),
        Action::Command(b) => ("command", json!({"block": block(b)})),
        Action::ForcedMarch(c) => ("forced_march", json!({"card": card(c)})),
        Action::EndPhase => ("end_phase", json!({})),
        Action::Battle(l) => ("battle", json!({"location": loc(l)})),
        Action::Siege => ("siege", json!({})),
        Action::Field => ("field", json!({})),
        Action::Leader(b) => ("leader", json!({"block": block(b)})),
        Action::Card(c) => ("card", json!({"card": card(c)})),
        Action::EndDeploy => ("end_deploy", json!({})),
        Action::Challenge => ("challenge", json!({})),
        Action::NoChallenge => ("no_challenge", json!({})),
        Action::Refute(c) => ("refute", json!({"card": card(c)})),
        Action::Disk(x) => ("disk", json!({"disk": d.disks[x as usize].id})),
        Action::Retreat(l) => ("retreat", json!({"location": loc(l)})),
        Action::DrawCard(c) => ("draw_card", json!({"card": card(c)})),
        Action::DrawBlock(b) => ("draw_block", json!({"block": block(b)})),
    }
}

/// The verb and arguments of `a` where the pending decision gives it its meaning: `Siege` and
/// `Field` after a retreat into a besieged castle (8.8.5). The pending decision is public.
fn parts_in(g: &Sekigahara, s: &State, a: Action) -> (&'static str, Value) {
    match (s.pending, a) {
        (Pending::JoinGarrison { to }, Action::Siege) => ("join_garrison", json!({"location": g.data.locations[to as usize].id})),
        (Pending::JoinGarrison { to }, Action::Field) => ("stay_outside", json!({"location": g.data.locations[to as usize].id})),
        _ => parts(g, a),
    }
}

pub fn action_json(g: &Sekigahara, s: &State, id: ActionId) -> Value {
    let Some(a) = g.decode(id) else { return json!({"id": id, "verb": "unknown"}) };
    let (verb, mut v) = parts_in(g, s, a);
    v["text"] = json!(g.action_sentence(verb, &v));
    v["id"] = json!(id);
    v["verb"] = json!(verb);
    v
}

pub fn action_string(g: &Sekigahara, s: &State, id: ActionId) -> String {
    let Some(a) = g.decode(id) else { return format!("unknown action {id}") };
    let (verb, v) = parts_in(g, s, a);
    let args: Vec<String> = v
        .as_object()
        .map(|o| {
            o.values()
                .map(|x| match x {
                    Value::String(s) => s.clone(),
                    Value::Array(a) => a.iter().filter_map(|y| y.as_str()).collect::<Vec<_>>().join("-"),
                    other => other.to_string(),
                })
                .collect()
        })
        .unwrap_or_default();
    if args.is_empty() {
        verb.to_string()
    } else {
        format!("{verb} {}", args.join(" "))
    }
}

/// Whether everyone sees which action `a` was: the choices made in the open (modes, origins,
/// roads, battles, retreats, turn structure). Actions that name a face-down block or a card
/// from a hand stay hidden from the other side.
pub fn is_public(g: &Sekigahara, id: ActionId) -> bool {
    matches!(
        g.decode(id),
        Some(
            Action::First(_)
                | Action::Done
                | Action::Mode(_)
                | Action::Origin(_)
                | Action::MusterA(_)
                | Action::MusterB(_)
                | Action::Step(_)
                | Action::Stop
                | Action::EndStack
                | Action::EndPhase
                | Action::Battle(_)
                | Action::Siege
                | Action::Field
                | Action::EndDeploy
                | Action::Challenge
                | Action::NoChallenge
                | Action::Retreat(_)
        )
    )
}
