//! # signposts
//!
//! Exact all-pairs next-hop oracles for game pathfinding.
//!
//! Games put hundreds to tens of thousands of entities on a map, all chasing targets that move
//! every tick. Instead of one search per entity per tick, `signposts` precomputes, for every
//! node `u` and every destination `t`, **which neighbours of `u` lie on a shortest path to
//! `t`**. Then "where do I step next?" is one table load, whatever the target does.
//!
//! ```
//! use signposts::generate::{grid, Connectivity};
//!
//! // A 10×10 open grid; cell (x, y) is node y * 10 + x.
//! let graph = grid(10, 10, Connectivity::Four).build();
//! let (entity, player) = (0, 99);
//! let step = graph.neighbor_to(entity, player).unwrap();
//! assert!(step == 1 || step == 10);
//! assert_eq!(graph.neighbors_to(entity, player).collect::<Vec<_>>(), [1, 10]);
//! assert_eq!(graph.cost(entity, player), Some(signposts::Cost::integer(18)));
//! assert_eq!(graph.path_to(entity, player).count(), 19);
//! ```
//!
//! ## What is exact
//!
//! With `d(x, t)` the shortest-path distance, `v` is an answer of
//! [`neighbors_to(u, t)`](Graph::neighbors_to) **exactly** when `v` is a neighbour of `u` and
//! `d(v, t) = d(u, t) − 1`. This holds on every graph: odd cycles (triangles, 8-connected
//! grids, hex grids), disconnected parts and isolated nodes. Unreachable targets answer `None`
//! or an empty iterator; out-of-range ids panic with a message naming the id and the node count,
//! or return [`Error::NodeOutOfRange`] from the `try_` twins. Property tests check every answer
//! against a plain BFS on grids, mazes, odd cycles, random, complete and disconnected graphs.
//!
//! ## Grids and game maps
//!
//! [`grid::GridOracle`] answers in cells and [`grid::Direction`]s on 4-connected grids (steps
//! cost 1) and 8-connected grids (diagonals cost √2, no corner cutting). Octile costs are
//! compared exactly as `a + b·√2` ([`Cost`]): no rounding decides which move is optimal.
//! [`grid::GridOracle::next_step_each`] answers a crowd's steps in one call, their table
//! reads overlapped. [`grid::parse_map`] and [`grid::parse_scenarios`] read the Moving AI benchmark formats
//! (every malformed input is an error naming its line and column), and
//! [`grid::ScenarioCheck`] checks an oracle against a scenario file.
//!
//! ```
//! use signposts::grid::{Cell, Connectivity, Direction, Grid, GridOracle};
//! let grid = Grid::from_ascii("
//!     .....
//!     .###.
//!     .....
//! ")?;
//! let oracle = GridOracle::build(&grid, Connectivity::Eight)?;
//! let (from, to) = (Cell::new(0, 1), Cell::new(4, 1));
//! // Around the wall, either way; no diagonal may cut its corners.
//! assert_eq!(oracle.next_steps(from, to).collect::<Vec<_>>(), [Direction::North, Direction::South]);
//! assert_eq!(oracle.distance(from, to), Some(6.0));
//! // In the open, diagonals cost √2, counted exactly.
//! let open = GridOracle::build(&Grid::new(3, 3), Connectivity::Eight)?;
//! let cost = open.cost(Cell::new(0, 0), Cell::new(2, 1)).unwrap();
//! assert_eq!((cost.straight, cost.diagonal), (1, 1));
//! # Ok::<(), signposts::Error>(())
//! ```
//!
//! ## Weights and one-way arcs
//!
//! [`GraphBuilder::connect_weighted`] gives an edge an integer cost,
//! [`GraphBuilder::connect_directed`] makes a one-way passage. Such graphs are built by one
//! exact Dijkstra search per target (Dial's buckets); unweighted undirected graphs by the much
//! faster bit-parallel BFS. Every query keeps its meaning: `cost` is the path's exact cost.
//!
//! ## Maps that change
//!
//! [`Graph::apply`] (with [`dynamic::Change`]s), [`Graph::connect`], [`Graph::disconnect`] and
//! [`grid::GridOracle::set_blocked`] edit a built oracle in place: afterwards every answer is
//! what a fresh build would give. The [`dynamic`] module states which targets an edit can
//! affect and how each is repaired; undirected graphs (unit, weighted or octile costs) are
//! repaired locally, around the nodes whose distance changes, on all cores.
//!
//! ## Single queries
//!
//! When a table is not worth building (a one-off path on a huge map, a unit kind with its own
//! terrain costs, a map that changes every tick), [`search`] answers one query at a time: A*
//! (over jump points where costs are uniform) and greedy search on four-bit tile grids with
//! per-unit cost layers, with no heap allocation per query.
//!
//! ## Saving and loading
//!
//! [`Graph::save`] / [`Graph::load`] and [`grid::GridOracle::save`] /
//! [`grid::GridOracle::load`] use a versioned, checksummed binary format ([`format`](mod@format)): precompute
//! at build time, load at start-up. A truncated, corrupted or foreign file is an [`Error`].
//! The `signposts` command-line tool (crate `signposts-cli`) builds, queries, checks and renders
//! oracles of map files.
//!
//! ## Queries
//!
//! | query | answer | cost |
//! | --- | --- | --- |
//! | [`Graph::neighbor_to`] | lowest-id optimal next hop | O(1), one table load |
//! | [`Graph::neighbor_to_each`] | the same for many entities, prefetched | O(1) per query |
//! | [`NextHop::neighbor_to_each_spread`] | the same, each entity's tie broken by its seed | O(1) per query |
//! | [`Graph::neighbors_to`] | every optimal next hop | O(1) + O(1) per item |
//! | [`Graph::path_to`] | a whole shortest path, both ends included | O(1) per node |
//! | [`Graph::cost`] | the exact cost of a shortest path ([`Cost`]) | O(d), walks the path |
//! | [`Graph::path_exists`] | reachability | O(1), component ids |
//! | [`Graph::neighbors_away`] | neighbours strictly farther from the target (flee) | O(deg · log deg) |
//! | [`Graph::component`] | connected component id | O(1) |
//!
//! ## One trait for every table
//!
//! [`NextHop`] holds the queries every oracle answers — one optimal step, every kept step,
//! the path, its exact cost, reachability, and a whole crowd's steps in one batched call — and
//! [`Graph`], [`CompressedGraph`], [`Graph16`] … [`Graph128`] and a grid oracle's table
//! ([`TableRef`], from [`grid::GridOracle::table`]) implement it. Game code written against
//! `&impl NextHop` takes any of them, compiled for each (no dynamic dispatch in its loops), so
//! moving a map from the dense table to the compressed one is a one-line change where the
//! table is built. [`Crowd`] steps many entities toward a target with one batched query a
//! tick, allocating nothing after its first.
//!
//! ```
//! use signposts::{Crowd, NextHop};
//! use signposts::generate::{grid, Connectivity};
//!
//! fn chase(table: &impl NextHop, crowd: &mut Crowd, player: u32) -> usize {
//!     crowd.step_toward(table, player).map_or(0, |step| step.moved)
//! }
//! let builder = grid(64, 64, Connectivity::Four);
//! let dense = builder.build();
//! let compressed = builder.build_compressed()?; // the same game code runs on either
//! let (mut a, mut b) = (Crowd::new(vec![0, 63, 4032]), Crowd::new(vec![0, 63, 4032]));
//! assert_eq!(chase(&dense, &mut a, 2080), chase(&compressed, &mut b, 2080));
//! # Ok::<(), signposts::Error>(())
//! ```
//!
//! ## Memory
//!
//! The table is node-major. Node `u` stores one entry per target, `width(u)` bits wide:
//! its degree rounded up to 1, 2, 4, 8, …, 64 bits (whole words beyond 64), each row starting
//! on a word boundary. In all, `n · Σ_u width(u)` bits plus O(n + m):
//!
//! | graph | nodes | table |
//! | --- | --- | --- |
//! | 32×32 4-connected grid | 1,024 | 0.5 MiB |
//! | 80×80 perfect maze | 6,400 | ≈ 11 MiB |
//! | 100×100 4-connected grid | 10,000 | 48 MiB |
//! | 100×100 8-connected grid | 10,000 | 95 MiB |
//! | 320×320 4-connected grid | 102,400 | 4.9 GiB |
//!
//! Check the size before building with [`GraphBuilder::memory_needed`], and cap it with
//! [`BuildOptions::memory_limit`]: past the cap, the build returns
//! [`Error::OverMemoryLimit`] without allocating.
//!
//! ## Building
//!
//! Unweighted undirected graphs are built by a bit-parallel BFS over a batch of targets at
//! once, one bit per target: 128 targets a batch, 256 on graphs of more than 65,536 nodes
//! (and in compressed builds on processors with AVX2). Each node's whole state is its distance
//! to every target of the batch modulo 3, in two bit planes, and the table fills during the
//! sweep, with no distance matrix. Targets are grouped into compact balls so that each
//! batch's wavefronts overlap, and trees hanging off the graph are peeled and filled without a
//! search. Weighted and one-way graphs take one exact Dijkstra search per target (octile
//! grids, with AVX2, an engine that searches 32 targets at once). With the default `parallel`
//! feature, batches run on all cores (rayon); each writes its own words of every row, so the
//! table is the same for any thread count. [`BuildOptions`] sets a memory limit, progress
//! reports, cancellation, the thread count and the GPU.
//!
//! ## Which type to use
//!
//! - [`Graph`]: any graph whose table fits in memory (see the table above: up to about
//!   100,000 nodes on a desktop machine), unweighted, weighted or with one-way arcs.
//! - [`CompressedGraph`] ([`GraphBuilder::build_compressed`]): large maps (unit, weighted
//!   or octile costs, no one-way arcs); rows stored as runs (20–206 bytes per node on the
//!   4-connected Moving AI maps measured, 11 on a perfect maze, 38–935 octile), queries by
//!   binary search, trees peeled to O(n). See [`compressed`].
//! - [`grid::GridOracle`]: a tile grid, answered in cells and directions; its table, dense or
//!   compressed, answers [`NextHop`] by node through [`grid::GridOracle::table`].
//! - [`Graph16`], [`Graph32`], [`Graph64`], [`Graph128`]: tiny graphs (rooms, boards, menus),
//!   no heap, `u8` ids, `Copy`.
//! - [`search::Searcher`]: no table at all, one search per query: maps too large for a table,
//!   per-unit terrain costs, maps that change every tick.
//!
//! ## Platforms
//!
//! The core builds for every target with `std`: x86-64, aarch64 (Apple Silicon, ARM
//! consoles and phones), `wasm32-unknown-unknown`. Its build engines use AVX2 and AVX-512
//! where the processor has them (detected at run time, x86-64 only); every such path has a
//! portable twin that builds the same table, byte for byte. CI checks the aarch64 and wasm32
//! builds and runs the core's tests a second time with the environment variable
//! `SIGNPOSTS_PORTABLE` set, which turns every SIMD path off.
//!
//! ## Conventions
//!
//! Every crate of signposts (the core, `signposts-rooms`, `signposts-bevy`, the CLI) names
//! things one way:
//!
//! | rule | meaning | examples |
//! | --- | --- | --- |
//! | one way to build | [`BuildOptions`] (memory limit, progress, cancel, threads, GPU) and its terminal methods; `build()` / `build_compressed()` are one-line conveniences | [`BuildOptions::build_grid`], [`GraphBuilder::build`], `BuildRooms::build_rooms` |
//! | progress | one type, [`Progress`]: `done` of `total`, [`Progress::fraction`] | every build |
//! | `cost` | the exact cost of a shortest path over a node table, a [`Cost`] (`straight + diagonal·√2`, compared exactly) | [`Graph::cost`], [`CompressedGraph::cost`], [`NextHop::cost`], [`grid::GridOracle::cost`] |
//! | `distance` | a geometric length, `f64`, in the map's units | [`grid::GridOracle::distance`], the rooms layer's `Rooms::distance` |
//! | [`grid::Connectivity`] | `Four` (cost 1), `Eight` (diagonals cost √2, no corner cutting), `EightUnit` (every move costs 1) — the same meaning in [`grid`], [`generate`] and [`search`] | |
//! | `try_x` | exactly `x`, returning `Result` where `x` panics (ids out of range, sizes); every `try_x` has its `x` | [`Graph::try_neighbor_to`], [`grid::Grid::try_from_fn`] |
//! | `x_with` | `x` reusing the caller's scratch buffers: allocates nothing | the rooms layer's `path_with(…, &mut Scratch)` |
//! | `x_each` | `x` over a slice of `(from, to)` pairs, one answer per pair into a cleared `Vec` | [`Graph::neighbor_to_each`], [`grid::GridOracle::next_step_each`] |
//! | `x_each_spread` | the same, ties broken per entity by a seed | [`NextHop::neighbor_to_each_spread`] |
//! | `x_toward` | many sources, one target (a crowd after one player) | [`Crowd::step_toward`] |
//! | `apply` | a batch of edits, repaired together | [`Graph::apply`], [`grid::GridOracle::apply`] |
//! | `x_job` | `x` spread over calls: a job that `step(budget)`s a [`dynamic::Budget`] at a time, answers [`Progress`], and `finish()`es into `x`'s result | [`Graph::repair_job`], [`grid::GridOracle::set_blocked_job`] |
//! | persistence | `save(writer)`, `load(reader)`, `save_to(path)` (atomic), `load_from(path)`, and where the format allows reading in place `from_bytes(bytes, check)` and `map_file(path, check)` | [`Graph`], [`CompressedGraph`], [`grid::GridOracle`], the rooms layer's `Rooms` |
//! | errors | one `Error` enum a crate, `#[non_exhaustive]`; a wrapped error is [`std::error::Error::source`], not repeated in `Display` | [`Error::Io`] |
//! | ids | `u32` node ids; out-of-range ids panic in `x` with the id and the count, and are [`Error::NodeOutOfRange`] in `try_x` | |
//! | test hooks | behind the `test-support` feature: not for users, no stability promise | `format::reseal` |
//!
//! ## Features
//!
//! - `parallel` (default): build on all cores with rayon. Answers are identical without it.
//! - `mmap` (default): open saved tables memory-mapped (`map_file`, memmap2).
//! - `test-support`: hooks for the crate's own tests and fuzzers; not for users.
//! - `gpu`: build dense and compressed tables of unit-cost graphs on the GPU (the `gpu` module: wgpu
//!   compute shaders on Vulkan, Metal or DirectX 12), byte for byte the CPU build's tables.

#![cfg_attr(docsrs, feature(doc_cfg))]

mod buf;
pub(crate) mod build;
mod builder;
mod components;
pub mod compressed;
mod crowd;
mod dense;
mod dist;
pub mod dynamic;
mod error;
pub mod format;
pub mod generate;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod grid;
mod memory;
mod next_hop;
mod options;
mod prefetch;
pub mod search;
mod small;

pub use build::{Cancel, Progress};
pub use builder::{GraphBuilder, MAX_NODES};
pub use compressed::{CompressedGraph, CompressedShard};
pub use crowd::{Crowd, CrowdStep};
pub use dense::{Graph, NeighborsAway, NeighborsTo, PathTo};
pub use dist::Cost;
pub use error::{BuildError, Error, IoError};
pub use next_hop::{NextHop, TableRef};
pub use options::BuildOptions;
pub use small::{
    Graph16, Graph16Builder, Graph32, Graph32Builder, Graph64, Graph64Builder, Graph128, Graph128Builder,
    Nodes, SmallGraph, SmallGraphBuilder, SmallPath,
};

/// A node id: `0..nodes_len()`.
pub type NodeId = u32;
