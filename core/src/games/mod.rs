//! One folder per game.

pub mod samurai;
