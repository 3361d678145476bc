//! Crowds for signposts: many agents following the table's optimal moves without piling into
//! one another.
//!
//! - [`grid`]: walkers that step cell by cell (the core's [`signposts::Crowd`] with room for
//!   them): each cell holds at most a set number of walkers; a walker takes the least occupied
//!   of its tied optimal moves, waits when all are full, and may sidestep after waiting.
//! - [`agents`]: continuous agents (a position, a radius, a top speed) heading for their next
//!   waypoint, kept apart and off the walls by reciprocal velocity obstacles (ORCA).
//!
//! Both are deterministic: the same inputs give the same positions bit for bit, run after run
//! and for any thread count.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod agents;
pub mod grid;
