//! Rooms and doors for [`signposts`]: navigation meshes of convex regions, a next-region
//! oracle over them, doors that open, close and go one way, links, and smooth paths between
//! any two points.
//!
//! (Crate documentation grows with the crate; see [`Rooms`].)

mod error;
mod funnel;
mod geom;
mod input;
mod io;
mod links;
mod locate;
mod merge;
mod mesh;
mod oracle;
mod outline;
mod path;
mod radius;
mod regions_input;
mod rooms;
mod text;
mod triangulate;

pub use error::{Error, Ring};
pub use geom::Point;
pub use input::NavMeshBuilder;
pub use io::FORMAT_VERSION;
pub use links::{Link, LinkId};
pub use mesh::{Door, DoorId, NavMesh, RegionId};
pub use path::{Path, PathStep, Scratch};
pub use rooms::{DoorState, Rooms, RoomsBuilder};
