//! One module per command: its arguments (a clap `Args` struct) and its `run`.

pub(crate) mod build;
pub(crate) mod chase;
pub(crate) mod merge;
pub(crate) mod query;
pub(crate) mod render;
pub(crate) mod rooms;
pub(crate) mod rooms_query;
pub(crate) mod scen;
