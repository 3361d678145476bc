//! The command line as clap parses it: [`Cli`], its subcommands (each one's arguments live
//! beside its `run` in `commands/`), and the parser of byte counts that several flags share.

use std::num::NonZero;

use clap::{Args, Parser, Subcommand};
use signposts::BuildOptions;

use crate::commands::build::BuildArgs;
use crate::commands::chase::ChaseArgs;
use crate::commands::merge::MergeArgs;
use crate::commands::query::QueryArgs;
use crate::commands::render::RenderArgs;
use crate::commands::rooms::RoomsArgs;
use crate::commands::rooms_query::RoomsQueryArgs;
use crate::commands::scen::ScenArgs;

/// Exact all-pairs next-hop oracles for grid maps.
#[derive(Parser)]
#[command(name = "signposts", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Build the oracle of a Moving AI `.map` and save it, for `query` and `scen --oracle` (or,
    /// with `--shard I/K`, one shard of its compressed table, for `merge`).
    Build(BuildArgs),
    /// Join the parts of a sharded build (`build --shard I/K`, every I of one K, any order)
    /// into the table one build would save, byte for byte.
    Merge(MergeArgs),
    /// Ask a saved oracle (from `build` or `merge`) for the way from one cell to another.
    Query(QueryArgs),
    /// Check every line of a Moving AI `.scen` file against the oracle of its map (or one A*
    /// search a line).
    Scen(ScenArgs),
    /// Draw a map, a shortest path, or the flow field toward a goal, as PNG (with `--rooms`, a
    /// navigation mesh and a path between two points).
    Render(RenderArgs),
    /// Let enemies chase a walking player across a map, a door closing and opening, and write
    /// the chase as an animated GIF, with each tick's cost beside A* and a flow field.
    Chase(ChaseArgs),
    /// Build the navigation mesh (convex regions and doors) of a map or a polygon file, and its
    /// region oracle, and save them, for `rooms-query` and `render --rooms`.
    Rooms(RoomsArgs),
    /// Ask saved rooms (from `rooms`) for the path between two points.
    RoomsQuery(RoomsQueryArgs),
}

/// `--threads N`: the flag of every command that builds a table, rooms or an exact index.
#[derive(Args, Clone, Copy)]
pub(crate) struct Threads {
    /// Build on N worker threads (default: every core); what is built is the same for every N.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_THREADS)))]
    threads: Option<u16>,
}

/// The largest `--threads`.
pub(crate) const MAX_THREADS: u16 = 1024;

impl Threads {
    /// The threads asked for, or every core.
    pub(crate) fn count(self) -> usize {
        self.threads.map_or_else(|| std::thread::available_parallelism().map_or(1, NonZero::get), usize::from)
    }

    /// Sets `options` to these threads (leaves them on every core by default).
    pub(crate) fn apply<'o, 'a>(self, options: &'o mut BuildOptions<'a>) -> &'o mut BuildOptions<'a> {
        if let Some(threads) = self.threads {
            options.threads(usize::from(threads));
        }
        options
    }
}

/// `"8G"`, `"512M"`, `"1000"`, `"1KiB"` → bytes: digits, then nothing or one unit of `K`,
/// `M`, `G`, `T` (powers of 1024), each alone or followed by `B` or `iB`, any case.
pub(crate) fn parse_bytes(text: &str) -> Result<u64, String> {
    let (digits, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => text.split_at(i),
        None => (text, ""),
    };
    let value: u64 = digits.parse().map_err(|_| format!("`{text}` is not a byte count"))?;
    let unit = unit.to_ascii_uppercase();
    let prefix = unit.strip_suffix("IB").or_else(|| unit.strip_suffix('B')).unwrap_or(&unit);
    let shift = match (prefix, unit.as_str()) {
        (_, "" | "B") => 0,
        ("K", _) => 10,
        ("M", _) => 20,
        ("G", _) => 30,
        ("T", _) => 40,
        _ => return Err(format!("unknown unit in `{text}` (use K, M, G or T, alone or with B or iB)")),
    };
    value.checked_mul(1 << shift).ok_or_else(|| format!("`{text}` is too large"))
}

#[cfg(test)]
mod tests {
    use clap::Parser as _;

    use super::{Cli, parse_bytes};

    /// Whether `line` (after `signposts`) parses.
    fn parses(line: &str) -> bool {
        Cli::try_parse_from(std::iter::once("signposts").chain(line.split_whitespace())).is_ok()
    }

    /// Each command that builds a table, as the shortest line it takes.
    const BUILDERS: [&str; 4] =
        ["build m.map -o m.sp", "scen m.scen", "render m.map -o m.png", "chase m.map -o c.gif"];

    #[test]
    fn byte_counts_read_with_units() {
        assert_eq!(parse_bytes("1000"), Ok(1000));
        assert_eq!(parse_bytes("8G"), Ok(8 << 30));
        assert_eq!(parse_bytes("512MiB"), Ok(512 << 20));
        assert!(parse_bytes("12Q").is_err());
        assert!(parse_bytes("x").is_err());
        assert_eq!(parse_bytes("1kb"), Ok(1 << 10));
        assert_eq!(parse_bytes("2Tib"), Ok(2 << 40));
        assert_eq!(parse_bytes("7B"), Ok(7));
    }

    #[test]
    fn byte_counts_refuse_repeated_or_stray_unit_letters() {
        // `1KiBBBiii` was read as 1 KiB: the unit's trailing B and I were trimmed as often as found.
        for text in ["1KiBBBiii", "1KBB", "1KiBB", "1I", "1IB", "1Ki", "1KBi", "1 K", "1K ", "1KK"] {
            assert!(parse_bytes(text).is_err(), "{text} was accepted");
        }
    }

    #[test]
    fn every_command_that_builds_takes_the_same_move_flags() {
        for line in BUILDERS {
            for flags in
                ["", "--diagonal", "--four", "--memory-limit 1G", "--dense", "--compressed", "--threads 2"]
            {
                assert!(parses(&format!("{line} {flags}")), "{line} {flags}");
            }
            assert!(!parses(&format!("{line} --four --diagonal")), "{line}: --four with --diagonal");
            assert!(!parses(&format!("{line} --dense --compressed")), "{line}: --dense with --compressed");
        }
    }

    #[test]
    fn threads_are_bounded_and_shards_stay_on_the_cpu() {
        assert!(parses("build m.map -o m.sp --threads 1024"));
        assert!(!parses("build m.map -o m.sp --threads 0"));
        assert!(!parses("build m.map -o m.sp --threads 1025"));
        assert!(parses("build m.map --shard 0/4 -o p --threads 3"));
        assert!(parses("build m.map --plan 4,16 --threads 3"));
        assert!(!parses("build m.map --shard 0/4 -o p --gpu"));
        assert!(!parses("build m.map --plan 4,16 --gpu"));
        assert!(parses("rooms m.map -o r --threads 2"));
        assert!(parses("rooms-query r 1 2 3 4 --exact --threads 2"));
        assert!(parses("render m.map --rooms --points 1 2 3 4 --exact --threads 2 -o m.png"));
    }

    #[test]
    fn every_command_prints_json_on_request() {
        let lines = [
            "merge a.part -o m.sp",
            "query m.sp 1 2 3 4",
            "rooms m.map -o m.rooms",
            "rooms-query m.rooms 1 2 3 4",
            "render m.map --rooms -o m.png",
        ];
        for line in BUILDERS.iter().chain(&lines) {
            assert!(parses(&format!("{line} --json")), "{line} --json");
        }
    }

    #[test]
    fn every_exact_index_takes_a_budget() {
        assert!(parses("rooms m.map -o r --exact --exact-budget 1G"));
        assert!(parses("rooms-query r 1 2 3 4 --exact --exact-budget 1G"));
        assert!(parses("render m.map --rooms --points 1 2 3 4 --exact --exact-budget 1G -o m.png"));
        // Without `--exact` there is no index to budget.
        assert!(!parses("render m.map --rooms --points 1 2 3 4 --exact-budget 1G -o m.png"));
        assert!(!parses("rooms-query r 1 2 3 4 --exact-budget 1G"));
    }
}
