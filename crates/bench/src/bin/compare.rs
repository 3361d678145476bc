//! signposts beside `bit_gossip` 0.0.13 on the same graphs, in one run.
//!
//! Each (library, graph) pair runs in its own child process, so that peak RSS is the build's
//! own. The child builds, checks answers against BFS, times queries, and prints one line of
//! `key=value` fields; the parent prints a table with ratios.
//!
//! Every walk along a library's `path_to` stops after as many steps as the graph has nodes (a
//! shortest path has fewer): `bit_gossip` 0.0.13's paths can cycle on graphs that are not
//! bipartite, such as the 8-grid. Such a walk is reported as a path that never arrives and is
//! left out of the path timing, so the bench returns.
//!
//! `cargo run --release -p signposts-bench --bin compare [-- CASE...]`

use std::collections::BTreeMap;
use std::hint::black_box;
use std::process::Command;
use std::time::Instant;

use signposts::NodeId;
use signposts_bench::{CASES, bfs, builder, edges, pairs, proc_status_bytes};

const QUERIES: usize = 2_000_000;
const PATHS: usize = 2_000;
const CHECKS: usize = 20;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--child") {
        let (lib, case) = (&args[1], &args[2]);
        match lib.as_str() {
            "signposts" => child_signposts(case),
            "bit_gossip" => child_bit_gossip(case),
            other => panic!("unknown library {other}"),
        }
        return;
    }
    let wanted: Vec<&str> = if args.is_empty() {
        CASES.iter().map(|c| c.name).collect()
    } else {
        args.iter().map(String::as_str).collect()
    };
    let exe = std::env::current_exe().expect("own path");
    let header = [
        "graph",
        "nodes",
        "build signposts",
        "build bit_gossip",
        "ratio",
        "neighbor_to random (sp / bg)",
        "ratio",
        "neighbor_to_each random (sp)",
        "ratio to bg single",
        "neighbor_to chase (sp / bg)",
        "ratio",
        "path_to ns/step (sp / bg)",
        "ratio",
        "memory (sp / bg)",
        "peak RSS of build (sp / bg)",
        "wrong answers (sp / bg)",
        "paths that never arrive (sp / bg)",
    ];
    println!("| {} |", header.join(" | "));
    println!("|{}", " --- |".repeat(header.len()));
    for name in wanted {
        let case = CASES.iter().find(|c| c.name == name);
        let run = |lib: &str| -> BTreeMap<String, String> {
            let out = Command::new(&exe).args(["--child", lib, name]).output().expect("child runs");
            assert!(out.status.success(), "{lib} on {name} failed: {}", String::from_utf8_lossy(&out.stderr));
            String::from_utf8_lossy(&out.stdout)
                .split_whitespace()
                .filter_map(|kv| kv.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())))
                .collect()
        };
        let sp = run("signposts");
        let bg = run("bit_gossip");
        let f = |m: &BTreeMap<String, String>, k: &str| m.get(k).and_then(|v| v.parse::<f64>().ok());
        let ratio = |k: &str| match (f(&bg, k), f(&sp, k)) {
            (Some(b), Some(s)) if s > 0.0 => format!("**{:.0}×**", b / s),
            _ => "–".into(),
        };
        let pair = |k: &str, unit: &str| match (f(&sp, k), f(&bg, k)) {
            (Some(s), Some(b)) => format!("{} / {} {unit}", fmt(s), fmt(b)),
            (Some(s), None) => format!("{} {unit} / –", fmt(s)),
            _ => "–".into(),
        };
        let nodes = sp.get("nodes").cloned().unwrap_or_default();
        let checked = nodes.parse::<usize>().map_or(0, |n| n * CHECKS);
        let ms = |m: &BTreeMap<String, String>| {
            f(m, "build_ms").map_or("–".into(), |v| format!("{} ms", fmt(v)))
        };
        let each = f(&sp, "each_ns").map_or("–".into(), |v| format!("{} ns", fmt(v)));
        let each_ratio = match (f(&bg, "query_ns"), f(&sp, "each_ns")) {
            (Some(b), Some(s)) if s > 0.0 => format!("**{:.0}×**", b / s),
            _ => "–".into(),
        };
        let wrong = |m: &BTreeMap<String, String>| m.get("wrong").cloned().unwrap_or_else(|| "–".into());
        let stuck = |m: &BTreeMap<String, String>| m.get("stuck").cloned().unwrap_or_else(|| "–".into());
        let row = [
            case.map_or(name, |c| c.title).to_string(),
            nodes,
            ms(&sp),
            ms(&bg),
            ratio("build_ms"),
            pair("query_ns", "ns"),
            ratio("query_ns"),
            each,
            each_ratio,
            pair("chase_ns", "ns"),
            ratio("chase_ns"),
            pair("path_ns", "ns"),
            ratio("path_ns"),
            pair("memory_mib", "MiB"),
            pair("peak_rss_mib", "MiB"),
            format!("{} / {} of {checked}", wrong(&sp), wrong(&bg)),
            format!("{} / {} of {PATHS}", stuck(&sp), stuck(&bg)),
        ];
        println!("| {} |", row.join(" | "));
    }
}

fn fmt(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / f64::from(1 << 20)
}

/// Times `f` over every pair, returning ns per call.
fn time_pairs(pairs: &[(NodeId, NodeId)], mut f: impl FnMut(NodeId, NodeId) -> u64) -> f64 {
    let start = Instant::now();
    let mut sum = 0u64;
    for &(u, t) in pairs {
        sum = sum.wrapping_add(f(u, t));
    }
    black_box(sum);
    start.elapsed().as_secs_f64() * 1e9 / pairs.len() as f64
}

/// Chase pattern: every node asks for its step toward one target, for several targets.
fn chase_pairs(nodes: usize) -> Vec<(NodeId, NodeId)> {
    let targets = pairs(nodes, 8, 99);
    let repeat = (QUERIES / nodes / targets.len()).max(1);
    let mut out = Vec::new();
    for &(_, t) in &targets {
        for _ in 0..repeat {
            out.extend((0..nodes as NodeId).map(|u| (u, t)));
        }
    }
    out
}

/// Counts the sampled answers that are not optimal moves (BFS): `CHECKS` targets, every source.
fn wrong_answers(case: &str, answer: impl Fn(NodeId, NodeId) -> Option<NodeId>) -> usize {
    let b = builder(case);
    let mut wrong = 0;
    for &(_, t) in &pairs(b.nodes_len(), CHECKS, 5) {
        let dist = bfs(&b, t);
        for u in 0..b.nodes_len() as NodeId {
            let d = dist[u as usize];
            let ok = match answer(u, t) {
                None => d == 0 || d == u32::MAX,
                Some(v) => d != u32::MAX && b.contains_edge(u, v) && dist[v as usize] + 1 == d,
            };
            wrong += usize::from(!ok);
        }
    }
    wrong
}

fn child_signposts(case: &str) {
    let b = builder(case);
    let n = b.nodes_len();
    let rss_before = proc_status_bytes("VmRSS");
    let start = Instant::now();
    let graph = b.build();
    let build_ms = start.elapsed().as_secs_f64() * 1e3;
    let rss_after = proc_status_bytes("VmRSS");
    let peak = proc_status_bytes("VmHWM");
    drop(b);
    let wrong = wrong_answers(case, |u, t| graph.neighbor_to(u, t));
    assert_eq!(wrong, 0, "signposts gave {wrong} wrong answers on {case}");
    let random = pairs(n, QUERIES, 1);
    let query_ns = time_pairs(&random, |u, t| u64::from(graph.neighbor_to(u, t).unwrap_or(0)));
    let mut steps = Vec::with_capacity(random.len());
    let start = Instant::now();
    graph.neighbor_to_each(&random, &mut steps);
    black_box(&steps);
    let each_ns = start.elapsed().as_secs_f64() * 1e9 / random.len() as f64;
    let chase_ns = time_pairs(&chase_pairs(n), |u, t| u64::from(graph.neighbor_to(u, t).unwrap_or(0)));
    let walks = time_paths(&pairs(n, PATHS, 2), n, |u, t| graph.path_to(u, t));
    assert_eq!(walks.stuck, 0, "signposts gave {} paths that never arrive on {case}", walks.stuck);
    println!(
        "nodes={n} build_ms={build_ms} query_ns={query_ns} each_ns={each_ns} chase_ns={chase_ns} {} memory_mib={} rss_delta_mib={} peak_rss_mib={} wrong=0",
        walks.fields(),
        mib(graph.memory_bytes() as u64),
        mib(rss_after.saturating_sub(rss_before)),
        mib(peak)
    );
}

/// What [`time_paths`] saw.
struct PathWalks {
    /// Mean time per step of the walks that arrive; `None` when no walk has a step.
    ns_per_step: Option<f64>,
    /// Walks cut after as many steps as the graph has nodes: paths that never arrive.
    stuck: usize,
}

impl PathWalks {
    /// The child's `key=value` fields: `path_ns` (absent when nothing was timed) and `stuck`.
    fn fields(&self) -> String {
        match self.ns_per_step {
            Some(ns) => format!("path_ns={ns} stuck={}", self.stuck),
            None => format!("stuck={}", self.stuck),
        }
    }
}

/// Walks `path(u, t)` for each pair of `pairs` on a graph of `nodes` nodes; ns per step.
///
/// A first pass, not timed, walks each path and counts its steps in the same loop, stopping at
/// `nodes` steps: a shortest path has fewer, so a walk that gets there is in a cycle and counts
/// as a path that never arrives. The timed pass then walks the paths that arrive, each to its
/// end as before, summing the node ids; the paths that never arrive are not timed.
fn time_paths<P: Iterator<Item = NodeId>>(
    pairs: &[(NodeId, NodeId)],
    nodes: usize,
    path: impl Fn(NodeId, NodeId) -> P,
) -> PathWalks {
    let mut arrive = Vec::with_capacity(pairs.len());
    let mut steps = 0usize;
    for &(u, t) in pairs {
        // At most `nodes + 1` nodes (`nodes` steps); a walk that sees them all is in a cycle.
        let seen = path(u, t).take(nodes + 1).count();
        if seen <= nodes {
            arrive.push((u, t));
            steps += seen.saturating_sub(1);
        }
    }
    let start = Instant::now();
    let mut sum = 0u64;
    for &(u, t) in &arrive {
        sum = sum.wrapping_add(path(u, t).map(u64::from).sum::<u64>());
    }
    black_box(sum);
    let ns = start.elapsed().as_secs_f64() * 1e9;
    PathWalks { ns_per_step: (steps > 0).then(|| ns / steps as f64), stuck: pairs.len() - arrive.len() }
}

fn child_bit_gossip(case: &str) {
    let b = builder(case);
    let n = b.nodes_len();
    let edges = edges(&b);
    drop(b);
    let id = |v: NodeId| u16::try_from(v).expect("bit_gossip cases fit u16 ids");
    let rss_before = proc_status_bytes("VmRSS");
    let start = Instant::now();
    let mut peer = bit_gossip::Graph::<u16>::builder(n);
    for &(a, c) in &edges {
        peer.connect(id(a), id(c));
    }
    let graph = peer.build();
    let build_ms = start.elapsed().as_secs_f64() * 1e3;
    let rss_after = proc_status_bytes("VmRSS");
    let peak = proc_status_bytes("VmHWM");
    let wrong = wrong_answers(case, |u, t| graph.neighbor_to(id(u), id(t)).map(NodeId::from));
    let random: Vec<(u16, u16)> = pairs(n, QUERIES, 1).into_iter().map(|(u, t)| (id(u), id(t))).collect();
    let start = Instant::now();
    let mut sum = 0u64;
    for &(u, t) in &random {
        sum = sum.wrapping_add(u64::from(graph.neighbor_to(u, t).unwrap_or(0)));
    }
    black_box(sum);
    let query_ns = start.elapsed().as_secs_f64() * 1e9 / random.len() as f64;
    let crowd: Vec<(u16, u16)> = chase_pairs(n).into_iter().map(|(u, t)| (id(u), id(t))).collect();
    let start = Instant::now();
    for &(u, t) in &crowd {
        sum = sum.wrapping_add(u64::from(graph.neighbor_to(u, t).unwrap_or(0)));
    }
    black_box(sum);
    let chase_ns = start.elapsed().as_secs_f64() * 1e9 / crowd.len() as f64;
    let walks = time_paths(&pairs(n, PATHS, 2), n, |u, t| graph.path_to(id(u), id(t)).map(NodeId::from));
    let delta = rss_after.saturating_sub(rss_before);
    println!(
        "nodes={n} build_ms={build_ms} query_ns={query_ns} chase_ns={chase_ns} {} memory_mib={} rss_delta_mib={} peak_rss_mib={} wrong={wrong}",
        walks.fields(),
        mib(delta),
        mib(delta),
        mib(peak)
    );
}
