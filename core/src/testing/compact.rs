//! Checks of the compact observation ([`crate::compact`]):
//! - it has the declared length and every value lies in its field's range;
//! - it is secret: a determinization for a seat gives that seat the same bytes (so they tell
//!   nothing the seat cannot know);
//! - it is complete: two states whose views differ for a seat give it different bytes, over
//!   every state of every game of a conformance run ([`Complete`]) and between the near
//!   states of one-action variants (`variants.rs`).
//!
//! What "the view" means here: the view envelope without its `last_action` (the last action
//! is history, and the compact observation, like the float tensor, encodes the position a
//! seat sees, not how it came about; the perfect-recall information-state key covers the
//! history).

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use crate::engine::{StableHasher, StateHandle};
use crate::game::{Player, SPECTATOR};

use super::ensure;

/// The view `observer` has of `s` as far as the compact observation must tell it: the envelope
/// without `last_action`, as JSON text.
pub fn view_key(s: &StateHandle, observer: Player) -> Result<String, String> {
    let mut v = s.view(observer).map_err(|e| e.to_string())?;
    if let Some(m) = v.as_object_mut() {
        m.remove("last_action");
    }
    Ok(v.to_string())
}

/// The compact observation of `observer`, checked against the layout.
pub fn observation(s: &StateHandle, observer: Player) -> Result<Vec<u8>, String> {
    let game = s.game();
    let info = game.info();
    let obs = s.compact_observation(observer).map_err(|e| e.to_string())?;
    ensure(obs.len() == info.compact_len(), || format!("compact observation of {} bytes, not {}", obs.len(), info.compact_len()))?;
    crate::compact::check_values(&info.compact_layout, &obs).map_err(|e| format!("observer {observer}: {e}"))?;
    Ok(obs)
}

fn hash(x: impl Hash) -> u64 {
    let mut h = StableHasher::default();
    x.hash(&mut h);
    h.finish()
}

/// Completeness over many states: every (observer, compact observation) seen, with a hash of
/// the view it stood for and the step it was seen at.
#[derive(Default)]
pub struct Complete {
    seen: HashMap<(Player, u64), (u64, usize)>,
}

impl Complete {
    /// Records the compact observation of every observer of `s` (spectator first); fails when
    /// one recorded before stood for another view.
    pub fn check(&mut self, s: &StateHandle, players: i32, step: usize) -> Result<(), String> {
        for p in SPECTATOR..players {
            let obs = observation(s, p)?;
            let view = view_key(s, p)?;
            let told = hash(&view);
            if let Some(&(before, at)) = self.seen.get(&(p, hash(&obs))) {
                ensure(before == told, || {
                    format!(
                        "seat {p}: the state at step {step} has the compact observation of the one at step {at}, but another \
                         view (the compact observation is incomplete); the view now: {view}"
                    )
                })?;
            } else {
                self.seen.insert((p, hash(&obs)), (told, step));
            }
        }
        Ok(())
    }
}

/// A determinization of `s` for `observer` gives it the same compact observation.
pub fn check_twin(s: &StateHandle, observer: Player, seed: u64) -> Result<(), String> {
    let twin = s.determinize(observer, seed).map_err(|e| e.to_string())?;
    let (a, b) = (observation(s, observer)?, observation(&twin, observer)?);
    let field = || {
        let game = s.game();
        let layout = &game.info().compact_layout;
        let at = (0..a.len()).find(|&i| a[i] != b[i]).unwrap_or(0);
        layout.iter().find(|f| (f.offset..f.offset + f.bytes).contains(&at)).map_or(String::new(), |f| f.name.clone())
    };
    ensure(a == b, || format!("seat {observer}: a determinization for it changes its compact observation (field {})", field()))
}

/// Two states: where their views for an observer differ, so do the compact observations.
pub fn check_apart(a: &StateHandle, b: &StateHandle, players: i32) -> Result<(), String> {
    for p in SPECTATOR..players {
        let (va, vb) = (view_key(a, p)?, view_key(b, p)?);
        if va != vb {
            ensure(observation(a, p)? != observation(b, p)?, || {
                format!("seat {p}: two views give the same compact observation:\n{va}\n{vb}")
            })?;
        }
    }
    Ok(())
}
