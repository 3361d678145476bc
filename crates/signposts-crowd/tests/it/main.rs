//! The crate's integration tests, one binary.
mod agents;
mod grid;
