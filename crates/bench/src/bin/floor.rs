//! A dense table's single random query beside the floor of the memory it reads, in one run:
//! random 8-byte reads in a buffer of the table's size on huge pages as the table's are,
//! issued independently (as many in flight as the core keeps) and one after another (each
//! waiting for the last: the latency), beside `neighbor_to` on the same number of random
//! pairs and `neighbor_to_each` on them in one call.
//!
//! `cargo run --release -p signposts-bench --bin floor [-- ROUNDS]` (default 7 rounds; the
//! medians are printed)

use std::time::Instant;

use signposts::NodeId;
use signposts::generate::{Connectivity, grid};

const QUERIES: usize = 2_000_000;

/// A buffer of `words` words on huge pages (as the table's are), holding one random cycle
/// through all of them (Sattolo's shuffle), so that following it reads every word once.
fn cycle_buffer(words: usize, seed: u64) -> Vec<u64> {
    let mut buffer: Vec<u64> = Vec::with_capacity(words);
    #[cfg(target_os = "linux")]
    // SAFETY: the range is the vector's own allocation; MADV_HUGEPAGE changes only how the
    // kernel backs it (an error is harmless).
    unsafe {
        libc::madvise(buffer.as_mut_ptr().cast(), words * 8, libc::MADV_HUGEPAGE);
    }
    buffer.extend(0..words as u64);
    let mut rng = signposts::generate::SplitMix64::new(seed);
    for i in (1..words).rev() {
        let j = (rng.next_u64() % i as u64) as usize;
        buffer.swap(i, j);
    }
    buffer
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let rounds: usize = std::env::args().nth(1).map_or(7, |r| r.parse().expect("a number of rounds"));
    println!("| graph | table | query | ns | × independent floor | × latency floor |");
    println!("| --- | ---: | --- | ---: | ---: | ---: |");
    for (name, side, connectivity) in
        [("100×100 4-grid", 100, Connectivity::Four), ("100×100 8-grid", 100, Connectivity::EightUnit)]
    {
        let graph = grid(side, side, connectivity).build();
        let bytes = graph.memory_bytes();
        let words = bytes / 8;
        let buffer = cycle_buffer(words, 3);
        let pairs: Vec<(NodeId, NodeId)> = signposts_bench::pairs(graph.nodes_len(), QUERIES, 11);
        let at: Vec<usize> =
            pairs.iter().map(|&(a, b)| (a as usize * 7919 + b as usize * 104_729) % words).collect();
        let mut out = Vec::with_capacity(QUERIES);
        let per = |start: Instant| start.elapsed().as_secs_f64() * 1e9 / QUERIES as f64;
        let mut times: [Vec<f64>; 5] = Default::default();
        for _ in 0..rounds {
            // Independent reads: the next address never waits for the last read.
            let start = Instant::now();
            let mut sum = 0u64;
            for &i in &at {
                sum = sum.wrapping_add(buffer[i]);
            }
            std::hint::black_box(sum);
            times[0].push(per(start));
            // Dependent reads: each address is the last read's value.
            let start = Instant::now();
            let mut i = 0usize;
            for _ in 0..QUERIES {
                i = buffer[i] as usize;
            }
            std::hint::black_box(i);
            times[1].push(per(start));
            let start = Instant::now();
            let mut sum = 0u64;
            for &(a, b) in &pairs {
                sum = sum.wrapping_add(u64::from(graph.neighbor_to(a, b).unwrap_or(0)));
            }
            std::hint::black_box(sum);
            times[2].push(per(start));
            let start = Instant::now();
            graph.neighbor_to_each(&pairs, &mut out);
            std::hint::black_box(&out);
            times[3].push(per(start));
            // A walk: each query starts where the last answer led (a path, one step a query).
            let start = Instant::now();
            let (mut at_node, mut k) = (pairs[0].0, 0);
            for _ in 0..QUERIES {
                if let Some(next) = graph.neighbor_to(at_node, pairs[k].1) {
                    at_node = next;
                } else {
                    k += 1;
                    at_node = pairs[k].0;
                }
            }
            std::hint::black_box(at_node);
            times[4].push(per(start));
        }
        let [independent, latency, single, batched, walk] = times.map(median);
        let mib = bytes as f64 / f64::from(1 << 20);
        for (query, ns) in [
            ("random 8-byte reads, independent (the floor)", independent),
            ("random 8-byte reads, each waiting for the last", latency),
            ("`neighbor_to`, random pairs", single),
            ("`neighbor_to_each`, the same pairs", batched),
            ("`neighbor_to` along paths (each from the last answer)", walk),
        ] {
            println!(
                "| {name} | {mib:.0} MiB | {query} | {ns:.1} | {:.2}× | {:.2}× |",
                ns / independent,
                ns / latency
            );
        }
    }
}
