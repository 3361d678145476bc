//! A [Bevy](https://bevy.org) plugin for [`signposts`]: put [`Chaser`], [`Fleeing`] or
//! [`GoTo`] on an entity and it walks the map, each step a read of an exact all-pairs
//! first-move table, whatever its target does.
//!
//! ```
//! use bevy::prelude::*;
//! use signposts::grid::{Connectivity, Grid};
//! use signposts_bevy::prelude::*;
//!
//! let mut app = App::new();
//! app.add_plugins((MinimalPlugins, SignpostsPlugin));
//! let map = Grid::from_ascii("
//!     ..........
//!     .########.
//!     ..........
//! ")?;
//! app.insert_resource(NavGrid::from_grid(map, Connectivity::Eight).with_cell_size(32.0));
//! let player = app.world_mut().spawn(Transform::default()).id(); // stands on cell (0, 0)
//! app.world_mut().spawn((Chaser::new(player, 8.0), Transform::from_xyz(9.0 * 32.0 + 16.0, -80.0, 0.0)));
//! # Ok::<(), signposts::Error>(())
//! ```
//!
//! ## The map ([`NavGrid`])
//! A resource made from a [`Grid`](signposts::grid::Grid), a Moving AI `.map` file or a table
//! saved by `signposts build`, with a cell size and an origin placing cells in the world (the
//! map's first row at the top, as the file draws it). Its table is built (or loaded) **off the
//! main thread**, on Bevy's async compute pool, dense or compressed by size as the `signposts`
//! command-line tool chooses; [`NavGrid::progress`] reports how far, and [`NavReady`] says when
//! it is done. A build is kept as a task and polled once a frame; replacing or removing the
//! resource cancels it (the core's [`Cancel`](signposts::Cancel): it stops at its next batch).
//!
//! ## Walkers
//! [`Chaser`] heads for wherever its target entity stands now, [`Fleeing`] away from an
//! entity (the table's moves that lead farther), [`GoTo`] to a fixed cell. Each walks from
//! cell centre to cell centre at its speed and asks again at every cell: all the steps of a
//! tick are answered by **one batched query**
//! ([`GridOracle::next_step_each_spread`](signposts::grid::GridOracle::next_step_each_spread)).
//! With [`Spread`] (seeded by default), walkers heading the same way take different optimal
//! moves instead of walking in single file; every step stays on a shortest path.
//!
//! ## Crowds that keep apart
//! Walkers alone follow the table's optimal moves as points, and a crowd after one target
//! ends on one cell or one point. Two opt-ins (from `signposts-crowd`) keep crowds apart,
//! deterministically:
//!
//! - [`NavSettings::cell_capacity`]`: Some(n)` moves [`Chaser`] and [`GoTo`] walkers with one
//!   [`GridCrowd`](signposts_crowd::grid::GridCrowd): at most `n` walkers hold a cell, each
//!   takes the least occupied of its tied optimal moves and waits when all are full, and two
//!   that want each other's cells swap. Every step stays optimal.
//! - [`Avoidance`]` { radius }` on a [`RoomsChaser`] or [`RoomsGoTo`] steps it with one
//!   [`Agents`](signposts_crowd::agents::Agents) crowd per [`NavRooms`] ([`RoomsCrowd`]):
//!   reciprocal collision avoidance (ORCA) with the other avoiding walkers and the walls,
//!   centres never leaving the walkable area. Walkers join and leave as the component (or the
//!   entity) comes and goes; moving one's `Transform` teleports it.
//!
//! ```
//! use bevy::prelude::*;
//! use signposts::grid::Grid;
//! use signposts_bevy::prelude::*;
//! use signposts_rooms::{NavMesh, Point};
//!
//! let mut app = App::new();
//! app.add_plugins((MinimalPlugins, SignpostsPlugin));
//! let mesh = NavMesh::from_grid(&Grid::from_ascii("..........\n....##....\n..........")?)?;
//! app.insert_resource(NavRooms::new(mesh, RoomsMode::Exact).with_scale(32.0));
//! let player = app.world_mut().spawn(Transform::from_xyz(9.5 * 32.0, -32.0, 0.0)).id();
//! for k in 0..12 {
//!     let at = Point::new(0.3 + 0.6 * f64::from(k % 4), 0.5 + f64::from(k / 4));
//!     app.world_mut().spawn((RoomsChaser { target: player, speed: 4.0 }, RoomsAgent::at(at), Avoidance::new(0.25)));
//! }
//! // Grid walkers: at most two to a cell.
//! app.insert_resource(NavSettings { cell_capacity: Some(2), ..NavSettings::default() });
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Doors ([`SetBlocked`])
//! A message that opens or closes a cell. Edits are drained once a frame, coalesced (the last
//! edit of a cell wins), and applied to a second copy of the table on the async compute pool
//! (the core's in-place repair; a compressed table is rebuilt). Walkers keep stepping on the
//! live table meanwhile, and hold rather than step into a cell that is closed but not yet
//! repaired; [`TableSwapped`] reports the swap. A frame never waits for a repair.
//!
//! ## Rooms and doors in continuous space ([`NavRooms`])
//! A resource over a [`NavMesh`](signposts_rooms::NavMesh): the rooms oracle
//! ([`Rooms`](signposts_rooms::Rooms)) or the exact one
//! ([`ExactRooms`](signposts_rooms::ExactRooms)), built off the main thread. [`RoomsChaser`] and
//! [`RoomsGoTo`] move straight toward [`next_waypoint`](signposts_rooms::Rooms::next_waypoint)
//! each tick; [`SetDoorOpen`] and [`SetLinkOpen`] open and close doors and links the same way
//! cells are edited.
//!
//! ## Errors
//! A missing or malformed map, a table over the memory limit or a refused edit is logged
//! (`error!`) and written as a [`NavError`] message; no system of the plugin panics.
//!
//! ## Schedules
//! [`NavSystems::Sync`] runs in `PreUpdate` (builds, edits, swaps); [`NavSystems::Steer`] then
//! [`NavSystems::Move`] in `FixedUpdate` (the tick's steps, then the transforms). Order your
//! systems against these sets. With the `gizmos` feature, [`NavSystems::Draw`] draws in
//! `Update` (see `NavGizmos`).

#![expect(clippy::needless_pass_by_value, reason = "Bevy systems take their parameters by value")]

mod agents;
mod avoid;
mod capacity;
#[cfg(feature = "gizmos")]
mod gizmos;
mod grid;
mod rooms;
mod work;

use bevy::app::{App, FixedUpdate, Plugin, PreUpdate};
use bevy::ecs::message::Message;
use bevy::ecs::prelude::*;

pub use agents::{Arrived, Chaser, Fleeing, GoTo, NavAgent, NavSettings, Spread};
pub use avoid::{Avoidance, RoomsCrowd};
#[cfg(feature = "gizmos")]
pub use gizmos::NavGizmos;
pub use grid::{NavGrid, NavTable, SetBlocked, TableSwapped};
pub use rooms::{NavRooms, RoomsAgent, RoomsChaser, RoomsGoTo, RoomsMode, SetDoorOpen, SetLinkOpen};
pub use work::NavStatus;

/// The plugin, its systems, messages and settings in one import.
pub mod prelude {
    #[cfg(feature = "gizmos")]
    pub use crate::NavGizmos;
    pub use crate::{
        Arrived, Avoidance, Chaser, Fleeing, GoTo, NavAgent, NavError, NavFailure, NavGrid, NavMap, NavReady,
        NavRooms, NavSettings, NavStatus, NavSystems, NavTable, RoomsAgent, RoomsChaser, RoomsCrowd,
        RoomsGoTo, RoomsMode, SetBlocked, SetDoorOpen, SetLinkOpen, SignpostsPlugin, Spread, TableSwapped,
    };
    pub use signposts::grid::{Cell, Connectivity};
}

/// Adds the plugin's messages, settings ([`NavSettings`], initialised, never overwritten) and
/// systems (see [`NavSystems`]). Needs Bevy's task pools and time (`MinimalPlugins` or
/// `DefaultPlugins`).
#[derive(Debug, Clone, Copy, Default)]
pub struct SignpostsPlugin;

/// The plugin's system sets, in the order they run within a frame.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NavSystems {
    /// `PreUpdate`: starts and polls builds, drains edit messages into repairs, swaps repaired
    /// tables in, writes [`NavReady`], [`TableSwapped`] and [`NavError`].
    Sync,
    /// `FixedUpdate`: every walker that reached a cell centre asks its next step (one batched
    /// query a map a tick) and advances along its step.
    Steer,
    /// `FixedUpdate`, after [`NavSystems::Steer`]: writes the walkers' `Transform`s.
    Move,
    /// `Update` (with the `gizmos` feature): draws the map, paths and flow fields.
    Draw,
}

impl Plugin for SignpostsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<NavSettings>()
            .init_resource::<RoomsCrowd>()
            .add_message::<NavReady>()
            .add_message::<NavError>()
            .add_message::<TableSwapped>()
            .add_message::<SetBlocked>()
            .add_message::<SetDoorOpen>()
            .add_message::<SetLinkOpen>()
            .add_message::<Arrived>()
            .configure_sets(FixedUpdate, (NavSystems::Steer, NavSystems::Move).chain())
            .add_systems(PreUpdate, (grid::sync, rooms::sync).in_set(NavSystems::Sync))
            .add_systems(
                FixedUpdate,
                (agents::steer, rooms::steer, avoid::steer.after(rooms::steer)).in_set(NavSystems::Steer),
            )
            .add_systems(FixedUpdate, (agents::place, rooms::place).in_set(NavSystems::Move));
        #[cfg(feature = "gizmos")]
        gizmos::add(app);
    }
}

/// Which map a message is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NavMap {
    /// The [`NavGrid`].
    Grid,
    /// The [`NavRooms`].
    Rooms,
}

/// A map's table is built or loaded and answering.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct NavReady {
    /// The grid or the rooms.
    pub map: NavMap,
    /// Nodes of the table: open cells, or the rooms oracle's nodes (corners in exact mode).
    pub nodes: usize,
    /// Bytes the table takes.
    pub memory_bytes: usize,
    /// Whether it was loaded from a saved file rather than built.
    pub loaded: bool,
    /// Seconds from the start of the build (or load) to its end, off the main thread.
    pub seconds: f32,
}

/// Something the plugin could not do: a map file missing or malformed, a table over the
/// memory limit, an edit refused. Also logged with `error!`.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct NavError {
    /// The grid or the rooms.
    pub map: NavMap,
    /// What failed, with the file or the edit named.
    pub message: String,
    /// The library's error.
    pub error: NavFailure,
}

/// The library error behind a [`NavError`].
#[derive(Debug, Clone, PartialEq)]
pub enum NavFailure {
    /// From the core crate (grids, tables, files).
    Core(signposts::Error),
    /// From the rooms layer (meshes, doors, exact mode).
    Rooms(signposts_rooms::Error),
    /// From the crowd of [`Avoidance`] walkers (a walker outside the walkable area).
    Crowd(signposts_crowd::agents::Error),
}

impl core::fmt::Display for NavFailure {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            NavFailure::Core(error) => error.fmt(f),
            NavFailure::Rooms(error) => error.fmt(f),
            NavFailure::Crowd(error) => error.fmt(f),
        }
    }
}

/// Transparent: the wrapped error's message and source.
impl std::error::Error for NavFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            NavFailure::Core(error) => error.source(),
            NavFailure::Rooms(error) => error.source(),
            NavFailure::Crowd(error) => error.source(),
        }
    }
}

impl NavError {
    /// Logs the error and returns it, to be written as a message.
    fn logged(map: NavMap, message: String, error: NavFailure) -> NavError {
        bevy::log::error!("signposts: {message}");
        NavError { map, message, error }
    }
}
