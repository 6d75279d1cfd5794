//! A short reason in words for each candidate of a decision: what the candidate and the moves
//! the search expects the seat to make after it in the same turn (its principal line) lead to,
//! told in the game's own event sentences ([`crate::Game::event_text`]).
//!
//! The moves are played on two determinizations of what the seat knows, drawn from the
//! search's seed ([`crate::DynState::determinize`]), never on the real state, and only the
//! events the seat is shown are told, as it would be told them: a reason depends on the seat's
//! information set, the seed and the search's statistics alone (a test compares the reasons
//! of a state and of its determinized twin). A reason keeps the sentences both worlds tell;
//! where the line's outcome depends on what the seat cannot see (a battle's dice, a drawn
//! token) and they tell nothing alike, it tells the first world's: one outcome the seat could
//! meet, not the real one.

use super::Decision;
use crate::engine::StateHandle;
use crate::game::{ActionId, Player};

/// The most moves of a candidate's principal line, the candidate included.
pub const LINE_MOVES: usize = 4;
/// The most event sentences in a reason.
pub const MAX_SENTENCES: usize = 4;
/// The longest reason, in characters (a longer one ends in "…").
pub const MAX_CHARS: usize = 160;

/// Fills in every candidate's reason from its line (which the search filled in).
pub(super) fn explain(state: &StateHandle, d: &mut Decision, seed: u64) {
    let seat = d.seat;
    // The analysed state was checked to determinize for the seat; a failure here leaves the
    // decision without reasons rather than failing the search.
    let worlds: Vec<(StateHandle, usize)> = WORLD_SEEDS
        .iter()
        .filter_map(|&k| {
            let w = state.determinize(seat, seed ^ k).ok()?;
            let before = w.events(seat).ok()?.len();
            Some((w, before))
        })
        .collect();
    if worlds.len() < WORLD_SEEDS.len() {
        return;
    }
    for c in &mut d.candidates {
        let told: Vec<(Vec<ActionId>, Vec<String>)> = worlds.iter().map(|(w, before)| tell(w, *before, seat, c.action, &c.line)).collect();
        let (played, first) = &told[0];
        // What every world tells; where they all differ (dice, draws), what the first tells.
        let common: Vec<&String> = first.iter().filter(|t| told[1..].iter().all(|(_, other)| other.contains(t))).collect();
        let mut parts: Vec<String> =
            if common.is_empty() { first.iter().collect::<Vec<_>>() } else { common }.into_iter().take(MAX_SENTENCES).cloned().collect();
        if parts.is_empty() {
            // No event to tell: the moves by their names.
            let mut names = worlds[0].0.clone();
            for &a in played {
                parts.extend(names.action_to_string(a).ok());
                let _ = names.apply_in_place(a);
            }
        }
        c.line = played[1.min(played.len())..].to_vec();
        c.reason = Some(shorten(&parts.join("; ")));
    }
}

/// The seeds of the worlds a reason is told on (each xor the search's seed).
const WORLD_SEEDS: [u64; 2] = [0x6578_706c_6169_6e31, 0x6578_706c_6169_6e32];

/// Plays `action` and then `line` on `world` while `seat` is to act and the moves are legal
/// there; the moves played, and the sentences of the events `seat` was shown since its
/// `before`-th, without their final stops.
fn tell(world: &StateHandle, before: usize, seat: Player, action: ActionId, line: &[ActionId]) -> (Vec<ActionId>, Vec<String>) {
    let mut s = world.clone();
    let mut played = Vec::with_capacity(LINE_MOVES);
    for &a in std::iter::once(&action).chain(line) {
        // A move of the line may be legal only in some of the search's worlds.
        if s.current_player() != seat || s.apply_in_place(a).is_err() {
            break;
        }
        played.push(a);
    }
    let game = s.game();
    let sentences = s
        .events_since(seat, before)
        .unwrap_or_default()
        .iter()
        .filter_map(|e| game.event_text(&e.body, seat))
        .map(|t| t.trim().trim_end_matches('.').to_string())
        .filter(|t| !t.is_empty())
        .collect();
    (played, sentences)
}

/// `text` cut to [`MAX_CHARS`] characters at a word's end, with "…" when cut.
fn shorten(text: &str) -> String {
    if text.chars().count() <= MAX_CHARS {
        return text.to_string();
    }
    let cut: String = text.chars().take(MAX_CHARS - 1).collect();
    let at = cut.rfind(' ').filter(|&i| i > MAX_CHARS / 2).unwrap_or(cut.len());
    format!("{}…", cut[..at].trim_end_matches([';', ',', ' ']))
}
