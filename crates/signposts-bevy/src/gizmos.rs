//! The `gizmos` feature: the map, a walker's path and the flow field toward a target, drawn
//! with Bevy's gizmos.

use bevy::app::{App, Update};
use bevy::color::Color;
use bevy::ecs::prelude::*;
use bevy::gizmos::config::GizmoConfigStore;
use bevy::gizmos::gizmos::Gizmos;
use bevy::math::{Isometry2d, Vec2};
use bevy::transform::components::Transform;
use signposts::grid::Cell;

use crate::agents::{Chaser, GoTo, NavAgent};
use crate::rooms::{RoomsAgent, RoomsChaser, RoomsGoTo};
use crate::{NavGrid, NavRooms, NavSystems};

/// What the plugin draws with gizmos (a resource, initialised by the plugin; change it at any
/// time).
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct NavGizmos {
    /// Outline the [`NavGrid`]'s blocked cells and the [`NavRooms`]' regions (off by default:
    /// a pass over the whole map every frame).
    pub map: bool,
    /// Draw this walker's whole path to its goal (a [`Chaser`], [`GoTo`], [`RoomsChaser`] or
    /// [`RoomsGoTo`]).
    pub path_of: Option<Entity>,
    /// Draw the flow field toward the cell this entity stands on: from each open cell, an
    /// arrow along its optimal step (the table's first move).
    pub flow_toward: Option<Entity>,
    /// At most this many arrows of the flow field (the cells nearest the target first; cells
    /// farther than the square of this many cells around the target are not looked at).
    pub max_arrows: usize,
    /// Colour of walls and region outlines.
    pub wall_color: Color,
    /// Colour of paths.
    pub path_color: Color,
    /// Colour of flow arrows.
    pub flow_color: Color,
}

impl Default for NavGizmos {
    fn default() -> NavGizmos {
        NavGizmos {
            map: false,
            path_of: None,
            flow_toward: None,
            max_arrows: 4096,
            wall_color: Color::srgb(0.45, 0.45, 0.5),
            path_color: Color::srgb(1.0, 0.8, 0.2),
            flow_color: Color::srgba(0.3, 0.7, 1.0, 0.6),
        }
    }
}

pub(crate) fn add(app: &mut App) {
    // Drawn where Bevy's gizmo plugin runs (`DefaultPlugins` with rendering); a headless app
    // with the feature on draws nothing and does not fail.
    app.init_resource::<NavGizmos>().add_systems(
        Update,
        (draw_grid, draw_rooms).in_set(NavSystems::Draw).run_if(resource_exists::<GizmoConfigStore>),
    );
}

/// The cell an entity stands on: its walker's cell, or the cell under its `Transform`.
fn cell_of(
    grid: &NavGrid,
    entities: &Query<(Option<&NavAgent>, Option<&Transform>)>,
    entity: Entity,
) -> Option<Cell> {
    let (agent, transform) = entities.get(entity).ok()?;
    agent.and_then(NavAgent::cell).or_else(|| grid.cell_at(transform?.translation.truncate()))
}

fn draw_grid(
    grid: Option<Res<NavGrid>>,
    settings: Res<NavGizmos>,
    entities: Query<(Option<&NavAgent>, Option<&Transform>)>,
    goals: Query<(Option<&Chaser>, Option<&GoTo>)>,
    mut gizmos: Gizmos,
) {
    let Some(grid) = grid else { return };
    let (Some(map), Some(oracle)) = (grid.map(), grid.oracle()) else { return };
    let size = Vec2::splat(grid.cell_size());
    if settings.map {
        for y in 0..map.height() {
            for x in 0..map.width() {
                let cell = Cell::new(x, y);
                if !map.is_passable(cell) {
                    gizmos.rect_2d(
                        Isometry2d::from_translation(grid.cell_center(cell)),
                        size,
                        settings.wall_color,
                    );
                }
            }
        }
    }
    if let Some(walker) = settings.path_of
        && let Some(here) = cell_of(&grid, &entities, walker)
        && let Ok((chaser, goto)) = goals.get(walker)
    {
        let goal = match (chaser, goto) {
            (Some(chaser), _) => cell_of(&grid, &entities, chaser.target),
            (None, Some(goto)) => Some(goto.cell),
            (None, None) => None,
        };
        if let Some(goal) = goal {
            gizmos.linestrip_2d(oracle.path(here, goal).map(|c| grid.cell_center(c)), settings.path_color);
        }
    }
    if let Some(target) = settings.flow_toward
        && let Some(goal) = cell_of(&grid, &entities, target)
    {
        // Cells in rings around the goal, nearest first, up to the arrow budget; no farther
        // than a square of `max_arrows` cells, however few of them have a step (a goal shut in).
        let mut drawn = 0;
        let square = u32::try_from(settings.max_arrows.isqrt()).unwrap_or(u32::MAX);
        let reach = map.width().max(map.height()).min(square / 2 + 1);
        'rings: for r in 0..=reach {
            for cell in ring(goal, r) {
                if drawn >= settings.max_arrows {
                    break 'rings;
                }
                if !map.contains(cell) {
                    continue;
                }
                if let Some(step) = oracle.next_step(cell, goal) {
                    let (dx, dy) = step.delta();
                    let from = grid.cell_center(cell);
                    let along = Vec2::new(dx as f32, -(dy as f32)) * grid.cell_size() * 0.4;
                    gizmos.arrow_2d(from - along * 0.5, from + along * 0.5, settings.flow_color);
                    drawn += 1;
                }
            }
        }
    }
}

/// The cells at Chebyshev distance `r` from `center` (those with coordinates below zero left out).
fn ring(center: Cell, r: u32) -> impl Iterator<Item = Cell> {
    let r = i64::from(r);
    let (cx, cy) = (i64::from(center.x), i64::from(center.y));
    (-r..=r)
        .flat_map(move |dy| (-r..=r).map(move |dx| (dx, dy)))
        .filter(move |&(dx, dy)| dx.abs().max(dy.abs()) == r)
        .filter_map(move |(dx, dy)| {
            Some(Cell::new(u32::try_from(cx + dx).ok()?, u32::try_from(cy + dy).ok()?))
        })
}

fn draw_rooms(
    rooms: Option<Res<NavRooms>>,
    settings: Res<NavGizmos>,
    walkers: Query<(&RoomsAgent, Option<&RoomsChaser>, Option<&RoomsGoTo>)>,
    agents: Query<&RoomsAgent>,
    mut gizmos: Gizmos,
) {
    let Some(rooms) = rooms else { return };
    let Some(mesh) = rooms.mesh() else { return };
    if settings.map {
        for r in 0..mesh.regions_len() as u32 {
            let corners: Vec<Vec2> =
                mesh.polygon(signposts_rooms::RegionId(r)).map(|p| rooms.to_world(p)).collect();
            if let Some(&first) = corners.first() {
                gizmos.linestrip_2d(corners.iter().copied().chain([first]), settings.wall_color);
            }
        }
    }
    if let Some(walker) = settings.path_of
        && let Ok((agent, chaser, goto)) = walkers.get(walker)
        && let Some(from) = agent.position()
    {
        let goal = match (chaser, goto) {
            (Some(chaser), _) => agents.get(chaser.target).ok().and_then(RoomsAgent::position),
            (None, Some(goto)) => Some(goto.point),
            (None, None) => None,
        };
        let path = goal.and_then(|to| match (rooms.exact(), rooms.rooms()) {
            (Some(exact), _) => exact.path(from, to),
            (None, Some(corridor)) => corridor.path(from, to),
            (None, None) => None,
        });
        if let Some(path) = path {
            gizmos.linestrip_2d(path.points().iter().map(|&p| rooms.to_world(p)), settings.path_color);
        }
    }
}
