//! The README's Bevy snippet, run: the block in README.md must be the text between the
//! markers below, and the chaser it spawns must walk to the player on den312d.

use std::path::PathBuf;

// README: begin
use bevy::prelude::*;
use signposts_bevy::prelude::*;

/// The plugin, a map and one enemy chasing the player (add it to your game's `App`).
fn chase(app: &mut App) {
    app.add_plugins(SignpostsPlugin)
        .insert_resource(NavGrid::from_map_file("maps/den312d.map", Connectivity::Eight).with_cell_size(16.0))
        .add_systems(Startup, |mut commands: Commands| {
            let player = commands.spawn(Transform::from_xyz(88.0, -88.0, 0.0)).id(); // yours to move
            commands.spawn((Chaser::new(player, 6.0), Transform::from_xyz(808.0, -1128.0, 0.0)));
        });
}
// README: end

/// The lines between the markers of this file.
fn snippet() -> String {
    let source = include_str!("readme.rs");
    let begin = source.find("// README: begin\n").unwrap() + "// README: begin\n".len();
    let end = source.find("// README: end").unwrap();
    source[begin..end].to_owned()
}

#[test]
fn the_readme_shows_the_snippet_tested_here() {
    let readme = include_str!("../../README.md");
    let section = &readme[readme.find("## Quick start").expect("a Bevy section")..];
    let start = section.find("```rust,ignore\n").unwrap() + "```rust,ignore\n".len();
    let block = &section[start..start + section[start..].find("```").unwrap()];
    assert_eq!(block, snippet(), "README.md's Bevy snippet differs from tests/readme.rs");
}

#[test]
fn the_readme_snippet_chases_the_player_on_den312d() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    assert!(root.join("maps/den312d.map").exists(), "the repository's maps/den312d.map is missing");
    // The snippet's path is relative, as in a game: run from the folder holding `maps/`. No
    // other test of this binary depends on the working directory.
    std::env::set_current_dir(&root).unwrap();
    let mut app = crate::common::bare_app();
    chase(&mut app);
    crate::common::wait_for(
        &mut app,
        |app| app.world().resource::<NavGrid>().status() == NavStatus::Ready,
        "den312d's table",
    );
    let mut chasers = app.world_mut().query::<(&NavAgent, &Chaser)>();
    let (_, chaser) = chasers.single(app.world()).unwrap();
    let player = chaser.target;
    let goal = app.world().resource::<NavGrid>().cell_at(Vec2::new(88.0, -88.0)).unwrap();
    assert_eq!(goal, signposts::grid::Cell::new(5, 5));
    let mut arrived = bevy::ecs::message::MessageCursor::<Arrived>::default();
    let mut reached = Vec::new();
    // 6 cells a second at 64 ticks a second: the 90-odd cells take about a thousand ticks.
    for _ in 0..3_000 {
        app.update();
        reached.extend(crate::common::drain(&app, &mut arrived));
        if !reached.is_empty() {
            break;
        }
    }
    assert_eq!(reached.len(), 1, "the chaser never reached the player");
    assert_eq!(reached[0].cell, goal);
    let nav = app.world().resource::<NavGrid>();
    let at = app.world().get::<Transform>(reached[0].entity).unwrap().translation.truncate();
    assert_eq!(at, nav.cell_center(goal));
    assert!(app.world().get::<Transform>(player).is_some());
}
