//! GPU builds (feature `gpu`) against the CPU build, byte for byte, on every graph family the
//! property tests use, on whatever adapter wgpu finds (in CI, Mesa's software Vulkan driver,
//! lavapipe).
//!
//! When no adapter can be made at all, each test prints why and returns; with
//! `SIGNPOSTS_GPU_REQUIRED=1` (CI sets it once it installed lavapipe) that is a failure.

#![cfg(feature = "gpu")]

#[path = "it/common/mod.rs"]
mod common;

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{any_case, maps_dir};
use proptest::prelude::*;
use signposts::generate::{Connectivity, grid, maze, walled_grid};
use signposts::gpu::GpuContext;
use signposts::grid::{GridOracle, TableKind, parse_map};
use signposts::{BuildOptions, Cancel, Error, GraphBuilder};

/// The adapter wgpu finds, made once; `None` (printed) when there is none and none is required.
fn gpu() -> Option<&'static GpuContext> {
    static GPU: OnceLock<Result<GpuContext, Error>> = OnceLock::new();
    match GPU.get_or_init(GpuContext::new) {
        Ok(gpu) => Some(gpu),
        Err(e) => {
            assert!(
                std::env::var_os("SIGNPOSTS_GPU_REQUIRED").is_none(),
                "SIGNPOSTS_GPU_REQUIRED is set and no GPU adapter could be made: {e}"
            );
            println!("SKIPPED: no GPU adapter could be made: {e}");
            None
        }
    }
}

/// The same adapter with buffers held to `per_node` bytes per node of `builder`, so that its
/// builds run in many chunks. A unit-cost dense chunk takes 64 bytes of state per node and
/// block of 256 columns, and `32 · width` bytes of output (128 on a 4-connected grid); a
/// compressed one, 16 bytes of state and `8 · degree` of output per 64 columns. The octile
/// engine keeps 32 times the state (a cost per target, not two bits).
fn small(builder: &GraphBuilder, per_node: u64) -> Option<GpuContext> {
    gpu()?;
    let bytes = per_node * builder.nodes_len() as u64;
    Some(GpuContext::new().expect("made once already").with_binding_limit(bytes))
}

fn dense_bytes(graph: &signposts::Graph) -> Vec<u8> {
    let mut bytes = Vec::new();
    graph.save(&mut bytes).expect("saved");
    bytes
}

fn compressed_bytes(graph: &signposts::CompressedGraph) -> Vec<u8> {
    let mut bytes = Vec::new();
    graph.save(&mut bytes).expect("saved");
    bytes
}

/// The GPU's dense and compressed tables of `builder` are the CPU's, byte for byte (or the
/// same error: compressed tables refuse nodes of more than 8 neighbours).
fn same_tables(gpu: &GpuContext, builder: &GraphBuilder, name: &str) {
    let cpu = builder.build();
    let on_gpu = BuildOptions::new().gpu(gpu).build(builder).expect("a GPU build");
    assert!(dense_bytes(&on_gpu) == dense_bytes(&cpu), "{name}: dense tables differ");
    match (builder.build_compressed(), BuildOptions::new().gpu(gpu).build_compressed(builder)) {
        (Ok(cpu), Ok(on_gpu)) => {
            assert!(compressed_bytes(&on_gpu) == compressed_bytes(&cpu), "{name}: compressed tables differ");
        }
        (Err(cpu), Err(on_gpu)) => assert_eq!(cpu, on_gpu, "{name}"),
        (cpu, on_gpu) => panic!("{name}: CPU {:?}, GPU {:?}", cpu.err(), on_gpu.err()),
    }
}

/// An octile grid (arcs of 1 and √2, no corner cutting) of `w × h` cells, a quarter blocked.
fn octile(w: usize, h: usize, seed: u64) -> GraphBuilder {
    let mut rng = signposts::generate::SplitMix64::new(seed);
    let mut text = format!("type octile\nheight {h}\nwidth {w}\nmap\n");
    for _ in 0..h {
        text.extend((0..w).map(|_| if rng.chance(0.25) { '@' } else { '.' }));
        text.push('\n');
    }
    GridOracle::graph_builder(&parse_map(text.as_bytes()).expect("a valid map"), Connectivity::Eight)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Octile grids: the GPU's octile engine against the CPU's Dijkstra (dense) and level
    /// engine (compressed).
    #[test]
    fn octile_tables_are_the_cpu_tables(w in 1usize..24, h in 1usize..24, seed in any::<u64>()) {
        let Some(gpu) = gpu() else { return Ok(()) };
        same_tables(gpu, &octile(w, h, seed), "octile");
    }

    /// Grids of both connectivities, mazes, sparse graphs, trees, odd cycles, complete graphs
    /// (entries wider than 64 bits), pieces with isolated nodes.
    #[test]
    fn gpu_tables_are_the_cpu_tables(case in any_case()) {
        let Some(gpu) = gpu() else { return Ok(()) };
        same_tables(gpu, &case.builder, case.name);
    }

    /// Rows given room for more neighbours than they have: wider entries than the degree needs.
    #[test]
    fn reserved_widths_are_packed_as_the_cpu_packs_them(case in any_case(), reserve in 1u32..20) {
        let Some(gpu) = gpu() else { return Ok(()) };
        let mut builder = case.builder;
        builder.reserve_degree(reserve);
        let on_gpu = BuildOptions::new().gpu(gpu).build(&builder).expect("a GPU build");
        prop_assert!(dense_bytes(&on_gpu) == dense_bytes(&builder.build()), "{}", case.name);
    }
}

/// Builds in many chunks (buffers held to a few KiB): dense chunks of one block of 256
/// columns, mask chunks of 64 to a few hundred columns, with trees peeled and walls.
#[test]
fn chunked_builds_are_the_cpu_tables() {
    // A perfect maze is all trees: no core to search, one step filling the trees.
    for (name, builder, least, per_node) in [
        ("walled 4-grid", walled_grid(65, 57, 0.3, 5, Connectivity::Four), 4, 300),
        ("walled 8-grid", walled_grid(61, 49, 0.25, 6, Connectivity::EightUnit), 4, 300),
        ("maze", maze(40, 40, 7), 1, 300),
        ("open 4-grid", grid(50, 40, Connectivity::Four), 4, 300),
        ("octile grid", octile(60, 50, 8), 4, 1200),
    ] {
        let Some(gpu) = small(&builder, per_node) else { return };
        let chunks = AtomicUsize::new(0);
        let built = BuildOptions::new()
            .gpu(&gpu)
            .progress(|p| {
                chunks.fetch_max(p.total, Ordering::Relaxed);
            })
            .build(&builder);
        assert!(dense_bytes(&built.expect("a GPU build")) == dense_bytes(&builder.build()), "{name}");
        assert!(chunks.into_inner() >= least, "{name}: the test needs several chunks");
        same_tables(&gpu, &builder, name);
    }
}

/// den312d, a Moving AI map, 4-connected and octile: the grid oracle built on the GPU is the
/// CPU's, dense and compressed.
#[test]
fn a_moving_ai_map_is_built_the_same() {
    let Some(gpu) = gpu() else { return };
    let grid = parse_map(&std::fs::read(maps_dir().join("den312d.map")).expect("the map")).expect("a map");
    for connectivity in [Connectivity::Four, Connectivity::Eight] {
        for kind in [TableKind::Dense, TableKind::Compressed] {
            let cpu = BuildOptions::new().build_grid(&grid, connectivity, kind).expect("a CPU build");
            let on_gpu =
                BuildOptions::new().gpu(gpu).build_grid(&grid, connectivity, kind).expect("a GPU build");
            let (mut a, mut b) = (Vec::new(), Vec::new());
            cpu.save(&mut a).expect("saved");
            on_gpu.save(&mut b).expect("saved");
            assert!(a == b, "{connectivity:?} {kind:?} tables differ");
        }
    }
}

#[test]
fn progress_reaches_its_total_once_per_chunk() {
    let builder = walled_grid(40, 40, 0.2, 3, Connectivity::Four);
    let Some(gpu) = small(&builder, 300) else { return };
    for compressed in [false, true] {
        let calls = AtomicUsize::new(0);
        let last = AtomicUsize::new(0);
        let total = AtomicUsize::new(0);
        let progress = |p: signposts::Progress| {
            calls.fetch_add(1, Ordering::Relaxed);
            last.fetch_max(p.done, Ordering::Relaxed);
            total.store(p.total, Ordering::Relaxed);
        };
        let mut options = BuildOptions::new();
        options.gpu(&gpu).progress(progress);
        if compressed {
            options.build_compressed(&builder).expect("built");
        } else {
            options.build(&builder).expect("built");
        }
        drop(options);
        let total = total.into_inner();
        assert!(total > 1, "several chunks");
        assert_eq!((calls.into_inner(), last.into_inner()), (total, total), "compressed: {compressed}");
    }
}

#[test]
fn integer_costs_and_one_way_arcs_are_refused_before_any_work() {
    let Some(gpu) = gpu() else { return };
    let unsupported = |r: Result<(), Error>| matches!(r, Err(Error::Unsupported { .. }));
    let mut weighted = GraphBuilder::new(3);
    weighted.connect(0, 1).connect_weighted(1, 2, 3);
    assert!(unsupported(BuildOptions::new().gpu(gpu).build(&weighted).map(drop)));
    assert!(unsupported(BuildOptions::new().gpu(gpu).build_compressed(&weighted).map(drop)));
    let mut directed = GraphBuilder::new(3);
    directed.connect(0, 1).connect_directed(1, 2);
    assert!(unsupported(BuildOptions::new().gpu(gpu).build(&directed).map(drop)));
    // An octile grid whose rows were given room for 64 neighbours: entries wider than the
    // octile kernels pack.
    let mut wide = octile(6, 6, 1);
    wide.reserve_degree(64);
    assert!(unsupported(BuildOptions::new().gpu(gpu).build(&wide).map(drop)));
}

#[test]
fn a_device_too_small_is_an_error_naming_the_bytes() {
    let Some(_) = gpu() else { return };
    let builder = grid(60, 60, Connectivity::Four);
    // One block of 256 columns of a 3,600-node table is 460,800 bytes.
    let tiny = GpuContext::new().expect("an adapter").with_binding_limit(64 << 10);
    match BuildOptions::new().gpu(&tiny).build(&builder) {
        Err(Error::GpuMemory { needed, limit: Some(limit) }) => {
            assert_eq!(limit, 64 << 10);
            assert!(needed > limit);
        }
        other => panic!("expected GpuMemory, got {:?}", other.map(|_| ())),
    }
    // The graph's own arrays past the binding limit: 30×30 cells have 3,480 arcs, 13,920 bytes
    // of heads.
    let tiny = GpuContext::new().expect("an adapter").with_binding_limit(4096);
    let err = BuildOptions::new().gpu(&tiny).build_compressed(&grid(30, 30, Connectivity::Four)).map(drop);
    assert_eq!(err, Err(Error::GpuMemory { needed: 13_920, limit: Some(4096) }));
    let budget = GpuContext::new().expect("an adapter").with_memory_limit(100_000);
    let err =
        BuildOptions::new().gpu(&budget).build_compressed(&builder).map(drop).expect_err("over the budget");
    assert!(matches!(err, Error::GpuMemory { needed, limit: Some(100_000) } if needed > 100_000), "{err}");
    assert!(err.to_string().contains("over its limit of 100000 bytes"), "{err}");
}

#[test]
fn a_cancelled_build_starts_no_chunk() {
    let builder = grid(40, 40, Connectivity::Four);
    let Some(gpu) = small(&builder, 300) else { return };
    let cancel = Cancel::new();
    cancel.cancel();
    let mut options = BuildOptions::new();
    options.gpu(&gpu).cancel(&cancel);
    assert!(matches!(options.build(&builder), Err(Error::Cancelled)));
    assert!(matches!(options.build_compressed(&builder), Err(Error::Cancelled)));
    // Cancelled by its own progress after the first chunk: no further chunk runs.
    let cancel = Cancel::new();
    let calls = AtomicUsize::new(0);
    let result = BuildOptions::new()
        .gpu(&gpu)
        .progress(|_| {
            calls.fetch_add(1, Ordering::Relaxed);
            cancel.cancel();
        })
        .cancel(&cancel)
        .build(&builder);
    assert!(matches!(result, Err(Error::Cancelled)));
    assert!(calls.into_inner() <= 2, "at most the chunk being read and the one searched");
}

/// A corridor of √2 arcs on the octile model: distances up to `(n − 1)·√2`, past the node
/// count, so searches run more levels than there are nodes. A small cycle at each end keeps
/// the corridor from being peeled in the compressed build.
#[test]
fn octile_distances_past_the_node_count() {
    let Some(gpu) = gpu() else { return };
    // 60 nodes: distances up to 83, past the first group of 64 levels.
    let mut builder = GridOracle::graph_builder(&signposts::grid::Grid::new(60, 1), Connectivity::Eight);
    for i in 0..59 {
        builder.disconnect(i, i + 1);
        builder.connect_weighted(i, i + 1, 2);
    }
    builder.connect_weighted(0, 2, 2).connect_weighted(57, 59, 2);
    same_tables(gpu, &builder, "√2 corridor");
}

#[test]
fn empty_and_edgeless_graphs() {
    let Some(gpu) = gpu() else { return };
    for n in [0, 1, 2, 300] {
        same_tables(gpu, &GraphBuilder::new(n), "edgeless");
    }
}
