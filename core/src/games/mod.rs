//! One folder per game.

pub mod provenance;
pub mod samurai;
pub mod sekigahara;
pub mod sekigahara_daisakusen;
pub mod three_kingdoms_redux;
