//! Golden playthroughs replayed through the core API and through the C ABI.
//!
//! `KASSEN_BLESS=1 cargo test -p kassen-tests golden` (re)writes tests/golden/ for every
//! registered game, player count and seed; without it, the generator checks the files.

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
            let (lo, hi) = golden::player_range(id);
            for players in lo..=hi {
                for seed in golden::SEEDS {
                    let g = golden::generate(id, &golden::config(players), seed);
                    let path = golden::dir().join(golden::file_name(id, players, seed));
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
        let (lo, hi) = golden::player_range(id);
        for players in lo..=hi {
            let prefix = format!("{id}_p{players}_seed");
            let n = names.iter().filter(|n| n.starts_with(&prefix)).count();
            assert!(n >= 3, "{id} with {players} players has {n} golden games, at least 3 are needed");
        }
    }
    for name in &names {
        let g = golden::load(&golden::dir().join(name));
        let expected =
            golden::file_name(g["game"].as_str().unwrap(), g["config"]["players"].as_u64().unwrap() as u32, g["seed"].as_u64().unwrap());
        assert_eq!(name, &expected, "file name does not match its content");
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
