//! Tables built on the GPU (signposts' `gpu` feature) beside the CPU build on the same
//! machine's cores, each GPU table checked byte for byte against the CPU's: dense tables of
//! 100×100 and 320×320 grids, compressed tables of the shared 512×512 maps and `TheFrozenSea`,
//! 4-connected and octile (`NAME-8` in the output).
//!
//! ```text
//! cargo run --release -p signposts-bench --features gpu --bin gpu -- [--quick] [--four | --eight] [--bandwidth GBPS] [--chunk TARGETS] [--gpu-only] [CASE ...]
//! ```
//!
//! Cases: `grid100`, `grid100-8` (8-connected, unit costs), `grid320`, and map names of
//! maps (compressed tables, 4-connected and octile; `--four` or `--eight` for one). The default is every one of them; `--quick` runs `grid100` and den312d
//! only (what a software adapter manages in seconds). `--gpu-only` skips the CPU builds (and
//! the byte check). `--chunk` sets the targets a chunk searches at most
//! (`GpuContext::with_chunk_targets`). `--bandwidth` is the GPU's memory bandwidth in GB/s (3350 for an H100
//! SXM), to print the fraction of it the searches' floor traffic takes: every invocation of a
//! level reads its node's state and writes it (`GpuStats::state_bytes`), and the output is
//! written and copied back. Throughput is in (source, target) pairs a second: nodes × targets
//! searched over the build's seconds. `host` is the time the host spent taking chunks in
//! (copying dense words into place, folding compressed runs) while the device searched the
//! next: near the GPU time, the host is the bottleneck.

use std::path::PathBuf;
use std::time::Instant;

use signposts::GraphBuilder;
use signposts::gpu::GpuContext;
use signposts::grid::{Connectivity, GridOracle, parse_map};
use signposts_bench::{MAPS_512, builder};

fn maps_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../maps")
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |args: &mut Vec<String>, name: &str| {
        let at = args.iter().position(|a| a == name);
        at.map(|i| args.remove(i)).is_some()
    };
    let quick = flag(&mut args, "--quick");
    let (four, octile) = (flag(&mut args, "--four"), flag(&mut args, "--eight"));
    let both = four == octile;
    let gpu_only = flag(&mut args, "--gpu-only");
    let bandwidth = args.iter().position(|a| a == "--bandwidth").map(|i| {
        args.remove(i);
        args.remove(i).parse::<f64>().expect("--bandwidth takes GB/s")
    });
    let chunk = args.iter().position(|a| a == "--chunk").map(|i| {
        args.remove(i);
        args.remove(i).parse::<usize>().expect("--chunk takes a target count")
    });
    let cases: Vec<String> = if !args.is_empty() {
        args
    } else if quick {
        vec!["grid100".into(), "den312d".into()]
    } else {
        ["grid100", "grid100-8", "grid320"]
            .iter()
            .chain(&MAPS_512)
            .chain(&["TheFrozenSea"])
            .map(|s| (*s).to_string())
            .collect()
    };

    let gpu = match GpuContext::new() {
        Ok(gpu) => match chunk {
            Some(targets) => gpu.with_chunk_targets(targets),
            None => gpu,
        },
        Err(e) => {
            println!("SKIPPED: no GPU adapter: {e}");
            return;
        }
    };
    let info = gpu.adapter_info();
    println!(
        "GPU: {} ({:?}, {:?}, driver {} {}); CPU: {} threads",
        info.name,
        info.device_type,
        info.backend,
        info.driver,
        info.driver_info,
        rayon_threads()
    );
    if gpu.is_software() {
        println!("(a software adapter: correct, and far slower than the CPU build)");
    }
    println!(
        "{:<16} {:>9} {:>9} {:>10} {:>10} {:>8} {:>12} {:>12} {:>9} {:>6}",
        "case", "nodes", "table", "CPU s", "GPU s", "GPU/CPU", "CPU pairs/s", "GPU pairs/s", "GB/s", "of BW"
    );
    for case in &cases {
        if case.starts_with("grid") {
            run(&gpu, case, &builder(case), true, gpu_only, bandwidth);
            continue;
        }
        let path = maps_dir().join(format!("{case}.map"));
        let grid = parse_map(&std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
            .expect("a valid map");
        for (connectivity, suffix) in [(Connectivity::Four, ""), (Connectivity::Eight, "-8")] {
            if octile != (connectivity == Connectivity::Eight) && !both {
                continue;
            }
            let name = format!("{case}{suffix}");
            run(&gpu, &name, &GridOracle::graph_builder(&grid, connectivity), false, gpu_only, bandwidth);
        }
    }
}

fn rayon_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// One case: the CPU build, the GPU build, the bytes compared, one line of figures.
fn run(
    gpu: &GpuContext,
    case: &str,
    builder: &GraphBuilder,
    dense: bool,
    gpu_only: bool,
    bandwidth: Option<f64>,
) {
    let n = builder.nodes_len() as f64;
    let save = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut bytes = Vec::new();
        f(&mut bytes);
        bytes
    };
    // Saving is outside the timings: each closure returns its table, saved after the clock.
    let (cpu, cpu_bytes) = if gpu_only {
        (f64::NAN, Vec::new())
    } else if dense {
        let start = Instant::now();
        let table = builder.build();
        let seconds = start.elapsed().as_secs_f64();
        (seconds, save(&|b| table.save(b).expect("saved")))
    } else {
        let start = Instant::now();
        let table = builder.build_compressed().expect("a compressed table");
        let seconds = start.elapsed().as_secs_f64();
        (seconds, save(&|b| table.save(b).expect("saved")))
    };
    let before = gpu.stats();
    let (on_gpu, gpu_bytes) = if dense {
        let start = Instant::now();
        let table = signposts::BuildOptions::new().gpu(gpu).build(builder).expect("a GPU build");
        let seconds = start.elapsed().as_secs_f64();
        (seconds, save(&|b| table.save(b).expect("saved")))
    } else {
        let start = Instant::now();
        let table = signposts::BuildOptions::new().gpu(gpu).build_compressed(builder).expect("a GPU build");
        let seconds = start.elapsed().as_secs_f64();
        (seconds, save(&|b| table.save(b).expect("saved")))
    };
    let after = gpu.stats();
    if !gpu_only {
        assert!(gpu_bytes == cpu_bytes, "{case}: the GPU table differs from the CPU table");
    }
    let work = after.since(before);
    let traffic = (work.state_bytes + 2 * work.bytes_back) as f64 / on_gpu / 1e9;
    let pairs = n * n;
    println!(
        "{:<16} {:>9} {:>9} {:>10.3} {:>10.3} {:>8.2} {:>12.3e} {:>12.3e} {:>9.1} {:>6}",
        case,
        builder.nodes_len(),
        if dense { "dense" } else { "compr." },
        cpu,
        on_gpu,
        on_gpu / cpu,
        pairs / cpu,
        pairs / on_gpu,
        traffic,
        bandwidth.map_or_else(|| "-".to_string(), |bw| format!("{:.0}%", 100.0 * traffic / bw)),
    );
    println!(
        "{:<16} {} chunks, {} levels run, {:.2} GB of state traffic floor, {:.2} GB back, host {:.3} s{}",
        "",
        work.chunks,
        work.levels,
        work.state_bytes as f64 / 1e9,
        work.bytes_back as f64 / 1e9,
        work.host_nanos as f64 / 1e9,
        if gpu_only { "" } else { "; the same bytes as the CPU build" }
    );
}
