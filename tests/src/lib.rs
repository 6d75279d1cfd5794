//! Shared helpers of the cross-surface tests.
