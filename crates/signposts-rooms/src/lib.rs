//! Rooms and doors for [`signposts`]: navigation meshes of convex regions, a next-region
//! oracle over them, doors that open, close and go one way, and smooth paths between any two
//! points.
//!
//! (Crate documentation grows with the crate; see `Rooms`.)

mod error;
mod geom;
mod input;
mod locate;
mod merge;
mod mesh;
mod triangulate;

pub use error::{Error, Ring};
pub use geom::Point;
pub use input::NavMeshBuilder;
pub use mesh::{Door, DoorId, NavMesh, RegionId};
pub use rooms::{DoorState, Path, Rooms, Scratch};

mod funnel;
mod rooms;
