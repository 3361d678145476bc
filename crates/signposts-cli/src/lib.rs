//! `signposts`: build, query, check and render exact next-hop oracles of Moving AI maps.
//!
//! ```text
//! signposts build maps/arena.map --diagonal -o arena.sp
//! signposts query arena.sp 1 11 40 30
//! signposts scen maps/arena.map.scen
//! signposts scen maps/arena.map.scen --astar
//! signposts chase maps/den312d.map --diagonal -o chase.gif
//! signposts render maps/arena.map --diagonal --path 1 11 40 30 -o arena.png
//! ```
//!
//! Every command prints readable text, or one JSON object with `--json`. Errors are one line on
//! standard error and a non-zero exit.
//!
//! The command is this library's [`Cli`] (parsed by clap) and [`run`]; `src/main.rs` only
//! calls them. The library exists so that the argument parsing and the size checks that
//! guard allocation ([`limits`]) can be tested and fuzzed without a process; it is not a
//! stable API.
//!
//! Each command is one module of `commands/` (its arguments and its `run`); what several
//! share has its own file: the command line (`cli.rs`), reading maps (`input.rs`), building
//! and opening oracles with the build flags (`oracle.rs`), navigation meshes (`navmesh.rs`),
//! output (`output.rs`) and the size limits ([`limits`]).

use anyhow::Result;

#[macro_use]
mod output;

mod cli;
mod commands;
mod input;
pub mod limits;
mod navmesh;
mod oracle;

pub use cli::Cli;
use cli::Command;
use commands::{build, chase, merge, query, render, rooms, rooms_query, scen};

/// Runs one parsed command line.
///
/// # Errors
/// Whatever the command met: an unreadable or malformed file, a size over a limit, a table
/// that cannot be built or saved; the message names the file or the flag.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Build(args) => build::run(&args),
        Command::Merge(args) => merge::run(&args),
        Command::Query(args) => query::run(&args),
        Command::Scen(args) => scen::run(&args),
        Command::Render(args) => render::run(&args),
        Command::Chase(args) => chase::run(&args),
        Command::Rooms(args) => rooms::run(&args),
        Command::RoomsQuery(args) => rooms_query::run(&args),
    }
}
