//! The chase's figures: kept per tick, summed up, printed as text or one JSON object.

use std::fmt::Write as _;

use serde_json::json;
use signposts::grid::Cell;

use super::ChaseArgs;
use super::enemies::AvoidStats;
use super::peers::ASTAR_SAMPLE;

/// One tick's measurements.
#[derive(Debug, Clone, Default)]
pub struct Tick {
    /// Nanoseconds for every enemy's step by the table (one batched query).
    pub table_ns: f64,
    /// On measured ticks, from the same positions toward the same player: nanoseconds for one
    /// A* search per enemy, and for one flow field read by every enemy.
    pub peers_ns: Option<(f64, f64)>,
    /// The door's change this tick: closed (true) or opened (false), the repair's
    /// nanoseconds, and the open cells whose cost to the player it changed.
    pub door: Option<(bool, f64, usize)>,
    /// Enemies that reached the player this tick.
    pub caught: usize,
    /// Where the player stood after its move.
    pub player: Cell,
}

/// The whole run's figures.
pub struct Report {
    pub ticks: Vec<Tick>,
    pub table: &'static str,
    pub why: String,
    pub build_s: f64,
    pub door: Option<Cell>,
    pub door_note: String,
    /// What closing the door does to sampled routes.
    pub door_effect: Option<super::door::Effect>,
    pub checked: usize,
    pub frames: usize,
    pub gif_bytes: usize,
    pub scale: u32,
    /// With `--avoid`: what the walkers did.
    pub avoid: Option<AvoidStats>,
    /// The distinct cells the enemies stood on, on average over the spawn and every tick.
    pub occupied_mean: f64,
}

/// Median and mean of the measured values, in milliseconds (zeros when there are none).
fn summary_ms(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let mut all: Vec<f64> = values.map(|ns| ns / 1e6).collect();
    if all.is_empty() {
        return (0.0, 0.0);
    }
    all.sort_by(f64::total_cmp);
    (all[all.len() / 2], all.iter().sum::<f64>() / all.len() as f64)
}

/// The run's figures summed up: (median, mean) milliseconds a tick.
struct Summary {
    /// The table's step on every tick.
    table: (f64, f64),
    /// On the measured ticks only: the table, one A* per enemy, one flow field.
    measured: [(f64, f64); 3],
    repairs: usize,
    repair: (f64, f64),
    repair_max: f64,
    caught: usize,
}

impl Summary {
    fn of(r: &Report) -> Summary {
        let repairs: Vec<f64> = r.ticks.iter().filter_map(|t| t.door).map(|(_, ns, _)| ns).collect();
        let measured: Vec<(f64, f64, f64)> =
            r.ticks.iter().filter_map(|t| t.peers_ns.map(|(a, f)| (t.table_ns, a, f))).collect();
        Summary {
            table: summary_ms(r.ticks.iter().map(|t| t.table_ns)),
            measured: [
                summary_ms(measured.iter().map(|m| m.0)),
                summary_ms(measured.iter().map(|m| m.1)),
                summary_ms(measured.iter().map(|m| m.2)),
            ],
            repairs: repairs.len(),
            repair: summary_ms(repairs.iter().copied()),
            repair_max: repairs.iter().copied().fold(0.0, f64::max) / 1e6,
            caught: r.ticks.iter().map(|t| t.caught).sum(),
        }
    }

    /// How many times the table's step the peer's costs, on the measured ticks (medians).
    fn times(&self, peer: usize) -> f64 {
        self.measured[peer].0 / self.measured[0].0.max(1e-9)
    }
}

pub fn print(args: &ChaseArgs, r: &Report) {
    let sum = Summary::of(r);
    if args.json {
        print_json(args, r, &sum);
    } else {
        print_text(args, r, &sum);
    }
}

fn print_json(args: &ChaseArgs, r: &Report, sum: &Summary) {
    let pair = |(median, mean): (f64, f64)| json!({ "median": median, "mean": mean });
    let [table, astar, field] = sum.measured;
    let mut report = json!({
            "map": args.map.display().to_string(),
            "output": args.output.display().to_string(),
            "connectivity": if args.making.diagonal { 8 } else { 4 },
            "table": r.table,
            "why": r.why,
            "build_seconds": r.build_s,
            "enemies": args.enemies,
            "ticks": args.ticks,
            "seed": args.seed,
            "door": r.door.map(|c| [c.x, c.y]),
            "door_note": r.door_note,
            "door_effect": r.door_effect.map(|e| json!({
                "routes": e.routes, "lengthened": e.lengthened, "cut": e.cut, "longer_percent": e.longer_percent,
            })),
            "caught": sum.caught,
            "checked_against_peers": r.checked,
            "astar_sample": ASTAR_SAMPLE,
            "frames": r.frames,
            "gif_bytes": r.gif_bytes,
            "scale": r.scale,
            "table_ms_per_tick": pair(sum.table),
            "measured_ticks_ms": {
                "table": pair(table),
                "astar_all_enemies": pair(astar),
                "flow_field": pair(field),
            },
            "door_repairs": {
                "count": sum.repairs,
                "median_ms": sum.repair.0,
                "mean_ms": sum.repair.1,
                "max_ms": sum.repair_max,
            },
            "per_tick": r.ticks.iter().enumerate().map(|(t, k)| json!({
                "tick": t,
                "table_ms": k.table_ns / 1e6,
                "astar_all_enemies_ms": k.peers_ns.map(|(a, _)| a / 1e6),
                "flow_field_ms": k.peers_ns.map(|(_, f)| f / 1e6),
                "door": k.door.map(|(closed, ns, rerouted)| json!({
                    "closed": closed, "repair_ms": ns / 1e6, "rerouted_cells": rerouted,
                })),
                "caught": k.caught,
                "player": [k.player.x, k.player.y],
            })).collect::<Vec<_>>(),
            "occupied_cells_mean": r.occupied_mean,
    });
    if let Some(a) = &r.avoid {
        report["avoid"] = json!({
            "timed_tick": "signposts_crowd::grid::GridCrowd::tick_toward (table queries and moves), in the table_ms figures",
            "capacity": a.capacity,
            "sidestep_after": a.sidestep_after,
            "most_in_one_cell": a.most_in_one_cell,
            "waits": a.waits,
            "swaps": a.swaps,
            "sidesteps": a.sidesteps,
            "door_pushes": a.pushed,
            "door_waits": a.door_waits,
        });
    }
    out!("{report}");
}

fn print_text(args: &ChaseArgs, r: &Report, sum: &Summary) {
    out!(
        "{}: {} enemies chase the player for {} ticks ({}-connected); table: {} (built in {:.2} s)",
        args.map.display(),
        args.enemies,
        args.ticks,
        if args.making.diagonal { 8 } else { 4 },
        r.why,
        r.build_s
    );
    if let Some(a) = &r.avoid {
        print_crowd_header(a);
    }
    out!("{}", r.door_note);
    for (t, k) in r.ticks.iter().enumerate() {
        let mut line = String::new();
        if let Some((a, f)) = k.peers_ns {
            let _ = write!(
                line,
                "{} {:.3} ms; A* for all enemies {:.1} ms; flow field {:.2} ms",
                if r.avoid.is_some() { "crowd tick" } else { "table" },
                k.table_ns / 1e6,
                a / 1e6,
                f / 1e6
            );
        }
        if let Some((closed, ns, rerouted)) = k.door {
            let sep = if line.is_empty() { "" } else { "; " };
            let (what, way) = if closed { ("closed", "longer") } else { ("opened", "shorter") };
            let _ = write!(
                line,
                "{sep}door {what}, table repaired in {:.2} ms, {rerouted} cells' way to the player {way}",
                ns / 1e6
            );
        }
        if !line.is_empty() {
            out!("  tick {t:>4}: {line}");
        }
    }
    let [(table, table_mean), (astar, astar_mean), (field, field_mean)] = sum.measured;
    out!(
        "the whole crowd's steps, per tick, median (mean) of the {} measured ticks (every {}th), each from the same positions:",
        r.ticks.iter().filter(|t| t.peers_ns.is_some()).count(),
        args.compare_every
    );
    let (ours, short) = if r.avoid.is_some() {
        ("the crowd's tick (GridCrowd):  ", "the crowd's tick")
    } else {
        ("the table, one batched query:  ", "the table")
    };
    out!("  {ours}{table:>9.3} ms ({table_mean:.3} ms)");
    out!(
        "  one A* search per enemy:       {astar:>9.3} ms ({astar_mean:.3} ms): {:.0}× {short}",
        sum.times(1)
    );
    out!(
        "  one flow field, read by all:   {field:>9.3} ms ({field_mean:.3} ms): {:.0}× {short}",
        sum.times(2)
    );
    out!("  ({short} on every tick: {:.3} ms ({:.3} ms))", sum.table.0, sum.table.1);
    if sum.repairs > 0 {
        out!(
            "door repairs in place: {}, median {:.2} ms (mean {:.2} ms, max {:.2} ms)",
            sum.repairs,
            sum.repair.0,
            sum.repair.1,
            sum.repair_max
        );
    }
    out!(
        "A* timed on up to {ASTAR_SAMPLE} enemies a measured tick, evenly spread, scaled to all; every A* cost, \
         flow-field cost and flow-field step checked against the table's exact costs ({} enemies' worth)",
        r.checked
    );
    out!("player caught {} times (the caught enemies respawn)", sum.caught);
    if let Some(a) = &r.avoid {
        print_crowd_figures(args, r, a);
    }
    out!(
        "wrote {} ({} frames, {} bytes, {} pixels per cell)",
        args.output.display(),
        r.frames,
        r.gif_bytes,
        r.scale
    );
}

/// With `--avoid`: what the enemies are, before the ticks.
fn print_crowd_header(a: &AvoidStats) {
    let sidesteps = a
        .sidestep_after
        .map_or_else(|| "no sidesteps".to_string(), |n| format!("a sidestep after {n} ticks blocked"));
    out!(
        "the enemies avoid one another (signposts-crowd's GridCrowd): at most {} a cell, {sidesteps}; the timed tick is the crowd's (table queries and moves)",
        a.capacity
    );
}

/// With `--avoid`: what the enemies did over the run.
fn print_crowd_figures(args: &ChaseArgs, r: &Report, a: &AvoidStats) {
    out!(
        "crowd: at most {} in one cell seen (capacity {}); over the run {} waits, {} swaps, {} sidesteps; \
         {} one-cell pushes cleared the doorway for the door's closing, which waited {} ticks for room",
        a.most_in_one_cell,
        a.capacity,
        a.waits,
        a.swaps,
        a.sidesteps,
        a.pushed,
        a.door_waits
    );
    out!(
        "the {} enemies stood on {:.1} distinct cells on average (the spawn and every tick)",
        args.enemies,
        r.occupied_mean
    );
}
