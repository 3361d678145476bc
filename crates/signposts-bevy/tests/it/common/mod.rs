//! Helpers of the plugin's headless tests: an app whose `update()` is one tick, and plain
//! breadth-first distances to check the walkers against.
#![allow(dead_code, reason = "not every test uses every helper")]
#![allow(clippy::many_single_char_names, reason = "coordinates and distances, as in the core's tests")]

use std::collections::VecDeque;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use signposts::grid::{Cell, Grid};
use signposts_bevy::prelude::*;

/// Speed of one cell a tick (the fixed clock ticks 64 times a second).
pub const CELL_A_TICK: f32 = 64.0;

/// A headless app, one `FixedUpdate` tick per `update()`, without the plugin.
pub fn bare_app() -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins);
    app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app
}

/// [`bare_app`] with the plugin.
pub fn app() -> App {
    let mut app = bare_app();
    app.add_plugins(SignpostsPlugin);
    app
}

/// An app with `nav` inserted, updated until its table is ready (a bounded wait for the build
/// on the async compute pool).
pub fn ready_app(nav: NavGrid) -> App {
    let mut app = app();
    app.insert_resource(nav);
    wait_for(&mut app, |app| app.world().resource::<NavGrid>().status() == NavStatus::Ready, "the table");
    app
}

/// Updates until `done` holds, sleeping a little between frames; panics after 20 s.
pub fn wait_for(app: &mut App, mut done: impl FnMut(&App) -> bool, what: &str) {
    let start = std::time::Instant::now();
    loop {
        app.update();
        if done(app) {
            return;
        }
        assert!(start.elapsed().as_secs() < 20, "{what} never came");
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// [`wait_for`] until `done` holds of the messages `M` written meanwhile; returns them.
pub fn collect_until<M: bevy::ecs::message::Message + Clone>(
    app: &mut App,
    mut done: impl FnMut(&App, &[M]) -> bool,
    what: &str,
) -> Vec<M> {
    let mut cursor = bevy::ecs::message::MessageCursor::<M>::default();
    let mut seen = Vec::new();
    wait_for(
        app,
        |app| {
            seen.extend(drain(app, &mut cursor));
            done(app, &seen)
        },
        what,
    );
    seen
}

/// Breadth-first distances (4-connected) from `to` to every cell, `None` where unreachable.
pub fn bfs(grid: &Grid, to: Cell) -> Vec<Option<u32>> {
    let (w, h) = (grid.width(), grid.height());
    let mut dist = vec![None; (w * h) as usize];
    if !grid.is_passable(to) {
        return dist;
    }
    let index = |c: Cell| (c.y * w + c.x) as usize;
    dist[index(to)] = Some(0);
    let mut queue = VecDeque::from([to]);
    while let Some(c) = queue.pop_front() {
        let d = dist[index(c)].unwrap();
        let around = [(0i64, -1i64), (1, 0), (0, 1), (-1, 0)];
        for (dx, dy) in around {
            let (Ok(x), Ok(y)) = (u32::try_from(i64::from(c.x) + dx), u32::try_from(i64::from(c.y) + dy))
            else {
                continue;
            };
            if x >= w || y >= h {
                continue;
            }
            let n = Cell::new(x, y);
            if grid.is_passable(n) && dist[index(n)].is_none() {
                dist[index(n)] = Some(d + 1);
                queue.push_back(n);
            }
        }
    }
    dist
}

/// The distance of `cell` in a [`bfs`] result.
pub fn at(dist: &[Option<u32>], grid: &Grid, cell: Cell) -> Option<u32> {
    dist[(cell.y * grid.width() + cell.x) as usize]
}

/// Spawns a walker standing on `cell`.
pub fn spawn_on(app: &mut App, cell: Cell, walker: impl Bundle) -> Entity {
    app.world_mut().spawn((walker, NavAgent::at(cell))).id()
}

/// The walker's agent.
pub fn agent(app: &App, entity: Entity) -> NavAgent {
    *app.world().get::<NavAgent>(entity).expect("a walker")
}

/// Messages of type `M` written since the last call (read with a cursor kept by the caller).
pub fn drain<M: bevy::ecs::message::Message + Clone>(
    app: &App,
    cursor: &mut bevy::ecs::message::MessageCursor<M>,
) -> Vec<M> {
    let messages = app.world().resource::<bevy::ecs::message::Messages<M>>();
    cursor.read(messages).cloned().collect()
}
