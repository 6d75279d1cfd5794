//! Checks of the information-state key ([`crate::DynState::info_state_hash`]): it changes at
//! a step exactly when the observer sees something new (an event or another player to act),
//! it is the same for a determinization of the observer and after a save and load (the
//! incremental fold equals a fold from scratch), and no two observers share one.

use crate::engine::StateHandle;
use crate::game::{Player, SPECTATOR};

use super::ensure;

/// What one observer knew at one state: its key, its number of events, the player to act.
#[derive(Clone, Copy, Debug)]
pub struct Seen {
    key: u64,
    events: usize,
    to_act: Player,
}

/// The keys of every observer (spectator first), checked against the step before (`prev`).
pub fn check_step(s: &StateHandle, players: i32, prev: &[Seen]) -> Result<Vec<Seen>, String> {
    let mut now = Vec::new();
    for p in SPECTATOR..players {
        let key = s.info_state_hash(p).map_err(|e| e.to_string())?;
        ensure(s.info_state_hash(p) == Ok(key), || format!("seat {p}: a repeated query changed the key"))?;
        let before = prev.get((p + 1) as usize);
        let new_events = s.events_since(p, before.map_or(0, |b| b.events)).map_err(|e| e.to_string())?.len();
        let seen = Seen { key, events: before.map_or(0, |b| b.events) + new_events, to_act: s.current_player() };
        if let Some(b) = before {
            let same = new_events == 0 && b.to_act == seen.to_act;
            ensure(same == (b.key == key), || {
                format!(
                    "seat {p}: key {} but {new_events} new events and player to act {} -> {}",
                    if same { "changed" } else { "kept" },
                    b.to_act,
                    seen.to_act
                )
            })?;
        }
        now.push(seen);
    }
    let mut keys: Vec<u64> = now.iter().map(|x| x.key).collect();
    keys.sort_unstable();
    ensure(keys.windows(2).all(|w| w[0] != w[1]), || "two observers share an information-state key".into())?;
    Ok(now)
}

/// `other` (a determinization for `p`, or a reload) gives `p` the same key as `s`.
pub fn check_same_key(s: &StateHandle, other: &StateHandle, p: Player, what: &str) -> Result<(), String> {
    let (a, b) = (s.info_state_hash(p).map_err(|e| e.to_string())?, other.info_state_hash(p).map_err(|e| e.to_string())?);
    ensure(a == b, || format!("seat {p}: the information-state key differs in {what}"))?;
    let (a, b) = (s.info_state_string(p).map_err(|e| e.to_string())?, other.info_state_string(p).map_err(|e| e.to_string())?);
    ensure(a == b, || format!("seat {p}: the information-state string differs in {what}"))
}
