//! Building the exact index: corners, what each sees, the visibility graph, the candidates
//! of each region and, as the memory budget allows, the corner table.

use core::cmp::Reverse;
use core::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::collections::BinaryHeap;
use std::sync::Arc;

use rayon::prelude::*;

use super::cells::{CellGrid, CellList, Raster};
use super::expand::{Piece, Sink, Sweep, sweep};
use super::links::{Links, Spec};
use super::table::{BOUND, Graph, Lengths, NARROW_PAIR, Table, WIDE_PAIR, filled, search};
use super::topology::{Kind, Topology};
use super::view::Views;
use super::{CornerGeo, ExactRooms, FULL, TAUT, Tier, labels};
use crate::mesh::NONE;
use crate::{DoorState, Error, NavMesh, Point, Rooms};
use signposts::{BuildOptions, Progress};

/// The tiers from the largest to the smallest: a tier asked for
/// ([`ExactBuilder::tier`]) falls back along this order when it does not fit.
const BY_SIZE: [Tier; 5] = [Tier::Table, Tier::CompactTable, Tier::Labels, Tier::CompactLabels, Tier::Graph];

/// Without a tier asked for, the first of these that fits: the labels first (a quarter of the
/// table's memory or less, at 1–2× its query time: docs/benchmarks.md), then the tables, then
/// the smaller tiers.
const UNASKED: [Tier; 5] = [Tier::Labels, Tier::Table, Tier::CompactTable, Tier::CompactLabels, Tier::Graph];

/// The most corners for which the build takes a labels tier unasked: their build is one
/// pruned search per corner on one thread (and the first steps `c²` searches), past a
/// minute on maps of some 20,000 corners (a map of 22,340 corners; a dense graph of 80,494).
const LABELS_UNASKED: usize = 16_384;

/// Corners swept at a time.
const CHUNK: usize = 4096;

/// The memory budget when none is set: 2 GiB.
pub const DEFAULT_BUDGET: u64 = 2 << 30;

/// Builds an [`ExactRooms`]: door states and a memory budget. How the build runs (progress,
/// cancel, threads, a memory limit) is the core's [`BuildOptions`], through
/// [`BuildRooms::build_exact`](crate::BuildRooms::build_exact).
///
/// ```
/// use signposts::grid::Grid;
/// use signposts_rooms::{ExactRooms, NavMesh, Tier};
/// let mesh = NavMesh::from_grid(&Grid::from_ascii("....\n.@@.\n....")?)?;
/// let exact = ExactRooms::builder(&mesh).memory_budget(1 << 20).build()?;
/// assert_eq!(exact.tier(), Tier::Labels);
/// // Too small for the labels and first steps: the next tier of the list that fits.
/// let small = ExactRooms::builder(&mesh).memory_budget(exact.memory_bytes() as u64 - 1).build()?;
/// assert_ne!(small.tier(), Tier::Labels);
/// assert!(small.memory_bytes() < exact.memory_bytes());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct ExactBuilder<'a> {
    mesh: &'a NavMesh,
    states: Option<Vec<DoorState>>,
    budget: u64,
    pub(super) links: Vec<Spec>,
    tier: Option<Tier>,
}

impl<'a> From<&'a NavMesh> for ExactBuilder<'a> {
    /// Every door open, the default budget.
    fn from(mesh: &'a NavMesh) -> ExactBuilder<'a> {
        ExactBuilder::new(mesh)
    }
}

impl<'a> From<&'a Rooms> for ExactBuilder<'a> {
    /// The rooms' mesh, door states (a one-way door is refused at build) and links (open or
    /// closed as the rooms have them), the default budget.
    fn from(rooms: &'a Rooms) -> ExactBuilder<'a> {
        let mut builder = ExactBuilder::new(rooms.mesh()).door_states(rooms.states.clone());
        builder.links = (rooms.links.iter().zip(&rooms.link_open))
            .map(|(l, &open)| Spec { ends: l.ends, cost: l.cost, two_way: l.two_way, open })
            .collect();
        builder
    }
}

impl<'a> From<&ExactBuilder<'a>> for ExactBuilder<'a> {
    fn from(builder: &ExactBuilder<'a>) -> ExactBuilder<'a> {
        builder.clone()
    }
}

/// What one corner's sweep collects.
#[derive(Default)]
pub(super) struct Seen {
    /// Each vertex seen, and the region it was seen through.
    vertices: Vec<(u32, u32)>,
    regions: Vec<u32>,
    pieces: Vec<Piece>,
}

impl Sink for Seen {
    fn vertex(&mut self, v: u32, r: u32) {
        self.vertices.push((v, r));
    }
    fn region(&mut self, r: u32, full: bool) {
        self.regions.push(r | if full { FULL } else { 0 });
    }
    fn piece(&mut self, piece: Piece) {
        self.pieces.push(piece);
    }
}

/// One corner's share of the index.
#[derive(Default)]
pub(super) struct Corner {
    /// Its visibility edges, `(corner, length)` sorted by corner.
    pub(super) neighbours: Vec<(u32, f64)>,
    /// The regions it is a candidate of, each with its [`FULL`] bit.
    pub(super) regions: Vec<u32>,
    /// The cells it is a candidate of, each with its [`FULL`] and [`TAUT`] bits.
    pub(super) cells: Vec<u32>,
    pub(super) pieces: Vec<Piece>,
    pub(super) spikes: Vec<Piece>,
}

/// A thread's buffers for sweeping corners.
pub(super) type SweepBufs = (Sweep, Seen, Raster);

/// Corner `c`'s share of the index: its sweep, and the cells its view covers.
pub(super) fn corner_share(
    topo: &Topology,
    corner_of: &[u32],
    grid: &CellGrid,
    c: u32,
    (buf, seen, raster): &mut SweepBufs,
) -> Corner {
    let mut corner = sweep_corner(topo, corner_of, c, buf, seen);
    corner.cells = raster.cells(topo, grid, c, &corner.pieces, &corner.spikes);
    corner
}

impl<'a> ExactBuilder<'a> {
    pub(crate) fn new(mesh: &'a NavMesh) -> ExactBuilder<'a> {
        ExactBuilder { mesh, states: None, budget: DEFAULT_BUDGET, links: Vec::new(), tier: None }
    }

    /// The doors' states (one per door, as [`NavMesh::doors`]); every door is open when not
    /// given. A closed door is a wall. One-way doors are refused ([`Error::NotExact`]): a
    /// shortest path that crosses doors only their way is not a path of the visibility graph.
    #[must_use]
    pub fn door_states(mut self, states: Vec<DoorState>) -> Self {
        self.states = Some(states);
        self
    }

    /// Adds a link from `from` to `to` (both in the walkable area) costing `cost` (in the map's
    /// length units, at least 0), one way or both, as [`RoomsBuilder::link`](crate::RoomsBuilder::link)
    /// takes it. A shortest path walks shortest walks from the start to a link's entrance,
    /// from its exit to the next entrance, and on to the goal, each link at its cost, and lists
    /// each as a [`PathStep::Link`](crate::PathStep::Link);
    /// [`ExactRooms::distance`] is the walked length plus the links' costs;
    /// [`ExactRooms::next_waypoint`] heads for the first link's entrance, and gives its exit
    /// to an entity at the entrance, as [`Rooms::next_waypoint`](crate::Rooms::next_waypoint)
    /// does. Links are numbered in the order they are added ([`LinkId`](crate::LinkId)); a
    /// [`Rooms`]' links come with it (`From<&Rooms>`).
    ///
    /// The build looks up the walk between every two link ends (`2l² - l` queries for `l`
    /// links), and a closed or opened door rebuilds them with the index;
    /// [`ExactRooms::set_link_open`] rebuilds nothing. A query searches over the link ends by
    /// A*, each walk from the start or to the goal looked up only when its straight-line
    /// bound could beat the best so far: without an open link a query costs what it did.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{ExactRooms, LinkId, NavMesh, Point};
    /// // Two rooms with no door between them, and a two-way teleporter costing 1.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("..@..\n..@..")?)?;
    /// let (a, b) = (Point::new(1.5, 0.5), Point::new(3.5, 0.5));
    /// let exact = ExactRooms::builder(&mesh).link(a, b, 1.0, true).build()?;
    /// let (left, right) = (Point::new(0.5, 0.5), Point::new(4.5, 0.5));
    /// let path = exact.path(left, right).expect("through the teleporter");
    /// assert_eq!(path.points(), [left, a, b, right]);
    /// assert_eq!(path.links().collect::<Vec<_>>(), [LinkId(0)]);
    /// assert_eq!(exact.distance(right, left), Some(3.0)); // 1 walked, 1 for it, 1 walked
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn link(mut self, from: Point, to: Point, cost: f64, two_way: bool) -> Self {
        self.links.push(Spec { ends: [from, to], cost, two_way, open: true });
        self
    }

    /// The most bytes the index may hold (default [`DEFAULT_BUDGET`], 2 GiB). Within it the
    /// index keeps the first tier of the [module docs](super)' list that fits ([`Tier`]); a budget below the visibility graph
    /// and the views, which every tier needs, is an [`Error::OverBudget`] saying how many
    /// bytes would do.
    #[must_use]
    pub fn memory_budget(mut self, bytes: u64) -> Self {
        self.budget = bytes;
        self
    }

    /// Asks for `tier` whatever else would fit: the build makes it when it fits the budget,
    /// else the next smaller tier that does ([`Tier::Graph`] at the least). Without it the
    /// build takes the first tier of the [module docs](super)' list within the budget.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{ExactRooms, NavMesh, Tier};
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("....\n.@@.\n....")?)?;
    /// let exact = ExactRooms::builder(&mesh).tier(Tier::CompactTable).build()?;
    /// assert_eq!(exact.tier(), Tier::CompactTable);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn tier(mut self, tier: Tier) -> Self {
        self.tier = Some(tier);
        self
    }

    /// Builds the index: [`BuildRooms::build_exact`](crate::BuildRooms::build_exact) with
    /// default options (no memory limit past the budget, no progress, every core).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when the door states are not one per door; [`Error::NotExact`]
    /// for a one-way door; [`Error::BadLink`] for a link end outside the walkable area or a
    /// cost negative or not finite; [`Error::OverBudget`] when even the smallest tier does not fit the
    /// budget (it says the bytes needed); [`Error::Core`] when the table's allocation fails
    /// (the views, graph and cells are counted against the budget as the sweeps find them: the
    /// build stops with [`Error::OverBudget`] as soon as they pass it, holding at most the
    /// budget and the sweeps in progress).
    ///
    /// # Complexity
    /// One sweep per corner, each touching the regions the corner sees; then, for the table
    /// tiers and the labels' first steps, one Dijkstra search per corner over the visibility
    /// graph (`O(c · (e + c log c))` for `c` corners and `e` edges) and `c²` pairs stored; for
    /// the labels, one search per corner pruned by the labels so far (on one thread); with `l`
    /// links, `2l² - l` queries between their ends.
    pub fn build(self) -> Result<ExactRooms, Error> {
        use crate::BuildRooms as _;
        BuildOptions::new().build_exact(self)
    }

    /// Builds the index under `options`: progress is reported over `2 · corners` steps (each
    /// corner's sweep, then each table row; a build without a table jumps to the end), a
    /// cancelled token stops it before the next sweep or row, a memory limit below the budget
    /// lowers the budget. Runs on the caller's thread pool (the options install theirs).
    #[expect(clippy::too_many_lines, reason = "the build's stages in order, each a few lines")]
    pub(crate) fn build_by(&self, options: &BuildOptions<'_>) -> Result<ExactRooms, Error> {
        options.check_cancelled()?;
        let budget = options.memory_limit_bytes().map_or(self.budget, |limit| limit.min(self.budget));
        let mesh = self.mesh;
        let states = self.states.clone().unwrap_or_else(|| vec![DoorState::Open; mesh.doors_len()]);
        if states.len() != mesh.doors_len() {
            return Err(Error::OutOfRange {
                what: "door states",
                id: states.len() as u32,
                len: mesh.doors_len(),
            });
        }
        if states.iter().any(|s| matches!(s, DoorState::OneWay { .. })) {
            return Err(Error::NotExact { why: "a one-way door" });
        }
        super::links::checked(mesh, &self.links)?;
        let topo = Topology::new(mesh, &states);
        let (corners, corner_of) = ordered_corners(&topo);
        // Progress over both stages: a step per corner swept, then per table row.
        let (done, total) = (AtomicUsize::new(0), 2 * corners.len());
        let report = || {
            let d = done.fetch_add(1, Ordering::Relaxed) + 1;
            if d == total || d.is_multiple_of((total / 200).max(1)) {
                options.report(Progress::new(d, total));
            }
        };
        let cancelled = || options.is_cancelled();
        let grid = CellGrid::over(mesh.bounds(), mesh.regions_len());
        // The bytes of the index counted as the sweeps produce them (what `base_bytes` counts
        // at the end, never more), so that the build stops as soon as they pass the budget
        // instead of holding every sweep first.
        let c = corners.len();
        let fixed = topo.memory_bytes()
            + mesh.memory_bytes()
            + (c + corner_of.len() + grid.len() + 1 + (c + 1) + 2 * c) * 4
            + c * size_of::<CornerGeo>();
        let held = AtomicU64::new(fixed as u64);
        let over = |needed: u64| match options.memory_limit_bytes() {
            Some(limit) if limit < self.budget => {
                Error::Core(signposts::Error::OverMemoryLimit { needed, limit })
            }
            _ => Error::OverBudget { needed, budget },
        };
        let past_budget = || held.load(Ordering::Relaxed) > budget;
        if past_budget() {
            return Err(over(held.load(Ordering::Relaxed)));
        }
        // Corners a chunk at a time (in parallel within it), each chunk's views and edges
        // appended and its sweeps dropped: the build holds one chunk's sweeps beside the index.
        let mut views = Views::default();
        let mut graph = Graph { start: vec![0], edges: Vec::new() };
        let (mut regions, mut cells): (Vec<Vec<u32>>, Vec<Vec<u32>>) = (Vec::new(), Vec::new());
        for chunk in corners.chunks(CHUNK) {
            let found: Vec<Corner> = chunk
                .par_iter()
                .map_init(SweepBufs::default, |bufs, &c| {
                    if cancelled() || past_budget() {
                        return Corner::default(); // dropped below
                    }
                    let corner = corner_share(&topo, &corner_of, &grid, c, bufs);
                    let bytes = (corner.pieces.len() + corner.spikes.len()) * size_of::<Piece>()
                        + corner.neighbours.len() * size_of::<(u32, f64)>()
                        + corner.cells.len() * 4;
                    held.fetch_add(bytes as u64, Ordering::Relaxed);
                    report();
                    corner
                })
                .collect();
            if cancelled() {
                return Err(Error::Cancelled);
            }
            if past_budget() {
                return Err(over(held.load(Ordering::Relaxed)));
            }
            for (corner, &c) in found.into_iter().zip(chunk) {
                views.append(&topo, c, &corner.pieces, &corner.spikes);
                graph.edges.extend_from_slice(&corner.neighbours);
                graph.start.push(graph.edges.len() as u32);
                regions.push(corner.regions);
                cells.push(corner.cells);
            }
        }
        let (cand_start, cand) = invert(&regions, mesh.regions_len());
        drop(regions);
        let (cell_start, cell_list) = invert(&cells, grid.len());
        drop(cells);
        views.shrink_to_fit();
        graph.edges.shrink_to_fit();
        let geo = corners.iter().map(|&v| CornerGeo::new(&topo, v)).collect();
        let mut exact = ExactRooms {
            mesh: Arc::new(mesh.clone()),
            states,
            budget,
            topo,
            corners,
            corner_of,
            geo,
            views,
            grid,
            cell_start: cell_start.into(),
            cell_list: CellList::new(cell_list, c),
            graph,
            table: None,
            labels: None,
            tier: Tier::Graph,
            file: super::io::Origin::default(),
            links: Links::default(),
        };
        // Every tier holds this much; the table's size is known before it is allocated.
        let base = exact.base_bytes() as u64;
        if base > budget {
            return Err(over(base));
        }
        let n = exact.corners.len();
        let pairs = (n as u64) * (n as u64);
        let bounds = n as u64 * mesh.regions_len() as u64 * BOUND;
        let cands = (cand_start.len() + cand.len()) as u64 * 4;
        let left = budget - base;
        let order = match self.tier {
            Some(wanted) => &BY_SIZE[BY_SIZE.iter().position(|&t| t == wanted).unwrap_or(0)..],
            None => &UNASKED[..],
        };
        let mut chosen = false;
        for &tier in order {
            if self.tier.is_none() && matches!(tier, Tier::Labels | Tier::CompactLabels) && n > LABELS_UNASKED
            {
                continue;
            }
            exact.tier = tier;
            match tier {
                Tier::Table | Tier::CompactTable => {
                    let pair = if tier == Tier::Table { WIDE_PAIR } else { NARROW_PAIR };
                    if n >= 1 << 16 || pairs * pair + bounds + cands > left {
                        continue;
                    }
                    let mut table =
                        fill_table(&exact.graph, n, tier == Tier::Table, &cancelled, |_| report())?;
                    table.bounds = region_bounds(&exact, &table, &cand_start, &cand)?.into();
                    (table.cand_start, table.cand) = (cand_start.clone().into(), cand.clone().into());
                    exact.table = Some(table);
                    chosen = true;
                    break;
                }
                Tier::Labels | Tier::CompactLabels => {
                    let hops = if tier == Tier::Labels { pairs * 2 } else { 0 };
                    if (tier == Tier::Labels && n >= 1 << 16) || hops > left {
                        continue;
                    }
                    // Their size is known only as they grow: stopped as soon as they pass.
                    if let Some(mut labels) = labels::build(&exact.graph, n, left - hops, &cancelled, &report)
                    {
                        if tier == Tier::Labels {
                            labels.hop = Some(fill_hops(&exact.graph, n, &cancelled)?.into());
                        }
                        exact.labels = Some(labels);
                        chosen = true;
                        break;
                    }
                    if cancelled() {
                        return Err(Error::Cancelled);
                    }
                }
                Tier::Graph => break,
            }
        }
        if !chosen {
            exact.tier = Tier::Graph;
            if total > 0 {
                options.report(Progress::new(total, total));
            }
        }
        exact.links = Links::build(&exact, &self.links, &cancelled)?;
        Ok(exact)
    }
}

/// The corners (vertices where paths turn), numbered along a Z-order curve so that corners
/// near each other get near numbers (the corners a point sees then sit in few cache lines of
/// each table row), and each vertex's corner number (`NONE`: not a corner).
pub(super) fn ordered_corners(topo: &Topology) -> (Vec<u32>, Vec<u32>) {
    let mut corners: Vec<u32> =
        (0..topo.points.len() as u32).filter(|&v| topo.kinds[v as usize] != Kind::Plain).collect();
    let (lo, hi) = crate::geom::bounding_box(corners.iter().map(|&v| topo.at(v)));
    #[expect(clippy::cast_sign_loss, reason = "a - l and h - l are not negative")]
    let cell = |a: f64, l: f64, h: f64| if h > l { ((a - l) / (h - l) * 65_535.0) as u32 } else { 0 };
    corners.sort_by_key(|&v| {
        let p = topo.at(v);
        morton(cell(p.x, lo.x, hi.x), cell(p.y, lo.y, hi.y))
    });
    let mut corner_of = vec![NONE; topo.points.len()];
    for (i, &v) in corners.iter().enumerate() {
        corner_of[v as usize] = i as u32;
    }
    (corners, corner_of)
}

/// Sweeps what corner `c` sees and keeps what the index needs of it.
fn sweep_corner(topo: &Topology, corner_of: &[u32], c: u32, buf: &mut Sweep, seen: &mut Seen) -> Corner {
    seen.vertices.clear();
    seen.regions.clear();
    seen.pieces.clear();
    let pc = topo.at(c);
    // A corner made by closed doors looks out of its own wedge only.
    let mut starts: Vec<u32> =
        topo.around(c).iter().map(|&(r, _)| r).filter(|&r| topo.turns_through(c, r)).collect();
    starts.sort_unstable();
    starts.dedup();
    sweep(topo, pc, &starts, Some(c), buf, seen);
    // Visibility edges that can lie on a shortest path: taut at both ends.
    let neighbours = seen
        .vertices
        .iter()
        .filter(|&&(v, r)| {
            v != c
                && corner_of[v as usize] != NONE
                && topo.taut(c, topo.at(v))
                && topo.taut(v, pc)
                && topo.turns_through(v, r)
        })
        .map(|&(v, _)| (corner_of[v as usize], pc.distance(topo.at(v))))
        .collect::<Vec<_>>();
    // Seen more than one way: one edge.
    let mut neighbours = neighbours;
    neighbours.sort_unstable_by_key(|e| e.0);
    neighbours.dedup_by_key(|e| e.0);
    // The regions seen, each once (seen whole if through any one cone), less those lying
    // wholly in one wedge where a path from them could not turn at `c`.
    seen.regions.sort_unstable_by_key(|&r| (r & !FULL, !r & FULL));
    let mut regions: Vec<u32> = Vec::with_capacity(seen.regions.len());
    for &r in &seen.regions {
        if regions.last().is_some_and(|&l| l & !FULL == r & !FULL) {
            continue;
        }
        if !topo.never_turns(c, topo.slots_of(r & !FULL).map(|i| topo.at(topo.ring[i]))) {
            regions.push(r);
        }
    }
    let (pieces, spikes) = Views::sorted(topo, pc, &seen.pieces);
    Corner { neighbours, regions, cells: Vec::new(), pieces, spikes }
}

/// The corner table, one search per target corner on all cores.
fn fill_table(
    graph: &Graph,
    n: usize,
    wide: bool,
    cancelled: &(dyn Fn() -> bool + Sync),
    report: impl Fn(usize) + Sync,
) -> Result<Table, Error> {
    let pairs = n * n;
    let mut hop = filled(pairs, 0u16).ok_or_else(|| oom(pairs * 2))?;
    let init = || (vec![0f64; n], BinaryHeap::<Reverse<(u64, u32)>>::new());
    let lengths = if wide {
        let mut lengths = filled(pairs, 0f64).ok_or_else(|| oom(pairs * 8))?;
        hop.par_chunks_mut(n.max(1)).zip(lengths.par_chunks_mut(n.max(1))).enumerate().for_each_init(
            init,
            |(_, heap), (b, (hop, row))| {
                if cancelled() {
                    return;
                }
                search(graph, b as u32, row, hop, heap);
                report(b);
            },
        );
        Lengths::Wide(lengths.into())
    } else {
        let mut lengths = filled(pairs, 0f32).ok_or_else(|| oom(pairs * 4))?;
        hop.par_chunks_mut(n.max(1)).zip(lengths.par_chunks_mut(n.max(1))).enumerate().for_each_init(
            init,
            |(wide_row, heap), (b, (hop, row))| {
                if cancelled() {
                    return;
                }
                search(graph, b as u32, wide_row, hop, heap);
                for (x, &d) in row.iter_mut().zip(wide_row.iter()) {
                    *x = d as f32;
                }
                report(b);
            },
        );
        Lengths::Narrow(lengths.into())
    };
    if cancelled() {
        return Err(Error::Cancelled);
    }
    Ok(Table::new(n, hop, lengths))
}

/// The table's first steps alone (for [`Tier::Labels`]), one search per target corner on all
/// cores.
fn fill_hops(graph: &Graph, n: usize, cancelled: &(dyn Fn() -> bool + Sync)) -> Result<Vec<u16>, Error> {
    let pairs = n * n;
    let mut hop = filled(pairs, 0u16).ok_or_else(|| oom(pairs * 2))?;
    hop.par_chunks_mut(n.max(1)).enumerate().for_each_init(
        || (vec![0f64; n], BinaryHeap::<Reverse<(u64, u32)>>::new()),
        |(row, heap), (b, hop)| {
            if !cancelled() {
                search(graph, b as u32, row, hop, heap);
            }
        },
    );
    if cancelled() {
        return Err(Error::Cancelled);
    }
    Ok(hop)
}

/// For each region and corner, a lower bound of the length of any path from the corner to a
/// point of the region: such a path ends in a segment from a corner the point sees (one of
/// the region's candidates) to the point, so the least, over the region's candidates `b`, of
/// `d(a, b)` plus `b`'s distance to the region. Rounded down a little, for `f32`.
pub(super) fn region_bounds(
    exact: &ExactRooms,
    table: &Table,
    cand_start: &[u32],
    cand: &[u32],
) -> Result<Vec<f32>, Error> {
    let (n, regions) = (table.n, exact.mesh.regions_len());
    let mut bounds = filled(n * regions, 0f32).ok_or_else(|| oom(n * regions * 4))?;
    bounds.par_chunks_mut(n.max(1)).enumerate().for_each_init(
        || vec![0f64; n],
        |least, (r, out)| {
            least.fill(f64::INFINITY);
            for &e in &cand[cand_start[r] as usize..cand_start[r + 1] as usize] {
                let b = e & !FULL;
                let to_region = exact.topo.distance_to(r as u32, exact.topo.at(exact.corners[b as usize]));
                // Row `b`: every corner's length to `b`, read in one pass (no branch per entry
                // on the lengths' width).
                let row = b as usize * n..(b as usize + 1) * n;
                match &table.lengths {
                    Lengths::Wide(v) => fold_least(least, &v[row], to_region, |x| x),
                    Lengths::Narrow(v) => fold_least(least, &v[row], to_region, f64::from),
                }
            }
            for (o, &l) in out.iter_mut().zip(least.iter()) {
                // f32 rounds within 6e-8 of the value: shaved by 1e-6 it stays below.
                *o = (l * (1.0 - 1e-6)) as f32;
            }
        },
    );
    Ok(bounds)
}

/// `least[a]` lowered to `row[a] + add` where that is less.
#[inline]
fn fold_least<T: Copy>(least: &mut [f64], row: &[T], add: f64, wide: impl Fn(T) -> f64) {
    for (l, &x) in least.iter_mut().zip(row) {
        let d = wide(x) + add;
        if d < *l {
            *l = d;
        }
    }
}

/// Lists per key (region or cell) of the corners whose lists name it, each entry the corner's
/// index with the [`FULL`] and [`TAUT`] bits of its list's entry.
fn invert(lists: &[Vec<u32>], keys: usize) -> (Vec<u32>, Vec<u32>) {
    let mut start = vec![0u32; keys + 1];
    for list in lists {
        for &k in list {
            start[(k & !(FULL | TAUT)) as usize + 1] += 1;
        }
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut next = start.clone();
    let mut entries = vec![0u32; start[keys] as usize];
    for (i, list) in lists.iter().enumerate() {
        for &k in list {
            let slot = &mut next[(k & !(FULL | TAUT)) as usize];
            entries[*slot as usize] = i as u32 | (k & (FULL | TAUT));
            *slot += 1;
        }
    }
    (start, entries)
}

/// The Z-order key of `(x, y)`: their bits interleaved.
fn morton(x: u32, y: u32) -> u64 {
    let spread = |v: u32| {
        let mut v = u64::from(v);
        v = (v | (v << 16)) & 0x0000_FFFF_0000_FFFF;
        v = (v | (v << 8)) & 0x00FF_00FF_00FF_00FF;
        v = (v | (v << 4)) & 0x0F0F_0F0F_0F0F_0F0F;
        v = (v | (v << 2)) & 0x3333_3333_3333_3333;
        (v | (v << 1)) & 0x5555_5555_5555_5555
    };
    spread(x) | (spread(y) << 1)
}

#[cold]
fn oom(bytes: usize) -> Error {
    Error::Core(signposts::Error::AllocationFailed { bytes: bytes as u64 })
}
