//! The rooms walkers, headless: they walk the oracle's path (its length exactly), stay in the
//! walkable area, follow a moving target and re-route when a door closes.

use crate::common::{app, collect_until, drain, wait_for};
use bevy::ecs::message::MessageCursor;
use bevy::prelude::*;
use signposts::grid::Grid;
use signposts_bevy::prelude::*;
use signposts_rooms::{DoorId, DoorState, ExactRooms, NavMesh, Point, Rooms};

/// A wall with two gaps: a short way through the top one, a long way through the bottom one.
fn mesh() -> NavMesh {
    let grid = Grid::from_ascii(
        "
        ....@.......
        ............
        ....@..@@...
        ....@..@@...
        ....@.......
        ....@.......
        ............
    ",
    )
    .unwrap();
    NavMesh::from_grid(&grid).unwrap()
}

fn ready(rooms: NavRooms) -> App {
    let mut app = app();
    app.insert_resource(rooms);
    wait_for(&mut app, |app| app.world().resource::<NavRooms>().status() == NavStatus::Ready, "the rooms");
    app
}

fn walker(app: &App, entity: Entity) -> RoomsAgent {
    *app.world().get::<RoomsAgent>(entity).unwrap()
}

/// Walks a `RoomsGoTo` from `from` to `to`, checking each tick that it stands in the walkable
/// area; returns the distance walked.
fn walk(app: &mut App, from: Point, to: Point, speed: f32) -> f64 {
    let entity = app.world_mut().spawn((RoomsAgent::at(from), RoomsGoTo { point: to, speed })).id();
    for _ in 0..2000 {
        app.update();
        let at = walker(app, entity).position().unwrap();
        let mesh = app.world().resource::<NavRooms>().mesh().unwrap();
        assert!(mesh.region_at(at).is_some(), "the walker left the walkable area at {at:?}");
        if at == to {
            return walker(app, entity).walked();
        }
    }
    panic!("never reached {to:?}");
}

#[test]
fn a_walker_walks_the_corridor_path_and_the_exact_path_to_the_length() {
    let mesh = mesh();
    let corridor = Rooms::build(&mesh).unwrap();
    let exact = ExactRooms::build(&mesh).unwrap();
    let pairs = [
        (Point::new(0.5, 0.5), Point::new(11.5, 0.5)),
        (Point::new(0.5, 1.5), Point::new(9.5, 3.5)),
        (Point::new(5.5, 0.5), Point::new(0.5, 4.5)),
    ];
    for (mode, speed) in [(RoomsMode::Corridor, 5.0), (RoomsMode::Exact, 5.0), (RoomsMode::Exact, 200.0)] {
        let mut app = ready(NavRooms::new(mesh.clone(), mode));
        for &(from, to) in &pairs {
            let walked = walk(&mut app, from, to, speed);
            let length = match mode {
                RoomsMode::Corridor => corridor.path(from, to).unwrap().length(),
                RoomsMode::Exact => exact.distance(from, to).unwrap(),
            };
            assert!((walked - length).abs() < 1e-4, "{mode:?} at {speed}: walked {walked}, path {length}");
        }
    }
}

#[test]
fn a_rooms_chaser_catches_a_walker() {
    let mut app = ready(NavRooms::new(mesh(), RoomsMode::Exact));
    let target = app
        .world_mut()
        .spawn((RoomsAgent::at(Point::new(11.5, 4.5)), RoomsGoTo { point: Point::new(0.5, 0.5), speed: 2.0 }))
        .id();
    let chaser = app
        .world_mut()
        .spawn((RoomsAgent::at(Point::new(11.5, 0.5)), RoomsChaser { target, speed: 6.0 }))
        .id();
    let mut caught = false;
    for _ in 0..2000 {
        app.update();
        let (c, t) = (walker(&app, chaser).position().unwrap(), walker(&app, target).position().unwrap());
        if c.distance(t) < 1e-9 {
            caught = true;
            break;
        }
    }
    assert!(caught);
}

#[test]
fn closing_a_door_reroutes_the_walkers_and_a_link_edit_in_exact_mode_is_an_error() {
    let mesh = mesh();
    let (from, to) = (Point::new(0.5, 0.5), Point::new(6.5, 0.5));
    // The door whose closing lengthens the walk most while leaving a way: one of the top gap's.
    let corridor = Rooms::build(&mesh).unwrap();
    let gap = (0..mesh.doors_len() as u32)
        .map(DoorId)
        .filter_map(|d| {
            let mut closed = corridor.clone();
            closed.set_door_open(d, false).unwrap();
            Some((closed.distance(from, to)?, d))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, d)| d)
        .unwrap();
    for mode in [RoomsMode::Corridor, RoomsMode::Exact] {
        let mut app = ready(NavRooms::new(mesh.clone(), mode));
        let open = walk(&mut app, from, to, 50.0);
        app.world_mut().write_message(SetDoorOpen { door: gap, open: false });
        let swaps: Vec<TableSwapped> = collect_until(
            &mut app,
            |app, _| app.world().resource::<NavRooms>().version() == 1,
            "the repaired rooms",
        );
        assert_eq!(swaps.len(), 1);
        assert_eq!(
            (swaps[0].map, swaps[0].edits, swaps[0].rebuilt),
            (NavMap::Rooms, 1, false), // both repaired in place
        );
        let closed = walk(&mut app, from, to, 50.0);
        assert!(closed > open + 4.0, "{mode:?}: {closed} round against {open} through the gap");
        let expected = match mode {
            RoomsMode::Corridor => {
                let mut closed = corridor.clone();
                closed.set_door_open(gap, false).unwrap();
                closed.path(from, to).unwrap().length()
            }
            RoomsMode::Exact => {
                let states = (0..mesh.doors_len() as u32)
                    .map(|d| if DoorId(d) == gap { DoorState::Closed } else { DoorState::Open })
                    .collect();
                ExactRooms::builder(&mesh).door_states(states).build().unwrap().distance(from, to).unwrap()
            }
        };
        assert!((closed - expected).abs() < 1e-4, "{mode:?}: walked {closed}, path {expected}");
    }
    let mut app = ready(NavRooms::new(mesh, RoomsMode::Exact));
    app.world_mut().write_message(SetLinkOpen { link: signposts_rooms::LinkId(0), open: false });
    let errors: Vec<NavError> = collect_until(&mut app, |_, errors| !errors.is_empty(), "the error");
    assert!(
        matches!(errors[0].error, NavFailure::Rooms(signposts_rooms::Error::NotExact { .. })),
        "{errors:?}"
    );
}

#[test]
fn a_bad_edit_is_reported_alone_and_the_good_ones_of_its_frame_apply() {
    let mesh = mesh();
    for mode in [RoomsMode::Corridor, RoomsMode::Exact] {
        let mut app = ready(NavRooms::new(mesh.clone(), mode));
        app.world_mut().write_message(SetDoorOpen { door: DoorId(0), open: false });
        app.world_mut().write_message(SetDoorOpen { door: DoorId(9_999), open: false });
        app.world_mut().write_message(SetLinkOpen { link: signposts_rooms::LinkId(0), open: false });
        let (mut errors, mut swaps) = (Vec::new(), Vec::new());
        let (mut error_cursor, mut swap_cursor) =
            (MessageCursor::<NavError>::default(), MessageCursor::<TableSwapped>::default());
        wait_for(
            &mut app,
            |app| {
                errors.extend(drain(app, &mut error_cursor));
                swaps.extend(drain(app, &mut swap_cursor));
                !swaps.is_empty()
            },
            "the good edit's repair",
        );
        assert_eq!((swaps.len(), swaps[0].edits), (1, 1), "{mode:?}");
        assert_eq!(errors.len(), 2, "{mode:?}: {errors:?}");
        assert!(matches!(
            errors[0].error,
            NavFailure::Rooms(signposts_rooms::Error::OutOfRange { what: "door", .. })
        ));
        let link_refused = match mode {
            RoomsMode::Corridor => matches!(
                errors[1].error,
                NavFailure::Rooms(signposts_rooms::Error::OutOfRange { what: "link", .. })
            ),
            RoomsMode::Exact => {
                matches!(errors[1].error, NavFailure::Rooms(signposts_rooms::Error::NotExact { .. }))
            }
        };
        assert!(link_refused, "{mode:?}: {errors:?}");
        let rooms = app.world().resource::<NavRooms>();
        let state = match mode {
            RoomsMode::Corridor => rooms.rooms().unwrap().door_state(DoorId(0)).unwrap(),
            RoomsMode::Exact => rooms.exact().unwrap().door_state(DoorId(0)).unwrap(),
        };
        assert_eq!(state, DoorState::Closed, "{mode:?}");
    }
}

#[test]
fn a_walker_takes_a_link_through_a_wall_by_jumping_and_a_closed_link_sends_it_round() {
    // Two rooms joined only far below; a teleporter through the wall near the top.
    let grid = Grid::from_ascii(
        "
        ..@..
        ..@..
        ..@..
        ..@..
        .....
    ",
    )
    .unwrap();
    let mesh = NavMesh::from_grid(&grid).unwrap();
    let (a, b) = (Point::new(1.5, 0.5), Point::new(3.5, 0.5));
    let (from, to) = (Point::new(0.5, 0.5), Point::new(4.5, 0.5));
    let mut app = ready(
        NavRooms::new(mesh, RoomsMode::Corridor).with_rooms(move |builder| builder.link(a, b, 0.5, true)),
    );
    // Walked: to the link's entrance and from its exit; the jump itself walks nothing.
    let walked = walk(&mut app, from, to, 3.0);
    assert!((walked - (from.distance(a) + b.distance(to))).abs() < 1e-6, "walked {walked}");
    app.world_mut().write_message(SetLinkOpen { link: signposts_rooms::LinkId(0), open: false });
    wait_for(&mut app, |app| app.world().resource::<NavRooms>().version() == 1, "the closed link");
    let round = walk(&mut app, from, to, 3.0);
    assert!(round > 8.0, "walked {round}: round the wall's foot");
}
