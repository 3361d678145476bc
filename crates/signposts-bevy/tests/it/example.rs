//! The chase example's headless twin in the test suite: the same game (`examples/chase/game.rs`),
//! a scripted player, 2,000 enemies and doors closed mid-chase.

#[path = "../../examples/chase/game.rs"]
#[expect(dead_code, reason = "the windowed example uses the rest")]
mod game;

use crate::common::{app, collect_until, drain, wait_for};
use bevy::ecs::message::MessageCursor;
use bevy::prelude::*;
use game::{Command, Enemy, Game, GamePlugin, Player};
use signposts_bevy::prelude::*;

/// The enemies' cells.
fn enemy_cells(app: &mut App) -> Vec<signposts::grid::Cell> {
    let mut agents = app.world_mut().query_filtered::<&NavAgent, With<Enemy>>();
    agents.iter(app.world()).map(|a| a.cell().unwrap()).collect()
}

/// The mean of the enemies' distances to the player (the table's).
fn mean_distance(app: &mut App) -> f64 {
    let cells = enemy_cells(app);
    let player = app.world_mut().query::<&Player>().single(app.world()).unwrap().cell;
    let oracle = app.world().resource::<NavGrid>().oracle().unwrap();
    cells.iter().map(|&c| oracle.distance(c, player).unwrap()).sum::<f64>() / cells.len() as f64
}

#[test]
fn the_chase_runs_headless_enemies_close_in_catch_the_player_and_doors_are_repaired_mid_chase() {
    let mut app = app();
    app.add_plugins(GamePlugin { map: signposts::generate::maze_grid(20, 15, 6, 7), enemy_speed: 32.0 });
    wait_for(&mut app, |app| app.world().resource::<NavGrid>().status() == NavStatus::Ready, "the table");
    app.world_mut().write_message(Command::Spawn(2_000));
    app.update();
    app.update();
    let start = mean_distance(&mut app);
    for _ in 0..10 {
        app.update();
    }
    // Half a cell a tick for ten ticks: five cells closer on average (the player stands still).
    let closer = mean_distance(&mut app);
    assert!(closer <= start - 4.0, "mean distance {start} → {closer}");

    let doors = app.world().resource::<Game>().doors.clone();
    assert!(!doors.is_empty());
    app.world_mut().write_message(Command::ToggleDoors);
    let mut errors = MessageCursor::<NavError>::default();
    let swaps: Vec<TableSwapped> = collect_until(&mut app, |_, swaps| !swaps.is_empty(), "the doors' repair");
    assert_eq!(swaps[0].edits, doors.len());
    let nav = app.world().resource::<NavGrid>();
    assert!(doors.iter().all(|&d| !nav.oracle().unwrap().grid().is_passable(d)));
    // Enemies caught in a door when it closed have stepped out by now; none steps in.
    for _ in 0..200 {
        app.update();
        assert!(enemy_cells(&mut app).iter().all(|c| !doors.contains(c)), "an enemy stands in a closed door");
    }
    assert!(app.world().resource::<Game>().catches > 0, "nobody caught the player");
    assert!(drain(&app, &mut errors).is_empty());
}
