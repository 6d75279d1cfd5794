//! One folder per game.


