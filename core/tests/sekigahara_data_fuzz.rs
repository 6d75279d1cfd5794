//! Random Sekigahara data files: whatever the validator accepts must give games that end
//! (tracker 7, item 5). See support/data_fuzz.rs.

#[path = "support/data_fuzz.rs"]
mod data_fuzz;

use kassen_core::games::sekigahara::data::EMBEDDED;
use serde_json::json;

#[test]
fn data_fuzz_every_accepted_file_gives_games_that_end() {
    let tally = data_fuzz::run("sekigahara", EMBEDDED, 200, &[json!({})], |_, _| {});
    eprintln!("{tally:?}");
    assert!(tally.accepted > 20 && tally.rejected > 20, "{tally:?}");
}

/// Found by the fuzz test: 255 blocks due in a week overflowed the blocks due (u8).
#[test]
fn a_recruitment_row_beyond_the_supported_range_is_rejected() {
    let mut v: serde_json::Value = serde_json::from_str(EMBEDDED).unwrap();
    v["recruitment_row"]["weeks"][1] = json!(255);
    let err = kassen_core::load_game("sekigahara", Some(&json!({ "data": v }))).unwrap_err();
    assert_eq!(err.code(), kassen_core::ErrorCode::InvalidData);
    assert!(err.to_string().contains("recruitment_row.weeks[1]"), "{err}");
}
