//! The shared conformance suite, usable by every game and by downstream users.
