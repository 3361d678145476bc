//! The rooms crate's integration tests, in one binary (one link instead of one per file).
//!
//! Proptest keeps the failures it finds in `tests/proptest-regressions/<module>.txt`: its
//! default rule walks up from a module's source file to the folder holding `main.rs`
//! (`tests/it`) and writes beside that folder. Seeds saved there are replayed first.

mod common;

mod areas;
mod build;
mod exact;
mod exact_doors;
mod exact_io;
mod exact_links;
mod io;
mod links;
mod polygons;
mod radius;
mod regions;
mod rooms;
mod scale;
mod validation;
