//! One folder per game.

pub mod samurai;
pub mod sekigahara;
