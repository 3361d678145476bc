//! What promises not to allocate does not: a warmed-up `Searcher`'s queries, and a `Crowd`'s
//! ticks on every table after its first. Counted by a global allocator that tallies this
//! thread's allocations.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell as StdCell;

use signposts::generate::{Connectivity as Moves, SplitMix64, grid};
use signposts::grid::{Cell, Connectivity};
use signposts::search::{Layer, Route, Searcher, TileGrid};
use signposts::{Crowd, Graph16, NextHop, NodeId, TableRef};

struct Counting;

thread_local! {
    static ALLOCATIONS: StdCell<usize> = const { StdCell::new(0) };
}

// SAFETY: every call is forwarded unchanged to the system allocator; the counter is a
// const-initialised thread-local `Cell`, which does not allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
        // SAFETY: forwarded unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(StdCell::get)
}

#[test]
fn warmed_up_searches_do_not_allocate() {
    // A 128×128 map with 30% walls and a swamp tag, two unit kinds.
    let mut rng = SplitMix64::new(11);
    let tiles = TileGrid::from_fn(128, 128, |_| match rng.below(10) {
        0..=2 => 0,
        3 => 2,
        _ => 1,
    });
    let layers = [Layer::WALKABLE, Layer::WALKABLE.with(2, 4)];
    let mut cells: Vec<Cell> = Vec::new();
    for y in 0..128 {
        for x in 0..128 {
            if tiles.tag(Cell::new(x, y)) != Some(0) {
                cells.push(Cell::new(x, y));
            }
        }
    }
    let queries: Vec<(Cell, Cell)> = (0..300)
        .map(|_| {
            (cells[rng.below(cells.len() as u64) as usize], cells[rng.below(cells.len() as u64) as usize])
        })
        .collect();
    let mut searcher = Searcher::new();
    let mut path = Vec::with_capacity(128 * 128);
    let run = |searcher: &mut Searcher, path: &mut Vec<Cell>| {
        let mut found = 0;
        for (i, &(a, b)) in queries.iter().enumerate() {
            let layer = layers[i % 2];
            for connectivity in [Connectivity::Four, Connectivity::Eight] {
                let route = searcher.astar(&tiles, layer, connectivity, a, b).unwrap();
                found += usize::from(!matches!(route, Route::Unreachable));
                let _ = searcher.greedy(&tiles, layer, connectivity, a, b).unwrap();
                let _ = searcher.astar_into(&tiles, layer, connectivity, a, b, path).unwrap();
            }
        }
        found
    };
    // Warm-up: the searcher sizes its records and queues.
    let found = run(&mut searcher, &mut path);
    assert!(found > 300, "most queries have a path ({found})");
    let before = allocations();
    run(&mut searcher, &mut path);
    assert_eq!(allocations() - before, 0, "allocations after warm-up");
}

/// Allocations made by `count` ticks of a crowd of 500 after its first tick.
fn crowd_allocations(table: &impl NextHop, count: usize) -> usize {
    let n = table.nodes_len() as u64;
    let mut rng = SplitMix64::new(3);
    let mut crowd = Crowd::new((0..500).map(|_| rng.below(n) as NodeId).collect());
    let targets: Vec<NodeId> = (0..=count).map(|_| rng.below(n) as NodeId).collect();
    crowd.step_toward(table, targets[0]).expect("ids in range");
    let before = allocations();
    for &target in &targets[1..] {
        crowd.step_toward(table, target).expect("ids in range");
    }
    allocations() - before
}

#[test]
fn crowds_step_without_allocating_after_the_first_tick() {
    let builder = grid(40, 40, Moves::Four);
    let (dense, compressed) = (builder.build(), builder.build_compressed().expect("4-connected"));
    let mut small = Graph16::builder(16);
    for v in 0..15 {
        small.connect(v, v + 1);
    }
    let small = small.build();
    assert_eq!(crowd_allocations(&dense, 50), 0, "dense");
    assert_eq!(crowd_allocations(&compressed, 50), 0, "compressed");
    assert_eq!(crowd_allocations(&TableRef::Dense(&dense), 50), 0, "a grid's table");
    assert_eq!(crowd_allocations(&small, 50), 0, "Graph16");
    // The counter counts: a fresh crowd's first tick allocates its buffers.
    let before = allocations();
    Crowd::new(vec![0; 500]).step_toward(&dense, 1).expect("ids in range");
    assert!(allocations() > before);
}
