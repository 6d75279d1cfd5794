//! The compact observation of every registered game: within the size goals of the issue
//! (8 KB for 関ヶ原大作戦, 4 KB for the others), and complete and secret along random games
//! (the checks of `testing::compact`, also part of the conformance suite, run here on their own).

use kassen_core::testing::compact::{check_apart, check_twin, Complete};
use kassen_core::testing::{on_every_core, random_playout};
use kassen_core::{covered_configs, games, load_game};

#[test]
fn compact_observations_are_small() {
    for (id, _) in games() {
        for cfg in covered_configs(id) {
            let game = load_game(id, Some(&cfg)).unwrap();
            let len = game.info().compact_len();
            let goal = if id == "sekigahara_daisakusen" { 8192 } else { 4096 };
            assert!(len > 0 && len <= goal, "{id} {cfg}: compact observation of {len} bytes (goal {goal})");
            kassen_core::compact::check_tiles(&game.info().compact_layout, len).unwrap();
        }
    }
}

#[test]
fn compact_observations_are_complete_and_secret_along_random_games() {
    let cases: Vec<_> = games().into_iter().flat_map(|(id, _)| covered_configs(id).into_iter().map(move |cfg| (id, cfg))).collect();
    on_every_core(&cases, |(id, cfg)| {
        let game = load_game(id, Some(cfg)).unwrap();
        let players = game.num_players() as i32;
        let mut complete = Complete::default();
        for seed in [11, 12] {
            let (_, actions) = random_playout(&*game, seed);
            let mut s = game.new_initial_state(seed);
            for (step, &a) in actions.iter().enumerate() {
                complete.check(&s, players, step).unwrap_or_else(|e| panic!("{id} {cfg} seed {seed}: {e}"));
                // Siblings: the states after this step's action and after up to three other
                // legal actions (near states, where a missing fact shows).
                let child = |b| {
                    let mut c = s.clone();
                    c.apply_in_place(b).unwrap();
                    c
                };
                let played = child(a);
                for b in s.legal_actions().into_iter().filter(|&b| b != a).step_by(5).take(3) {
                    check_apart(&played, &child(b), players)
                        .unwrap_or_else(|e| panic!("{id} {cfg} seed {seed} step {step}, {a} or {b}: {e}"));
                }
                if step % 7 == 3 {
                    for p in -1..players {
                        check_twin(&s, p, seed ^ step as u64).unwrap_or_else(|e| panic!("{id} {cfg} seed {seed} step {step}: {e}"));
                    }
                }
                s = played;
            }
        }
    });
}

/// The field table of a game's compact observation, as `docs/observations/<id>.md` shows it.
fn field_table(id: &str) -> String {
    let game = load_game(id, None).unwrap();
    let info = game.info();
    let mut t = format!(
        "# {} — compact observation\n\n\
         Generated from `GameInfo::compact_layout` (default configuration) by `KASSEN_BLESS=1 cargo test -p kassen-core \
         --test compact_observation docs`; the encoder is `core/src/games/{id}/compact.rs`, the format `core/src/compact.rs`. \
         {} bytes per observation (the float32 tensor: {} bytes).\n\n\
         | field | offset | bytes | dtype | shape | range | meaning |\n|---|---|---|---|---|---|---|\n",
        info.name,
        info.compact_len(),
        4 * info.observation_len(),
    );
    for f in &info.compact_layout {
        let dtype = serde_json::to_value(f.dtype).unwrap();
        let shape: Vec<String> = f.shape.iter().map(|x| x.to_string()).collect();
        t += &format!(
            "| `{}` | {} | {} | {} | [{}] | {}..{} | {} |\n",
            f.name,
            f.offset,
            f.bytes,
            dtype.as_str().unwrap(),
            shape.join(", "),
            f.low,
            f.high,
            f.description.replace('|', "\\|")
        );
    }
    t
}

#[test]
fn docs_list_every_field() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/observations");
    for (id, _) in games() {
        let path = root.join(format!("{id}.md"));
        let want = field_table(id);
        if std::env::var_os("KASSEN_BLESS").is_some() {
            std::fs::create_dir_all(&root).unwrap();
            std::fs::write(&path, &want).unwrap();
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(have, want, "{} is out of date: run with KASSEN_BLESS=1", path.display());
    }
}
