//! Samurai's config parsing.

use serde_json::json;

use super::Samurai;
use crate::error::SetupError;
use crate::game::Game;

/// `players` is an integer: `2.0` is refused like any non-integer (issue 37.7), an integer
/// outside 2-4 is out of range.
#[test]
fn players_must_be_an_integer() {
    for bad in [json!(2.0), json!(3.5), json!("2"), json!(true)] {
        let config = json!({ "players": bad });
        assert!(matches!(Samurai::setup(config.as_object().unwrap()), Err(SetupError::InvalidConfig(_))), "{bad}");
    }
    for out in [json!(1), json!(5), json!(-2), json!(u64::MAX)] {
        let config = json!({ "players": out });
        assert!(matches!(Samurai::setup(config.as_object().unwrap()), Err(SetupError::OutOfRange(_))), "{out}");
    }
    assert!(Samurai::setup(json!({"players": 4}).as_object().unwrap()).is_ok());
}

/// A replacement component file's unknown name is quoted cut short, not in full (issue 37.7).
#[test]
fn a_huge_unknown_name_in_the_data_gives_a_short_message() {
    let mut data: serde_json::Value = serde_json::from_str(super::data::EMBEDDED).unwrap();
    let huge = "x".repeat(1 << 20);
    data["board"]["hexes"][0]["kind"] = json!(huge);
    let Err(err) = Samurai::setup(json!({ "data": data }).as_object().unwrap()) else { panic!("an unknown kind is refused") };
    let text = err.to_string();
    assert!(text.contains("unknown kind \"xxx") && text.len() < 400, "{}", text.len());
}
