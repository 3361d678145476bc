//! `signposts scen`: every line of a Moving AI `.scen` file checked against the oracle of its
//! map (built, or saved with `--oracle`), or against one A* search a line (`--astar`).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use serde_json::json;
use signposts::grid::{Connectivity, GridOracle, Scenario, ScenarioCheck, TableKind, parse_scenarios};
use signposts::search::{Layer, Searcher, TileGrid};

use crate::input::{FileKind, expect_kind, read_capped, read_map};
use crate::oracle::{Making, build_oracle, choose_table, connectivity, open_saved};
use crate::output::decimal;

/// Arguments of `signposts scen`.
#[derive(Args)]
#[command(
    mut_arg("diagonal", |a| a.help(
        "Check octile lengths (diagonals √2, no corner cutting): the default, the rule Moving AI's \
         lengths are printed by"
    )),
    mut_arg("four", |a| a.help(
        "Check 4-connected lengths: lines whose shortest path turns diagonally differ from the \
         printed octile lengths"
    ))
)]
pub(crate) struct ScenArgs {
    /// The Moving AI `.scen` file.
    scen: PathBuf,
    /// The `.map` file; by default the one the scenarios name, next to the `.scen` file.
    #[arg(long)]
    map: Option<PathBuf>,
    /// Check with this saved oracle (from `signposts build` or `signposts merge`) instead of
    /// building one.
    #[arg(long, conflicts_with = "astar")]
    oracle: Option<PathBuf>,
    /// Answer each line with one A* search instead of an oracle (no table is built).
    #[arg(long)]
    astar: bool,
    #[command(flatten)]
    making: Making,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs `signposts scen`; exits with 2 when a line mismatched.
pub(crate) fn run(args: &ScenArgs) -> Result<()> {
    // Octile unless 4-connected moves are asked for: Moving AI lengths are octile.
    let making = Making { diagonal: !args.making.four, ..args.making.clone() };
    expect_kind(&args.scen, &[FileKind::Scen], "a Moving AI scenario file")?;
    let bytes = read_capped(&args.scen)?;
    let scenarios = parse_scenarios(&bytes).with_context(|| format!("{}", args.scen.display()))?;
    let map_path = if let Some(p) = &args.map {
        p.clone()
    } else {
        let Some(first) = scenarios.first() else { bail!("{} has no scenarios", args.scen.display()) };
        args.scen.with_file_name(first.map_name())
    };
    let grid = read_map(&map_path)?;
    // Lines naming another map than the file's first line are reported, not checked.
    let (scenarios, foreign) = lines_of_one_map(scenarios);
    // Lines that cannot be valid on this map are found from the grid alone.
    let mut invalid: Vec<(usize, String)> = foreign.clone();
    invalid.extend(scenarios.iter().filter_map(|s| Some((s.line, s.problem(&grid)?))));
    invalid.sort_unstable_by_key(|&(line, _)| line);
    let lines = scenarios.len() + foreign.len();
    if args.astar {
        let tiles = TileGrid::from_grid(&grid);
        let mut searcher = Searcher::new();
        let connectivity = connectivity(&making);
        let start = Instant::now();
        let mut check = ScenarioCheck::run_lengths(&grid, &scenarios, |a, b| {
            let route = searcher.astar(&tiles, Layer::WALKABLE, connectivity, a, b).ok()?;
            route.cost().map(signposts::Cost::value)
        });
        let per_query_ns = start.elapsed().as_secs_f64() * 1e9 / scenarios.len().max(1) as f64;
        add_invalid(&mut check, foreign);
        report_check(args, &map_path, lines, &check, per_query_ns, "astar", connectivity);
        return Ok(());
    }
    let oracle = if let Some(saved) = &args.oracle {
        open_saved(saved, true)?
    } else {
        // Sized only for a dense table: building the graph to size it costs gigabytes on a
        // map that gets the compressed one.
        let dense = choose_table(&grid, &making).0 == TableKind::Dense;
        let needed = if dense { GridOracle::memory_needed(&grid, connectivity(&making)) } else { 0 };
        if needed > making.memory_limit {
            let reason = format!(
                "the oracle of {} needs {needed} bytes, over the memory limit of {} (raise --memory-limit)",
                map_path.display(),
                making.memory_limit
            );
            if args.json {
                out!(
                    "{}",
                    json!({
                        "scen": args.scen.display().to_string(),
                        "checked": false,
                        "reason": reason,
                        "lines": lines,
                        "invalid": invalid.iter().map(|(l, r)| json!({"line": l, "reason": r})).collect::<Vec<_>>(),
                    })
                );
            } else {
                for (line, why) in &invalid {
                    out!("  line {line}: invalid on this map: {why}");
                }
            }
            bail!(reason);
        }
        build_oracle(&grid, &making, args.json)?.oracle
    };
    if oracle.grid() != &grid {
        bail!("the saved oracle belongs to another map than {}", map_path.display());
    }
    if oracle.connectivity() != connectivity(&making) {
        bail!(
            "the saved oracle has {} moves but the scenarios are checked with {} moves: {}",
            moves_name(oracle.connectivity()),
            moves_name(connectivity(&making)),
            if args.making.four {
                "drop --four to check the octile lengths Moving AI prints"
            } else {
                "Moving AI lengths are octile; build the table with --diagonal, or pass --four to check 4-connected lengths"
            }
        );
    }
    let start = Instant::now();
    let mut check = ScenarioCheck::run(&oracle, &scenarios);
    let per_query_ns = start.elapsed().as_secs_f64() * 1e9 / scenarios.len().max(1) as f64;
    add_invalid(&mut check, foreign);
    report_check(args, &map_path, lines, &check, per_query_ns, "oracle", connectivity(&making));
    Ok(())
}

/// Splits off the lines naming another map (by file name) than the first line does, each with
/// the reason it is not checked.
fn lines_of_one_map(scenarios: Vec<Scenario>) -> (Vec<Scenario>, Vec<(usize, String)>) {
    let Some(first) = scenarios.first().map(|s| s.map_name().to_string()) else {
        return (scenarios, Vec::new());
    };
    let (same, other): (Vec<Scenario>, Vec<Scenario>) =
        scenarios.into_iter().partition(|s| s.map_name() == first);
    let reasons = other
        .iter()
        .map(|s| {
            (s.line, format!("names the map {}, not {first} as the file's first line does", s.map_name()))
        })
        .collect();
    (same, reasons)
}

/// Adds lines found invalid before checking to `check`, keeping its lines in order.
fn add_invalid(check: &mut ScenarioCheck, invalid: Vec<(usize, String)>) {
    check.invalid.extend(invalid);
    check.invalid.sort_unstable_by_key(|&(line, _)| line);
}

/// `"octile"` or `"4-connected"`.
fn moves_name(connectivity: Connectivity) -> &'static str {
    match connectivity {
        Connectivity::Eight => "octile",
        Connectivity::Four => "4-connected",
        Connectivity::EightUnit => "8-connected with unit-cost diagonals",
    }
}

/// How far the mismatched lines are from their printed lengths.
struct MismatchGap {
    /// The largest difference of a mismatched line with a path, or `None` when there is none.
    max: Option<f64>,
    /// Mismatched lines with no path at all (the difference is infinite).
    unreachable: usize,
}

impl MismatchGap {
    fn of(check: &ScenarioCheck) -> MismatchGap {
        let gaps =
            check.mismatched.iter().filter_map(|&(_, printed, computed)| Some((computed? - printed).abs()));
        MismatchGap {
            max: gaps.reduce(f64::max),
            unreachable: check.mismatched.iter().filter(|m| m.2.is_none()).count(),
        }
    }
}

/// Prints a scenario check (text or JSON) and exits with 2 when a line mismatched.
fn report_check(
    args: &ScenArgs,
    map_path: &Path,
    lines: usize,
    check: &ScenarioCheck,
    per_query_ns: f64,
    method: &str,
    moves: Connectivity,
) {
    let ok = check.mismatched.is_empty();
    let gap = MismatchGap::of(check);
    if args.json {
        out!(
            "{}",
            json!({
                "scen": args.scen.display().to_string(),
                "map": map_path.display().to_string(),
                "method": method,
                "moves": moves_name(moves),
                "checked": true,
                "lines": lines,
                "matched": check.matched,
                "mismatched": check.mismatched.iter().map(|&(l, p, c)| json!({"line": l, "printed": p, "computed": c})).collect::<Vec<_>>(),
                "invalid": check.invalid.iter().map(|(l, r)| json!({"line": l, "reason": r})).collect::<Vec<_>>(),
                "max_error": check.max_error,
                "max_mismatch": gap.max,
                "unreachable_mismatches": gap.unreachable,
                "ns_per_query": per_query_ns,
            })
        );
    } else {
        let how = if method == "astar" { "one A* search each" } else { "oracle, path walk included" };
        out!(
            "moves: {}",
            match moves {
                Connectivity::Eight =>
                    "octile (diagonals √2, no corner cutting), the rule Moving AI's lengths are printed by",
                Connectivity::Four =>
                    "4-connected (asked for with --four): lines whose shortest path turns diagonally differ from the printed octile lengths",
                Connectivity::EightUnit =>
                    "8-connected with unit-cost diagonals, not the printed octile lengths",
            }
        );
        out!(
            "{}: {} lines, {} matched, {} mismatched, {} invalid; {:.0} ns per scenario ({how})",
            args.scen.display(),
            lines,
            check.matched,
            check.mismatched.len(),
            check.invalid.len(),
            per_query_ns
        );
        out!("  matched lines agree with the printed lengths to within {:.2e} (rounding)", check.max_error);
        if let Some(max) = gap.max {
            out!("  mismatched lines differ from the printed lengths by up to {}", decimal(max));
        }
        if gap.unreachable > 0 {
            out!("  {} mismatched lines have no path at all with these moves", gap.unreachable);
        }
        for (line, reason) in &check.invalid {
            out!("  line {line}: invalid on this map: {reason}");
        }
        for &(line, printed, computed) in &check.mismatched {
            let computed = computed.map_or_else(|| "no path (unreachable)".into(), decimal);
            out!("  line {line}: printed {}, computed {computed}", decimal(printed));
        }
    }
    if !ok {
        std::process::exit(2);
    }
}
