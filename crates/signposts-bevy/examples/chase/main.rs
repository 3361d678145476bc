//! The bit_gossip-style chase in a window: a maze (or a Moving AI map given as an argument),
//! the player moved with the arrow keys, enemies that chase the player, every step a table
//! read.
//!
//! `cargo run --release -p signposts-bevy --features window --example chase [-- map.map]`
//!
//! Keys: arrows move; space spawns 200 enemies (hold it to go to tens of thousands); D closes
//! or opens the doors (orange cells; the table is repaired off the main thread); S cycles how
//! enemies share the optimal moves ([`Spread`]); F shows the flow field toward the player; P
//! the path of the first enemy. The window title shows the enemies, the frame rate and the
//! spread.
//!
//! With `SIGNPOSTS_SCREENSHOT=chase.png` set it plays itself (2,000 enemies, the doors closed
//! midway), saves a screenshot and exits: how `docs/bevy-chase.png` was made.

mod game;

use bevy::prelude::*;
use game::{CELL, Command, Enemy, Game, GamePlugin, Player};
use signposts::grid::{Cell, Grid};
use signposts_bevy::prelude::*;

fn main() {
    let map: Grid = match std::env::args().nth(1) {
        Some(path) => {
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
            signposts::grid::parse_map(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"))
        }
        None => signposts::generate::maze_grid(40, 28, 8, 42), // 81×57 cells: 972×684 pixels
    };
    App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window { title: "signposts chase".into(), ..default() }),
            ..default()
        }))
        .add_plugins((SignpostsPlugin, GamePlugin { map, enemy_speed: 8.0 }))
        .insert_resource(NavGizmos { map: false, ..NavGizmos::default() })
        .add_systems(Startup, setup)
        .add_systems(Update, (keys, dress_enemies, paint_doors, title, autoplay))
        .run();
}

fn setup(mut commands: Commands, game: Res<Game>, nav: Res<NavGrid>) {
    commands.spawn(Camera2d);
    let wall = Color::srgb(0.25, 0.27, 0.33);
    for y in 0..game.map.height() {
        for x in 0..game.map.width() {
            let cell = Cell::new(x, y);
            if !game.map.is_passable(cell) {
                let at = nav.cell_center(cell).extend(0.0);
                commands
                    .spawn((Sprite::from_color(wall, Vec2::splat(CELL)), Transform::from_translation(at)));
            }
        }
    }
    for &door in &game.doors {
        let at = nav.cell_center(door).extend(0.0);
        commands.spawn((
            Door(door),
            Sprite::from_color(Color::NONE, Vec2::splat(CELL)),
            Transform::from_translation(at),
        ));
    }
}

/// A door's sprite.
#[derive(Component)]
struct Door(Cell);

fn keys(
    input: Res<ButtonInput<KeyCode>>,
    mut orders: MessageWriter<Command>,
    mut settings: ResMut<NavSettings>,
    mut gizmos: ResMut<NavGizmos>,
    player: Query<Entity, With<Player>>,
    enemies: Query<Entity, With<Enemy>>,
) {
    for (key, dx, dy) in [
        (KeyCode::ArrowLeft, -1, 0),
        (KeyCode::ArrowRight, 1, 0),
        (KeyCode::ArrowUp, 0, -1),
        (KeyCode::ArrowDown, 0, 1),
    ] {
        if input.pressed(key) {
            orders.write(Command::Step(dx, dy));
        }
    }
    if input.pressed(KeyCode::Space) {
        orders.write(Command::Spawn(200));
    }
    if input.just_pressed(KeyCode::KeyD) {
        orders.write(Command::ToggleDoors);
    }
    if input.just_pressed(KeyCode::KeyS) {
        settings.spread = match settings.spread {
            Spread::First => Spread::Seeded,
            Spread::Seeded => Spread::LeastOccupied,
            Spread::LeastOccupied => Spread::First,
        };
    }
    if input.just_pressed(KeyCode::KeyF) {
        gizmos.flow_toward = if gizmos.flow_toward.is_some() { None } else { player.single().ok() };
    }
    if input.just_pressed(KeyCode::KeyP) {
        gizmos.path_of = if gizmos.path_of.is_some() { None } else { enemies.iter().next() };
    }
}

fn dress_enemies(
    mut commands: Commands,
    new: Query<Entity, Added<Enemy>>,
    player: Query<Entity, (With<Player>, Without<Sprite>)>,
) {
    let enemy = Color::srgb(0.9, 0.25, 0.2);
    for entity in &new {
        commands.entity(entity).insert(Sprite::from_color(enemy, Vec2::splat(CELL * 0.6)));
    }
    for entity in &player {
        commands
            .entity(entity)
            .insert(Sprite::from_color(Color::srgb(0.3, 0.95, 0.4), Vec2::splat(CELL * 0.9)));
    }
}

fn paint_doors(nav: Res<NavGrid>, mut doors: Query<(&Door, &mut Sprite)>) {
    for (door, mut sprite) in &mut doors {
        sprite.color =
            if nav.is_open(door.0) { Color::srgba(1.0, 0.6, 0.1, 0.25) } else { Color::srgb(1.0, 0.6, 0.1) };
    }
}

/// With `SIGNPOSTS_SCREENSHOT` set: enemies, the doors closed, a screenshot, exit.
fn autoplay(
    mut commands: Commands,
    mut frame: Local<u32>,
    mut orders: MessageWriter<Command>,
    mut exit: MessageWriter<AppExit>,
    mut gizmos: ResMut<NavGizmos>,
    enemies: Query<Entity, With<Enemy>>,
) {
    let Ok(path) = std::env::var("SIGNPOSTS_SCREENSHOT") else { return };
    *frame += 1;
    match *frame {
        30 => {
            orders.write(Command::Spawn(2_000));
        }
        150 => {
            orders.write(Command::ToggleDoors);
        }
        200 => gizmos.path_of = enemies.iter().next(),
        320 => {
            use bevy::render::view::window::screenshot::{Screenshot, save_to_disk};
            commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path));
        }
        380 => {
            exit.write(AppExit::Success);
        }
        _ => {}
    }
}

fn title(
    time: Res<Time>,
    settings: Res<NavSettings>,
    game: Res<Game>,
    enemies: Query<(), With<Enemy>>,
    mut window: Query<&mut Window>,
    mut fps: Local<f32>,
) {
    let dt = time.delta_secs().max(1e-6);
    *fps = if *fps == 0.0 { 1.0 / dt } else { *fps * 0.95 + 0.05 / dt };
    if let Ok(mut window) = window.single_mut() {
        window.title = format!(
            "signposts chase: {} enemies, {:.0} fps, {:?}, {} catches",
            enemies.iter().count(),
            *fps,
            settings.spread,
            game.catches
        );
    }
}
