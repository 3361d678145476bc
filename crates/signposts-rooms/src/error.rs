//! The crate's one error type.

use core::fmt;

pub use signposts::IoError;

use crate::Point;

/// Which ring of a polygon input an error is about.
///
/// ```
/// use signposts_rooms::{Error, NavMesh, Point, Ring};
/// let square = |x: f64, y: f64, side: f64| {
///     [(x, y), (x + side, y), (x + side, y + side), (x, y + side)].map(Point::from)
/// };
/// let line = [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)].map(Point::from); // no area
/// let builder = NavMesh::builder().boundary(square(0.0, 0.0, 8.0)).obstacle(square(1.0, 1.0, 2.0));
/// let problems = builder.obstacle(line).validate();
/// assert_eq!(problems, [Error::Degenerate { ring: Ring::Obstacle(1) }]);
/// assert_eq!(Ring::Obstacle(1).to_string(), "obstacle 1");
/// assert_eq!(Ring::Boundary.to_string(), "the boundary");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ring {
    /// The outer boundary.
    Boundary,
    /// The obstacle with this index, in the order they were added.
    Obstacle(usize),
    /// The given region with this index ([`NavMesh::from_regions`](crate::NavMesh::from_regions)).
    Region(usize),
}

impl fmt::Display for Ring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ring::Boundary => f.write_str("the boundary"),
            Ring::Obstacle(i) => write!(f, "obstacle {i}"),
            Ring::Region(i) => write!(f, "region {i}"),
        }
    }
}

/// What went wrong, with where.
///
/// ```
/// use signposts_rooms::{Error, NavMesh, Point, Ring};
/// let two_points = [Point::new(0.0, 0.0), Point::new(1.0, 1.0)];
/// let err = NavMesh::builder().boundary(two_points).build().unwrap_err();
/// assert_eq!(err, Error::Degenerate { ring: Ring::Boundary });
/// assert_eq!(err.to_string(), "the boundary encloses no area (fewer than 3 distinct points, or all on a line)");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// A coordinate is NaN, infinite, or outside what the triangulation takes
    /// (`spade::MAX_ALLOWED_VALUE`, about 3.2e60).
    ///
    /// Fix: give finite coordinates of a sensible scale.
    BadCoordinate {
        /// The ring.
        ring: Ring,
        /// The vertex's index in its ring.
        vertex: usize,
        /// The coordinates given.
        point: Point,
    },
    /// A ring has fewer than three distinct vertices, or encloses no area.
    ///
    /// Fix: give at least three vertices that are not all on one line.
    Degenerate {
        /// The ring.
        ring: Ring,
    },
    /// Two edges of one ring cross or overlap.
    ///
    /// Fix: split the ring into simple polygons (several obstacles may overlap each other).
    SelfIntersecting {
        /// The ring.
        ring: Ring,
        /// The index of the first vertex of one of the two edges (edge `i` joins vertices `i` and `i + 1`).
        edge: usize,
        /// The index of the first vertex of the other edge.
        other: usize,
    },
    /// An obstacle lies entirely outside the boundary.
    ///
    /// Fix: leave it out, or move it inside.
    ObstacleOutside {
        /// The obstacle's index.
        obstacle: usize,
    },
    /// The agent radius is negative or not finite.
    BadRadius {
        /// The radius given.
        radius: f64,
    },
    /// A given region has a reflex corner.
    ///
    /// Fix: split it into convex regions.
    NotConvex {
        /// The region.
        region: usize,
        /// The corner, by its index in the region's ring (counter-clockwise).
        vertex: usize,
    },
    /// Two given regions overlap (or list the same edge the same way).
    Overlapping {
        /// One region.
        region: usize,
        /// The other.
        other: usize,
    },
    /// A given region's edge runs along part of another's without sharing both its vertices (a
    /// T-junction), so no door can be made of it.
    ///
    /// Fix: split the longer edge at the other region's vertex.
    UnmatchedEdge {
        /// The region.
        region: usize,
        /// Its edge (from corner `edge` to the next, counter-clockwise).
        edge: usize,
        /// The other region.
        other: usize,
    },
    /// A polygon text file is malformed.
    Parse {
        /// 1-based line.
        line: usize,
        /// 1-based column (in characters).
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A point of the triangulation is outside what it can represent (about ±3.2e60): the
    /// input's coordinates plus an agent radius went past it.
    ///
    /// Fix: a smaller radius, or coordinates of a smaller scale.
    Unrepresentable {
        /// The point.
        point: Point,
    },
    /// The mesh has no boundary (the builder was given none).
    ///
    /// Fix: call `boundary` before `build`.
    NoBoundary,
    /// Nothing is walkable: obstacles cover the whole boundary, or the grid has no open cell.
    NothingWalkable,
    /// An id names no region, door or link of this mesh.
    OutOfRange {
        /// What kind of id.
        what: &'static str,
        /// The id.
        id: u32,
        /// How many there are.
        len: usize,
    },
    /// The region given is not a side of the door.
    NotASide {
        /// The door.
        door: u32,
        /// The region.
        region: u32,
    },
    /// A link end is outside the walkable area, or its cost is negative or not finite.
    BadLink {
        /// The link, by the order it was added.
        link: u32,
        /// Which end (0: where it is entered, 1: where it leads).
        end: usize,
        /// What is wrong.
        why: &'static str,
    },
    /// An area's cost in a layer is zero, negative or not finite.
    BadAreaCost {
        /// The area.
        area: usize,
        /// The cost given.
        cost: f64,
    },
    /// A saved file is damaged, truncated, of another version or kind, or does not describe
    /// valid rooms or a valid exact index: `what` says which.
    Corrupt {
        /// What is wrong.
        what: String,
    },
    /// Reading or writing a saved file failed.
    ///
    /// Fix: as the operating system's message (the [`source`](std::error::Error::source))
    /// says: a missing file, no permission, a full disk.
    Io {
        /// The kind of failure.
        kind: std::io::ErrorKind,
        /// The operating system's error: also [`std::error::Error::source`].
        source: IoError,
    },
    /// Exact mode does not take this mesh or state: `why` says what (a one-way door).
    ///
    /// Fix: open or close the door; or use [`crate::Rooms`], which takes one-way doors.
    NotExact {
        /// What exact mode refuses.
        why: &'static str,
    },
    /// The exact index does not fit the memory budget even without its table: it needs
    /// `needed` bytes.
    ///
    /// Fix: raise the budget to at least `needed` ([`crate::ExactBuilder::memory_budget`]).
    OverBudget {
        /// Bytes the smallest exact index needs (at least: a build stops counting as soon as
        /// they pass the budget).
        needed: u64,
        /// The budget given.
        budget: u64,
    },
    /// The core (`signposts`) failed: the region oracle's table over the build's memory limit
    /// or not allocated, a saved table damaged, a build's thread pool refused. The core's
    /// error says which; it is also [`std::error::Error::source`].
    ///
    /// Fix: as the core's error says (a larger
    /// [`memory_limit`](signposts::BuildOptions::memory_limit), fewer regions).
    Core(signposts::Error),
    /// The build was stopped by its [`Cancel`](signposts::Cancel) token, given to
    /// [`BuildOptions::cancel`](signposts::BuildOptions::cancel).
    ///
    /// Fix: nothing to fix; the caller asked for it.
    Cancelled,
    /// The agent radius is outside what the map's coordinates resolve: below `min` (1024
    /// units in the last place of the map's largest coordinate magnitude: the widened walls
    /// would collapse onto them) or above `max` (the widened walls would leave the
    /// triangulation's range, ±3.2e60).
    ///
    /// Fix: give 0 (no radius) or a radius from `min` to `max`; or coordinates nearer the
    /// origin, whose units in the last place are finer.
    RadiusOutOfRange {
        /// The radius given.
        radius: f64,
        /// The smallest radius accepted (besides 0).
        min: f64,
        /// The largest radius accepted.
        max: f64,
    },
    /// A ring is narrower than the polygon union resolves in a world of this extent: it would
    /// vanish or lose its shape. The union snaps to an integer grid laid over the box holding
    /// every ring, and resolves about 2^-50 of the box's half extent (`resolution`); `width` is
    /// the ring's mean width (twice its area over its perimeter).
    ///
    /// Fix: leave the ring out, make it wider, or make the world smaller (a boundary far
    /// larger than the obstacles that matter).
    BelowResolution {
        /// The ring.
        ring: Ring,
        /// Its mean width.
        width: f64,
        /// The narrowest ring the union resolves in this world.
        resolution: f64,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadCoordinate { ring, vertex, point } => {
                write!(f, "{ring}, vertex {vertex}: coordinates {point} are not finite or out of range")
            }
            Error::Degenerate { ring } => {
                write!(f, "{ring} encloses no area (fewer than 3 distinct points, or all on a line)")
            }
            Error::SelfIntersecting { ring, edge, other } => {
                write!(f, "{ring} intersects itself: edges {edge} and {other} cross or overlap")
            }
            Error::ObstacleOutside { obstacle } => write!(f, "obstacle {obstacle} lies outside the boundary"),
            Error::BadRadius { radius } => write!(f, "agent radius {radius} is negative or not finite"),
            Error::NotConvex { region, vertex } => {
                write!(f, "region {region} is not convex at its corner {vertex}")
            }
            Error::Overlapping { region, other } => write!(f, "regions {region} and {other} overlap"),
            Error::UnmatchedEdge { region, edge, other } => write!(
                f,
                "region {region}'s edge {edge} runs along region {other} without sharing both its vertices: split it there"
            ),
            Error::Parse { line, column, message } => write!(f, "line {line}, column {column}: {message}"),
            Error::Unrepresentable { point } => {
                write!(f, "the point {point} is outside what the triangulation represents (about ±3.2e60)")
            }
            Error::NoBoundary => f.write_str("no boundary was given"),
            Error::NothingWalkable => f.write_str("nothing is walkable"),
            Error::OutOfRange { what, id, len } => write!(f, "{what} {id} is out of range (there are {len})"),
            Error::NotASide { door, region } => write!(f, "region {region} is not a side of door {door}"),
            Error::BadLink { link, end, why } => write!(f, "link {link}, end {end}: {why}"),
            Error::BadAreaCost { area, cost } => {
                write!(f, "area {area} costs {cost}: costs must be finite and positive")
            }
            Error::Corrupt { what } => write!(f, "corrupt saved file (rooms or exact index): {what}"),
            Error::Io { .. } => f.write_str("reading or writing a rooms file failed"),
            Error::NotExact { why } => write!(f, "exact mode does not take {why}"),
            Error::OverBudget { needed, budget } => {
                write!(f, "the exact index needs {needed} bytes, over the budget of {budget}")
            }
            Error::Core(_) => f.write_str("the core library (signposts) failed"),
            Error::Cancelled => f.write_str("the build was cancelled"),
            Error::RadiusOutOfRange { radius, min, max } => write!(
                f,
                "agent radius {radius:e} is outside what this map's coordinates resolve: give 0 or a radius from {min:e} to {max:e}"
            ),
            Error::BelowResolution { ring, width, resolution } => write!(
                f,
                "{ring} is {width:e} wide (twice its area over its perimeter), narrower than the {resolution:e} that polygon unions resolve in a world of this extent: make it wider, leave it out, or make the world smaller"
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Core(e) => Some(e),
            Error::Io { source, .. } => Some(source.get()),
            _ => None,
        }
    }
}

impl From<signposts::Error> for Error {
    /// [`Error::Cancelled`] for the core's, [`Error::Core`] keeping `e` as the source for the
    /// rest.
    #[cold]
    fn from(e: signposts::Error) -> Error {
        match e {
            signposts::Error::Cancelled => Error::Cancelled,
            e => Error::Core(e),
        }
    }
}

impl From<std::io::Error> for Error {
    /// [`Error::Io`], keeping `error` as the source (the core's [`IoError`]).
    ///
    /// ```
    /// use signposts_rooms::{Error, Rooms};
    /// let missing = std::env::temp_dir().join("signposts-rooms-no-such-file.rooms");
    /// let Err(Error::Io { kind, source }) = Rooms::load_from(&missing) else { panic!("no file") };
    /// assert_eq!(kind, std::io::ErrorKind::NotFound);
    /// assert_eq!(source.get().kind(), kind);
    /// ```
    #[cold]
    fn from(error: std::io::Error) -> Error {
        Error::Io { kind: error.kind(), source: IoError::from(error) }
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::Error;

    #[test]
    fn wrapped_errors_are_sources_not_repeated_in_the_message() {
        let io = std::io::Error::new(std::io::ErrorKind::PermissionDenied, "the disk says no");
        let err = Error::from(io);
        assert!(matches!(err, Error::Io { kind: std::io::ErrorKind::PermissionDenied, .. }));
        assert!(!err.to_string().contains("the disk says no"), "{err}");
        assert_eq!(err.source().map(ToString::to_string).as_deref(), Some("the disk says no"));

        let core = signposts::Error::AllocationFailed { bytes: 1 << 40 };
        let err = Error::from(core.clone());
        assert!(!err.to_string().contains(&core.to_string()), "{err}");
        assert_eq!(err.source().map(ToString::to_string), Some(core.to_string()));
    }
}
