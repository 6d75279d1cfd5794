//! Shared checks for component data files: every item names where it comes from.

use crate::error::SetupError;

/// The provenance classes a data item may carry: from the published components (`read`,
/// `original`), the rulebook, deduced (`inferred`, `derived`), invented to fill a gap
/// (`placeholder`, `reconstructed`).
pub const CLASSES: [&str; 7] = ["read", "original", "rulebook", "inferred", "placeholder", "reconstructed", "derived"];

/// An invalid-data setup error.
pub fn bad(msg: impl Into<String>) -> SetupError {
    SetupError::InvalidData(msg.into())
}

/// Checks that `p` is a known provenance class.
pub fn check(p: &str, what: &str) -> Result<(), SetupError> {
    if CLASSES.contains(&p) {
        Ok(())
    } else {
        Err(bad(format!("{what}: unknown provenance {}", crate::input::quote(p))))
    }
}
