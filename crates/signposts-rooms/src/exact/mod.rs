//! Exactly shortest paths between any two points: [`ExactRooms`].
//!
//! A shortest path among polygonal walls turns only at corners of the walls: convex corners
//! of obstacles (a walkable wedge wider than 180°) and pinch points (where two obstacles
//! touch). So the index keeps
//!
//! - the **corners** and what each sees: its visibility polygon, swept exactly through the
//!   mesh's convex regions (every side decision an exact orientation test, [`crate::Point`]),
//!   kept as pieces sorted by angle, so "does corner `c` see point `p`?" is a binary search;
//! - the **visibility graph** of the corners, kept to the edges a shortest path can use
//!   (taut at both ends: the line through the two corners keeps each corner's walls on one
//!   side);
//! - per region, the **candidate corners**: those that see some of the region (and could be
//!   turned at from there), each marked when it sees all of it;
//! - as the memory budget allows, **hub labels** over the visibility graph (each corner's
//!   hubs, the length of a shortest path to each and its next corner), with the first corner
//!   of a shortest path for every pair of corners; or the **corner table**: for every pair
//!   of corners that first corner and the path's length.
//!
//! A query from `s` to `t` is answered as End Point Search (Shen, Cheema, Harabor & Stuckey,
//! IJCAI 2020) and Euclidean Hub Labeling (Du, Shen & Cheema, AAAI 2023) answer it: `t` in
//! sight of `s` (one ray walked through the mesh) is the straight segment; otherwise the
//! shortest `|s a| + d(a, b) + |b t|` over the corners `a` that `s` sees and the corners `b`
//! that `t` sees: from the labels (the goal's corners folded per hub, then one scan of the
//! label of each corner the start may see), read from the table, or searched for on the
//! visibility graph when neither fits. [`ExactRooms::next_waypoint`] is `a` (or `t`): what
//! an entity steers for each tick.
//!
//! ## What is exact
//!
//! Visibility is decided exactly, and the walkable area is closed as everywhere in this crate:
//! a path may run along a wall, touch a corner, and pass a pinch point. Lengths are summed in
//! `f64`: an answer's length is the shortest within a relative 1e-9 (the sums' rounding, far
//! smaller in practice) — two paths closer than that may be ranked either way. The compact
//! table keeps the table's lengths in `f32`: it ranks paths within a relative 1e-6 (the
//! labels keep theirs in `f64`). Areas are walked at cost 1 (the exact path is the geometric
//! one). Links are taken wherever shorter, as [`ExactBuilder::link`] says. One-way doors are
//! refused: the shortest path that crosses doors only their way need not turn only at
//! corners the visibility graph holds.
//!
//! ## Doors
//!
//! A closed door is a wall that seals: no sight line crosses it, and its ends, where it meets
//! the walls, do not let a path slip from one of its sides to the other (as the region oracle
//! of [`crate::Rooms`] has it: a closed door parts its two regions). Only at a pinch point
//! (two walls touching at a corner) does a closed door's end stay passable, as every pinch
//! point is. A closed door also makes corners: a path may turn round its free end, or at a
//! wall corner on one of its sides. [`ExactRooms::set_door_open`] repairs the index in
//! place: the corners that see the door swept again, the tier repaired over the new
//! visibility graph (the labels built again, first steps and table rows repaired row by row),
//! ending identical to a fresh build with the new states (docs/benchmarks.md, "Doors in
//! place", has the costs).
//!
//! ## Tiers and memory
//!
//! | tier | holds | query | maze512-4-0 (7,970 corners) |
//! | --- | --- | --- | ---: |
//! | [`Tier::Labels`] (default) | hub labels (16 bytes an entry, ~130 a corner on the maze) and the first steps: 2 bytes per pair of corners | the goal's corners folded per hub, a label scan per corner the start may see | 150 MiB |
//! | [`Tier::Table`] | the table with `f64` lengths: 10 bytes per pair, and a bound per corner and region | pairs of seen corners, one table read each | 817 MiB |
//! | [`Tier::CompactTable`] | `f32` lengths: 6 bytes per pair | the same | 575 MiB |
//! | [`Tier::CompactLabels`] | the hub labels alone | as labels; a path by a label search per corner | 29 MiB |
//! | [`Tier::Graph`] | neither | A* over the visibility graph | 13 MiB |
//!
//! Every tier holds the views, the graph and the candidates (their size is known only after
//! the sweeps, and is refused then if over budget). The build takes the first tier of the
//! list that fits the budget ([`ExactBuilder::memory_budget`], 2 GiB by default), or the
//! tier asked for ([`ExactBuilder::tier`], falling back to smaller ones). The size of a
//! table or of the first steps, `c²` pairs for `c` corners, is decided before it is
//! allocated; the labels' size only as they grow (their build stops as soon as they pass
//! the budget). Tables and first steps number corners in 16 bits: a map of 65,536 corners or
//! more gets neither whatever the budget. The labels are built on one thread, a pruned
//! search per corner: a map of more than 16,384 corners gets them only when asked for (their
//! build passed a minute on the 22,340 corners of `8room_000`; the 49,154 of `maze512-1-0` took 22 s for
//! 288 MiB of compact labels), else a table or the graph as the budget allows. The table
//! tiers answer faster than the labels on some maps (docs/benchmarks.md, "Exact paths"), at
//! 3–5 times the memory.
//!
//! ## Saving
//!
//! [`ExactRooms::save_to`] writes the index to a file that [`ExactRooms::load_from`] reads
//! back and [`ExactRooms::map_file`] opens in place, its large arrays read from the mapped
//! pages (the layout and what each check covers: the `io` module's source, and the crate's
//! README).

mod builder;
mod cells;
mod crowd;
mod doors;
mod expand;
mod io;
mod labels;
mod links;
mod query;
mod search;
mod table;
mod topology;
mod view;

use std::sync::Arc;

pub use builder::{DEFAULT_BUDGET, ExactBuilder};
pub use io::EXACT_FORMAT_VERSION;

use self::cells::{CellGrid, CellList};
use self::labels::Labels;
use self::search::Astar;
use self::table::{Graph, Table};
use self::topology::{Kind, Topology};
use self::view::Views;
use crate::buf::Buf;
use crate::path::Path;
use crate::{DoorId, DoorState, Error, NavMesh, Point, RegionId};

/// A corner's point and, for a convex obstacle corner, the ends of its two walls.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CornerGeo {
    at: Point,
    /// `None` for a pinch, where any path may turn.
    walls: Option<[Point; 2]>,
}

impl CornerGeo {
    pub(crate) fn new(topo: &Topology, v: u32) -> CornerGeo {
        let walls = match topo.kinds[v as usize] {
            Kind::Reflex(a, b) => Some([topo.at(a), topo.at(b)]),
            _ => None,
        };
        CornerGeo { at: topo.at(v), walls }
    }

    /// [`Topology::taut`] of this corner.
    #[inline]
    fn taut(&self, from: Point) -> bool {
        self.walls.is_none_or(|walls| topology::turns_between(self.at, walls, from))
    }
}

/// Marks a candidate corner that sees the whole cell.
pub(crate) const FULL: u32 = 1 << 31;
/// Marks a candidate corner that a path from anywhere in the cell may turn at.
pub(crate) const TAUT: u32 = 1 << 30;
/// The corner index of a cell entry.
const INDEX: u32 = TAUT - 1;

/// How an [`ExactRooms`] answers, chosen by the memory budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Tier {
    /// The corner table with `f64` lengths: fastest.
    Table,
    /// The corner table with `f32` lengths: 40% smaller, ranks paths within 1e-6.
    CompactTable,
    /// No table: an A* search over the visibility graph per query.
    Graph,
    /// Hub labels over the visibility graph (each corner's hubs with their lengths in `f64`;
    /// a query scans the labels of the corners its ends see) and the table's first steps (2
    /// bytes per pair of corners) for the paths: the fastest, and a fraction of the table's
    /// memory.
    Labels,
    /// The hub labels alone, their next corners giving the paths (one search of a label per
    /// corner of a path): the smallest tier but the graph.
    CompactLabels,
}

/// Exactly shortest paths between any two points of a [`NavMesh`]; see the [module
/// docs](self) for what is exact and what it costs.
///
/// ```
/// use signposts::grid::Grid;
/// use signposts_rooms::{ExactRooms, NavMesh, Point};
/// let grid = Grid::from_ascii("
///     ..........
///     .########.
///     .#......#.
///     .#..##..#.
///     ....##....
/// ")?;
/// let mesh = NavMesh::from_grid(&grid)?;
/// let exact = ExactRooms::build(&mesh)?;
/// let (enemy, player) = (Point::new(0.5, 0.5), Point::new(3.5, 3.5));
/// // Down the left side, round both corners under the wall, then straight to the player.
/// assert_eq!(exact.next_waypoint(enemy, player), Some(Point::new(1.0, 4.0)));
/// let path = exact.path(enemy, player).expect("connected");
/// assert_eq!(path.points(), [enemy, Point::new(1.0, 4.0), Point::new(2.0, 4.0), player]);
/// let length = 0.5f64.hypot(3.5) + 1.0 + 1.5f64.hypot(0.5);
/// assert!((exact.distance(enemy, player).unwrap() - length).abs() < 1e-12);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct ExactRooms {
    mesh: Arc<NavMesh>,
    states: Vec<DoorState>,
    budget: u64,
    topo: Topology,
    /// Corner `i`'s vertex.
    corners: Vec<u32>,
    /// Each vertex's corner index (`NONE`: not a corner).
    corner_of: Vec<u32>,
    /// Each corner's point and walls, for the queries' inner loops.
    geo: Vec<CornerGeo>,
    views: Views,
    /// The cells, and cell `k`'s candidate corners: `cell_list[cell_start[k]..cell_start[k +
    /// 1]]`, each a corner index, with [`FULL`] set when it sees all of the cell.
    grid: CellGrid,
    cell_start: Buf<u32>,
    cell_list: CellList,
    graph: Graph,
    table: Option<Table>,
    labels: Option<Labels>,
    tier: Tier,
    /// The saved file the large arrays are read from in place, if they are.
    file: io::Origin,
    links: links::Links,
}

/// Buffers an [`ExactRooms`] query reuses: keep one per thread and pass it to the `_with`
/// queries, and they allocate nothing once it has grown.
#[derive(Debug, Clone, Default)]
pub struct ExactScratch {
    from_regions: Vec<u32>,
    to_regions: Vec<u32>,
    from: Vec<End>,
    to: Vec<End>,
    /// The ends that a graph-tier search starts from and aims at, seen for sure.
    from_seen: Vec<(u32, f64)>,
    to_seen: Vec<(u32, f64)>,
    astar: Astar,
    route: Vec<u32>,
    /// A crowd's goal: each corner's distance to it, and the way (see [`ExactRooms::field`]).
    field: Vec<f64>,
    toward: Vec<u32>,
    heap: std::collections::BinaryHeap<core::cmp::Reverse<(u64, u32)>>,
    /// A crowd's goal's visibility polygon: pieces, their keys, spikes.
    goal_view: (Vec<expand::Piece>, Vec<f64>, Vec<expand::Piece>, Vec<f64>),
    sweep: expand::Sweep,
    found: Vec<expand::Piece>,
    /// A crowd entity's candidates: total length through each, and its cell entry.
    totals: Vec<(f64, u32)>,
    /// The goal as located (moved inside its region when it lay a rounding outside).
    goal_at: Point,
    links: links::LinkScratch,
    /// The labels tier's fold of the goal's corners, per hub.
    hubs: labels::HubFold,
}

/// A corner that a query's end may see: its distance, and whether it sees it (decided only
/// when it matters).
#[derive(Debug, Clone, Copy)]
struct End {
    corner: u32,
    distance: f64,
    /// A lower bound of a path through this corner (set per query).
    bound: f64,
    seen: Seen,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seen {
    Unknown,
    Yes,
    No,
}

/// What a query found.
#[derive(Debug, Clone, Copy)]
enum Answer {
    /// The goal is in sight.
    Straight,
    /// Through corner `first` (seen from the start) to corner `last` (seen from the goal),
    /// meeting at hub rank `hub` in the labels tier (`NONE` in the others).
    Route { first: u32, last: u32, hub: u32 },
}

impl ExactRooms {
    /// The exact index of `mesh` with every door open, within the default budget.
    ///
    /// # Errors
    /// As [`ExactBuilder::build`].
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{ExactRooms, NavMesh, Point, Tier};
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n.@.\n...")?)?;
    /// let exact = ExactRooms::build(&mesh)?;
    /// assert_eq!((exact.corners_len(), exact.tier()), (4, Tier::Labels));
    /// // Round the block's two lower corners.
    /// let d = exact.distance(Point::new(0.5, 1.5), Point::new(2.5, 1.5)).unwrap();
    /// assert!((d - (2.0 * 0.5f64.hypot(0.5) + 1.0)).abs() < 1e-12);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn build(mesh: &NavMesh) -> Result<ExactRooms, Error> {
        ExactRooms::builder(mesh).build()
    }

    /// A builder: door states, a memory budget; built by itself or by
    /// [`BuildRooms::build_exact`](crate::BuildRooms::build_exact) with progress and cancel.
    ///
    /// ```
    /// use signposts::BuildOptions;
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{BuildRooms, ExactRooms, NavMesh};
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n.@.\n...")?)?;
    /// let builder = ExactRooms::builder(&mesh).memory_budget(64 << 20);
    /// let exact = BuildOptions::new().progress(|p| assert!(p.done <= p.total)).build_exact(&builder)?;
    /// assert!(exact.memory_bytes() <= 64 << 20);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn builder(mesh: &NavMesh) -> ExactBuilder<'_> {
        ExactBuilder::new(mesh)
    }

    /// The mesh.
    #[must_use]
    pub fn mesh(&self) -> &NavMesh {
        &self.mesh
    }

    /// How queries are answered (chosen by the budget).
    #[must_use]
    pub fn tier(&self) -> Tier {
        self.tier
    }

    /// Number of corners (turning points of shortest paths).
    #[must_use]
    pub fn corners_len(&self) -> usize {
        self.corners.len()
    }

    /// The corners' points.
    #[must_use = "an iterator does nothing unless consumed"]
    pub fn corners(&self) -> impl ExactSizeIterator<Item = Point> + '_ {
        self.corners.iter().map(|&v| self.topo.at(v))
    }

    /// Number of edges of the visibility graph (each counted once; only edges taut at both
    /// ends are kept).
    #[must_use]
    pub fn edges_len(&self) -> usize {
        self.graph.edges.len() / 2
    }

    /// Bytes held by the index, its copy of the mesh included.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.base_bytes()
            + self.table.as_ref().map_or(0, Table::memory_bytes)
            + self.labels.as_ref().map_or(0, Labels::memory_bytes)
            + self.links.memory_bytes()
    }

    /// Bytes held besides the table.
    pub(crate) fn base_bytes(&self) -> usize {
        self.views.memory_bytes()
            + self.graph.memory_bytes()
            + self.cell_list.memory_bytes()
            + (self.cell_start.len() + self.corners.len() + self.corner_of.len()) * 4
            + self.geo.len() * size_of::<CornerGeo>()
            + self.topo.memory_bytes()
            + self.mesh.memory_bytes()
    }

    /// Door `d`'s state.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a door not of the mesh.
    pub fn door_state(&self, d: DoorId) -> Result<DoorState, Error> {
        self.states.get(d.0 as usize).copied().ok_or(Error::OutOfRange {
            what: "door",
            id: d.0,
            len: self.states.len(),
        })
    }

    /// The length of a shortest path from `from` to `to` (with the costs of the links it
    /// takes); `None` when either is outside the walkable area or no path joins them.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{ExactRooms, NavMesh, Point};
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii(".@.\n...")?)?;
    /// let exact = ExactRooms::build(&mesh)?;
    /// // Under the block: down to its corner (1, 1), across to (2, 1), up.
    /// let d = exact.distance(Point::new(0.5, 0.5), Point::new(2.5, 0.5)).unwrap();
    /// assert!((d - (2.0 * 0.5f64.hypot(0.5) + 1.0)).abs() < 1e-12);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn distance(&self, from: Point, to: Point) -> Option<f64> {
        self.path(from, to).map(|p| p.length())
    }

    /// A shortest path from `from` to `to` (both included); `None` when either is outside the
    /// walkable area or no path joins them.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{ExactRooms, NavMesh, Point};
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii(".@.\n...")?)?;
    /// let exact = ExactRooms::build(&mesh)?;
    /// let path = exact.path(Point::new(0.5, 0.5), Point::new(2.5, 0.5)).unwrap();
    /// assert_eq!(path.points()[1..3], [Point::new(1.0, 1.0), Point::new(2.0, 1.0)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn path(&self, from: Point, to: Point) -> Option<Path> {
        let mut path = Path::default();
        self.path_with(from, to, &mut ExactScratch::default(), &mut path).then_some(path)
    }

    /// [`ExactRooms::path`] into `path` with explicit buffers; `false` when there is none.
    pub fn path_with(&self, from: Point, to: Point, scratch: &mut ExactScratch, path: &mut Path) -> bool {
        if self.links.any_open() {
            return self.linked_path(from, to, scratch, path);
        }
        self.walk_path(from, to, scratch, path)
    }

    /// The shortest path walked, links not taken; `false` when there is none.
    fn walk_path(&self, from: Point, to: Point, scratch: &mut ExactScratch, path: &mut Path) -> bool {
        path.points.clear();
        path.links.clear();
        if !self.goal(to, scratch) {
            return false;
        }
        let Some((answer, _)) = self.solve(from, scratch) else { return false };
        path.points.push(from);
        if let Answer::Route { first, last, hub } = answer {
            scratch.route.clear();
            self.route(first, last, hub, scratch);
            for &c in &scratch.route {
                let p = self.topo.at(self.corners[c as usize]);
                if path.points.last() != Some(&p) {
                    path.points.push(p);
                }
            }
        }
        // Both ends, even when they are one point (as `Rooms::path` has it).
        if path.points.len() == 1 || path.points.last() != Some(&to) {
            path.points.push(to);
        }
        true
    }

    /// Where to head now: the first corner of a shortest path from `from` to `to`, `to` when
    /// it is in sight, or the first link's entrance (its exit when `from` is there); `None` when either is outside the walkable area or no path joins
    /// them. An entity standing on a corner is sent on to the next.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{ExactRooms, NavMesh, Point};
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii(".@.\n...")?)?;
    /// let exact = ExactRooms::build(&mesh)?;
    /// let (from, to) = (Point::new(0.5, 0.5), Point::new(2.5, 0.5));
    /// assert_eq!(exact.next_waypoint(from, to), Some(Point::new(1.0, 1.0)));
    /// assert_eq!(exact.next_waypoint(Point::new(1.0, 1.0), to), Some(Point::new(2.0, 1.0)));
    /// assert_eq!(exact.next_waypoint(Point::new(2.0, 1.0), to), Some(to));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn next_waypoint(&self, from: Point, to: Point) -> Option<Point> {
        self.next_waypoint_with(from, to, &mut ExactScratch::default())
    }

    /// [`ExactRooms::next_waypoint`] with explicit buffers.
    pub fn next_waypoint_with(&self, from: Point, to: Point, scratch: &mut ExactScratch) -> Option<Point> {
        if self.links.any_open() {
            return self.linked_waypoint(from, to, scratch);
        }
        if !self.goal(to, scratch) {
            return None;
        }
        self.waypoint(from, to, scratch)
    }

    /// [`ExactRooms::next_waypoint`] for a crowd heading to one goal: `out` is cleared, then
    /// holds one answer per point of `froms`, in order. The goal's side of the query is worked
    /// out once; a large crowd shares one pass over the corners the goal sees.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{ExactRooms, NavMesh, Point};
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii(".@.\n...")?)?;
    /// let exact = ExactRooms::build(&mesh)?;
    /// let crowd = [Point::new(0.5, 0.5), Point::new(0.5, 1.5), Point::new(9.0, 9.0)];
    /// let mut out = Vec::new();
    /// exact.next_waypoint_toward(&crowd, Point::new(2.5, 0.5), &mut out);
    /// assert_eq!(out, [Some(Point::new(1.0, 1.0)), Some(Point::new(2.0, 1.0)), None]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Complexity
    /// One goal setup, then per entity what [`ExactRooms::next_waypoint`] costs, or, for a
    /// crowd larger than the goal's setup, one pass over a table row per corner the goal
    /// sees and a lookup per entity.
    pub fn next_waypoint_toward(&self, froms: &[Point], to: Point, out: &mut Vec<Option<Point>>) {
        self.next_waypoint_toward_with(froms, to, out, &mut ExactScratch::default());
    }

    /// [`ExactRooms::next_waypoint_toward`] with explicit buffers: no allocation once warm.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{ExactRooms, ExactScratch, NavMesh, Point};
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii(".@.\n...")?)?;
    /// let exact = ExactRooms::build(&mesh)?;
    /// let (mut scratch, mut out) = (ExactScratch::default(), Vec::new()); // kept between ticks
    /// let crowd = [Point::new(0.5, 0.5), Point::new(0.5, 1.5)];
    /// for goal in [Point::new(2.5, 0.5), Point::new(2.5, 1.5)] {
    ///     exact.next_waypoint_toward_with(&crowd, goal, &mut out, &mut scratch);
    ///     let one_by_one: Vec<_> = crowd.iter().map(|&s| exact.next_waypoint(s, goal)).collect();
    ///     assert_eq!(out, one_by_one);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn next_waypoint_toward_with(
        &self,
        froms: &[Point],
        to: Point,
        out: &mut Vec<Option<Point>>,
        scratch: &mut ExactScratch,
    ) {
        out.clear();
        if self.links.any_open() {
            // One search per entity: the links' walks are the goal's own.
            out.extend(froms.iter().map(|&s| self.linked_waypoint(s, to, scratch)));
            return;
        }
        if !self.goal(to, scratch) {
            out.resize(froms.len(), None);
            return;
        }
        // The shared pass reads a table row of every corner the goal sees (about a
        // nanosecond an entry): worth it for crowds that would spend more one by one.
        let shared = self.corners.len() * scratch.to.len() / 4096;
        if froms.len() < crowd::CROWD.max(shared) {
            out.extend(froms.iter().map(|&s| self.waypoint(s, to, scratch)));
            return;
        }
        self.field(scratch);
        out.extend(froms.iter().map(|&s| self.field_waypoint(s, to, scratch)));
    }

    /// Query work, for profiling: `(candidates of s, corners s sees, candidates of t, corners t sees, t in sight)`.
    /// Feature `test-support` only: not part of the API.
    #[cfg(feature = "test-support")]
    #[doc(hidden)]
    #[must_use]
    pub fn query_counts(&self, from: Point, to: Point) -> (usize, usize, usize, usize, bool) {
        let mut scratch = ExactScratch::default();
        let from = self.locate(from, &mut scratch.from_regions).unwrap_or(from);
        let to = self.locate(to, &mut scratch.to_regions).unwrap_or(to);
        let count = |p: Point| {
            let k = self.grid.of(p);
            (self.cell_start[k + 1] - self.cell_start[k]) as usize
        };
        let (cs, ct) = (count(from), count(to));
        let mut out = Vec::new();
        self.ends(from, &mut out);
        let ns = out.iter_mut().filter_map(|e| self.sees_end(from, e).then_some(())).count();
        self.ends(to, &mut out);
        let nt = out.iter_mut().filter_map(|e| self.sees_end(to, e).then_some(())).count();
        (cs, ns, ct, nt, expand::sees(&self.topo, from, &scratch.from_regions, to))
    }

    /// The corner kinds, for tests: `(reflex, pinch)` counts. Feature `test-support` only:
    /// not part of the API.
    #[cfg(feature = "test-support")]
    #[doc(hidden)]
    #[must_use]
    pub fn corner_kinds(&self) -> (usize, usize) {
        let reflex =
            self.corners.iter().filter(|&&v| matches!(self.topo.kinds[v as usize], Kind::Reflex(..))).count();
        (reflex, self.corners.len() - reflex)
    }

    /// The region holding `p`, as the mesh says.
    #[must_use]
    pub fn region_at(&self, p: Point) -> Option<RegionId> {
        self.mesh.region_at(p)
    }
}

/// The length of the segment `p q` (without `hypot`'s care for overflow, which map
/// coordinates never need).
#[inline]
fn length(p: Point, q: Point) -> f64 {
    let (dx, dy) = (q.x - p.x, q.y - p.y);
    (dx * dx + dy * dy).sqrt()
}
