//! The `signposts` command: everything is in the library (`signposts_cli`), so that its
//! argument parsing and size checks can be tested and fuzzed without a process.

use clap::Parser as _;

fn main() {
    if let Err(e) = signposts_cli::run(signposts_cli::Cli::parse()) {
        eprintln!("signposts: {e:#}");
        std::process::exit(1);
    }
}
