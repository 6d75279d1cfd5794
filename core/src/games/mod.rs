//! One folder per game.

pub mod provenance;
pub mod samurai;
pub mod sekigahara;
pub mod sekigahara_daisakusen;
