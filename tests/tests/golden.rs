//! Golden playthroughs replayed through the core API and through the C ABI.
//!
//! `KASSEN_BLESS=1 cargo test -p kassen-tests golden` (re)writes tests/golden/ for every
//! registered game, each of its golden configs ([`golden::configs`]) and seed; without it, the
//! generator checks the files.

use std::sync::OnceLock;

use kassen_core::engine::games;
use kassen_tests::golden::{self, CSurface, CoreSurface};

fn bless() -> bool {
    std::env::var("KASSEN_BLESS").as_deref() == Ok("1")
}

/// Regenerates every golden game once per test process; with KASSEN_BLESS=1 writes them
/// (before any other test here reads the files), otherwise returns the stale ones.
fn regenerate() -> &'static [String] {
    static STALE: OnceLock<Vec<String>> = OnceLock::new();
    STALE.get_or_init(|| {
        std::fs::create_dir_all(golden::dir()).expect("create tests/golden");
        let mut stale = Vec::new();
        for (id, _) in games() {
            for config in golden::configs(id) {
                for seed in golden::SEEDS {
                    let g = golden::generate(id, &config, seed);
                    let path = golden::dir().join(golden::file_name_for(id, &config, seed));
                    let text = golden::render(&g);
                    if bless() {
                        std::fs::write(&path, text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
                    } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                        stale.push(path.display().to_string());
                    }
                }
            }
        }
        stale
    })
}

/// In bless mode, the files are rewritten before a test reads them.
fn files() -> Vec<std::path::PathBuf> {
    if bless() {
        regenerate();
    }
    golden::files()
}

#[test]
fn golden_generator_matches_the_files() {
    let stale = regenerate();
    assert!(
        stale.is_empty(),
        "golden files missing or out of date (rules changed? then review and run \
         KASSEN_BLESS=1 cargo test -p kassen-tests golden): {stale:#?}"
    );
}

#[test]
fn golden_files_cover_every_game_and_player_count() {
    let names: Vec<String> = files().iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    for (id, _) in games() {
        let configs = golden::configs(id);
        assert!(!configs.is_empty(), "{id} has no golden config");
        // Every supported player count has a golden config.
        let (lo, hi) = golden::player_range(id);
        for players in lo..=hi {
            assert!(configs.iter().any(|c| golden::num_players(id, c) == players), "{id}: no golden config with {players} players");
        }
        for config in &configs {
            let n = golden::SEEDS.iter().filter(|&&seed| names.contains(&golden::file_name_for(id, config, seed))).count();
            assert!(n >= 3, "{id} {config} has {n} golden games, at least 3 are needed");
        }
    }
    for name in &names {
        let g = golden::load(&golden::dir().join(name));
        let (game, seed) = (g["game"].as_str().unwrap(), g["seed"].as_u64().unwrap());
        assert_eq!(name, &golden::file_name_for(game, &g["config"], seed), "file name does not match its content");
        assert!(golden::configs(game).contains(&g["config"]), "{name}: config {} is not a golden config of {game}", g["config"]);
    }
}

#[test]
fn golden_replay_core() {
    for path in files() {
        let g = golden::load(&path);
        if let Err(e) = golden::replay::<CoreSurface>(&g) {
            panic!("{} (core): {e}", path.display());
        }
    }
}

#[test]
fn golden_replay_c_abi() {
    for path in files() {
        let g = golden::load(&path);
        if let Err(e) = golden::replay::<CSurface>(&g) {
            panic!("{} (C ABI): {e}", path.display());
        }
    }
}

#[test]
fn golden_replay_detects_a_difference() {
    // One file of every game: a changed legal action list, a changed or missing view and a
    // changed final hash are all caught.
    for (id, _) in games() {
        let config = &golden::configs(id)[0];
        let path = golden::dir().join(golden::file_name_for(id, config, golden::SEEDS[0]));
        let g = golden::load(&path);
        golden::replay::<CoreSurface>(&g).unwrap_or_else(|e| panic!("{} (core): {e}", path.display()));

        let mut bad = g.clone();
        bad["checkpoints"][1]["legal_actions"].as_array_mut().unwrap().push(9_999_999.into());
        assert!(golden::replay::<CoreSurface>(&bad).unwrap_err().contains("legal_actions"), "{id}: legal actions");

        let mut bad = g.clone();
        let view = bad["checkpoints"][0]["view"].as_object_mut().expect("the first checkpoint holds a view");
        view.insert("extra".into(), true.into());
        assert!(golden::replay::<CoreSurface>(&bad).unwrap_err().contains("view"), "{id}: changed view");

        let mut bad = g.clone();
        bad["checkpoints"][0].as_object_mut().unwrap().remove("view");
        assert!(golden::replay::<CoreSurface>(&bad).unwrap_err().contains("no view"), "{id}: missing view");

        let mut bad = g.clone();
        bad["final"]["hash"] = "1".into();
        assert!(golden::replay::<CoreSurface>(&bad).unwrap_err().contains("final"), "{id}: final hash");
    }
}
