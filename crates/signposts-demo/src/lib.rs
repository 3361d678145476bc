//! The demo's crate: its binary is the demo (`cargo run --release -p signposts-demo`), and
//! its library holds no code, only the repository's READMEs, so that their Rust examples run
//! as this crate's doctests (`cargo test -p signposts-demo --doc`, part of
//! `cargo test --workspace`).
//!
//! The examples read Moving AI maps as `maps/NAME.map`, a path from the repository root, as
//! a user's program run there would. Doctests run in this crate's folder, so it holds `maps`,
//! a symbolic link to `../../maps`.
//!
//! The crate is not published (`publish = false`): it exists so that the published crates do
//! not depend on each other only to test their READMEs.

/// The repository's README.md: a graph, a Moving AI map, rooms.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct Readme;

/// crates/signposts/README.md, the core's page on crates.io.
#[cfg(doctest)]
#[doc = include_str!("../../signposts/README.md")]
struct CoreReadme;

/// crates/signposts-rooms/README.md, the rooms crate's page on crates.io.
#[cfg(doctest)]
#[doc = include_str!("../../signposts-rooms/README.md")]
struct RoomsReadme;

/// crates/signposts-crowd/README.md, the crowd crate's page on crates.io.
#[cfg(doctest)]
#[doc = include_str!("../../signposts-crowd/README.md")]
struct CrowdReadme;
