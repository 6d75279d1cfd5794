//! Golden SVG boards: every registered game drawn for every seat and the spectator at fixed
//! points of a fixed random game. `KASSEN_BLESS=1 cargo test -p kassen-tests golden` rewrites
//! tests/golden/svg/ (review the pictures!); without it, the drawings must match the files.

use std::path::PathBuf;

use kassen_core::rng::Rng;
use kassen_core::{games, load_game, Player, SPECTATOR};

const STEPS: [usize; 2] = [0, 40];

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden").join("svg")
}

fn observer_name(p: Player) -> String {
    if p == SPECTATOR {
        "spectator".into()
    } else {
        format!("seat{p}")
    }
}

#[test]
fn svg_golden_boards_match_the_files() {
    let bless = std::env::var("KASSEN_BLESS").as_deref() == Ok("1");
    std::fs::create_dir_all(dir()).unwrap();
    let mut stale = Vec::new();
    let mut count = 0;
    for (id, _) in games() {
        let game = load_game(id, None).unwrap();
        let mut state = game.new_initial_state(1);
        let mut rng = Rng::from_seed(11);
        let mut done = 0;
        for &at in &STEPS {
            while done < at && !state.is_terminal() {
                let legal = state.legal_actions();
                state.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).unwrap();
                done += 1;
            }
            for observer in std::iter::once(SPECTATOR).chain(0..game.num_players() as Player) {
                let svg = state.render_svg(observer).unwrap();
                for needed in ["Legend", "to act", "seen by"] {
                    assert!(svg.contains(needed), "{id}: no {needed:?} in the picture");
                }
                let path = dir().join(format!("{id}_seed1_step{at}_{}.svg", observer_name(observer)));
                count += 1;
                if bless {
                    std::fs::write(&path, &svg).unwrap();
                } else if std::fs::read_to_string(&path).ok().as_deref() != Some(svg.as_str()) {
                    stale.push(path.display().to_string());
                }
            }
        }
    }
    assert!(count > 0);
    assert!(
        stale.is_empty(),
        "svg goldens missing or out of date (review, then KASSEN_BLESS=1 cargo test -p kassen-tests golden): {stale:#?}"
    );
}
