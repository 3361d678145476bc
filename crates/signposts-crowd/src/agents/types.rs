//! The crowd's public values: settings, agents and their ids, errors, a step's stats.

use core::fmt;

use signposts_rooms::Point;

#[cfg(doc)]
use super::Agents;

/// How the crowd avoids and what it reports. Times are in the unit of the time step given to
/// [`Agents::step`], lengths in the mesh's.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// How far ahead (in time) agents avoid each other; longer is smoother and more timid.
    pub time_horizon: f64,
    /// How far ahead agents avoid walls (at least the time step is used).
    pub wall_time_horizon: f64,
    /// How far neighbours are looked for; `None`: twice the largest radius plus the top speed
    /// times [`Settings::time_horizon`], over all agents.
    pub neighbour_distance: Option<f64>,
    /// How many of the nearest neighbours each agent avoids.
    pub max_neighbours: usize,
    /// Within this distance of its goal an agent has arrived (and stops pushing for it).
    pub arrival_distance: f64,
    /// An agent slows down to reach its goal in this time: its preferred speed is its
    /// distance to the goal over this time, at most its top speed.
    pub slowdown_time: f64,
    /// Each agent asks for a new waypoint every this many steps (agent `i` at the steps `t`
    /// with `(t + i) % interval == 0`, so the work is spread evenly), heading for its last
    /// one in between; 1 (the default): every step. A step's agents move a fraction of a cell,
    /// so 2 to 4 cost little accuracy and cut the waypoint work by as much.
    pub waypoint_interval: u32,
    /// An agent that made no progress towards its waypoint (at least a tenth of its preferred
    /// speed) in this many steps in a row is stalled.
    pub stall_ticks: u32,
}

impl Default for Settings {
    /// Time horizons of 1 and 0.5, 10 neighbours, arrival within 0.5, slowing over 0.5, a
    /// waypoint every step, stalled after 60 steps.
    fn default() -> Settings {
        Settings {
            time_horizon: 1.0,
            wall_time_horizon: 0.5,
            neighbour_distance: None,
            max_neighbours: 10,
            arrival_distance: 0.5,
            slowdown_time: 0.5,
            waypoint_interval: 1,
            stall_ticks: 60,
        }
    }
}

/// An agent as added to the crowd.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Agent {
    /// Where its centre is (in the walkable area).
    pub position: Point,
    /// Its radius (positive).
    pub radius: f64,
    /// Its top speed, in mesh units per time unit (not negative).
    pub max_speed: f64,
    /// Where it heads.
    pub goal: GoalId,
}

/// An agent's index in the crowd, in the order added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AgentId(pub u32);

/// A goal's index in the crowd, in the order added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GoalId(pub u32);

/// What went wrong adding an agent or a goal.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// The agent's position is not in the walkable area (no region of the mesh holds it):
    /// place it inside a region.
    NotWalkable {
        /// The position.
        position: Point,
    },
    /// A radius that is not positive and finite, a top speed that is negative or not finite,
    /// or a goal that is not finite.
    BadValue {
        /// What the value is (`"radius"`, `"max_speed"`, `"position"`, `"goal"`).
        what: &'static str,
        /// The value.
        value: f64,
    },
    /// A goal id that [`Agents::add_goal`] did not give.
    NoSuchGoal(GoalId),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NotWalkable { position } => {
                write!(
                    f,
                    "agent position {position} is outside the walkable area: place it inside a region of the mesh"
                )
            }
            Error::BadValue { what, value } => write!(
                f,
                "agent {what} {value} is out of range: a radius must be positive and finite, a top speed finite and not negative, a goal finite"
            ),
            Error::NoSuchGoal(g) => {
                write!(f, "goal {} does not exist: add it with Agents::add_goal first", g.0)
            }
        }
    }
}

impl std::error::Error for Error {}

/// Pairs of agents closer than the sum of their radii: [`Agents::overlaps`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Overlaps {
    /// The number of such pairs.
    pub pairs: usize,
    /// The largest sum of radii minus distance over those pairs (0 without overlaps).
    pub deepest: f64,
}

/// How one [`Agents::step`] went (overlaps are counted on demand: [`Agents::overlaps`]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Stats {
    /// The number of agents.
    pub agents: usize,
    /// Agents that have not arrived and made no progress for [`Settings::stall_ticks`] steps.
    pub stalled: usize,
    /// Agents within [`Settings::arrival_distance`] of their goal.
    pub arrived: usize,
    /// Agents whose goal cannot be reached from where they stand (they stay).
    pub unreachable: usize,
    /// Moves cut short because their end lay outside the walkable area.
    pub clamped: usize,
}
