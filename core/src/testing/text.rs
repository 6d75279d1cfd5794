//! The text face ([`crate::DynState::text_observation`], [`crate::DynState::parse_move`]) on
//! a state of a conformance game:
//! - the text of every observer equals the text of its determinization: no hidden
//!   information reaches a seat through its text (the leak test of the text, beside the one
//!   of the views);
//! - the text is deterministic and lists the seat's legal moves, unique, where it acts;
//! - every legal move reads back from its move string, its number and `{"id": n}`, and a text
//!   that names no move is refused with `UnreadableMove`, the state unchanged.

use crate::engine::StateHandle;
use crate::error::ErrorCode;
use crate::game::{Player, SPECTATOR};
use crate::rng::Rng;

use super::ensure;

pub fn check(s: &StateHandle, players: Player, rng: &mut Rng) -> Result<(), String> {
    for p in SPECTATOR..players {
        let text = s.text_observation(p).map_err(|e| e.to_string())?;
        ensure(text == s.text_observation(p).map_err(|e| e.to_string())?, || format!("text of seat {p} is not deterministic"))?;
        let twin = s.determinize(p, rng.next_u64()).map_err(|e| e.to_string())?;
        let theirs = twin.text_observation(p).map_err(|e| e.to_string())?;
        ensure(text == theirs, || {
            format!("text of seat {p} changes with information hidden from it:\n{}", super::variants::first_difference(&text, &theirs))
        })?;
    }
    let cp = s.current_player();
    if cp < 0 {
        return Ok(());
    }
    let legal = s.legal_actions();
    let text = s.text_observation(cp).map_err(|e| e.to_string())?;
    let before = s.to_json();
    for (i, &a) in legal.iter().enumerate() {
        let name = s.action_to_string(a).map_err(|e| e.to_string())?;
        ensure(text.contains(name.split_once(": ").map_or(name.as_str(), |x| x.1)), || {
            format!("the text of seat {cp} does not list its legal move {name:?}")
        })?;
        for answer in [name.clone(), (i + 1).to_string(), format!("{{\"id\": {a}}}")] {
            let got = s.parse_move(cp, &answer).map_err(|e| format!("legal move {name:?} given as {answer:?} was refused: {e}"))?;
            ensure(got == a, || format!("{answer:?} was read as action {got}, not {a} ({name:?})"))?;
        }
    }
    for wrong in ["", "xyzzy plugh", "0", &format!("{}", legal.len() + 1)] {
        match s.parse_move(cp, wrong) {
            Err(e) if e.code() == ErrorCode::UnreadableMove => {}
            other => return Err(format!("{wrong:?} was not refused as unreadable: {other:?}")),
        }
    }
    ensure(s.to_json() == before, || "parse_move changed the state".into())
}
