//! The chase example without a window: the same game (`chase/game.rs`), a scripted player,
//! enemies added up to each count, the doors closed and opened every 100 ticks; prints ticks
//! a second at each count (over at least 300 ticks and a second).
//!
//! `cargo run --release -p signposts-bevy --example chase_headless [-- [--capacity N] counts...]`
//! (default 1000 10000 50000; `--capacity N`: at most N enemies to a cell,
//! `NavSettings::cell_capacity`). `tests/example.rs` runs the same game briefly in the test
//! suite.

#[path = "chase/game.rs"]
mod game;

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use game::{Command, Enemy, Game, GamePlugin};
use signposts_bevy::prelude::*;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let capacity = args.iter().position(|a| a == "--capacity").map(|at| {
        let n = args.get(at + 1).and_then(|n| n.parse::<u16>().ok()).expect("--capacity takes a number");
        args.drain(at..at + 2);
        n
    });
    let counts: Vec<usize> = args.iter().map(|a| a.parse().expect("enemy counts")).collect();
    let counts = if counts.is_empty() { vec![1_000, 10_000, 50_000] } else { counts };
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SignpostsPlugin))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .insert_resource(NavSettings { cell_capacity: capacity, ..NavSettings::default() })
        .add_plugins(GamePlugin { map: signposts::generate::maze_grid(40, 30, 8, 42), enemy_speed: 16.0 });
    let start = Instant::now();
    while app.world().resource::<NavGrid>().status() != NavStatus::Ready {
        assert!(start.elapsed() < Duration::from_mins(1), "the table was not built");
        app.update();
    }
    let map = &app.world().resource::<Game>().map;
    let nav = app.world().resource::<NavGrid>();
    println!(
        "maze {}×{}, {} open cells, table built in {:.0} ms ({} MiB); enemies at a quarter cell a tick, {}",
        map.width(),
        map.height(),
        map.passable_len(),
        start.elapsed().as_secs_f64() * 1e3,
        nav.oracle().map_or(0, |o| o.memory_bytes() >> 20),
        capacity.map_or("no cell capacity".to_owned(), |n| format!("at most {n} to a cell"))
    );
    println!("| enemies | ms a tick | ticks a second | catches | door repairs | ms a repair |");
    println!("| ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut swaps = bevy::ecs::message::MessageCursor::<TableSwapped>::default();
    let mut tick = 0u64;
    for count in counts {
        let have = app.world_mut().query_filtered::<(), With<Enemy>>().iter(app.world()).count();
        app.world_mut().write_message(Command::Spawn(count.saturating_sub(have)));
        let (catches, mut swapped, mut repair) = (app.world().resource::<Game>().catches, 0, 0.0);
        let (mut ticks, begin) = (0u32, Instant::now());
        // At least 300 ticks and a second (so the door repairs, off the main thread, land).
        while ticks < 300 || begin.elapsed() < Duration::from_secs(1) {
            tick += 1;
            let step = [(1, 0), (0, 1), (-1, 0), (0, -1)][(tick / 40 % 4) as usize];
            if tick.is_multiple_of(4) {
                app.world_mut().write_message(Command::Step(step.0, step.1));
            }
            if tick.is_multiple_of(100) {
                app.world_mut().write_message(Command::ToggleDoors);
            }
            app.update();
            for swap in swaps.read(app.world().resource::<Messages<TableSwapped>>()) {
                swapped += 1;
                repair += swap.seconds;
            }
            ticks += 1;
        }
        let seconds = begin.elapsed().as_secs_f64() / f64::from(ticks);
        println!(
            "| {count} | {:.3} | {:.0} | {} | {swapped} | {:.1} |",
            seconds * 1e3,
            1.0 / seconds,
            app.world().resource::<Game>().catches - catches,
            f64::from(repair) * 1e3 / f64::from(swapped.max(1))
        );
    }
}
