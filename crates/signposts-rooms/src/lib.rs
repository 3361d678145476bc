//! Rooms and doors for [`signposts`]: navigation meshes of convex regions, a next-region
//! oracle over them, doors that open, close and go one way, links (teleporters, ladders,
//! stairs), areas priced per kind of unit, an agent radius, and smooth paths between any two
//! points — each entity's heading a few table reads away, whatever its target does.
//!
//! ```
//! use signposts::grid::Grid;
//! use signposts_rooms::{NavMesh, Point, Rooms};
//!
//! let grid = Grid::from_ascii("
//!     ..........
//!     .########.
//!     .#......#.
//!     .#..##..#.
//!     ....##....
//! ")?;
//! let mesh = NavMesh::from_grid(&grid)?; // or NavMesh::builder().boundary(..).obstacle(..).build()?
//! let mut rooms = Rooms::build(&mesh)?; // regions, doors, the region oracle
//! let (enemy, player) = (Point::new(0.5, 0.5), Point::new(3.5, 3.5));
//! let path = rooms.path(enemy, player).expect("connected"); // the corridor, string pulled
//! assert_eq!(path.points()[1], Point::new(1.0, 4.0)); // round the wall's corner
//! assert_eq!(rooms.next_waypoint(enemy, player), Some(Point::new(1.0, 4.0))); // each tick
//! let door = mesh.doors_of(rooms.region_at(player).unwrap())[0];
//! rooms.set_door_open(door, false)?; // repaired in place, not rebuilt
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## The mesh ([`NavMesh`])
//! The walkable area — from a tile grid ([`NavMesh::from_grid`], [`NavMesh::from_tiles`] with
//! areas), polygons ([`NavMesh::builder`], [`NavMeshBuilder::from_text`]) or convex regions
//! from an editor ([`NavMesh::from_regions`]) — is triangulated (spade's constrained Delaunay
//! triangulation), and the triangles merged into convex regions while the union stays convex
//! (Hertel–Mehlhorn, longest diagonal first: at most four times the fewest regions possible).
//! Regions that share an edge share a door; regions that touch at a single point (two
//! blocked grid cells meeting at a corner) share a point door: the walkable area is closed.
//! On the shared Moving AI maps a region covers 13 to 1,500 open cells (docs/benchmarks.md).
//! Overlapping obstacles are united, obstacles crossing the boundary cut it, and an agent
//! radius widens every wall into a capsule first: all through `i_overlay`'s robust booleans,
//! so the triangulation only ever meets segments that touch at their ends.
//!
//! Points are `f64`; every side decision (convexity, point location, the funnel) is an
//! exact orientation test (Shewchuk's predicates). Grid points are in cell units: cell
//! `(x, y)` spans `[x, x + 1] × [y, y + 1]` and its centre is `(x + 0.5, y + 0.5)`.
//! Counter-clockwise means with `y` up (clockwise on a screen whose `y` points down).
//!
//! [`NavMesh::join`] places several meshes side by side in one world (the floors of a
//! building), to be joined by links; [`NavMesh::check`] checks a mesh's invariants (the tests
//! and the fuzz targets run it after every build).
//!
//! ## The oracle ([`Rooms`])
//! The core's dense first-move table ([`signposts::Graph`]) over a graph of region centroids,
//! door midpoints (or ends: [`DoorNodes`]) and link ends, the arcs of each region joining its
//! ways in to its ways out at their straight-line length (times the layer's price of the
//! region's area). So
//! [`Rooms::next_region`] is one or two table reads, and a door that closes, opens or turns
//! one way is a handful of arc edits repaired in place by the core's incremental update
//! ([`signposts::Graph::apply`]); a link (a teleporter, a ladder, stairs to another floor drawn
//! beside this one) is an arc of its own cost.
//!
//! ## Paths
//! [`Rooms::path`] walks the oracle's corridor of regions and pulls the string through its
//! doors (the funnel algorithm): the path turns only at door ends, stays inside the corridor
//! (so never crosses a wall, a closed door, a one-way door against its way, or a closed
//! link), and is the shortest path *within that corridor*. [`Rooms::next_waypoint`] is its
//! first corner, found without walking more of the corridor than the corner needs.
//!
//! What is not exact: the corridor is chosen by the oracle's walks through door midpoints, so
//! the path is not always the shortest overall. Beside an optimal any-angle search (the
//! `polyanya` crate) on five shared grid maps the mean path is 0.1–0.7% longer and 79–91% of
//! paths are within 0.1%; the worst seen is 1.42× (brc202d, docs/benchmarks.md). That is a
//! measurement, not a bound: walks run from the start region's way out nearest the start (its
//! centroid or a door's node) to the goal region's way in nearest the goal, so the gap grows
//! with the size of those regions and of the doors on the way. On polygon worlds of thin
//! rotated obstacles (large regions, long doors) the mean is 1.6–3.5% longer and the worst
//! seen 5.1×; [`DoorNodes::Ends`] takes that to 0.4–2.1% and 2.0×, at 4–5× the table and
//! 2–8× the `next_waypoint` time on large grid maps ("Corridor quality on polygon worlds").
//! Links with an end in either region are ranked from the points themselves (a link from the
//! start to the goal is taken at its own cost). [`ExactRooms`] is the layer with a guarantee.
//! `next_waypoint` answers in 0.3–1.7 µs on the five grid maps, 5–650× faster than one
//! polyanya search.
//!
//! ## Exactly shortest paths ([`ExactRooms`])
//! [`ExactRooms::build`] (or [`ExactRooms::builder`], with door states and a memory budget)
//! indexes the corners of the walls where shortest paths turn: what each corner sees (swept
//! exactly through the regions), the visibility graph between them, the corners each cell of
//! a unit grid may see, and, within the budget (2 GiB by default), hub labels over the
//! visibility graph with the first corners between all pairs of corners (or a table of
//! first corners and lengths, or the labels alone). [`ExactRooms::next_waypoint`],
//! [`ExactRooms::path`] and [`ExactRooms::distance`] then answer with the truly shortest
//! path, ranked within 1e-9 of its length, as End Point Search and Euclidean Hub Labeling
//! do; [`ExactRooms::next_waypoint_toward`] answers a crowd heading for one goal from one pass
//! over the goal's corners. The module [`exact`] says what is exact and what each tier
//! costs; docs/benchmarks.md measures it beside `polyanya`.
//!
//! ```
//! use signposts::grid::Grid;
//! use signposts_rooms::{ExactRooms, NavMesh, Point, Rooms};
//! let grid = Grid::from_ascii("
//!     ..........
//!     .########.
//!     .#......#.
//!     .#..##..#.
//!     ....##....
//! ")?;
//! let mesh = NavMesh::from_grid(&grid)?;
//! let (rooms, exact) = (Rooms::build(&mesh)?, ExactRooms::build(&mesh)?);
//! let (enemy, player) = (Point::new(9.5, 0.5), Point::new(3.5, 3.5));
//! let shortest = exact.distance(enemy, player).expect("connected");
//! assert!(shortest <= rooms.distance(enemy, player).expect("connected"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Coordinates and precision
//! Coordinates are finite `f64`, at most ±3.2e60 (the triangulation's range), 0 or at least
//! 1.8e-43 in magnitude ([`Error::BadCoordinate`] otherwise), and a world answers the same
//! anywhere in that range: every geometric tolerance is a few units in the last place (ulps)
//! of the coordinates involved, never an absolute length nor a fraction of the map's size
//! (point location: 8 ulps of the point's and the nearest edge's coordinates; the point
//! locator's buckets: 8 ulps of the map's). Polygon unions (overlapping obstacles, an agent
//! radius) snap to an integer grid of 2^61 steps across the half extent `h` of the box
//! holding every ring: a ring thinner than 2^(⌈log2 h⌉-50) would vanish and is refused
//! ([`Error::BelowResolution`]). An agent radius is 0 or from 1,024 ulps of the map's largest
//! coordinate to what keeps the widened walls within range ([`Error::RadiusOutOfRange`]).
//! The crate's README lists it all; `tests/it/scale.rs` moves random worlds by offsets up to
//! 1e24 and scales them by 2^-20 to 2^40, checking exact distances and point location
//! against a brute force decided in integers.
//!
//! ## Sizes and limits
//! The table is quadratic in regions + doors + 2 · links: 21 KiB on arena (44 regions),
//! 5.4 MiB on lak303d (1,154), 29 MiB on AR0602SR (2,763), built in 1 ms to 1.2 s. Meshes of
//! tens of thousands of regions (random-obstacle maps, mazes of 512×512) would need
//! gigabytes: a [`memory_limit`](signposts::BuildOptions::memory_limit) refuses them before
//! allocating. The core's
//! compressed table does not apply (it takes at most eight neighbours a node; a door node has
//! as many as its two regions have ways in and out).
//!
//! ## Building: [`BuildRooms`]
//! The mesh is built by its own constructors; the oracle and the exact index by
//! [`RoomsBuilder::build`] and [`ExactRooms::build`], or, to set how the build runs (a memory
//! limit, progress reports, a [`Cancel`](signposts::Cancel) token, a thread count), by the
//! core's [`BuildOptions`](signposts::BuildOptions) through this crate's [`BuildRooms`]
//! trait: `BuildOptions::new().progress(..).cancel(&token).build_rooms(&builder)` and
//! `.build_exact(&rooms)`. What is built (doors, links, areas, the exact budget) stays in the
//! builders.
//!
//! ## Saved files
//! [`Rooms::save`] / [`Rooms::load`] (any writer and reader), [`Rooms::save_to`] (atomic) /
//! [`Rooms::load_from`] (a file), [`Rooms::from_bytes`] (a slice), and [`Rooms::map_file`]
//! (which reads: the format cannot be used in place): the mesh, door and link states, the
//! layer and the table in one file with the core's checksum. Loading checks every count
//! against the bytes left (when the length is known), every region, and that the table
//! belongs to the described oracle, so a damaged file is an error and a forged one answers
//! without a panic or a hang.

mod buf;
mod build;
mod error;
pub mod exact;
mod geom;
mod mesh;
mod path;
mod rooms;

pub use build::BuildRooms;
pub use error::{Error, IoError, Ring};
pub use exact::{DEFAULT_BUDGET, EXACT_FORMAT_VERSION, ExactBuilder, ExactRooms, ExactScratch, Tier};
pub use geom::Point;
pub use mesh::{Door, DoorId, NavMesh, NavMeshBuilder, RegionId};
pub use path::{Path, PathStep, Scratch};
pub use rooms::{DoorNodes, DoorState, FORMAT_VERSION, Link, LinkId, Rooms, RoomsBuilder};
