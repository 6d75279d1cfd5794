//! Reading the component data file: every field checked, with the path of a bad one, into the
//! typed tables of [`super::Data`] (schema_version 2, provenance of every item kept).

use serde_json::{json, Map, Value};

use super::*;
use crate::error::SetupError;
use crate::games::provenance::{bad, check as check_provenance};

type R<T> = Result<T, SetupError>;

fn get<'a>(v: &'a Value, key: &str, path: &str) -> R<&'a Value> {
    v.get(key).ok_or_else(|| bad(format!("{path}.{key}: missing")))
}

fn int(v: &Value, key: &str, path: &str) -> R<i64> {
    get(v, key, path)?.as_i64().ok_or_else(|| bad(format!("{path}.{key}: not an integer")))
}

fn int_in(v: &Value, key: &str, path: &str, lo: i64, hi: i64) -> R<i64> {
    let x = int(v, key, path)?;
    if x < lo || x > hi {
        return Err(bad(format!("{path}.{key}: {x} out of range {lo}..={hi}")));
    }
    Ok(x)
}

fn string<'a>(v: &'a Value, key: &str, path: &str) -> R<&'a str> {
    get(v, key, path)?.as_str().ok_or_else(|| bad(format!("{path}.{key}: not a string")))
}

fn array<'a>(v: &'a Value, key: &str, path: &str) -> R<&'a Vec<Value>> {
    get(v, key, path)?.as_array().ok_or_else(|| bad(format!("{path}.{key}: not an array")))
}

fn seat_of(name: &str, path: &str) -> R<u8> {
    KINGDOMS
        .iter()
        .position(|k| *k == name)
        .map(|i| i as u8)
        .ok_or_else(|| bad(format!("{path}: unknown kingdom {}", crate::input::quote(name))))
}

fn provenance_of(item: &Value, fields: &[&str], path: &str, counts: &mut Map<String, Value>) -> R<()> {
    let p = get(item, "provenance", path)?;
    for f in fields {
        let e = p.get(*f).ok_or_else(|| bad(format!("{path}.provenance.{f}: missing")))?;
        let src = e.get("source").and_then(Value::as_str).ok_or_else(|| bad(format!("{path}.provenance.{f}.source: missing")))?;
        check_provenance(src, &format!("{path}.provenance.{f}"))?;
        if src != "reconstructed" && e.get("cite").and_then(Value::as_str).is_none() {
            return Err(bad(format!("{path}.provenance.{f}.cite: a {src} field needs a citation")));
        }
        let n = counts.get(src).and_then(Value::as_u64).unwrap_or(0);
        counts.insert(src.to_string(), json!(n + 1));
    }
    Ok(())
}

struct Names<'a> {
    generals: &'a [String],
}

fn act_set(v: &Value, path: &str) -> R<ActSet> {
    let group = |name: &str| -> Option<ActSet> {
        let m = |r: std::ops::Range<u32>| r.fold(0u32, |m, a| m | 1 << a);
        Some(match name {
            "general_actions" => ActSet { mask: m(0..12), own_tribal: false },
            "admin_actions" => ActSet { mask: m(0..5), own_tribal: false },
            "combat_actions" => ActSet { mask: m(5..10), own_tribal: false },
            "variable_actions" => ActSet { mask: m(10..12), own_tribal: false },
            "battle_actions" => ActSet { mask: m(12..15), own_tribal: false },
            "own_tribal" => ActSet { mask: 0, own_tribal: true },
            "all" => ActSet { mask: m(0..18), own_tribal: false },
            other => {
                let a = ACTIONS.iter().position(|x| *x == other)?;
                ActSet { mask: 1 << a, own_tribal: false }
            }
        })
    };
    match v {
        Value::String(s) => group(s).ok_or_else(|| bad(format!("{path}: unknown action or group {}", crate::input::quote(s)))),
        Value::Array(items) => {
            let mut out = ActSet { mask: 0, own_tribal: false };
            for (i, it) in items.iter().enumerate() {
                let s = it.as_str().ok_or_else(|| bad(format!("{path}[{i}]: not a string")))?;
                let g = group(s).ok_or_else(|| bad(format!("{path}[{i}]: unknown action or group {}", crate::input::quote(s))))?;
                out.mask |= g.mask;
                out.own_tribal |= g.own_tribal;
            }
            Ok(out)
        }
        _ => Err(bad(format!("{path}: not an action reference"))),
    }
}

fn bundle(v: &Value, path: &str, allow_cost_only: bool) -> R<Bundle> {
    let obj = v.as_object().ok_or_else(|| bad(format!("{path}: not a bundle object")))?;
    let mut b = [0i32; 14];
    for (k, x) in obj {
        let i = BUNDLE_KEYS.iter().position(|key| key == k).ok_or_else(|| bad(format!("{path}.{k}: unknown bundle key")))?;
        if i == B_ARMY && !allow_cost_only {
            return Err(bad(format!("{path}.{k}: 'army' is a cost-only key")));
        }
        let n = x.as_i64().filter(|n| (0..=50).contains(n)).ok_or_else(|| bad(format!("{path}.{k}: not an integer in 0..=50")))?;
        b[i] = n as i32;
    }
    Ok(b)
}

fn metric(s: &str, path: &str) -> R<u8> {
    METRICS.iter().position(|m| *m == s).map(|i| i as u8).ok_or_else(|| bad(format!("{path}: unknown metric {}", crate::input::quote(s))))
}

fn unit(s: &str, path: &str) -> R<u8> {
    UNITS.iter().position(|m| *m == s).map(|i| i as u8).ok_or_else(|| bad(format!("{path}: unknown unit type {}", crate::input::quote(s))))
}

fn cond(v: &Value, path: &str, names: &Names, devs: &[String]) -> R<Cond> {
    let obj = v.as_object().ok_or_else(|| bad(format!("{path}: not a condition object")))?;
    if let Some(m) = obj.get("metric") {
        let m = metric(m.as_str().unwrap_or(""), &format!("{path}.metric"))?;
        let op = match v.get("op").and_then(Value::as_str) {
            Some("<") => Op::Lt,
            Some("<=") => Op::Le,
            Some("==") => Op::Eq,
            Some(">=") => Op::Ge,
            Some(">") => Op::Gt,
            _ => return Err(bad(format!("{path}.op: not one of < <= == >= >"))),
        };
        let value = int_in(v, "value", path, -100, 1000)? as i32;
        return Ok(Cond::Metric { metric: m, op, value });
    }
    if obj.len() != 1 {
        return Err(bad(format!("{path}: a condition has exactly one key")));
    }
    let (k, x) = obj.iter().next().expect("one key");
    let p = format!("{path}.{k}");
    Ok(match k.as_str() {
        "highest" => Cond::Highest(metric(x.as_str().unwrap_or(""), &p)?),
        "round_parity" => match x.as_str() {
            Some("even") => Cond::RoundParity { even: true },
            Some("odd") => Cond::RoundParity { even: false },
            _ => return Err(bad(format!("{p}: not even|odd"))),
        },
        "did_not_perform" => Cond::DidNotPerform(act_set(x, &p)?),
        "alliance_action" => Cond::AllianceAction,
        "in_alliance" => Cond::InAlliance,
        "allied_with" => Cond::AlliedWith(seat_of(x.as_str().unwrap_or(""), &p)?),
        "bid_position" => {
            let n = x.as_u64().filter(|n| (1..=3).contains(n)).ok_or_else(|| bad(format!("{p}: not 1, 2 or 3")))?;
            Cond::BidPosition(n as u8)
        }
        "assigned_units" => Cond::AssignedUnits(unit(x.as_str().unwrap_or(""), &p)?),
        "with_general" => {
            let id = x.as_str().unwrap_or("");
            let g = names
                .generals
                .iter()
                .position(|n| n == id)
                .ok_or_else(|| bad(format!("{p}: unknown general {}", crate::input::quote(id))))?;
            Cond::WithGeneral(g as u8)
        }
        "self_stationed" => Cond::SelfStationed,
        "self_stationed_on" => {
            let id = x.as_str().unwrap_or("");
            Cond::SelfStationedOn(
                BORDERS.iter().position(|b| *b == id).ok_or_else(|| bad(format!("{p}: unknown border {}", crate::input::quote(id))))? as u8,
            )
        }
        "has_at_least" => Cond::HasAtLeast(bundle(x, &p, false)?),
        "built" => {
            let id = x.as_str().unwrap_or("");
            Cond::Built(
                devs.iter().position(|n| n == id).ok_or_else(|| bad(format!("{p}: unknown development {}", crate::input::quote(id))))?
                    as u8,
            )
        }
        "all" | "any" => {
            let items = x.as_array().ok_or_else(|| bad(format!("{p}: not an array")))?;
            let list = items.iter().enumerate().map(|(i, c)| cond(c, &format!("{p}[{i}]"), names, devs)).collect::<R<Vec<_>>>()?;
            if k == "all" {
                Cond::All(list)
            } else {
                Cond::Any(list)
            }
        }
        "not" => Cond::Not(Box::new(cond(x, &p, names, devs)?)),
        other => return Err(bad(format!("{path}: unknown condition {}", crate::input::quote(other)))),
    })
}

fn opt_cond(v: &Value, path: &str, names: &Names, devs: &[String]) -> R<Option<Cond>> {
    match v.get("condition") {
        None | Some(Value::Null) => Ok(None),
        Some(c) => Ok(Some(cond(c, &format!("{path}.condition"), names, devs)?)),
    }
}

fn gain(v: &Value, path: &str) -> R<Gain> {
    match (v.get("gain"), v.get("choose_one")) {
        (Some(g), None) => Ok(Gain::Fixed(bundle(g, &format!("{path}.gain"), false)?)),
        (None, Some(Value::Array(list))) if !list.is_empty() => Ok(Gain::ChooseOne(
            list.iter().enumerate().map(|(i, b)| bundle(b, &format!("{path}.choose_one[{i}]"), false)).collect::<R<Vec<_>>>()?,
        )),
        _ => Err(bad(format!("{path}: needs exactly one of gain / choose_one (non-empty)"))),
    }
}

fn mode(v: &Value, path: &str) -> R<Option<u8>> {
    match v.get("mode") {
        None => Ok(None),
        Some(m) => {
            let s = m.as_str().unwrap_or("");
            Ok(Some(
                MODES.iter().position(|x| *x == s).ok_or_else(|| bad(format!("{path}.mode: unknown mode {}", crate::input::quote(s))))?
                    as u8,
            ))
        }
    }
}

fn scope(v: &Value, path: &str, is_dev: bool) -> R<bool> {
    match v.get("scope").and_then(Value::as_str) {
        Some("self") if !is_dev => Ok(true),
        Some("owner") => Ok(false),
        Some("self") => Err(bad(format!("{path}.scope: developments use 'owner'"))),
        _ => Err(bad(format!("{path}.scope: not 'self' or 'owner'"))),
    }
}

fn param_index(action: ActSet, name: &str, path: &str) -> R<usize> {
    if action.own_tribal || action.mask & (0b111 << A_TRIBAL0) != 0 {
        if name == "bonus_steps" && action.mask & !(0b111 << A_TRIBAL0) == 0 {
            return Ok(P_TRIBAL_BONUS);
        }
        return Err(bad(format!("{path}.param: {} is not a parameter of the tribal actions", crate::input::quote(name))));
    }
    if action.mask == 1 << A_HAN {
        return match name {
            "gold_cost" => Ok(P_HAN_GOLD),
            "exhaust" => Ok(P_HAN_EXHAUST),
            _ => Err(bad(format!("{path}.param: {} is not a parameter of control_han_emperor", crate::input::quote(name)))),
        };
    }
    PARAMS
        .iter()
        .position(|(a, n)| action.mask == 1 << a && *n == name)
        .ok_or_else(|| bad(format!("{path}.param: {} is not a parameter of that action", crate::input::quote(name))))
}

fn effect(v: &Value, path: &str, names: &Names, devs: &[String], is_dev: bool) -> R<Effect> {
    let t = string(v, "type", path)?;
    let c = || opt_cond(v, path, names, devs);
    Ok(match t {
        "bid_bonus" => {
            let side = match v.get("applies_to").and_then(Value::as_str) {
                None | Some("self") if !is_dev => false,
                Some("side") => true,
                _ => return Err(bad(format!("{path}.applies_to: generals use 'self', developments 'side'"))),
            };
            Effect::BidBonus {
                actions: act_set(get(v, "actions", path)?, &format!("{path}.actions"))?,
                amount: int_in(v, "amount", path, 1, 2)? as i32,
                side,
                cond: c()?,
            }
        }
        "win_ties" => Effect::WinTies {
            actions: match v.get("actions") {
                None => act_set(&json!("all"), path)?,
                Some(a) => act_set(a, &format!("{path}.actions"))?,
            },
            cond: c()?,
        },
        "bid_with_stat" => Effect::BidWithStat {
            actions: act_set(get(v, "actions", path)?, &format!("{path}.actions"))?,
            stat: match string(v, "stat", path)? {
                "administration" => Stat::Admin,
                "combat" => Stat::Combat,
                "higher" => Stat::Higher,
                s => return Err(bad(format!("{path}.stat: unknown stat {}", crate::input::quote(s)))),
            },
        },
        "stat_change_from_round" => Effect::StatChange {
            stat: match string(v, "stat", path)? {
                "administration" => Stat::Admin,
                "combat" => Stat::Combat,
                "leadership" => Stat::Leadership,
                s => return Err(bad(format!("{path}.stat: unknown stat {}", crate::input::quote(s)))),
            },
            value: int_in(v, "value", path, 1, 5)? as u8,
            round: int_in(v, "round", path, 1, 12)? as u8,
        },
        "action_bonus" => {
            let actions = act_set(get(v, "action", path)?, &format!("{path}.action"))?;
            let per = match v.get("per") {
                None => None,
                Some(p) => Some((
                    metric(p.get("metric").and_then(Value::as_str).unwrap_or(""), &format!("{path}.per.metric"))?,
                    int_in(p, "max", &format!("{path}.per"), 0, 20)? as i32,
                )),
            };
            Effect::ActionBonus {
                actions,
                mode: mode(v, path)?,
                gain: gain(v, path)?,
                per,
                self_scope: scope(v, path, is_dev)?,
                cond: c()?,
            }
        }
        "action_param" => {
            let actions = act_set(get(v, "action", path)?, &format!("{path}.action"))?;
            let param = param_index(actions, string(v, "param", path)?, path)?;
            let delta = match v.get("delta") {
                None => 0,
                Some(_) => int_in(v, "delta", path, -5, 5)? as i32,
            };
            let set = match v.get("set") {
                None => None,
                Some(_) => Some(int_in(v, "set", path, 0, 10)? as i32),
            };
            if delta == 0 && set.is_none() {
                return Err(bad(format!("{path}: action_param needs delta or set")));
            }
            Effect::ActionParam { actions, mode: mode(v, path)?, param, delta, set, self_scope: scope(v, path, is_dev)? }
        }
        "round_end_income" => Effect::RoundEndIncome { gain: gain(v, path)?, cond: c()? },
        "round_end_exchange" => {
            let opts = array(v, "options", path)?;
            if opts.is_empty() {
                return Err(bad(format!("{path}.options: empty")));
            }
            let options = opts
                .iter()
                .enumerate()
                .map(|(i, o)| {
                    let p = format!("{path}.options[{i}]");
                    Ok((bundle(get(o, "give", &p)?, &format!("{p}.give"), false)?, bundle(get(o, "get", &p)?, &format!("{p}.get"), false)?))
                })
                .collect::<R<Vec<_>>>()?;
            let times = match v.get("times") {
                None => 1,
                Some(_) => int_in(v, "times", path, 1, 5)? as u8,
            };
            Effect::RoundEndExchange { options, times, cond: c()? }
        }
        "card_reservoir" => {
            let r = string(v, "resource", path)?;
            let resource = BUNDLE_KEYS
                .iter()
                .position(|k| *k == r)
                .filter(|&i| matches!(i, B_GOLD | B_RICE | B_SUPPORT | B_UNTRAINED | B_TRAINED) || (B_SPEAR..B_SPEAR + 4).contains(&i))
                .ok_or_else(|| bad(format!("{path}.resource: {} is not a token type", crate::input::quote(r))))?;
            Effect::CardReservoir {
                resource,
                initial: int_in(v, "initial", path, 1, 15)? as i32,
                per_round: int_in(v, "per_round", path, 1, 15)? as i32,
                cond: c()?,
            }
        }
        "tribal_no_decay" => Effect::TribalNoDecay { cond: c()? },
        "upkeep_reduction" => Effect::UpkeepReduction {
            upkeep: match string(v, "upkeep", path)? {
                "unit_gold" => Upkeep::UnitGold,
                "unit_rice" => Upkeep::UnitRice,
                "support_rice" => Upkeep::SupportRice,
                s => return Err(bad(format!("{path}.upkeep: unknown upkeep {}", crate::input::quote(s)))),
            },
            amount: int_in(v, "amount", path, 1, 10)? as i32,
            cond: c()?,
        },
        "immediate_gain" => Effect::ImmediateGain { gain: gain(v, path)? },
        "end_game_vp" => {
            let per = match v.get("per") {
                None => None,
                Some(p) => {
                    let pp = format!("{path}.per");
                    let divisor = if p.get("divisor").is_some() { int_in(p, "divisor", &pp, 1, 20)? as i32 } else { 1 };
                    Some((
                        metric(p.get("metric").and_then(Value::as_str).unwrap_or(""), &format!("{pp}.metric"))?,
                        divisor,
                        int_in(p, "max", &pp, 0, 20)? as i32,
                    ))
                }
            };
            let vp = if v.get("vp").is_some() { int_in(v, "vp", path, 0, 10)? as i32 } else { 0 };
            let vp_each = if v.get("vp_each").is_some() { int_in(v, "vp_each", path, 0, 5)? as i32 } else { 1 };
            Effect::EndGameVp { vp, per, vp_each, cond: c()? }
        }
        "ranking_bonus" => Effect::RankingBonus {
            category: match string(v, "category", path)? {
                "domestic" => 0,
                "security" => 1,
                "office" => 2,
                s => return Err(bad(format!("{path}.category: unknown category {}", crate::input::quote(s)))),
            },
            amount: int_in(v, "amount", path, 1, 10)? as i32,
        },
        "military_score_change" => Effect::MilitaryScoreChange {
            on_build: match string(v, "when", path)? {
                "on_build" => true,
                "round_end" => false,
                s => return Err(bad(format!("{path}.when: unknown timing {}", crate::input::quote(s)))),
            },
            self_amount: if v.get("self").is_some() { int_in(v, "self", path, -10, 10)? as i32 } else { 0 },
            each_opponent: if v.get("each_opponent").is_some() { int_in(v, "each_opponent", path, -10, 0)? as i32 } else { 0 },
            transfer: v.get("transfer").and_then(Value::as_bool).unwrap_or(false),
            cond: c()?,
        },
        "occupation_rule" => Effect::OccupationRule(match string(v, "rule", path)? {
            "any_unit_type" => OccRule::AnyUnitType,
            "always_flip" => OccRule::AlwaysFlip,
            "ignore_border_alternation" => OccRule::IgnoreAlternation,
            "substitute_unit" => OccRule::Substitute {
                requires: unit(string(v, "region_requires", path)?, &format!("{path}.region_requires"))?,
                may_use: unit(string(v, "may_use", path)?, &format!("{path}.may_use"))?,
            },
            s => return Err(bad(format!("{path}.rule: unknown occupation rule {}", crate::input::quote(s)))),
        }),
        "recruitment_bonus" => Effect::RecruitmentBonus {
            draw_extra: int_in(v, "draw_extra", path, 0, 5)? as u8,
            choose_extra: if v.get("choose_extra").is_some() { int_in(v, "choose_extra", path, 0, 5)? as u8 } else { 0 },
        },
        "deficit_protection" => Effect::DeficitProtection {
            cause: match string(v, "cause", path)? {
                "rebellion" => Cause::Rebellion,
                "upkeep" => Cause::Upkeep,
                "any" => Cause::Any,
                s => return Err(bad(format!("{path}.cause: unknown cause {}", crate::input::quote(s)))),
            },
            pay: match v.get("pay") {
                None => [0; 14],
                Some(p) => bundle(p, &format!("{path}.pay"), false)?,
            },
            max_per_round: if v.get("max_per_round").is_some() { int_in(v, "max_per_round", path, 1, 5)? as u8 } else { 1 },
        },
        other => return Err(bad(format!("{path}.type: unknown effect type {}", crate::input::quote(other)))),
    })
}

fn rate(v: &Value, path: &str, good: &str) -> R<Rate> {
    // {"pay": {"gold": n}, "get": {"rice": m}} or the reverse.
    let pay = get(v, "pay", path)?;
    let got = get(v, "get", path)?;
    let one = |b: &Value, p: &str| -> R<(String, i32)> {
        let o = b.as_object().filter(|o| o.len() == 1).ok_or_else(|| bad(format!("{p}: one token kind expected")))?;
        let (k, n) = o.iter().next().expect("one");
        let n = n.as_i64().filter(|n| (1..=20).contains(n)).ok_or_else(|| bad(format!("{p}.{k}: not an integer in 1..=20")))?;
        Ok((k.clone(), n as i32))
    };
    let (pk, pn) = one(pay, &format!("{path}.pay"))?;
    let (gk, gn) = one(got, &format!("{path}.get"))?;
    if !((pk == "gold" && gk == good) || (pk == good && gk == "gold")) {
        return Err(bad(format!("{path}: a trade exchanges gold and {good}")));
    }
    Ok(Rate { pay: pn, get: gn })
}

fn rates(modes: &[Value], key: &str, path: &str) -> R<Rates> {
    let find = |id: &str| modes.iter().find(|m| m.get("id").and_then(Value::as_str) == Some(id));
    let rice = find("trade_rice").ok_or_else(|| bad(format!("{path}.modes: trade_rice missing")))?;
    let weap = find("trade_weapons").ok_or_else(|| bad(format!("{path}.modes: trade_weapons missing")))?;
    let r = get(rice, key, &format!("{path}.trade_rice"))?;
    let w = get(weap, key, &format!("{path}.trade_weapons"))?;
    Ok(Rates {
        rice_buy: rate(get(r, "buy", key)?, &format!("{path}.trade_rice.{key}.buy"), "rice")?,
        rice_sell: rate(get(r, "sell", key)?, &format!("{path}.trade_rice.{key}.sell"), "rice")?,
        weapon_buy: rate(get(w, "buy", key)?, &format!("{path}.trade_weapons.{key}.buy"), "weapon")?,
        weapon_sell: rate(get(w, "sell", key)?, &format!("{path}.trade_weapons.{key}.sell"), "weapon")?,
    })
}

fn per_seat_i(v: &Value, path: &str, f: impl Fn(&Value, &str) -> R<i64>) -> R<[i32; 3]> {
    let mut out = [0; 3];
    for (i, k) in KINGDOMS.iter().enumerate() {
        let x = get(v, k, path)?;
        out[i] = f(x, &format!("{path}.{k}"))? as i32;
    }
    Ok(out)
}

impl Data {
    pub fn embedded() -> Data {
        let v: Value = serde_json::from_str(EMBEDDED).expect("embedded data is JSON");
        Data::from_value(&v).expect("embedded data is valid")
    }

    /// Reads and validates a data object of schema_version 2.
    pub fn from_value(v: &Value) -> R<Data> {
        if v.get("schema_version").and_then(Value::as_i64) != Some(2) {
            return Err(bad("schema_version: must be 2"));
        }
        // --- actions ---
        let acts = array(v, "actions", "")?;
        if acts.len() != NUM_ACTIONS {
            return Err(bad(format!("actions: {} actions, expected 18", acts.len())));
        }
        let action_names: Vec<String> = acts.iter().map(|a| a.get("name_en").and_then(Value::as_str).unwrap_or("").to_string()).collect();
        let mut criterion = [0u8; NUM_ACTIONS];
        let mut alliance_eligible = [false; NUM_ACTIONS];
        let mut param_default = [0i32; NUM_PARAMS];
        let mut tribute = Vec::new();
        let mut rates_default = None;
        let mut rates_literal = None;
        for (i, a) in acts.iter().enumerate() {
            let path = format!("actions[{i}]");
            let id = string(a, "id", &path)?;
            if id != ACTIONS[i] {
                return Err(bad(format!("{path}.id: expected {:?} in this position, got {id:?}", ACTIONS[i])));
            }
            check_provenance(
                a.get("provenance")
                    .and_then(|p| p.get("source").or_else(|| p.get("rates").and_then(|r| r.get("source"))))
                    .and_then(Value::as_str)
                    .unwrap_or(""),
                &format!("{path}.provenance"),
            )?;
            criterion[i] = match a.get("criterion").and_then(Value::as_str) {
                Some("administration") => 0,
                Some("combat") => 1,
                Some("variable") => 2,
                Some("combat_plus_units") => 3,
                Some("none_guaranteed") => 4,
                _ => return Err(bad(format!("{path}.criterion: unknown criterion"))),
            };
            let expect = match i {
                0..=4 => 0,
                5..=9 => 1,
                10 | 11 => 2,
                12..=14 => 3,
                _ => 4,
            };
            if criterion[i] != expect {
                return Err(bad(format!("{path}.criterion: the rulebook fixes this action's criterion (§7)")));
            }
            alliance_eligible[i] = a.get("alliance_eligible").and_then(Value::as_bool).unwrap_or(false);
            if alliance_eligible[i] && i >= 10 {
                return Err(bad(format!(
                    "{path}.alliance_eligible: only the 10 fixed-criterion general actions may be the alliance action (C2)"
                )));
            }
            let params = a.get("params").and_then(Value::as_object).ok_or_else(|| bad(format!("{path}.params: missing")))?;
            for (pi, (pa, name)) in PARAMS.iter().enumerate() {
                if *pa as usize == i {
                    param_default[pi] = params
                        .get(*name)
                        .and_then(Value::as_i64)
                        .filter(|n| (0..=20).contains(n))
                        .ok_or_else(|| bad(format!("{path}.params.{name}: missing or out of range 0..=20")))?
                        as i32;
                }
            }
            if i == A_HAN as usize {
                param_default[P_HAN_GOLD] = int_in(get(a, "params", &path)?, "gold_cost", &format!("{path}.params"), 0, 20)? as i32;
                param_default[P_HAN_EXHAUST] = int_in(get(a, "params", &path)?, "exhaust", &format!("{path}.params"), 0, 1)? as i32;
            }
            if i >= A_TRIBAL0 as usize {
                let b = int_in(get(a, "params", &path)?, "bonus_steps", &format!("{path}.params"), 0, 11)? as i32;
                if i == A_TRIBAL0 as usize {
                    param_default[P_TRIBAL_BONUS] = b;
                } else if b != param_default[P_TRIBAL_BONUS] {
                    return Err(bad(format!("{path}.params.bonus_steps: the three tribal actions share one default")));
                }
            }
            if i == A_TRIBUTE as usize {
                let opts = array(a, "options", &path)?;
                if opts.is_empty() {
                    return Err(bad(format!("{path}.options: empty")));
                }
                for (j, o) in opts.iter().enumerate() {
                    tribute.push(bundle(o, &format!("{path}.options[{j}]"), false)?);
                }
            }
            if i == A_TRADE as usize {
                let modes = array(a, "modes", &path)?;
                rates_default = Some(rates(modes, "rates", &path)?);
                rates_literal = Some(rates(modes, "rates_literal_translation", &path)?);
            }
            if i >= A_BATTLE0 as usize && i < A_TRIBAL0 as usize {
                let b = string(a, "border", &path)?;
                if b != BORDERS[i - A_BATTLE0 as usize] {
                    return Err(bad(format!("{path}.border: expected {:?}", BORDERS[i - A_BATTLE0 as usize])));
                }
            }
        }
        if param_default[P_HIRE_LIMIT] < 0
            || param_default[P_IMPORT_KEEP] < 1
            || param_default[P_IMPORT_DRAW] < param_default[P_IMPORT_KEEP]
        {
            return Err(bad("actions[3].params: import_tech.draw must be >= import_tech.keep >= 1"));
        }
        if param_default[P_MAX_RICE] < 4 || param_default[P_MAX_WEAPONS] < 3 {
            return Err(bad("actions[2].params: a trade cap below one lot"));
        }

        // --- generals ---
        let gs = array(v, "generals", "")?;
        if gs.is_empty() || gs.len() > 120 {
            return Err(bad(format!("generals: {} generals (1..=120 supported)", gs.len())));
        }
        let gnames: Vec<String> = gs.iter().map(|g| g.get("id").and_then(Value::as_str).unwrap_or("").to_string()).collect();
        let devs_v = array(v, "state_developments", "")?;
        let dnames: Vec<String> = devs_v.iter().map(|g| g.get("id").and_then(Value::as_str).unwrap_or("").to_string()).collect();
        let names = Names { generals: &gnames };
        let mut gcounts = Map::new();
        let mut generals = Vec::new();
        for (i, g) in gs.iter().enumerate() {
            let path = format!("generals[{i}]");
            let id = string(g, "id", &path)?.to_string();
            if id.is_empty() || gnames[..i].contains(&id) {
                return Err(bad(format!("{path}.id: empty or duplicate {}", crate::input::quote(&id))));
            }
            let path = format!("generals[{i}] ({id})");
            let kingdom = seat_of(string(g, "kingdom", &path)?, &format!("{path}.kingdom"))?;
            let specs = array(g, "specialties", &path)?;
            if specs.is_empty() || specs.len() > 2 {
                return Err(bad(format!("{path}.specialties: 1 or 2 unit types")));
            }
            let mut specialties = 0u8;
            for (j, s) in specs.iter().enumerate() {
                specialties |= 1 << unit(s.as_str().unwrap_or(""), &format!("{path}.specialties[{j}]"))?;
            }
            let ability = get(g, "ability", &path)?;
            let effs = array(ability, "effect", &format!("{path}.ability"))?;
            let effects = effs
                .iter()
                .enumerate()
                .map(|(j, e)| effect(e, &format!("{path}.ability.effect[{j}]"), &names, &dnames, false))
                .collect::<R<Vec<_>>>()?;
            for e in &effects {
                if let Effect::ActionBonus { actions, .. } | Effect::ActionParam { actions, .. } = e {
                    for t in 0..3u8 {
                        if actions.mask & (1 << (A_TRIBAL0 + t)) != 0 && t != kingdom {
                            return Err(bad(format!("{path}.ability: names another kingdom's tribal action")));
                        }
                    }
                }
                if let Effect::BidBonus { cond: Some(Cond::WithGeneral(p)), .. } = e {
                    if gs[*p as usize].get("kingdom") != g.get("kingdom") || *p as usize == i {
                        return Err(bad(format!("{path}.ability: with_general must name another general of the same kingdom")));
                    }
                }
            }
            provenance_of(
                g,
                &["presence", "kingdom", "ruler", "kind", "administration", "combat", "leadership", "specialties", "ability"],
                &path,
                &mut gcounts,
            )?;
            generals.push(General {
                name_ko: string(g, "name_ko", &path)?.to_string(),
                name_en: string(g, "name_en", &path)?.to_string(),
                id,
                kingdom,
                ruler: get(g, "ruler", &path)?.as_bool().ok_or_else(|| bad(format!("{path}.ruler: not a bool")))?,
                civil: string(g, "kind", &path)? == "civil",
                admin: int_in(g, "administration", &path, 1, 5)? as u8,
                combat: int_in(g, "combat", &path, 1, 5)? as u8,
                leadership: int_in(g, "leadership", &path, 1, 2)? as u8,
                specialties,
                ability: ability.get("name_en").and_then(Value::as_str).unwrap_or("").to_string(),
                effects,
            });
        }
        if generals.len() > 128 {
            return Err(bad("generals: more than 128 generals are not supported"));
        }
        let mut rulers = [u8::MAX; 3];
        let mut decks: [Vec<u8>; 3] = Default::default();
        let mut by_kingdom: [Vec<u8>; 3] = Default::default();
        for (i, g) in generals.iter().enumerate() {
            let k = g.kingdom as usize;
            by_kingdom[k].push(i as u8);
            if g.ruler {
                if rulers[k] != u8::MAX {
                    return Err(bad(format!("generals[{i}].ruler: {} has two rulers", KINGDOMS[k])));
                }
                rulers[k] = i as u8;
            } else {
                decks[k].push(i as u8);
            }
        }
        if let Some(k) = rulers.iter().position(|r| *r == u8::MAX) {
            return Err(bad(format!("generals: {} has no ruler", KINGDOMS[k])));
        }

        // --- developments ---
        let mut dcounts = Map::new();
        let mut developments = Vec::new();
        for (i, d) in devs_v.iter().enumerate() {
            let path = format!("state_developments[{i}]");
            let id = string(d, "id", &path)?.to_string();
            if id.is_empty() || dnames[..i].contains(&id) {
                return Err(bad(format!("{path}.id: empty or duplicate {}", crate::input::quote(&id))));
            }
            let path = format!("state_developments[{i}] ({id})");
            let deck = match string(d, "deck", &path)? {
                "unity" => 0,
                "separation" => 1,
                s => return Err(bad(format!("{path}.deck: unknown deck {}", crate::input::quote(s)))),
            };
            let cost = bundle(get(d, "cost", &path)?, &format!("{path}.cost"), true)?;
            if cost[B_WEAPON] != 0 || cost[B_TRAIN] != 0 || cost[B_TRIBAL] != 0 || cost[B_MILITARY] != 0 {
                return Err(bad(format!("{path}.cost: only token kinds can be paid")));
            }
            let prerequisite = match d.get("prerequisite") {
                None | Some(Value::Null) => None,
                Some(c) => Some(cond(c, &format!("{path}.prerequisite"), &names, &dnames)?),
            };
            let effs = array(d, "effect", &path)?;
            let effects = effs
                .iter()
                .enumerate()
                .map(|(j, e)| effect(e, &format!("{path}.effect[{j}]"), &names, &dnames, true))
                .collect::<R<Vec<_>>>()?;
            for e in &effects {
                if matches!(
                    e,
                    Effect::StatChange { .. }
                        | Effect::OccupationRule(_)
                        | Effect::RecruitmentBonus { .. }
                        | Effect::WinTies { .. }
                        | Effect::BidWithStat { .. }
                ) {
                    return Err(bad(format!("{path}.effect: {} is a general-only effect type", EFFECT_TYPES[e.kind()])));
                }
                if let Effect::BidBonus { side: false, .. } = e {
                    return Err(bad(format!("{path}.effect: a development's bid_bonus applies to 'side'")));
                }
            }
            provenance_of(d, &["name", "deck", "cost", "prerequisite", "vp", "effect"], &path, &mut dcounts)?;
            developments.push(Development {
                name_ko: string(d, "name_ko", &path)?.to_string(),
                name_en: string(d, "name_en", &path)?.to_string(),
                id,
                deck,
                cost,
                prerequisite,
                vp: int_in(d, "vp", &path, 0, 10)? as i32,
                effects,
            });
        }
        if developments.len() > 64 {
            return Err(bad("state_developments: more than 64 cards are not supported"));
        }
        let mut dev_decks: [Vec<u8>; 2] = Default::default();
        for (i, d) in developments.iter().enumerate() {
            dev_decks[d.deck as usize].push(i as u8);
        }

        // --- board ---
        let board = get(v, "board", "")?;
        let regs = array(board, "regions", "board")?;
        let mut regions: Vec<Region> = Vec::new();
        for (i, r) in regs.iter().enumerate() {
            let path = format!("board.regions[{i}]");
            let id = string(r, "id", &path)?.to_string();
            if regions.iter().any(|x| x.id == id) {
                return Err(bad(format!("{path}.id: duplicate {}", crate::input::quote(&id))));
            }
            let b = string(r, "border", &path)?;
            let border = BORDERS
                .iter()
                .position(|x| *x == b)
                .ok_or_else(|| bad(format!("{path}.border: unknown border {}", crate::input::quote(b))))? as u8;
            let p = get(r, "provenance", &path)?;
            for f in ["name", "border", "required_unit"] {
                let src = p.get(f).and_then(|e| e.get("source")).and_then(Value::as_str).unwrap_or("");
                check_provenance(src, &format!("{path}.provenance.{f}"))?;
            }
            regions.push(Region {
                name_ko: string(r, "name_ko", &path)?.to_string(),
                name_en: r.get("name_en").and_then(Value::as_str).unwrap_or("").to_string(),
                name_zh: r.get("name_zh").and_then(Value::as_str).unwrap_or("").to_string(),
                id,
                border,
                unit: unit(string(r, "required_unit", &path)?, &format!("{path}.required_unit"))?,
            });
        }
        if regions.len() > 32 {
            return Err(bad("board.regions: more than 32 regions are not supported"));
        }
        for b in 0..3u8 {
            if !regions.iter().any(|r| r.border == b) {
                return Err(bad(format!("board.regions: border {} has no region", BORDERS[b as usize])));
            }
        }
        let office = array(get(board, "office_track", "board")?, "ranks", "board.office_track")?;
        if office.len() < 2 || office.len() > 10 {
            return Err(bad("board.office_track.ranks: 2..=10 ranks"));
        }
        let mut office_vp = Vec::new();
        for (i, o) in office.iter().enumerate() {
            office_vp.push(int_in(o, "end_vp", &format!("board.office_track.ranks[{i}]"), 0, 20)? as i32);
            let ends = o.get("ends_game").and_then(Value::as_bool).unwrap_or(false);
            if ends != (i + 1 == office.len()) {
                return Err(bad(format!("board.office_track.ranks[{i}].ends_game: exactly the top rank ends the game")));
            }
        }
        let tt = get(board, "tribal_track", "board")?;
        let tribal_max = int_in(tt, "max", "board.tribal_track", 2, 12)? as i32;
        if int(tt, "min", "board.tribal_track")? != 1 {
            return Err(bad("board.tribal_track.min: must be 1 (rebellion at 1, §8 4))"));
        }
        let mut tribal_bonus = [0i32; 13];
        for (k, x) in get(tt, "end_bonus_vp", "board.tribal_track")?
            .as_object()
            .ok_or_else(|| bad("board.tribal_track.end_bonus_vp: not an object"))?
        {
            let t: usize = k
                .parse()
                .ok()
                .filter(|t| (1..=tribal_max as usize).contains(t))
                .ok_or_else(|| bad(format!("board.tribal_track.end_bonus_vp.{k}: not a track value")))?;
            tribal_bonus[t] = x
                .as_i64()
                .filter(|n| (0..=10).contains(n))
                .ok_or_else(|| bad(format!("board.tribal_track.end_bonus_vp.{k}: not in 0..=10")))? as i32;
        }
        let rt = get(board, "round_track", "board")?;
        let rounds = int_in(rt, "rounds", "board.round_track", 1, 30)? as u8;

        // --- setup ---
        let setup = get(v, "setup", "")?;
        let res = get(setup, "resources", "setup")?;
        let start_gold = per_seat_i(res, "setup.resources", |x, p| int_in(x, "gold", p, 0, 50))?;
        let start_rice = per_seat_i(res, "setup.resources", |x, p| int_in(x, "rice", p, 0, 50))?;
        let start_support = per_seat_i(res, "setup.resources", |x, p| int_in(x, "support", p, 0, 15))?;
        let start_tribal = per_seat_i(get(setup, "tribal", "setup")?, "setup.tribal", |x, p| {
            x.as_i64().filter(|n| (1..=tribal_max as i64).contains(n)).ok_or_else(|| bad(format!("{p}: not on the tribal track")))
        })?;
        let hands = get(setup, "state_development_hands", "setup")?;
        let sep = per_seat_i(hands, "setup.state_development_hands", |x, p| int_in(x, "separation", p, 0, 10))?;
        let uni = per_seat_i(hands, "setup.state_development_hands", |x, p| int_in(x, "unity", p, 0, 10))?;
        let start_hand = [[sep[0] as u8, uni[0] as u8], [sep[1] as u8, uni[1] as u8], [sep[2] as u8, uni[2] as u8]];
        if uni.iter().sum::<i32>() as usize > dev_decks[0].len() || sep.iter().sum::<i32>() as usize > dev_decks[1].len() {
            return Err(bad("setup.state_development_hands: more cards dealt than the decks hold"));
        }

        // --- recruitment ---
        let rec = get(v, "recruitment", "")?;
        let rs = get(rec, "setup", "recruitment")?;
        let mut setup_recruit = [(0u8, 0u8); 3];
        for (k, name) in KINGDOMS.iter().enumerate() {
            let x = get(rs, name, "recruitment.setup")?;
            let p = format!("recruitment.setup.{name}");
            let draw = int_in(x, "draw", &p, 0, 20)? as u8;
            let choose = int_in(x, "choose", &p, 0, 20)? as u8;
            if choose > draw || draw as usize > decks[k].len() {
                return Err(bad(format!("{p}: choose <= draw <= deck size ({}) required", decks[k].len())));
            }
            setup_recruit[k] = (draw, choose);
        }
        let mut recruit_rounds = Vec::new();
        let mut seen = setup_recruit.map(|(d, c)| (d, c as usize));
        let extra_draw: [usize; 3] =
            std::array::from_fn(|k| {
                generals
                    .iter()
                    .filter(|g| g.kingdom as usize == k)
                    .flat_map(|g| &g.effects)
                    .map(|e| {
                        if let Effect::RecruitmentBonus { draw_extra, choose_extra } = e {
                            (*draw_extra + *choose_extra) as usize
                        } else {
                            0
                        }
                    })
                    .sum()
            });
        for (r, x) in get(rec, "rounds", "recruitment")?.as_object().ok_or_else(|| bad("recruitment.rounds: not an object"))? {
            let round: u8 = r.parse().ok().filter(|n| (2..=rounds).contains(n)).ok_or_else(|| {
                bad(format!("recruitment.rounds.{r}: not a round number in 2..=rounds (round 1 has the setup recruitment)"))
            })?;
            let mut row = [(0u8, 0u8); 3];
            for (k, name) in KINGDOMS.iter().enumerate() {
                let p = format!("recruitment.rounds.{r}.{name}");
                let y = get(x, name, &format!("recruitment.rounds.{r}"))?;
                let draw = int_in(y, "draw", &p, 0, 20)? as u8;
                let choose = int_in(y, "choose", &p, 0, 20)? as u8;
                if choose > draw {
                    return Err(bad(format!("{p}: choose > draw")));
                }
                seen[k].1 += choose as usize;
                if seen[k].1 + (draw - choose) as usize + extra_draw[k] > decks[k].len() {
                    return Err(bad(format!("{p}: the deck of {name} could run out ({} non-ruler generals)", decks[k].len())));
                }
                row[k] = (draw, choose);
            }
            recruit_rounds.push((round, row));
        }
        recruit_rounds.sort_by_key(|r| r.0);

        // --- scoring ---
        let sc = get(v, "scoring", "")?;
        let cats = array(sc, "categories", "scoring")?;
        let cat = |id: &str| {
            cats.iter()
                .find(|c| c.get("id").and_then(Value::as_str) == Some(id))
                .ok_or_else(|| bad(format!("scoring.categories: {id} missing")))
        };
        let bt = get(cat("borders")?, "table", "scoring.categories.borders")?;
        let border_vp = [
            int_in(bt, "win", "scoring.borders.table", 0, 20)? as i32,
            int_in(bt, "tie", "scoring.borders.table", 0, 20)? as i32,
            int_in(bt, "lose", "scoring.borders.table", 0, 20)? as i32,
        ];
        let han_vp = int_in(cat("han_emperor_token")?, "vp", "scoring.categories.han_emperor_token", 0, 20)? as i32;
        let deficit_vp = int_in(cat("deficits")?, "vp_each", "scoring.categories.deficits", -20, 0)? as i32;
        let rr = get(sc, "ranking_rule", "scoring")?;
        let p = "scoring.ranking_rule";
        let rank_vp = RankVp {
            first: int_in(get(rr, "no_tie", p)?, "highest", p, 0, 20)? as i32,
            second: int_in(get(rr, "no_tie", p)?, "second", p, 0, 20)? as i32,
            third: int_in(get(rr, "no_tie", p)?, "lowest", p, 0, 20)? as i32,
            tied_first: int_in(get(rr, "two_tied_for_highest", p)?, "each_tied", p, 0, 20)? as i32,
            tied_second: int_in(get(rr, "two_tied_for_second", p)?, "each_tied", p, 0, 20)? as i32,
            all_tied: int_in(get(rr, "all_three_tied", p)?, "each", p, 0, 20)? as i32,
        };

        // --- components (limits, C35) ---
        let comp = get(v, "components", "")?;
        let limit_armies = int_in(comp, "army_tokens", "components", 1, 200)? as i32;
        let limit_weapons = [
            int_in(comp, "spear", "components", 1, 200)? as i32,
            int_in(comp, "horse", "components", 1, 200)? as i32,
            int_in(comp, "crossbow", "components", 1, 200)? as i32,
            int_in(comp, "ship", "components", 1, 200)? as i32,
        ];
        let limit_support = int_in(comp, "support_tokens", "components", 1, 200)? as i32;

        let mut gen_counts = gcounts;
        let prov = json!({
            "file": "three_kingdoms_redux.json (schema_version 2)",
            "generals": generals.len(),
            "developments": developments.len(),
            "regions": regions.len(),
            "generals_fields": Value::Object(std::mem::take(&mut gen_counts)),
            "developments_fields": Value::Object(dcounts),
            "generals_digest": digest(gs),
            "developments_digest": digest(devs_v),
            "note": "most card data (general stats and abilities, development costs and effects, 7 region names, the recruitment table) is reconstructed: the official card texts are not public; see three_kingdoms_redux_notes.md",
        });
        Ok(Data {
            generals,
            developments,
            regions,
            action_names,
            criterion,
            alliance_eligible,
            param_default,
            tribute,
            rates: rates_default.expect("set"),
            rates_literal: rates_literal.expect("set"),
            start_gold,
            start_rice,
            start_support,
            start_tribal,
            start_hand,
            setup_recruit,
            recruit_rounds,
            rounds,
            tribal_max,
            tribal_bonus,
            office_vp,
            border_vp,
            rank_vp,
            han_vp,
            deficit_vp,
            limit_armies,
            limit_weapons,
            limit_support,
            rulers,
            decks,
            by_kingdom,
            dev_decks,
            provenance: prov,
            default_literal_rates: false,
            default_component_limits: true,
            default_alternation_rule_text: false,
        })
    }
}

/// A short content digest (FNV-1a of the canonical JSON) so that info() tells data sets apart.
fn digest(v: &[Value]) -> String {
    let text = serde_json::to_string(v).unwrap_or_default();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}
