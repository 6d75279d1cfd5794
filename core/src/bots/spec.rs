//! Bots by name: the short texts that the C ABI, Python, the play page and the arena use.

use serde::Serialize;

use std::time::Duration;

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
        let p = level.params(0);
        let name = format!("IS-MCTS {}", level.name());
        let description = format!(
            "information-set tree search: up to {} iterations or {:.1} s per decision",
            p.iterations.unwrap_or(0),
            p.time.map_or(0.0, |t| t.as_secs_f64())
        );
        v.push(BotSpec { spec: format!("ismcts:{}", level.name()), name, description });
    }
    v
}

/// The bot `spec` names, seeded with `seed`: `"random"`, `"monte_carlo"`, `"monte_carlo:P"`
/// (P playouts per decision), `"ismcts:<level>"` (`easy`, `normal`, `hard`) or
/// `"ismcts:<N>"` (N iterations per decision, no time limit: deterministic). A suffix
/// `"@<T>ms"` gives a search bot T milliseconds per decision instead of its own budget (for
/// comparisons at equal time per move: `"monte_carlo@50ms"`, `"ismcts@50ms"`); the random bot
/// takes no time and ignores it.
pub fn from_spec(spec: &str, seed: u64) -> Result<Box<dyn Bot + Send>, SetupError> {
    let unknown = || {
        SetupError::InvalidConfig(format!(
            "unknown bot {} (known: \"random\", \"monte_carlo\", \"monte_carlo:P\", \"ismcts:easy\", \"ismcts:normal\", \
             \"ismcts:hard\", \"ismcts:N\", each optionally with \"@<T>ms\")",
            crate::input::quote(spec)
        ))
    };
    let count = |n: &str| n.parse::<u32>().ok().filter(|&x| x >= 1 && n.bytes().all(|b| b.is_ascii_digit()));
    let (base, time) = match spec.split_once('@') {
        None => (spec, None),
        Some((base, t)) => {
            let ms = t.strip_suffix("ms").and_then(count).ok_or_else(unknown)?;
            (base, Some(Duration::from_millis(ms as u64)))
        }
    };
    let ismcts = |params: SearchParams, name: String| -> Box<dyn Bot + Send> {
        match time {
            Some(t) => {
                let ms = t.as_millis();
                Box::new(IsmctsBot::with_params(format!("{name}@{ms}ms"), SearchParams { iterations: None, time: Some(t), ..params }))
            }
            None => Box::new(IsmctsBot::with_params(name, params)),
        }
    };
    Ok(match base.split_once(':') {
        None if base == "random" => Box::new(RandomBot::new(seed)),
        None if base == "monte_carlo" => monte_carlo(MonteCarloBot::new(seed), time),
        Some(("monte_carlo", n)) => monte_carlo(MonteCarloBot::new(seed).with_playouts(count(n).ok_or_else(unknown)?), time),
        None if base == "ismcts" && time.is_some() => ismcts(Level::Normal.params(seed), "ismcts".into()),
        Some(("ismcts", arg)) => match (Level::parse(arg), count(arg)) {
            (Some(level), _) => ismcts(level.params(seed), format!("ismcts-{}", level.name())),
            (None, Some(n)) => {
                ismcts(SearchParams { iterations: Some(n as u64), time: None, ..Level::Normal.params(seed) }, format!("ismcts-{n}"))
            }
            _ => return Err(unknown()),
        },
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
        for bad in
            ["", "ismcts", "ismcts:0", "ismcts:extreme", "monte_carlo:-1", "monte_carlo@", "random@5", "ismcts:easy@0ms", "alphazero"]
        {
            assert!(from_spec(bad, 1).is_err(), "{bad:?} was accepted");
        }
    }
}
