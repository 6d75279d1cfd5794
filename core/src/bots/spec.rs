//! Bots by name: the short texts that the C ABI, Python, the play page and the arena use.

use serde::Serialize;

use std::time::Duration;

use super::ismcts::TurnBudget;
use super::ismcts::{MAX_ITERATIONS, MAX_TIME_MS};
use super::{Bot, IsmctsBot, Level, MonteCarloBot, RandomBot, SearchParams};
use crate::error::SetupError;

/// One bot a frontend may offer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BotSpec {
    /// What [`from_spec`] takes, e.g. `"ismcts:normal"`.
    pub spec: String,
    /// A name for a menu.
    pub name: String,
    pub description: String,
}

/// The built-in bots, weakest first.
pub fn specs() -> Vec<BotSpec> {
    let mut v = vec![
        BotSpec { spec: "random".into(), name: "Random".into(), description: "a uniformly random legal move".into() },
        BotSpec {
            spec: "monte_carlo".into(),
            name: "Monte Carlo".into(),
            description: format!(
                "flat Monte Carlo: {} random playouts per decision over at most {} candidate moves",
                super::monte_carlo::DEFAULT_PLAYOUTS,
                super::monte_carlo::DEFAULT_MAX_ACTIONS
            ),
        },
    ];
    for level in Level::ALL {
        let name = format!("IS-MCTS {}", level.name());
        v.push(BotSpec { spec: format!("ismcts:{}", level.name()), name, description: level_description(level.turn_budget()) });
    }
    v
}

/// What a level's turn budget is, in words (the catalog's description, and the README's).
fn level_description(t: TurnBudget) -> String {
    let per_decision = match t.per_decision {
        0 => String::new(),
        n => format!(", and at least {} for each decision the seat expects in a turn", thousands(n)),
    };
    format!(
        "information-set tree search: up to {} iterations or {:.1} s per whole turn{per_decision}",
        thousands(t.iterations),
        t.time.map_or(0.0, |t| t.as_secs_f64())
    )
}

/// `n` with its thousands grouped by commas: 20000 is "20,000".
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The bot `spec` names, seeded with `seed`: `"random"`, `"monte_carlo"`, `"monte_carlo:P"`
/// (P playouts per decision), `"ismcts:<level>"` (`easy`, `normal`, `hard`: the level's
/// budget per whole turn, [`Level::turn_budget`]), `"ismcts:<level>-v1"`, `"ismcts:<level>-v2"`
/// and `"ismcts:<level>-v3"` (the level's earlier budgets, kept for comparisons: per decision,
/// [`Level::params`]; the first per whole turn, [`Level::turn_budget_v2`]; and today's per
/// whole turn without the game's cap per decision, [`IsmctsBot::without_decision_cap`]),
/// `"ismcts:<N>"` (N
/// iterations per decision, no time limit: deterministic) or `"ismcts:<N>/turn"` (N
/// iterations per whole turn, no time limit: deterministic). A suffix
/// `"@<T>ms"` gives a search bot T milliseconds per decision instead of its own budget (for
/// comparisons at equal time per move: `"monte_carlo@50ms"`, `"ismcts@50ms"`); the random bot
/// takes no time and ignores it. A suffix `"+reuse"` before it (`"ismcts:easy+reuse"`,
/// `"ismcts:2000/turn+reuse"`) gives a search bot that goes on from its last search's tree
/// within a turn ([`IsmctsBot::reusing_tree`]). An N above [`MAX_ITERATIONS`] or a T above [`MAX_TIME_MS`]
/// (24 h) is `ConfigOutOfRange`, the code search parameters give for the same caps.
pub fn from_spec(spec: &str, seed: u64) -> Result<Box<dyn Bot + Send>, SetupError> {
    let unknown = || {
        SetupError::InvalidConfig(format!(
            "unknown bot {} (known: \"random\", \"monte_carlo\", \"monte_carlo:P\", \"ismcts:easy\", \"ismcts:normal\", \
             \"ismcts:hard\", \"ismcts:<level>-v1\", \"ismcts:<level>-v2\", \"ismcts:<level>-v3\", \"ismcts:N\", \"ismcts:N/turn\", each optionally with \"@<T>ms\")",
            crate::input::quote(spec)
        ))
    };
    // A number of digits from 1 to `max`; more digits than any u64 are above `max` too.
    let capped = |n: &str, max: u64, what: &str| -> Result<Option<u64>, SetupError> {
        if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
            return Ok(None);
        }
        match n.parse::<u64>() {
            Ok(0) => Ok(None),
            Ok(x) if x <= max => Ok(Some(x)),
            _ => Err(SetupError::OutOfRange(format!("{what} {n} in bot {spec:?} is above the largest, {max}"))),
        }
    };
    let (base, time) = match spec.split_once('@') {
        None => (spec, None),
        Some((base, t)) => {
            let ms = t.strip_suffix("ms").ok_or_else(unknown)?;
            let ms = capped(ms, MAX_TIME_MS, "the time in milliseconds")?.ok_or_else(unknown)?;
            (base, Some(Duration::from_millis(ms)))
        }
    };
    // "+reuse": a search bot that goes on from its last search's tree within a turn.
    let (base, reuse) = match base.strip_suffix("+reuse") {
        Some(b) if b.starts_with("ismcts") => (b, true),
        Some(_) => return Err(unknown()),
        None => (base, false),
    };
    let suffix = if reuse { "+reuse" } else { "" };
    let count = |n: &str| n.parse::<u32>().ok().filter(|&x| x >= 1 && n.bytes().all(|b| b.is_ascii_digit()));
    let ismcts = |params: SearchParams, name: String| -> IsmctsBot {
        match time {
            Some(t) => {
                let ms = t.as_millis();
                IsmctsBot::with_params(format!("{name}{suffix}@{ms}ms"), SearchParams { iterations: None, time: Some(t), ..params })
            }
            None => IsmctsBot::with_params(format!("{name}{suffix}"), params),
        }
    };
    let search = |bot: IsmctsBot| -> Box<dyn Bot + Send> { Box::new(bot.reusing_tree(reuse)) };
    Ok(match base.split_once(':') {
        None if base == "random" => Box::new(RandomBot::new(seed)),
        None if base == "monte_carlo" => monte_carlo(MonteCarloBot::new(seed), time),
        Some(("monte_carlo", n)) => monte_carlo(MonteCarloBot::new(seed).with_playouts(count(n).ok_or_else(unknown)?), time),
        None if base == "ismcts" && time.is_some() => search(ismcts(Level::Normal.params(seed), "ismcts".into())),
        Some(("ismcts", arg)) => {
            let earlier = |version: &str| arg.strip_suffix(version).and_then(Level::parse);
            let bot = |level: Level, budget: TurnBudget| IsmctsBot::per_turn(format!("ismcts-{arg}{suffix}"), level.params(seed), budget);
            let per_turn = |level: Level, budget: TurnBudget| search(bot(level, budget));
            match (Level::parse(arg), earlier("-v1"), earlier("-v2"), earlier("-v3"), arg.strip_suffix("/turn")) {
                (Some(level), _, _, _, _) if time.is_none() => per_turn(level, level.turn_budget()),
                (_, _, Some(level), _, _) if time.is_none() => per_turn(level, level.turn_budget_v2()),
                (_, _, _, Some(level), _) if time.is_none() => search(bot(level, level.turn_budget()).without_decision_cap()),
                (Some(level), _, _, _, _) | (_, Some(level), _, _, _) => search(ismcts(level.params(seed), format!("ismcts-{arg}"))),
                (_, _, _, _, Some(n)) if time.is_none() => {
                    let n = capped(n, MAX_ITERATIONS, "the iteration budget")?.ok_or_else(unknown)?;
                    per_turn(Level::Normal, TurnBudget::of_iterations(n))
                }
                _ => {
                    let n = capped(arg, MAX_ITERATIONS, "the iteration budget")?.ok_or_else(unknown)?;
                    search(ismcts(SearchParams { iterations: Some(n), time: None, ..Level::Normal.params(seed) }, format!("ismcts-{n}")))
                }
            }
        }
        _ => return Err(unknown()),
    })
}

fn monte_carlo(bot: MonteCarloBot, time: Option<Duration>) -> Box<dyn Bot + Send> {
    match time {
        Some(t) => Box::new(bot.with_time(t)),
        None => Box::new(bot),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_name_bots() {
        for s in specs() {
            assert!(from_spec(&s.spec, 1).is_ok(), "{}", s.spec);
        }
        assert_eq!(from_spec("ismcts:500", 1).unwrap().name(), "ismcts-500");
        assert_eq!(from_spec("ismcts@20ms", 1).unwrap().name(), "ismcts@20ms");
        assert_eq!(from_spec("ismcts:hard@20ms", 1).unwrap().name(), "ismcts-hard@20ms");
        assert_eq!(from_spec("ismcts:normal-v1", 1).unwrap().name(), "ismcts-normal-v1");
        assert_eq!(from_spec("ismcts:normal-v2", 1).unwrap().name(), "ismcts-normal-v2");
        assert_eq!(from_spec("ismcts:normal-v3", 1).unwrap().name(), "ismcts-normal-v3");
        assert_eq!(from_spec("ismcts:5000/turn", 1).unwrap().name(), "ismcts-5000/turn");
        assert_eq!(from_spec("ismcts:5000/turn+reuse", 1).unwrap().name(), "ismcts-5000/turn+reuse");
        assert_eq!(from_spec("ismcts:easy+reuse", 1).unwrap().name(), "ismcts-easy+reuse");
        assert_eq!(from_spec("ismcts:300+reuse@20ms", 1).unwrap().name(), "ismcts-300+reuse@20ms");
        for bad in [
            "",
            "ismcts",
            "ismcts:0",
            "ismcts:extreme",
            "monte_carlo:-1",
            "monte_carlo@",
            "random@5",
            "ismcts:easy@0ms",
            "alphazero",
            "ismcts:0/turn",
            "ismcts:5/turn@5ms",
            "ismcts:hard-v4",
            "ismcts:hard-v2@20ms",
            "ismcts:hard-v3@20ms",
            "random+reuse",
            "monte_carlo+reuse",
            "ismcts:easy@20ms+reuse",
        ] {
            assert!(from_spec(bad, 1).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn the_readme_describes_every_bot_as_the_catalog_does() {
        let readme = include_str!("../../../README.md");
        for s in specs() {
            let row = format!("| `{}` | {} |", s.spec, s.description);
            assert!(readme.contains(&row), "README.md lacks the row {row}");
        }
        assert_eq!(thousands(7), "7");
        assert_eq!(thousands(200_000), "200,000");
        assert_eq!(thousands(1_000_000_000), "1,000,000,000");
    }

    #[test]
    fn specs_share_the_caps_of_search_parameters() {
        use crate::error::ErrorCode;
        assert_eq!(from_spec(&format!("ismcts:{MAX_ITERATIONS}"), 1).unwrap().name(), format!("ismcts-{MAX_ITERATIONS}"));
        assert!(from_spec(&format!("ismcts:easy@{MAX_TIME_MS}ms"), 1).is_ok());
        assert!(from_spec(&format!("monte_carlo@{MAX_TIME_MS}ms"), 1).is_ok());
        for over in [
            "ismcts:4294967295",
            "ismcts:1000000001",
            "ismcts:99999999999999999999999",
            "ismcts:easy@4294967295ms",
            "ismcts@86400001ms",
            "monte_carlo@86400001ms",
        ] {
            let e = from_spec(over, 1).err().unwrap_or_else(|| panic!("{over:?} was accepted"));
            assert_eq!(e.code(), ErrorCode::ConfigOutOfRange, "{over}: {e}");
        }
        for (k, v) in [("iterations", MAX_ITERATIONS + 1), ("time_ms", MAX_TIME_MS + 1), ("max_nodes", super::super::ismcts::MAX_NODES + 1)]
        {
            let e = SearchParams::from_json(&serde_json::json!({ k: v }), 1).unwrap_err();
            assert_eq!(e.code(), ErrorCode::ConfigOutOfRange, "{k}: {e}");
        }
        let e = SearchParams::from_json_text("{\"iterations\": 1e30}", 1).unwrap_err();
        assert_eq!(e.code(), ErrorCode::ConfigOutOfRange, "{e}");
        let at = SearchParams::from_json(&serde_json::json!({"iterations": MAX_ITERATIONS, "time_ms": MAX_TIME_MS}), 1).unwrap();
        assert_eq!((at.iterations, at.time), (Some(MAX_ITERATIONS), Some(Duration::from_millis(MAX_TIME_MS))));
    }
}
