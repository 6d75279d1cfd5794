//! Random component data files for a game's validator (tracker 7, item 5): mutate the embedded
//! file (drop, duplicate or reorder list entries, alter numbers, swap strings for others of the
//! same key, flip flags, drop fields), and for every file the validator accepts, play random
//! games to the end: no panic, no dead end, no game longer than `max_game_length`.
//! Deterministic: file `i` comes from seed `i`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use kassen_core::rng::Rng;
use kassen_core::{load_game, ErrorCode};
use serde_json::{json, Map, Value};

/// What a run exercised.
#[derive(Debug, Default)]
pub struct Tally {
    pub accepted: u32,
    pub rejected: u32,
    pub games: u32,
}

fn paths(v: &Value, here: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(here.clone());
    match v {
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                here.push(json!(i));
                paths(x, here, out);
                here.pop();
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                here.push(json!(k));
                paths(x, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(v, |v, k| match k {
        Value::String(k) => &mut v[k.as_str()],
        k => &mut v[k.as_u64().unwrap() as usize],
    })
}

/// Every string of the file, by the key it stands under.
fn strings_by_key(v: &Value, key: &str, out: &mut Map<String, Value>) {
    match v {
        Value::String(s) => {
            let list = out.entry(key.to_string()).or_insert_with(|| json!([]));
            if !list.as_array().unwrap().contains(&json!(s)) {
                list.as_array_mut().unwrap().push(json!(s));
            }
        }
        Value::Array(a) => a.iter().for_each(|x| strings_by_key(x, key, out)),
        Value::Object(o) => o.iter().for_each(|(k, x)| strings_by_key(x, k, out)),
        _ => {}
    }
}

/// One random change; returns what it did.
fn mutate(v: &mut Value, rng: &mut Rng) -> String {
    let mut all = Vec::new();
    paths(v, &mut Vec::new(), &mut all);
    let path = all[rng.below(all.len() as u32) as usize].clone();
    let key = path.iter().rev().find_map(|k| k.as_str().map(String::from)).unwrap_or_default();
    let mut strings = Map::new();
    strings_by_key(v, "", &mut strings);
    let target = at(v, &path);
    let what = match target {
        Value::Array(a) if !a.is_empty() => {
            let i = rng.below(a.len() as u32) as usize;
            match rng.below(4) {
                0 => {
                    a.remove(i);
                    "dropped an entry"
                }
                1 => {
                    let x = a[i].clone();
                    a.push(x);
                    "duplicated an entry"
                }
                2 => {
                    let j = rng.below(a.len() as u32) as usize;
                    a.swap(i, j);
                    "swapped two entries"
                }
                _ => {
                    a.truncate(i);
                    "cut the list"
                }
            }
            .to_string()
        }
        Value::Number(n) => {
            let x = n.as_f64().unwrap_or(0.0);
            let choices = [
                json!(0),
                json!(1),
                json!(-1),
                json!(2),
                json!(3),
                json!(5),
                json!(x + 1.0),
                json!(x - 1.0),
                json!(x * 3.0),
                json!(255),
                json!(256),
                json!(1u64 << 31),
                json!(1431655766u64),
                json!(u32::MAX),
                json!(u64::MAX),
                json!(2.5),
                json!(-2_147_483_648i64),
            ];
            *target = choices[rng.below(choices.len() as u32) as usize].clone();
            format!("set a number to {target}")
        }
        Value::String(_) => {
            let pool = strings.get(&key).and_then(Value::as_array).cloned().unwrap_or_default();
            if pool.is_empty() || rng.below(8) == 0 {
                *target = json!("?");
            } else {
                *target = pool[rng.below(pool.len() as u32) as usize].clone();
            }
            format!("set a string to {target}")
        }
        Value::Bool(b) => {
            *b = !*b;
            "flipped a flag".into()
        }
        Value::Object(o) if !o.is_empty() => {
            let k = o.keys().nth(rng.below(o.len() as u32) as usize).unwrap().clone();
            o.remove(&k);
            format!("dropped field {k:?}")
        }
        _ => "nothing".into(),
    };
    format!("{what} at {}", path.iter().map(|k| k.to_string()).collect::<Vec<_>>().join("."))
}

/// Plays a random game from `seed`: every state before the end has a legal action, and the
/// game ends within `max_game_length`.
fn play(game: &kassen_core::GameHandle, seed: u64) -> Result<(), String> {
    let max = game.info().max_game_length as usize;
    let mut rng = Rng::from_seed(seed ^ 0x0f1e);
    let mut s = game.new_initial_state(seed);
    while !s.is_terminal() {
        let legal = s.legal_actions();
        if legal.is_empty() {
            return Err(format!("dead end after {} actions: {}", s.history().len(), s.view(-1).map(|v| v.to_string()).unwrap_or_default()));
        }
        s.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).map_err(|e| e.to_string())?;
        if s.history().len() > max {
            return Err(format!("longer than max_game_length {max}"));
        }
    }
    Ok(())
}

/// Runs `files` random files derived from `embedded`; `configs` are the game configs (without
/// "data") to try each accepted file with; `repair` may fix up a file after the mutations (to
/// let more mutated files through the validator).
pub fn run(id: &str, embedded: &str, files: u64, configs: &[Value], repair: impl Fn(&mut Value, &mut Rng)) -> Tally {
    let base: Value = serde_json::from_str(embedded).unwrap();
    let mut tally = Tally::default();
    for file in 0..files {
        let mut rng = Rng::from_seed(file);
        let mut v = base.clone();
        let changes: Vec<String> = (0..1 + rng.below(3)).map(|_| mutate(&mut v, &mut rng)).collect();
        repair(&mut v, &mut rng);
        let mut accepted = false;
        for cfg in configs {
            let mut cfg = cfg.clone();
            cfg["data"] = v.clone();
            let loaded = catch_unwind(AssertUnwindSafe(|| load_game(id, Some(&cfg))))
                .unwrap_or_else(|_| panic!("{id} file {file}: the validator panicked after {changes:?}"));
            let game = match loaded {
                Ok(g) => g,
                Err(e) => {
                    assert_eq!(e.code(), ErrorCode::InvalidData, "{id} file {file}: {e} after {changes:?}");
                    continue;
                }
            };
            accepted = true;
            for seed in 0..2 {
                let r = catch_unwind(AssertUnwindSafe(|| play(&game, file * 10 + seed)));
                match r {
                    Ok(Ok(())) => tally.games += 1,
                    Ok(Err(e)) => panic!(
                        "{id} file {file} {cfg_players} seed {seed}: {e}; the file: {changes:?}",
                        cfg_players = cfg.get("players").cloned().unwrap_or_default()
                    ),
                    Err(_) => panic!("{id} file {file} seed {seed}: a game panicked; the file: {changes:?}"),
                }
            }
        }
        if accepted {
            tally.accepted += 1;
        } else {
            tally.rejected += 1;
        }
    }
    tally
}
