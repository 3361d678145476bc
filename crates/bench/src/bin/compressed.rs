//! Compressed first-move tables of the Moving AI maps, 4-connected and octile: size, build
//! time and query time per map, beside the dense table's queries where it fits and a plain
//! compressed-path-database (SRC) implementation's sizes; 4-connected tables checked against
//! breadth-first searches from sampled sources, octile ones against every scenario length.
//!
//! `cargo run --release -p signposts-bench --bin compressed [-- [--four | --eight] MAP.map ...]`
//! (default: the maps of maps with at most 50,000 open cells, and the perfect maze;
//! `--four`: 4-connected tables only, for the large maps whose octile builds take far longer;
//! `--eight`: octile tables only)

use std::path::PathBuf;
use std::time::Instant;

use signposts::grid::{Connectivity, GridOracle, ScenarioCheck, parse_map, parse_scenarios};
use signposts::{GraphBuilder, NextHop, NodeId};
use signposts_bench::{bfs, pairs};

/// A straightforward SRC implementation's bytes per node on this kind of machine.
const SRC_FOUR: &[(&str, f64)] =
    &[("maze512-4-0", 21.0), ("brc202d", 40.0), ("arena", 38.0), ("random512-25-0", 306.0)];
const SRC_OCTILE: &[(&str, f64)] = &[("maze512-4-0", 48.0), ("brc202d", 169.0), ("arena", 207.0)];

/// Dense tables up to this size are built for the query comparison.
const DENSE_LIMIT: u64 = 1 << 30;

fn maps_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../maps")
}

/// Mean nanoseconds per query over `queries`, timed on a second pass: a table just built may
/// still have pages the first queries fault in (the dense table is zeroed lazily).
fn time_queries(queries: &[(NodeId, NodeId)], mut next: impl FnMut(NodeId, NodeId) -> Option<NodeId>) -> f64 {
    let mut pass = || {
        let start = Instant::now();
        let mut sum = 0u64;
        for &(a, b) in queries {
            sum = sum.wrapping_add(u64::from(next(a, b).unwrap_or(0)));
        }
        std::hint::black_box(sum);
        start.elapsed().as_secs_f64() * 1e9 / queries.len() as f64
    };
    pass();
    pass()
}

/// Mean nanoseconds per query over `queries` answered `group` at a time by `each` (the
/// steps of many entities in one call), timed on a second pass as [`time_queries`].
fn time_grouped(
    queries: &[(NodeId, NodeId)],
    group: usize,
    mut each: impl FnMut(&[(NodeId, NodeId)], &mut Vec<Option<NodeId>>),
) -> f64 {
    let mut out = Vec::with_capacity(group);
    let mut pass = || {
        let start = Instant::now();
        let mut sum = 0u64;
        for chunk in queries.chunks(group) {
            each(chunk, &mut out);
            sum = out.iter().fold(sum, |sum, v| sum.wrapping_add(u64::from(v.unwrap_or(0))));
        }
        std::hint::black_box(sum);
        start.elapsed().as_secs_f64() * 1e9 / queries.len() as f64
    };
    pass();
    pass()
}

/// Mean nanoseconds per step of whole paths between `queries` (an entity walking to its
/// target: each step's query follows the previous one's target and neighbouring source, the
/// measure the compressed-path-database literature reports).
fn time_path_steps<I: Iterator<Item = NodeId>>(
    queries: &[(NodeId, NodeId)],
    mut path: impl FnMut(NodeId, NodeId) -> I,
) -> f64 {
    let start = Instant::now();
    let (mut steps, mut sum) = (0u64, 0u64);
    for &(a, b) in queries {
        for v in path(a, b) {
            sum = sum.wrapping_add(u64::from(v));
            steps += 1;
        }
    }
    std::hint::black_box(sum);
    start.elapsed().as_secs_f64() * 1e9 / steps.max(1) as f64
}

/// Random query, batched query (1,000 at a time) and path-step nanoseconds of any table,
/// through the trait game code calls.
fn time_table(table: &impl NextHop, queries: &[(NodeId, NodeId)], walks: &[(NodeId, NodeId)]) -> [f64; 3] {
    [
        time_queries(queries, |a, b| table.neighbor_to(a, b)),
        time_grouped(queries, 1000, |chunk, out| table.neighbor_to_each(chunk, out)),
        time_path_steps(walks, |a, b| table.path_to(a, b)),
    ]
}

/// Every answer from 12 sampled sources against breadth-first searches: distances equal, the
/// next hop one step closer.
fn check(builder: &GraphBuilder, table: &impl NextHop) -> usize {
    let n = builder.nodes_len();
    let mut checked = 0;
    for &(_, t) in &pairs(n, 12, 11) {
        let dist = bfs(builder, t);
        for u in 0..n as NodeId {
            let d = dist[u as usize];
            let expected = (d != u32::MAX).then_some(u64::from(d));
            match table.neighbor_to(u, t) {
                Some(v) => assert_eq!(dist[v as usize] + 1, d, "{u} -> {t}: {v} is not closer"),
                None => assert!(u == t || d == u32::MAX, "{u} -> {t}: no move"),
            }
            if u % 97 == 0 {
                assert_eq!(table.cost(u, t).map(|c| c.straight), expected, "{u} -> {t}");
            }
            checked += 1;
        }
    }
    checked
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let four_only = args.iter().any(|a| a == "--four");
    let eight_only = args.iter().any(|a| a == "--eight");
    if let Some(unknown) = args.iter().find(|a| a.starts_with("--") && *a != "--four" && *a != "--eight") {
        eprintln!("unknown option {unknown}: expected --four or --eight");
        std::process::exit(2);
    }
    if four_only && eight_only {
        eprintln!("--four and --eight together would build nothing: give one or neither");
        std::process::exit(2);
    }
    let mut paths: Vec<PathBuf> = args.iter().filter(|a| !a.starts_with("--")).map(PathBuf::from).collect();
    if paths.is_empty() {
        let mut all: Vec<PathBuf> = std::fs::read_dir(maps_dir())
            .expect("maps")
            .filter_map(|e| Some(e.ok()?.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "map"))
            .collect();
        all.sort();
        paths = all
            .into_iter()
            .filter(|p| {
                let grid = parse_map(&std::fs::read(p).expect("readable")).expect("a valid map");
                grid.passable_len() <= 50_000 || p.file_stem().is_some_and(|s| s == "maze512-1-0")
            })
            .collect();
    }
    println!(
        "| map | moves | open cells | core | runs per node | table B/node | with graph B/node | SRC B/node | build | query | query, 1,000 at a time | path step | dense query | dense path step | checked |"
    );
    println!(
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
    );
    for path in &paths {
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let grid = parse_map(&std::fs::read(path).expect("readable")).expect("a valid map");
        let kinds = [(Connectivity::Four, SRC_FOUR), (Connectivity::Eight, SRC_OCTILE)];
        let kinds = kinds.into_iter().filter(|(c, _)| match c {
            Connectivity::Four => !eight_only,
            Connectivity::Eight | Connectivity::EightUnit => !four_only,
        });
        for (connectivity, src) in kinds {
            let builder = GridOracle::graph_builder(&grid, connectivity);
            let n = builder.nodes_len();
            let start = Instant::now();
            let oracle = GridOracle::build_compressed(&grid, connectivity).expect("fits the format");
            let build = start.elapsed().as_secs_f64();
            let compressed = oracle.compressed_table().expect("a compressed oracle");
            let checked = if connectivity == Connectivity::Four {
                format!("{} answers vs BFS", check(&builder, compressed))
            } else {
                let scen = format!("{}.scen", path.display());
                let scenarios =
                    std::fs::read(&scen).ok().and_then(|b| parse_scenarios(&b).ok()).unwrap_or_default();
                let report = ScenarioCheck::run(&oracle, &scenarios);
                assert_eq!(report.mismatched.len(), 0, "{name}: scenario lengths differ");
                format!("{} of {} scenario lengths", report.matched, scenarios.len())
            };
            let queries = pairs(n, 200_000, 5);
            let walks = &queries[..2000];
            let [query, grouped, step] = time_table(compressed, &queries, walks);
            let dense = (builder.memory_needed() <= DENSE_LIMIT).then(|| {
                let [query, _, step] = time_table(&builder.build(), &queries, walks);
                (query, step)
            });
            let per_node = |bytes: usize| bytes as f64 / n as f64;
            let src =
                src.iter().find(|(m, _)| *m == name).map_or("–".to_string(), |(_, b)| format!("{b:.0}"));
            println!(
                "| {name} | {} | {n} | {} | {:.1} | {:.1} | {:.1} | {src} | {build:.2} s | {query:.0} ns | {grouped:.0} ns | {step:.0} ns | {} | {} | {checked} |",
                if connectivity == Connectivity::Four { "4" } else { "octile" },
                compressed.core_len(),
                compressed.runs_len() as f64 / n as f64,
                per_node(compressed.table_bytes()),
                per_node(compressed.memory_bytes()),
                dense.map_or("–".to_string(), |(ns, _)| format!("{ns:.0} ns")),
                dense.map_or("–".to_string(), |(_, ns)| format!("{ns:.0} ns")),
            );
        }
    }
}
