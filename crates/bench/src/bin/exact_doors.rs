//! Doors toggled in place in an exact index, against building it again: per map and tier, a
//! rebuild's time (the median of three) and each repair's, for random doors closed and then
//! opened again; after the last toggle the index is compared with a fresh build (its saved
//! bytes).
//!
//! `cargo run --release -p signposts-bench --bin exact_doors [-- --doors N] [--tiers
//! Labels,Graph,...] [MAP.map ...]` (default: 10 doors of each of arena, den312d, lak303d,
//! brc202d, AR0602SR and maze512-4-0 of maps, tiers `Labels`, `CompactLabels` and `Graph`).

use std::time::Instant;

use signposts::generate::SplitMix64;
use signposts::grid::parse_map;
use signposts_bench::navmesh::{cpu, maps_dir, today};
use signposts_rooms::{DoorId, DoorState, ExactRooms, NavMesh, Tier};

const DEFAULT_MAPS: [&str; 6] = ["arena", "den312d", "lak303d", "brc202d", "AR0602SR", "maze512-4-0"];

fn tier_named(name: &str) -> Tier {
    match name {
        "Table" => Tier::Table,
        "CompactTable" => Tier::CompactTable,
        "Labels" => Tier::Labels,
        "CompactLabels" => Tier::CompactLabels,
        "Graph" => Tier::Graph,
        other => panic!("no tier {other}: Table, CompactTable, Labels, CompactLabels or Graph"),
    }
}

fn saved(exact: &ExactRooms) -> Vec<u8> {
    let mut bytes = Vec::new();
    exact.save(&mut bytes).expect("saved to memory");
    bytes
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut doors, mut tiers, mut maps) =
        (10usize, vec![Tier::Labels, Tier::CompactLabels, Tier::Graph], Vec::new());
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--doors" => {
                doors = args.get(i + 1).and_then(|v| v.parse().ok()).expect("--doors N");
                i += 1;
            }
            "--tiers" => {
                tiers = args.get(i + 1).expect("--tiers A,B").split(',').map(tier_named).collect();
                i += 1;
            }
            map => maps.push(map.to_string()),
        }
        i += 1;
    }
    if maps.is_empty() {
        maps =
            DEFAULT_MAPS.iter().map(|m| maps_dir().join(format!("{m}.map")).display().to_string()).collect();
    }
    println!("# exact_doors, {}, {}, {} doors closed and opened again a map", today(), cpu(), doors);
    println!();
    println!(
        "| map | corners | tier | rebuild ms | repair ms: mean | median | worst | mean ÷ rebuild | worst ÷ rebuild | identical to a fresh build |"
    );
    println!("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
    for path in &maps {
        let name =
            std::path::Path::new(path).file_stem().map_or(path.clone(), |s| s.to_string_lossy().into_owned());
        let grid = parse_map(&std::fs::read(path).expect("a readable map")).expect("a map");
        let mesh = NavMesh::from_grid(&grid).expect("walkable");
        let edges: Vec<u32> =
            (0..mesh.doors_len() as u32).filter(|&d| !mesh.door(DoorId(d)).is_point()).collect();
        for &tier in &tiers {
            let build = || ExactRooms::builder(&mesh).tier(tier).build().expect("built");
            let mut builds: Vec<f64> = (0..3)
                .map(|_| {
                    let start = Instant::now();
                    let exact = build();
                    let ms = start.elapsed().as_secs_f64() * 1e3;
                    drop(exact);
                    ms
                })
                .collect();
            builds.sort_by(f64::total_cmp);
            let rebuild = builds[1];
            let mut exact = build();
            let mut rng = SplitMix64::new(7);
            let mut states = vec![DoorState::Open; mesh.doors_len()];
            let mut times = Vec::new();
            for _ in 0..doors {
                let d = edges[rng.below(edges.len() as u64) as usize];
                for open in [false, true] {
                    let start = Instant::now();
                    exact.set_door_open(DoorId(d), open).expect("repaired");
                    times.push(start.elapsed().as_secs_f64() * 1e3);
                }
                // Leave every third door closed: later toggles meet closed doors too.
                if rng.below(3) == 0 {
                    exact.set_door_open(DoorId(d), false).expect("repaired");
                    states[d as usize] = DoorState::Closed;
                }
            }
            let fresh = ExactRooms::builder(&mesh).door_states(states).tier(tier).build().expect("built");
            let same = saved(&exact) == saved(&fresh);
            let mut sorted = times.clone();
            sorted.sort_by(f64::total_cmp);
            let mean = times.iter().sum::<f64>() / times.len() as f64;
            let (median, worst) = (sorted[sorted.len() / 2], sorted[sorted.len() - 1]);
            println!(
                "| {name} | {} | {:?} | {rebuild:.1} | {mean:.2} | {median:.2} | {worst:.2} | 1/{:.1} | 1/{:.1} | {} |",
                exact.corners_len(),
                exact.tier(),
                rebuild / mean,
                rebuild / worst,
                if same { "yes" } else { "NO" }
            );
            assert!(same, "{name} {tier:?}: the repaired index differs from a fresh build");
        }
    }
}
