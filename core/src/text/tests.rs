//! Tests of the text face on every registered game.

use crate::game::ActionId;
use crate::rng::Rng;
use crate::{covered_configs, games, load_game, ErrorCode, StateHandle};

/// Seeded random game states of `id` (default config) where a seat is to act.
fn states(id: &str, seed: u64, every: usize) -> Vec<StateHandle> {
    let game = load_game(id, None).expect("loads");
    let mut rng = Rng::from_seed(seed);
    let mut s = game.new_initial_state(seed);
    let mut out = Vec::new();
    let mut i = 0;
    while !s.is_terminal() {
        if s.current_player() >= 0 && i % every == 0 {
            out.push(s.clone());
        }
        i += 1;
        let legal = s.legal_actions();
        s.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).expect("legal");
    }
    out.push(s);
    out
}

#[test]
#[ignore = "prints the texts of every game: cargo test -p kassen-core --lib print_texts -- --ignored --nocapture"]
fn print_texts() {
    for (id, _) in games() {
        let all = states(id, 1, 1);
        for s in [&all[0], &all[all.len() / 2], &all[all.len() - 1]] {
            let p = s.current_player().max(0);
            let t = s.text_observation(p).unwrap();
            println!("=================== {id} ({} chars)\n{t}", t.len());
        }
    }
}

#[test]
fn every_game_names_game_seat_decision_and_numbered_moves() {
    for (id, name) in games() {
        for config in covered_configs(id) {
            let game = load_game(id, Some(&config)).expect("loads");
            let mut s = game.new_initial_state(3);
            while s.current_player() < 0 {
                let first = s.legal_actions()[0];
                s.apply_in_place(first).unwrap();
            }
            let p = s.current_player();
            assert!(p >= 0, "{id}: a seat acts first");
            let t = s.text_observation(p).unwrap();
            assert!(t.starts_with(&format!("# {name}\nYou are seat {p}")), "{id}: {t}");
            assert!(t.contains("To act: you"), "{id}: {t}");
            let legal = s.legal_actions();
            assert!(t.contains(&format!("## Your legal moves ({})", legal.len())), "{id}: {t}");
            let other = (p + 1) % game.num_players() as i32;
            let theirs = s.text_observation(other).unwrap();
            assert!(!theirs.contains("## Your legal moves"), "{id}: a seat not to act is shown moves");
            assert!(s.text_observation(game.num_players() as i32).is_err());
        }
    }
}

/// Paraphrases of a move that must read as it, and answers that must be refused.
fn paraphrases(name: &str, number: usize, id: ActionId, rng: &mut Rng) -> Vec<String> {
    let upper = name.to_uppercase();
    let lower = name.to_lowercase();
    let spaced = name.replace(' ', "   ");
    let pick = |rng: &mut Rng, v: &[&str]| v[rng.below(v.len() as u32) as usize].to_string();
    let lead = pick(rng, &["I will play: ", "My move: ", "I choose ", "Answer: ", "", "After thinking, I play "]);
    let tail = pick(rng, &["", ".", "!", " because it is best.", "\n"]);
    vec![
        name.to_string(),
        upper,
        lower,
        spaced,
        format!("  \"{name}\"  "),
        format!("'{name}'"),
        format!("`{name}`"),
        format!("**{name}**"),
        format!("```\n{name}\n```"),
        format!("```text\n{name}\n```"),
        format!("{lead}{name}{tail}"),
        format!("{lead}\u{201c}{name}\u{201d}{tail}"),
        number.to_string(),
        format!("#{number}"),
        format!("{number}."),
        format!("I choose option {number}"),
        format!("{{\"id\": {id}}}"),
        format!("```json\n{{\"id\": {id}}}\n```"),
        format!("My answer is {{\"id\": {id}}} as JSON."),
        format!("{{\"move\": {:?}}}", name),
    ]
}

/// Thousands of generated paraphrases of legal moves read as the move; wrong answers are
/// refused with `UnreadableMove` naming the options, the state unchanged.
#[test]
fn paraphrases_and_wrong_answers_on_every_game() {
    let mut tried = 0;
    let mut rng = Rng::from_seed(35);
    for (id, _) in games() {
        for s in states(id, 7, 9) {
            let p = s.current_player();
            if p < 0 {
                continue;
            }
            let before = s.to_json();
            let legal = s.legal_actions();
            let names: Vec<String> = legal.iter().map(|&a| s.action_to_string(a).unwrap()).collect();
            for (i, (&a, name)) in legal.iter().zip(&names).enumerate() {
                // Only where the name is not also a phrase inside another legal move's name
                // (then a sentence around it could mean either).
                let lower = name.to_lowercase();
                let nested = names.iter().any(|o| o != name && o.to_lowercase().contains(&lower));
                for answer in paraphrases(name, i + 1, a, &mut rng) {
                    // A sentence that also holds another move's name may mean that move.
                    let low = answer.to_lowercase();
                    let confusable = nested || names.iter().any(|o| o != name && low.contains(&o.to_lowercase()));
                    let plain =
                        answer == *name || answer.trim().starts_with(['#', '{']) || answer.chars().all(|c| c.is_ascii_digit() || c == '.');
                    if confusable && !plain {
                        continue;
                    }
                    let got = s.parse_move(p, &answer);
                    assert_eq!(got, Ok(a), "{id}: {answer:?} should read as {name:?} ({a}); moves {names:?}");
                    tried += 1;
                }
            }
            let wrong = [
                "".to_string(),
                "   ".to_string(),
                "xyzzy plugh frobnicate".to_string(),
                "0".to_string(),
                format!("{}", legal.len() + 1),
                "{\"id\": 999999999}".to_string(),
                "{\"verb\": \"no_such_verb\"}".to_string(),
                "```\n```".to_string(),
                "x".repeat(20_000),
                "[1, 2]".to_string(),
            ];
            for answer in wrong {
                let err = s.parse_move(p, &answer).expect_err(&format!("{id}: {answer:.60?} was accepted"));
                assert_eq!(err.code(), ErrorCode::UnreadableMove, "{id}: {err}");
                assert!(err.to_string().contains("1. "), "{id}: the error names no options: {err}");
                tried += 1;
            }
            if legal.len() >= 2 {
                let both = format!("either {} or {}", names[0], names[1]);
                let nested = names[0].to_lowercase().contains(&names[1].to_lowercase())
                    || names[1].to_lowercase().contains(&names[0].to_lowercase());
                if !nested {
                    let err = s.parse_move(p, &both).expect_err("two moves named");
                    assert!(err.to_string().contains("several"), "{id}: {err}");
                }
            }
            let other = (p + 1) % s.game().num_players() as i32;
            if other != p {
                assert_eq!(s.parse_move(other, &names[0]).unwrap_err().code(), ErrorCode::NotYourTurn);
            }
            assert_eq!(s.to_json(), before, "{id}: parse_move changed the state");
        }
    }
    assert!(tried > 5_000, "only {tried} answers tried");
}

/// The header and the state section of a text are those written from the seat's JSON view:
/// the envelope tree (`view::envelope_parts`) and the board text written as the body serializes
/// (`text::stream`) are those of serde_json's view.
#[test]
fn the_text_is_the_one_of_the_json_view() {
    let head = |t: &str| t[..t.find("\n## Since").expect("an events section")].to_string();
    let mut texts = 0;
    for (id, name) in games() {
        for config in covered_configs(id) {
            let game = load_game(id, Some(&config)).expect("loads");
            let mut rng = Rng::from_seed(11);
            let mut s = game.new_initial_state(11);
            loop {
                for p in crate::game::SPECTATOR..game.num_players() as i32 {
                    let view = super::node::Node::from(&s.view(p).unwrap());
                    let parts =
                        super::observation::Parts { game_name: name, observer: p, view: &view, board: None, events: &[], moves: &[] };
                    assert_eq!(head(&s.text_observation(p).unwrap()), head(&super::observation::write(&parts)), "{id} {config} seat {p}");
                    texts += 1;
                }
                if s.is_terminal() {
                    break;
                }
                let legal = s.legal_actions();
                s.apply_in_place(legal[rng.below(legal.len() as u32) as usize]).expect("legal");
            }
        }
    }
    assert!(texts > 1_000, "only {texts} texts");
}
