//! Grid walkers with a cell capacity ([`NavSettings::cell_capacity`]): [`Chaser`] and
//! [`GoTo`] walkers moved by one [`GridCrowd`].
//!
//! A walker holds one place in the crowd: the cell it walks to, or the cell it stands on.
//! Each tick the walkers standing on a cell centre head for their targets, the others for
//! the cell they hold (so they stay), and the crowd moves them: at most `capacity` to a
//! cell, the least occupied of the tied optimal moves, swaps. A walker the crowd moved starts
//! its step as any walker does.
//!
//! [`NavSettings::cell_capacity`]: crate::NavSettings::cell_capacity
//! [`Chaser`]: crate::Chaser
//! [`GoTo`]: crate::GoTo

use bevy::ecs::entity::EntityHashMap;
use bevy::ecs::message::MessageWriter;
use bevy::ecs::prelude::*;
use signposts::grid::{Cell, GridOracle};
use signposts_crowd::grid::GridCrowd;

use crate::agents::{Arrived, Writer, allowed, direction, step_length};
use crate::grid::NavGrid;

/// The grid crowd, kept between ticks.
pub(crate) struct Capacity {
    /// The [`NavGrid`] and table version it was made for, and its capacity.
    made_for: (u64, u64, u16),
    crowd: GridCrowd,
    /// Walker `i`'s entity.
    members: Vec<Entity>,
    /// An entity's walker index.
    index: EntityHashMap<u32>,
    seen: Vec<bool>,
    /// The walkers on a cell centre this tick: entity, cell, goal cell.
    ready: Vec<(Entity, Cell, Option<Cell>)>,
}

impl Capacity {
    fn new(grid: &NavGrid, oracle: &GridOracle, capacity: u16) -> Capacity {
        Capacity {
            made_for: (grid.id(), grid.version(), capacity),
            crowd: GridCrowd::new(oracle).with_cell_capacity(capacity),
            members: Vec::new(),
            index: EntityHashMap::default(),
            seen: Vec::new(),
            ready: Vec::new(),
        }
    }

    /// Removes walker `i` (the last one takes its index).
    fn remove(&mut self, i: usize) {
        self.crowd.swap_remove(i);
        let gone = self.members.swap_remove(i);
        self.seen.swap_remove(i);
        self.index.remove(&gone);
        if let Some(&moved) = self.members.get(i) {
            self.index.insert(moved, i as u32);
        }
    }
}

/// Whether a walker is moved by the crowd: a chaser or a goto (a fleeing walker is not).
pub(crate) fn managed(kind: (Option<&crate::Chaser>, Option<&crate::Fleeing>, Option<&crate::GoTo>)) -> bool {
    kind.0.is_some() || kind.2.is_some()
}

/// Moves the crowd's walkers standing on a cell centre (their steps start); `places` holds
/// the chased entities' cells. Without a capacity the crowd is dropped.
pub(crate) fn steer(
    grid: &NavGrid,
    oracle: &GridOracle,
    capacity: Option<u16>,
    state: &mut Option<Capacity>,
    places: &EntityHashMap<Option<Cell>>,
    walkers: &mut Writer,
    arrived: &mut MessageWriter<Arrived>,
) {
    let Some(capacity) = capacity.map(|c| c.max(1)) else {
        *state = None;
        return;
    };
    if state.as_ref().is_none_or(|s| s.made_for != (grid.id(), grid.version(), capacity)) {
        // A new map, a repaired table (its nodes may be numbered anew) or a new capacity:
        // every walker joins again where it stands.
        *state = Some(Capacity::new(grid, oracle, capacity));
    }
    let Some(state) = state.as_mut() else { return };
    let place = |agent: &crate::NavAgent, transform: &bevy::transform::components::Transform| {
        let here = agent
            .cell
            .or_else(|| grid.cell_at(transform.translation.truncate()).filter(|&c| grid.is_open(c)))?;
        Some((here, oracle.node(agent.next.unwrap_or(here))?))
    };

    // 1. Leavers out: walkers gone, no longer chasing or going, off the table's cells.
    state.seen.iter_mut().for_each(|seen| *seen = false);
    for (entity, agent, transform, kind) in walkers.iter() {
        if let Some(&i) = state.index.get(&entity)
            && managed(kind)
            && place(agent, transform).is_some()
        {
            state.seen[i as usize] = true;
        }
    }
    for i in (0..state.members.len()).rev() {
        if !state.seen[i] {
            state.remove(i);
        }
    }

    // 2. Each walker where it stands (joining when its cell has room), with its goal.
    state.ready.clear();
    for (entity, agent, transform, kind @ (chaser, _, goto)) in walkers.iter() {
        if !managed(kind) {
            continue;
        }
        let Some((here, node)) = place(agent, transform) else { continue };
        let i = match state.index.get(&entity) {
            // Put back, stepped out of a closed cell, teleported: moved there, or out of the
            // crowd until there is room.
            Some(&i) if state.crowd.move_to(i as usize, node).is_err() => {
                state.remove(i as usize);
                continue;
            }
            Some(&i) => i as usize,
            None => match state.crowd.add(node, node) {
                Ok(i) => {
                    state.members.push(entity);
                    state.seen.push(true);
                    state.index.insert(entity, i as u32);
                    i
                }
                // Its cell is full: it waits to join.
                Err(_) => continue,
            },
        };
        let mut goal = node;
        if agent.next.is_none() {
            let target = match (chaser, goto) {
                (Some(chaser), _) => places.get(&chaser.target).copied().flatten(),
                (None, Some(goto)) => Some(goto.cell),
                (None, None) => None,
            };
            goal = target.and_then(|cell| oracle.node(cell)).unwrap_or(node);
            state.ready.push((entity, here, target));
        }
        state.crowd.set_goal(i, goal).expect("a node of the crowd's table");
    }

    // 3. The crowd's tick, and the steps it gives.
    if state.crowd.tick(&oracle.table()).is_err() {
        return; // not the crowd's table: the next tick makes a new crowd
    }
    let up_to_date = grid.is_up_to_date();
    for &(entity, here, target) in &state.ready {
        let Ok((_, mut agent, _, _)) = walkers.get_mut(entity) else { continue };
        let Some(&i) = state.index.get(&entity) else { continue };
        let i = i as usize;
        if agent.cell.is_none() {
            agent.cell = Some(here);
        }
        let reached = target == Some(here);
        if reached && !agent.arrived {
            arrived.write(Arrived { entity, cell: here });
        }
        agent.arrived = reached;
        let carry = core::mem::take(&mut agent.carry); // for this step only
        let Some(next) = oracle.cell(state.crowd.position(i)).filter(|&next| next != here) else { continue };
        let step = direction(here, next);
        if step.is_some_and(|d| up_to_date || allowed(grid, here, d)) {
            agent.next = Some(next);
            agent.progress = (carry / step_length(here, next)).min(1.0);
        } else {
            // Into a cell the latest edits closed (the table is being repaired): back.
            if let Some(back) = oracle.node(here) {
                state.crowd.move_to(i, back).ok();
            }
        }
    }
}
