//! Rooms walkers with `Avoidance`, headless: a crowd chasing one target keeps apart (within
//! the crowd crate's stated tolerance, a quarter of the radii's sum), stays in the walkable
//! area, runs the same twice, and stays right when walkers leave, are teleported or stop
//! avoiding.

use crate::common::{app, wait_for};
use bevy::prelude::*;
use signposts::grid::Grid;
use signposts_bevy::prelude::*;
use signposts_crowd::agents::AgentId;
use signposts_rooms::{NavMesh, Point};

/// The walkers' radius (mesh units).
const RADIUS: f32 = 0.3;

/// The crowd crate's promise: no pair overlaps by more than this share of its radii's sum.
const TOLERANCE: f64 = 0.25;

/// A small room with a pillar between the crowd and the target.
fn mesh() -> NavMesh {
    let grid = Grid::from_ascii(
        "
        ..........
        ..........
        ....##....
        ....##....
        ..........
        ..........
    ",
    )
    .unwrap();
    NavMesh::from_grid(&grid).unwrap()
}

/// An app with the rooms ready (scaled and moved, so that the world and the mesh differ), a
/// target standing at (9, 3) and `count` chasers packed on the left, avoiding or not.
fn chase(mode: RoomsMode, count: usize, avoid: bool) -> (App, Entity, Vec<Entity>) {
    let mut app = app();
    app.insert_resource(NavRooms::new(mesh(), mode).with_scale(16.0).with_origin(Vec2::new(-40.0, 30.0)));
    wait_for(&mut app, |app| app.world().resource::<NavRooms>().status() == NavStatus::Ready, "the rooms");
    let at = app.world().resource::<NavRooms>().to_world(Point::new(9.0, 3.0));
    let target = app.world_mut().spawn(Transform::from_translation(at.extend(0.0))).id();
    let walkers = (0..count)
        .map(|k| {
            let position = Point::new(0.4 + 0.7 * (k % 5) as f64, 0.4 + 0.8 * (k / 5) as f64);
            let walker = (RoomsAgent::at(position), RoomsChaser { target, speed: 4.0 });
            if avoid {
                app.world_mut().spawn((walker, Avoidance::new(RADIUS))).id()
            } else {
                app.world_mut().spawn(walker).id()
            }
        })
        .collect();
    (app, target, walkers)
}

/// The walkers' mesh positions.
fn positions(app: &App, walkers: &[Entity]) -> Vec<Point> {
    walkers.iter().map(|&e| app.world().get::<RoomsAgent>(e).unwrap().position().unwrap()).collect()
}

/// The walkers' `Transform`s.
fn transforms(app: &App, walkers: &[Entity]) -> Vec<Vec3> {
    walkers.iter().map(|&e| app.world().get::<Transform>(e).unwrap().translation).collect()
}

/// The deepest overlap of two walkers, as a share of their radii's sum (0 when none overlap).
fn deepest_overlap(points: &[Point]) -> f64 {
    let sum = 2.0 * f64::from(RADIUS);
    let mut deepest = 0.0f64;
    for (i, p) in points.iter().enumerate() {
        for q in &points[i + 1..] {
            deepest = deepest.max((sum - p.distance(*q)) / sum);
        }
    }
    deepest
}

/// Ticks `ticks` times, checking after each: no overlap past the tolerance, every walker in
/// the walkable area, each `Transform` where its `RoomsAgent` stands and the crowd has it.
fn run_checked(app: &mut App, walkers: &[Entity], ticks: usize) {
    let mesh = mesh();
    for tick in 0..ticks {
        app.update();
        let points = positions(app, walkers);
        let deepest = deepest_overlap(&points);
        assert!(
            deepest <= TOLERANCE,
            "tick {tick}: two walkers overlap by {deepest:.3} of their radii's sum"
        );
        let rooms = app.world().resource::<NavRooms>();
        let crowd = app.world().resource::<RoomsCrowd>();
        let agents = crowd.agents().unwrap();
        assert_eq!(agents.len(), walkers.len(), "tick {tick}: one agent per avoiding walker");
        for (&walker, &p) in walkers.iter().zip(&points) {
            assert!(mesh.region_at(p).is_some(), "tick {tick}: {walker} at {p} left the walkable area");
            let id = crowd.agent(walker).expect("an avoiding walker is in the crowd");
            assert_eq!(crowd.walker(id), Some(walker), "tick {tick}: the entity and agent maps disagree");
            assert_eq!(agents.position(id), p, "tick {tick}: {walker} is not where the crowd has it");
            let translation = app.world().get::<Transform>(walker).unwrap().translation;
            assert_eq!(translation.truncate(), rooms.to_world(p), "tick {tick}: {walker}'s Transform");
        }
    }
}

#[test]
fn an_avoiding_crowd_keeps_apart_stays_walkable_and_closes_in_on_its_target() {
    for mode in [RoomsMode::Corridor, RoomsMode::Exact] {
        let (mut app, _, walkers) = chase(mode, 20, true);
        let start = positions(&app, &walkers);
        run_checked(&mut app, &walkers, 400);
        let goal = Point::new(9.0, 3.0);
        let mean =
            |points: &[Point]| points.iter().map(|p| p.distance(goal)).sum::<f64>() / points.len() as f64;
        let (before, after) = (mean(&start), mean(&positions(&app, &walkers)));
        assert!(after < before / 3.0, "{mode:?}: the crowd came from {before:.2} to {after:.2} on average");
        // Packed round the target, not on it.
        assert!(deepest_overlap(&positions(&app, &walkers)) <= TOLERANCE);
        let stats = app.world().resource::<RoomsCrowd>().stats().unwrap();
        assert_eq!(stats.agents, 20, "{mode:?}");
    }
}

#[test]
fn without_avoidance_the_same_walkers_pile_up_on_the_target() {
    // The overlap check above can fail: plain walkers end on one point.
    let (mut app, _, walkers) = chase(RoomsMode::Exact, 20, false);
    for _ in 0..400 {
        app.update();
    }
    assert!(deepest_overlap(&positions(&app, &walkers)) > 0.99);
    assert!(app.world().resource::<RoomsCrowd>().agents().is_none(), "no crowd without Avoidance");
}

#[test]
fn the_same_crowd_runs_the_same_twice() {
    let run = || {
        let (mut app, target, walkers) = chase(RoomsMode::Exact, 20, true);
        let mut seen = Vec::new();
        for tick in 0..300 {
            if tick == 150 {
                // The target moves and three walkers go.
                let to = app.world().resource::<NavRooms>().to_world(Point::new(1.0, 5.5));
                app.world_mut().get_mut::<Transform>(target).unwrap().translation = to.extend(0.0);
                for &walker in &walkers[3..6] {
                    app.world_mut().despawn(walker);
                }
            }
            app.update();
            let alive: Vec<Entity> =
                walkers.iter().copied().filter(|&e| app.world().get_entity(e).is_ok()).collect();
            seen.push(transforms(&app, &alive));
        }
        seen
    };
    let (first, second) = (run(), run());
    assert_eq!(first.len(), second.len());
    for (tick, (a, b)) in first.iter().zip(&second).enumerate() {
        assert_eq!(a, b, "tick {tick}: the two runs differ");
    }
    assert_ne!(first[0], first[299], "the walkers moved");
}

#[test]
fn walkers_that_leave_the_crowd_leave_the_rest_correct() {
    let (mut app, _, mut walkers) = chase(RoomsMode::Corridor, 20, true);
    run_checked(&mut app, &walkers, 100);
    // Despawned: the first (its place taken by the last agent), one in the middle, the last.
    for k in [19, 10, 0] {
        let walker = walkers.remove(k);
        app.world_mut().despawn(walker);
    }
    run_checked(&mut app, &walkers, 100);
    // One stops avoiding: it leaves the crowd and walks through the others again.
    let plain = walkers.remove(4);
    app.world_mut().entity_mut(plain).remove::<Avoidance>();
    run_checked(&mut app, &walkers, 50);
    assert!(app.world().resource::<RoomsCrowd>().agent(plain).is_none());
    // One loses its chaser: it leaves the crowd too.
    let idle = walkers.remove(7);
    app.world_mut().entity_mut(idle).remove::<RoomsChaser>();
    run_checked(&mut app, &walkers, 50);
    assert!(app.world().resource::<RoomsCrowd>().agent(idle).is_none());
    // And joins again with it.
    app.world_mut().entity_mut(idle).insert(RoomsChaser { target: plain, speed: 2.0 });
    walkers.push(idle);
    run_checked(&mut app, &walkers, 50);
    // Every agent left: the crowd is empty and nothing breaks.
    for walker in walkers.drain(..) {
        app.world_mut().despawn(walker);
    }
    app.update();
    assert!(app.world().resource::<RoomsCrowd>().agents().unwrap().is_empty());
}

#[test]
fn a_walker_moved_by_the_game_is_teleported_in_the_crowd() {
    let (mut app, _, walkers) = chase(RoomsMode::Exact, 10, true);
    run_checked(&mut app, &walkers, 20);
    let (rooms_to, mesh_to) = {
        let rooms = app.world().resource::<NavRooms>();
        (rooms.to_world(Point::new(9.5, 0.5)), Point::new(9.5, 0.5))
    };
    // Through its Transform.
    app.world_mut().get_mut::<Transform>(walkers[2]).unwrap().translation = rooms_to.extend(0.0);
    app.update();
    let at = positions(&app, &walkers)[2];
    assert!(at.distance(mesh_to) < 4.0 / 64.0 + 1e-3, "the walker stands at {at}, not by {mesh_to}");
    // Through a new RoomsAgent.
    let there = Point::new(0.5, 5.5);
    app.world_mut().entity_mut(walkers[5]).insert(RoomsAgent::at(there));
    app.update();
    let at = positions(&app, &walkers)[5];
    assert!(at.distance(there) < 4.0 / 64.0 + 1e-9, "the walker stands at {at}, not by {there}");
    run_checked(&mut app, &walkers, 20);
    // Into a wall: refused, reported, and the walker stays in the crowd where it was.
    let before = positions(&app, &walkers)[1];
    let wall = app.world().resource::<NavRooms>().to_world(Point::new(4.5, 2.5));
    app.world_mut().get_mut::<Transform>(walkers[1]).unwrap().translation = wall.extend(0.0);
    let mut cursor = bevy::ecs::message::MessageCursor::<NavError>::default();
    app.update();
    let errors = crate::common::drain(&app, &mut cursor);
    assert!(matches!(errors[..], [NavError { error: NavFailure::Crowd(_), .. }]), "{errors:?}");
    assert!(positions(&app, &walkers)[1].distance(before) < 4.0 / 64.0 + 1e-9);
    let crowd = app.world().resource::<RoomsCrowd>();
    assert_eq!(crowd.walker(crowd.agent(walkers[1]).unwrap()), Some(walkers[1]));
    assert!(crowd.agent(walkers[1]).unwrap() < AgentId(10));
}

#[test]
fn a_walker_that_cannot_join_is_reported_once_and_joins_once_moved_into_the_room() {
    let (mut app, target, walkers) = chase(RoomsMode::Corridor, 4, true);
    let in_wall = app
        .world_mut()
        .spawn((
            RoomsAgent::at(Point::new(4.5, 2.5)),
            RoomsChaser { target, speed: 4.0 },
            Avoidance::new(RADIUS),
        ))
        .id();
    let mut cursor = bevy::ecs::message::MessageCursor::<NavError>::default();
    let mut errors = Vec::new();
    for _ in 0..10 {
        run_checked(&mut app, &walkers, 1);
        errors.extend(crate::common::drain(&app, &mut cursor));
    }
    assert!(matches!(errors[..], [NavError { error: NavFailure::Crowd(_), .. }]), "{errors:?}");
    assert!(app.world().resource::<RoomsCrowd>().agent(in_wall).is_none());
    app.world_mut().entity_mut(in_wall).insert(RoomsAgent::at(Point::new(9.5, 5.5)));
    let mut all = walkers.clone();
    all.push(in_wall);
    for _ in 0..10 {
        run_checked(&mut app, &all, 1);
        assert!(crate::common::drain(&app, &mut cursor).is_empty());
    }
}
