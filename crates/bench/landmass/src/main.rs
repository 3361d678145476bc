//! landmass 0.9.3 in the crowd bench's scenes on den312d (`crates/bench/src/bin/crowd`): the
//! same mesh (signposts' regions as landmass polygons), agents, radii, speeds, neighbourhood and
//! time horizons; landmass's avoidance (`dodgy_2d`'s ORCA) on. landmass leaves moving to the game:
//! each agent moves by its desired velocity, unchecked.
//!
//! `cargo run --release --manifest-path crates/bench/landmass/Cargo.toml [-- [--ticks N] [--scene NAME ...] [COUNT ...]]`
//! (default: 1,000 and 10,000 agents, 300 steps of 1/30 s)

#[path = "../../src/bin/crowd/scenes.rs"]
mod scenes;

use std::sync::Arc;
use std::time::Instant;

use glam::Vec2;
use landmass::{
    Agent, AgentState, Archipelago, ArchipelagoOptions, FromAgentRadius, Island, NavigationMesh,
    TargetReachedCondition, Transform, XY,
};
use scenes::{DT, Report, Scene, WARM, chase, crossing, doorway, doorway_map, overlaps};
use signposts::grid::parse_map;
use signposts_rooms::{ExactRooms, NavMesh, Point, RegionId};

fn run_landmass(mesh: &NavMesh, scene: &Scene) -> Report {
    let nav = NavigationMesh::<XY> {
        vertices: mesh.vertices().iter().map(|p| Vec2::new(p.x as f32, p.y as f32)).collect(),
        polygons: (0..mesh.regions_len() as u32)
            .map(|r| mesh.region_vertices(RegionId(r)).iter().map(|&v| v as usize).collect())
            .collect(),
        polygon_type_indices: vec![0; mesh.regions_len()],
        height_mesh: None,
    };
    let nav = Arc::new(nav.validate().expect("landmass accepts the regions"));
    let mut options = ArchipelagoOptions::<XY>::from_agent_radius(scene.radius as f32);
    options.neighbourhood = (2.0 * scene.radius + scene.speed * scenes::TIME_HORIZON) as f32;
    options.avoidance_time_horizon = scenes::TIME_HORIZON as f32;
    options.obstacle_avoidance_time_horizon = scenes::WALL_TIME_HORIZON as f32;
    let mut world = Archipelago::<XY>::new(options);
    world.add_island(Island::new(Transform { translation: Vec2::ZERO, rotation: 0.0 }, nav));
    let ids: Vec<_> = scene
        .starts
        .iter()
        .map(|p| {
            let (r, v) = (scene.radius as f32, scene.speed as f32);
            let mut agent = Agent::create(Vec2::new(p.x as f32, p.y as f32), Vec2::ZERO, r, v, v);
            agent.target_reached_condition = TargetReachedCondition::Distance(Some(scene.arrival as f32));
            world.add_agent(agent)
        })
        .collect();
    let mut report = Report::default();
    let mut total = 0usize;
    let mut points = Vec::with_capacity(ids.len());
    for (t, at) in scene.goals.iter().enumerate() {
        let start = Instant::now();
        for (&id, &k) in ids.iter().zip(&scene.goal_of) {
            let agent = world.get_agent_mut(id).expect("added");
            agent.current_target = Some(Vec2::new(at[k].x as f32, at[k].y as f32));
        }
        world.update(DT as f32);
        for &id in &ids {
            let agent = world.get_agent_mut(id).expect("added");
            agent.velocity = *agent.get_desired_velocity();
            agent.position += agent.velocity * DT as f32;
        }
        report.times.push(start.elapsed().as_secs_f64() * 1e3);
        points.clear();
        points.extend(ids.iter().map(|&id| {
            let p = world.get_agent(id).expect("added").position;
            Point::new(f64::from(p.x), f64::from(p.y))
        }));
        report.crossings(scene, points.iter().copied(), t);
        if t >= WARM {
            let (count, deepest) = overlaps(&points, scene.radius);
            report.overlaps_max = report.overlaps_max.max(count);
            total += count;
            report.deepest = report.deepest.max(deepest / (2.0 * scene.radius));
        }
    }
    report.overlaps_mean = total as f64 / (scene.goals.len() - WARM) as f64;
    let arrived = ids
        .iter()
        .filter(|&&id| world.get_agent(id).expect("added").state() == AgentState::ReachedTarget)
        .count();
    report.arrived = arrived as f64 / ids.len() as f64;
    report.outside = points.iter().filter(|&&p| mesh.region_at(p).is_none()).count();
    report.stalled_end = usize::MAX;
    report
}

fn main() {
    let args = scenes::args(&[1_000, 10_000]);
    let steps = args.steps;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../maps/den312d.map");
    let grid = parse_map(&std::fs::read(path).expect("maps/den312d.map")).expect("a valid map");
    let mesh = NavMesh::from_grid(&grid).expect("a mesh");
    let exact = ExactRooms::build(&mesh).expect("the exact index");
    println!(
        "den312d ({} regions), {steps} steps of 1/30 s, one thread (landmass's update)\n",
        mesh.regions_len()
    );
    scenes::head();
    for &n in &args.counts {
        let den = [chase(&grid, &exact, n, steps), crossing(&grid, n, steps)];
        for scene in den.iter().filter(|s| args.runs(s.name)) {
            scenes::row(scene, "landmass 0.9.3", &run_landmass(&mesh, scene));
        }
        if args.runs("doorway") {
            let map = doorway_map(n);
            let mesh = NavMesh::from_grid(&map).expect("a mesh");
            let scene = doorway(&map, n, 3 * steps);
            scenes::row(&scene, "landmass 0.9.3", &run_landmass(&mesh, &scene));
        }
    }
}
