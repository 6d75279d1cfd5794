//! Rule tests for Three Kingdoms Redux, named after the rulebook sections (§) and the data's
//! clarifications (C) / the game's interpretations (T, RULES_NOTES.md);
//! docs/rules/three_kingdoms_redux.md lists them section by section.

mod bidding;
mod clarifications;
mod common;
mod conformance;
mod data_switches;
mod deck_bottom;
mod declining;
mod effects;
mod resolution;
mod setup;
mod trades;
mod upkeep_end;
