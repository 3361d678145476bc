//! The chase game's rules, shared by the windowed example (`main.rs`) and its headless twin
//! (`examples/chase_headless.rs`, also run by `tests/example.rs`): a maze, a player, enemies
//! that chase the player, doors that close and open.

#![expect(clippy::needless_pass_by_value, reason = "Bevy systems take their parameters by value")]

use bevy::prelude::*;
use signposts::grid::{Cell, Grid};
use signposts_bevy::prelude::*;

/// World units per cell.
pub const CELL: f32 = 12.0;

/// The player.
#[derive(Component)]
pub struct Player {
    /// The cell the player stands on.
    pub cell: Cell,
}

/// An enemy (a [`Chaser`] of the player).
#[derive(Component)]
pub struct Enemy;

/// What the player or the script asks for.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// Step the player one cell (dx, dy), if open.
    Step(i32, i32),
    /// Spawn this many enemies at random open cells away from the player.
    Spawn(usize),
    /// Close the doors if open, open them if closed.
    ToggleDoors,
}

/// The game's state.
#[derive(Resource)]
pub struct Game {
    /// The maze as generated (doors open).
    pub map: Grid,
    /// Door cells: one-cell gaps in walls, closed and opened together.
    pub doors: Vec<Cell>,
    /// Whether the doors are closed now.
    pub doors_closed: bool,
    /// Enemies that reached the player (each starts again elsewhere).
    pub catches: u64,
    /// Enemy speed, cells a second.
    pub enemy_speed: f32,
    open: Vec<Cell>,
    seed: u64,
}

impl Game {
    /// A random cell of the maze (a door among them, closed or not).
    pub fn random_cell(&mut self) -> Cell {
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
        self.open[(self.seed % self.open.len() as u64) as usize]
    }

    /// A random cell open now (not a closed door), other than `avoid` (the player's).
    pub fn random_open_cell(&mut self, nav: &NavGrid, avoid: Cell) -> Cell {
        loop {
            let cell = self.random_cell();
            if nav.is_open(cell) && cell != avoid {
                return cell;
            }
        }
    }

    /// The world position of the map's top-left corner: the map centred on the origin.
    pub fn origin(&self) -> Vec2 {
        Vec2::new(-(self.map.width() as f32), self.map.height() as f32) * CELL / 2.0
    }
}

/// Cells in one-cell gaps of walls (walls on both sides, open ahead and behind), spread over
/// the map: at most `count`.
pub fn doors(map: &Grid, count: usize) -> Vec<Cell> {
    let open = |x: i64, y: i64| match (u32::try_from(x), u32::try_from(y)) {
        (Ok(x), Ok(y)) => map.contains(Cell::new(x, y)) && map.is_passable(Cell::new(x, y)),
        _ => false,
    };
    let gaps: Vec<Cell> = (0..map.height())
        .flat_map(|y| (0..map.width()).map(move |x| Cell::new(x, y)))
        .filter(|&c| {
            let (x, y) = (i64::from(c.x), i64::from(c.y));
            open(x, y)
                && ((!open(x - 1, y) && !open(x + 1, y) && open(x, y - 1) && open(x, y + 1))
                    || (!open(x, y - 1) && !open(x, y + 1) && open(x - 1, y) && open(x + 1, y)))
        })
        .collect();
    let stride = (gaps.len() / count.max(1)).max(1);
    gaps.into_iter().step_by(stride).take(count).collect()
}

/// The game's systems: commands, enemies that catch the player start again.
pub struct GamePlugin {
    /// The map.
    pub map: Grid,
    /// Enemy speed, cells a second.
    pub enemy_speed: f32,
}

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        let map = self.map.clone();
        let open: Vec<Cell> = (0..map.height())
            .flat_map(|y| (0..map.width()).map(move |x| Cell::new(x, y)))
            .filter(|&c| map.is_passable(c))
            .collect();
        let doors = doors(&map, 12);
        let mut game = Game {
            map,
            doors,
            doors_closed: false,
            catches: 0,
            enemy_speed: self.enemy_speed,
            open,
            seed: 0x5eed,
        };
        let start = game.random_cell();
        let nav = NavGrid::from_grid(game.map.clone(), Connectivity::Eight)
            .with_cell_size(CELL)
            .with_origin(game.origin());
        let at = nav.cell_center(start).extend(1.0);
        app.add_message::<Command>()
            .insert_resource(nav)
            .insert_resource(game)
            .add_systems(Startup, move |mut commands: Commands| {
                commands.spawn((Player { cell: start }, Transform::from_translation(at)));
            })
            .add_systems(FixedUpdate, (obey.before(NavSystems::Steer), respawn.after(NavSystems::Move)));
    }
}

fn obey(
    mut commands: Commands,
    mut orders: MessageReader<Command>,
    mut game: ResMut<Game>,
    nav: Res<NavGrid>,
    mut player: Query<(Entity, &mut Player, &mut Transform)>,
    mut edits: MessageWriter<SetBlocked>,
) {
    let Ok((player_entity, mut player, mut transform)) = player.single_mut() else { return };
    for &order in orders.read() {
        match order {
            Command::Step(dx, dy) => {
                let (Some(x), Some(y)) =
                    (player.cell.x.checked_add_signed(dx), player.cell.y.checked_add_signed(dy))
                else {
                    continue;
                };
                let to = Cell::new(x, y);
                if nav.is_open(to) {
                    player.cell = to;
                    transform.translation = nav.cell_center(to).extend(1.0);
                }
            }
            Command::Spawn(count) => {
                for _ in 0..count {
                    let cell = game.random_open_cell(&nav, player.cell);
                    let speed = game.enemy_speed;
                    commands.spawn((Enemy, Chaser::new(player_entity, speed), NavAgent::at(cell)));
                }
            }
            Command::ToggleDoors => {
                game.doors_closed = !game.doors_closed;
                for &cell in &game.doors {
                    if cell != player.cell {
                        edits.write(SetBlocked { cell, blocked: game.doors_closed });
                    }
                }
            }
        }
    }
}

/// An enemy on the player's cell counts a catch and starts again at a random cell.
fn respawn(
    mut game: ResMut<Game>,
    nav: Res<NavGrid>,
    player: Query<&Player>,
    mut enemies: Query<&mut NavAgent, With<Enemy>>,
) {
    let Ok(player) = player.single() else { return };
    for mut agent in &mut enemies {
        if agent.cell() == Some(player.cell) {
            game.catches += 1;
            let cell = game.random_open_cell(&nav, player.cell);
            agent.place(cell);
        }
    }
}
