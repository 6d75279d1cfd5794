//! Boards drawn from views: every registered game renders at every step of random games for
//! every observer, and a seat's picture never depends on what it may not know (the twin state
//! from `determinize` gives a byte-identical SVG).

use kassen_core::rng::Rng;
use kassen_core::{covered_configs, games, load_game, Player, SPECTATOR};

/// Plays random games of every game and checks each observer's SVG against its twin state.
#[test]
fn svg_of_a_seat_ignores_the_secrets_of_the_others() {
    for (id, _) in games() {
        let config = covered_configs(id).into_iter().next();
        let game = load_game(id, config.as_ref()).unwrap();
        let n = game.num_players() as Player;
        let mut differs = false;
        for seed in 1..=2u64 {
            let mut state = game.new_initial_state(seed);
            let mut rng = Rng::from_seed(seed + 100);
            let mut step = 0u64;
            while !state.is_terminal() {
                if step % 23 == 0 {
                    for observer in std::iter::once(SPECTATOR).chain(0..n) {
                        let svg = state.render_svg(observer).unwrap_or_else(|e| panic!("{id} step {step} observer {observer}: {e}"));
                        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"), "{id}: not an svg document");
                        let twin = state.determinize(observer, seed * 31 + step).unwrap();
                        let twin_svg = twin.render_svg(observer).unwrap();
                        assert_eq!(
                            svg, twin_svg,
                            "{id} seed {seed} step {step}: observer {observer} sees a difference in hidden information"
                        );
                        differs |= observer >= 0 && svg != state.render_svg(SPECTATOR).unwrap();
                    }
                }
                let legal = state.legal_actions();
                state.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).unwrap();
                step += 1;
            }
            let end = state.render_svg(0).unwrap();
            assert!(end.contains("game over"), "{id}: the final picture does not say the game is over");
        }
        assert!(differs, "{id}: no seat ever sees more than the spectator");
    }
}

#[test]
fn bad_views_are_errors_not_pictures() {
    let game = load_game("samurai", None).unwrap();
    let state = game.new_initial_state(1);
    let mut view = state.view(0).unwrap();
    assert!(game.render_svg(&view).is_ok());
    view["game"] = "sekigahara".into();
    let e = game.render_svg(&view).unwrap_err();
    assert_eq!(e.code(), kassen_core::ErrorCode::WrongGame, "{e}");
    assert_eq!(game.render_svg(&serde_json::json!([1])).unwrap_err().code(), kassen_core::ErrorCode::InvalidArgument);
    view["game"] = "samurai".into();
    view["observer"] = 7.into();
    assert_eq!(game.render_svg(&view).unwrap_err().code(), kassen_core::ErrorCode::InvalidArgument);
    assert_eq!(state.render_svg(5).unwrap_err().code(), kassen_core::ErrorCode::InvalidPlayer);
}

#[test]
fn text_from_views_is_escaped() {
    let game = load_game("samurai", None).unwrap();
    let mut view = game.new_initial_state(1).view(SPECTATOR).unwrap();
    view["seats"][0]["name"] = "<script>alert(1)</script>".into();
    let svg = game.render_svg(&view).unwrap();
    assert!(!svg.contains("<script>"));
    assert!(svg.contains("&lt;script&gt;"));
}

/// Every `data-target` an action names is an element of the picture of the state where the
/// action is legal, so a frontend can make it clickable.
#[test]
fn action_targets_are_elements_of_the_picture() {
    let mut found = 0;
    for (id, _) in games() {
        let game = load_game(id, None).unwrap();
        let mut state = game.new_initial_state(5);
        let mut rng = Rng::from_seed(5);
        for _ in 0..60 {
            if state.is_terminal() {
                break;
            }
            let seat = state.current_player();
            let svg = state.render_svg(seat).unwrap();
            let legal = state.legal_actions();
            for &a in &legal {
                if let Some(t) = game.action_target(a) {
                    assert!(svg.contains(&format!("data-target=\"{t}\"")), "{id}: action {a} targets {t}, not in the picture");
                    found += 1;
                }
            }
            state.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).unwrap();
        }
    }
    assert!(found > 0);
}

/// Boards a player reads at a glance: along random games of every registered game, for every
/// observer, no label lies on another label or on a piece, and none is smaller than
/// `MIN_READABLE_PX` once the picture is fitted to 1280×800 (core/src/render/layout.rs).
#[test]
fn pictures_are_readable_at_1280_by_800() {
    for (id, _) in games() {
        let game = load_game(id, None).unwrap();
        let n = game.num_players() as Player;
        let mut checked = 0;
        for seed in 1..=2u64 {
            let mut state = game.new_initial_state(seed);
            let mut rng = Rng::from_seed(seed + 200);
            let mut step = 0u64;
            loop {
                if step % 17 == 0 || state.is_terminal() {
                    for observer in std::iter::once(SPECTATOR).chain(0..n) {
                        let layout = state.render_layout(observer).unwrap();
                        assert_eq!(layout.svg, state.render_svg(observer).unwrap());
                        let problems = layout.problems();
                        assert!(
                            problems.is_empty(),
                            "{id} seed {seed} step {step} observer {observer}: {} layout problems, first: {:#?}",
                            problems.len(),
                            &problems[..problems.len().min(8)]
                        );
                        checked += 1;
                    }
                }
                if state.is_terminal() {
                    break;
                }
                let legal = state.legal_actions();
                state.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).unwrap();
                step += 1;
            }
        }
        assert!(checked > 0);
    }
}

/// The pictures name a CJK-capable font family first, so Japanese and Korean names show on
/// any machine that has one installed (README: fonts-noto-cjk).
#[test]
fn pictures_ask_for_a_cjk_font_first() {
    for (id, _) in games() {
        let svg = load_game(id, None).unwrap().new_initial_state(1).render_svg(SPECTATOR).unwrap();
        assert!(svg.contains("font-family=\"'Noto Sans CJK JP', "), "{id}: no CJK font family first");
    }
}
