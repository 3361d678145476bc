//! Rooms: placeholder while the grid half is checked.
use bevy::ecs::prelude::*;
pub(crate) fn sync() {}
pub(crate) fn steer() {}
pub(crate) fn place() {}
