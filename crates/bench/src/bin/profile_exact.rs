//! Where exact queries spend their work, and how long they take: `cargo run --release -p
//! signposts-bench --bin profile_exact -- MAP.map [REPEATS]` (set `CROWD_ONLY` to time
//! only crowds, for a profiler; `EXACT_TIER` to a tier's name for that tier).
use std::time::Instant;

use signposts::generate::SplitMix64;
use signposts::grid::{Cell, parse_map};
use signposts_rooms::{ExactRooms, ExactScratch, NavMesh, Point, Tier};

fn main() {
    let path = std::env::args().nth(1).expect("a map");
    let grid = parse_map(&std::fs::read(&path).unwrap()).unwrap();
    let mesh = NavMesh::from_grid(&grid).unwrap();
    // `EXACT_TIER=Table` (or another tier's name) profiles that tier.
    let tier = match std::env::var("EXACT_TIER").as_deref() {
        Ok("Table") => Some(Tier::Table),
        Ok("CompactTable") => Some(Tier::CompactTable),
        Ok("Labels") => Some(Tier::Labels),
        Ok("CompactLabels") => Some(Tier::CompactLabels),
        Ok("Graph") => Some(Tier::Graph),
        _ => None,
    };
    let builder = ExactRooms::builder(&mesh);
    let exact = tier.map_or(builder.clone(), |t| builder.tier(t)).build().unwrap();
    println!("{:?}, {:.1} MiB", exact.tier(), exact.memory_bytes() as f64 / f64::from(1 << 20));
    let open: Vec<Point> = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| grid.is_passable(Cell::new(x, y)))
        .map(|(x, y)| Point::new(f64::from(x) + 0.5, f64::from(y) + 0.5))
        .collect();
    let mut rng = SplitMix64::new(17);
    let queries: Vec<(Point, Point)> = (0..2000)
        .map(|_| (open[rng.below(open.len() as u64) as usize], open[rng.below(open.len() as u64) as usize]))
        .filter(|&(s, t)| exact.distance(s, t).is_some())
        .collect();
    let mut sums = [0usize; 5];
    for &(s, t) in &queries {
        let (from_candidates, from_seen, to_candidates, to_seen, straight) = exact.query_counts(s, t);
        let counts = [from_candidates, from_seen, to_candidates, to_seen, usize::from(straight)];
        for (x, y) in sums.iter_mut().zip(counts) {
            *x += y;
        }
    }
    let n = queries.len() as f64;
    println!(
        "candidates s {:.1}, seen s {:.1}, candidates t {:.1}, seen t {:.1}, in sight {:.2}",
        sums[0] as f64 / n,
        sums[1] as f64 / n,
        sums[2] as f64 / n,
        sums[3] as f64 / n,
        sums[4] as f64 / n
    );
    let mut scratch = ExactScratch::default();
    let start = Instant::now();
    let reps: usize = std::env::args().nth(2).and_then(|r| r.parse().ok()).unwrap_or(5);
    for _ in 0..if std::env::var_os("CROWD_ONLY").is_some() { 0 } else { reps } {
        for &(s, t) in &queries {
            std::hint::black_box(exact.next_waypoint_with(s, t, &mut scratch));
        }
    }
    println!("next_waypoint {:.3} µs", start.elapsed().as_secs_f64() * 1e6 / n / reps as f64);
    let starts: Vec<Point> = queries.iter().map(|q| q.0).collect();
    let mut out = Vec::with_capacity(250);
    let start = Instant::now();
    for _ in 0..reps {
        for (k, group) in starts.chunks_exact(250).enumerate() {
            exact.next_waypoint_toward_with(group, queries[k].1, &mut out, &mut scratch);
        }
    }
    println!(
        "crowd {:.3} µs",
        start.elapsed().as_secs_f64() * 1e6 / (starts.len() / 250 * 250) as f64 / reps as f64
    );
    // setup probe: crowds of 16 to many goals
    let mut few = Vec::with_capacity(16);
    let start = Instant::now();
    for (k, q) in queries.iter().enumerate().take(500) {
        exact.next_waypoint_toward_with(&starts[k % 100..k % 100 + 16], q.1, &mut few, &mut scratch);
    }
    println!("crowd of 16: {:.1} µs a call", start.elapsed().as_secs_f64() * 1e6 / 500.0);
    let mut all = Vec::with_capacity(starts.len());
    let start = Instant::now();
    for _ in 0..reps {
        exact.next_waypoint_toward_with(&starts, queries[0].1, &mut all, &mut scratch);
    }
    println!(
        "crowd of all {}: {:.3} µs",
        starts.len(),
        start.elapsed().as_secs_f64() * 1e6 / starts.len() as f64 / reps as f64
    );
    let start = Instant::now();
    for _ in 0..5 {
        for &(s, _) in &queries {
            std::hint::black_box(exact.region_at(s));
        }
    }
    println!("region_at {:.3} µs", start.elapsed().as_secs_f64() * 1e6 / n / 5.0);
}
