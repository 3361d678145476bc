//! The main job: build oracles for a seeded 80×80 perfect maze and a 100×100 grid, answer
//! queries, then let 2,000 entities chase a moving player on a walled grid while a door opens
//! and closes, then answer one-off queries without a table on a 512×512 map with two unit
//! kinds, then build compressed tables of a 160×160 walled map and a 512×512 perfect maze,
//! then let 2,000 entities chase the player in continuous space through the rooms and doors
//! of a building (`signposts-rooms`), exactly shortest paths among them too, and print what
//! everything cost.
//!
//! Run: `cargo run --release -p signposts-demo` (the first command of the README).

use std::time::Instant;

use signposts::generate::{Connectivity, SplitMix64, grid, maze, walled_grid};
use signposts::grid::Cell;
use signposts::search::{Layer, Route, Searcher, TileGrid};
use signposts::{Crowd, Graph, GraphBuilder, NextHop, NodeId};

fn main() {
    println!("signposts demo: every entity's next step toward any target, read from a table built ahead");
    println!("(times from this machine, release build; MiB = 2^20 bytes; ns = nanoseconds)\n");
    let cases: [(&str, GraphBuilder, usize); 2] = [
        ("80x80 perfect maze (seed 42)", maze(80, 80, 42), 80),
        ("100x100 open 4-connected grid", grid(100, 100, Connectivity::Four), 100),
    ];
    for (name, builder, width) in cases {
        println!(
            "== {name}: {} cells, {} passages between neighbours",
            builder.nodes_len(),
            builder.edges_len()
        );
        let start = Instant::now();
        let graph = builder.build();
        println!(
            "   built the dense table (every optimal next step, from every cell to every cell) in {:.1} ms: {:.1} MiB",
            start.elapsed().as_secs_f64() * 1e3,
            graph.memory_bytes() as f64 / f64::from(1u32 << 20)
        );
        let cell = |x: usize, y: usize| (y * width + x) as NodeId;
        show(&graph, width, cell(0, 0), cell(width - 1, width - 1));
        show(&graph, width, cell(width / 2, 3), cell(3, width / 2));
        queries(&graph);
        println!();
    }
    chase();
    single_queries();
    compressed();
    rooms();
}

/// Rooms and doors: a building of 6×6 rooms joined by doorways, its navigation mesh for an
/// agent of radius 0.3, and 2,000 entities walking toward a moving player by `next_waypoint`
/// in continuous space, while one doorway closes and opens (the region oracle repaired in
/// place).
fn rooms() {
    use signposts::grid::Grid;
    use signposts_rooms::{NavMesh, Point, Rooms, Scratch};
    println!("\n== rooms and doors: a building of 6x6 rooms, 2000 entities moving in continuous space");
    // Rooms of 9×9 open cells inside walls, a doorway of 2 cells in the middle of each wall.
    let grid = Grid::from_fn(61, 61, |c| {
        let (x, y) = (c.x % 10, c.y % 10);
        let door = |k: u32| (4..6).contains(&k);
        !(x == 0 || y == 0)
            || (x == 0 && door(c.y % 10) && c.x > 0 && c.x < 60)
            || (y == 0 && door(c.x % 10) && c.y > 0 && c.y < 60)
    });
    let start = Instant::now();
    let mesh = NavMesh::from_grid_for_radius(&grid, 0.3).expect("rooms of 9 cells");
    let mut rooms = Rooms::build(&mesh).expect("a small oracle");
    let rebuild = Instant::now();
    let _ = Rooms::build(&mesh).expect("a small oracle");
    let rebuild_ms = rebuild.elapsed().as_secs_f64() * 1e3;
    println!(
        "   {} open cells -> a mesh of {} convex regions joined by {} doors; mesh and table built in {:.1} ms, {:.1} KiB",
        grid.passable_len(),
        mesh.regions_len(),
        mesh.doors_len(),
        start.elapsed().as_secs_f64() * 1e3,
        rooms.memory_bytes() as f64 / 1024.0
    );
    let mut rng = SplitMix64::new(7);
    let random_point = |rng: &mut SplitMix64| loop {
        let p = Point::new(1.0 + rng.below(5_900) as f64 / 100.0, 1.0 + rng.below(5_900) as f64 / 100.0);
        if mesh.region_at(p).is_some() {
            return p;
        }
    };
    let mut entities: Vec<Point> = (0..2000).map(|_| random_point(&mut rng)).collect();
    let (mut player, mut goal) = (random_point(&mut rng), random_point(&mut rng));
    let door = mesh.doors_of(mesh.region_at(Point::new(30.5, 35.0)).expect("a room")).first().copied();
    let (mut scratch, mut query_ns, mut steps, mut caught) = (Scratch::default(), 0.0, 0usize, 0usize);
    for tick in 0..200 {
        if tick % 50 == 25
            && let Some(door) = door
        {
            let closing = tick % 100 == 25;
            let start = Instant::now();
            rooms.set_door_open(door, !closing).expect("a door of the mesh");
            println!(
                "   doorway {} at tick {tick}: the table was repaired in place in {:.2} ms (building it anew takes {rebuild_ms:.2} ms)",
                if closing { "closed" } else { "opened" },
                start.elapsed().as_secs_f64() * 1e3
            );
        }
        // The player walks to a random goal, then picks another.
        match rooms.next_waypoint_with(player, goal, &mut scratch) {
            Some(w) if player.distance(goal) > 0.5 => player = step_toward(player, w, 0.5),
            _ => goal = random_point(&mut rng),
        }
        let start = Instant::now();
        for e in &mut entities {
            if let Some(w) = rooms.next_waypoint_with(*e, player, &mut scratch) {
                *e = step_toward(*e, w, 0.4);
                steps += 1;
            }
            if e.distance(player) < 0.5 {
                caught += 1;
                *e = random_point(&mut rng);
            }
        }
        query_ns += start.elapsed().as_secs_f64() * 1e9;
    }
    println!(
        "   200 ticks: each tick every entity asks for its next waypoint and moves toward it, {:.0} ns per entity ({steps} moves); \
         entities reached the player {caught} times (each then reappears at a random spot)",
        query_ns / steps.max(1) as f64
    );
    exact(&mesh, &rooms, &entities, player, door);
}

/// Exact mode on the same building: the corners, their visibility graph and table; one tick of
/// the whole crowd heading for the player; how much shorter the exact paths are; the doorway
/// toggled once more, the index repaired in place.
fn exact(
    mesh: &signposts_rooms::NavMesh,
    rooms: &signposts_rooms::Rooms,
    entities: &[signposts_rooms::Point],
    player: signposts_rooms::Point,
    door: Option<signposts_rooms::DoorId>,
) {
    use signposts_rooms::{ExactRooms, ExactScratch};
    let start = Instant::now();
    let states = (0..mesh.doors_len() as u32)
        .map(|d| rooms.door_state(signposts_rooms::DoorId(d)).expect("a door"))
        .collect();
    let mut exact = ExactRooms::builder(mesh).door_states(states).build().expect("within the default budget");
    let build_ms = start.elapsed().as_secs_f64() * 1e3;
    println!(
        "   exact mode (truly shortest paths, from corner to corner): {:.1} MiB, built in {:.0} ms ({} wall corners, {} lines of sight between them)",
        exact.memory_bytes() as f64 / f64::from(1 << 20),
        start.elapsed().as_secs_f64() * 1e3,
        exact.corners_len(),
        exact.edges_len()
    );
    let (mut scratch, mut out) = (ExactScratch::default(), Vec::with_capacity(entities.len()));
    let start = Instant::now();
    exact.next_waypoint_toward_with(entities, player, &mut out, &mut scratch);
    let crowd_ns = start.elapsed().as_secs_f64() * 1e9 / entities.len() as f64;
    let (mut corridor, mut shortest) = (0.0, 0.0);
    for &e in entities.iter().take(500) {
        if let (Some(a), Some(b)) = (rooms.distance(e, player), exact.distance(e, player)) {
            (corridor, shortest) = (corridor + a, shortest + b);
        }
    }
    println!(
        "   one crowd tick on exact paths: {crowd_ns:.0} ns per entity; exact paths are {:.2}% shorter than the mesh's on average",
        100.0 * (1.0 - shortest / corridor)
    );
    if let Some(door) = door {
        let open = exact.door_state(door).expect("a door of the mesh") == signposts_rooms::DoorState::Open;
        let start = Instant::now();
        exact.set_door_open(door, !open).expect("a door of the mesh");
        println!(
            "   exact mode, doorway {}: the index was repaired in place in {:.1} ms (building it took {build_ms:.0} ms)",
            if open { "closed" } else { "opened" },
            start.elapsed().as_secs_f64() * 1e3
        );
    }
}

/// `from` moved toward `to` by at most `speed`.
fn step_toward(
    from: signposts_rooms::Point,
    to: signposts_rooms::Point,
    speed: f64,
) -> signposts_rooms::Point {
    let d = from.distance(to);
    if d <= speed {
        return to;
    }
    signposts_rooms::Point::new(from.x + (to.x - from.x) * speed / d, from.y + (to.y - from.y) * speed / d)
}

/// Compressed tables: a walled 160×160 map and a 512×512 perfect maze, beside the dense
/// table's size, checked on sampled queries against the dense answers where both fit.
fn compressed() {
    println!("\n== compressed tables, for maps too large for a dense one (one optimal next step per pair)");
    let walls = walled_grid(160, 160, 0.2, 9, Connectivity::Four);
    let big_maze = maze(512, 512, 7);
    for (name, builder) in [("160x160 grid with 20% walls", &walls), ("512x512 perfect maze", &big_maze)] {
        let start = Instant::now();
        let compressed = builder.build_compressed().expect("4-connected");
        let seconds = start.elapsed().as_secs_f64();
        let n = builder.nodes_len();
        println!(
            "   {name}: {n} cells, built in {seconds:.2} s, {:.1} MiB ({:.0} bytes per cell); a dense table would need {:.1} MiB",
            compressed.memory_bytes() as f64 / f64::from(1u32 << 20),
            compressed.memory_bytes() as f64 / n as f64,
            builder.memory_needed() as f64 / f64::from(1u32 << 20),
        );
        let mut rng = SplitMix64::new(5);
        let pairs: Vec<(NodeId, NodeId)> =
            (0..100_000).map(|_| (rng.below(n as u64) as NodeId, rng.below(n as u64) as NodeId)).collect();
        let start = Instant::now();
        let steps = pairs.iter().filter(|&&(a, b)| compressed.neighbor_to(a, b).is_some()).count();
        let single = start.elapsed().as_secs_f64() * 1e9 / pairs.len() as f64;
        // The same steps 1,000 entities at a time, their memory reads overlapped.
        let (mut batch, mut all) = (Vec::new(), Vec::with_capacity(pairs.len()));
        let start = Instant::now();
        for group in pairs.chunks(1000) {
            compressed.neighbor_to_each(group, &mut batch);
            all.extend_from_slice(&batch);
        }
        let batched = start.elapsed().as_secs_f64() * 1e9 / pairs.len() as f64;
        assert!(all.iter().zip(&pairs).all(|(&s, &(a, b))| s == compressed.neighbor_to(a, b)));
        println!(
            "   query speed: {single:.1} ns per next step ({} random pairs, {steps} with a next step: the others start on a wall, are cut off or are there), {batched:.1} ns asked 1,000 at a time; e.g. cell {} -> cell {}: {}",
            pairs.len(),
            pairs[0].0,
            pairs[0].1,
            compressed
                .cost(pairs[0].0, pairs[0].1)
                .map_or("no way".to_string(), |d| format!("{} steps", d.value())),
        );
    }
}

/// One-off paths without a table: a 512×512 map of grass, swamp and rock, walkers (swamp is
/// slow) and flyers (everything but rock costs the same), one reused searcher.
fn single_queries() {
    println!("\n== one-off paths without a table (A* search): a 512x512 map of grass, swamp and rock");
    let mut rng = SplitMix64::new(5);
    let tiles = TileGrid::from_fn(512, 512, |_| match rng.below(100) {
        0..=14 => 0,  // rock
        15..=29 => 2, // swamp
        _ => 1,       // grass
    });
    let walker = Layer::WALKABLE.with(2, 4);
    let flyer = Layer::WALKABLE;
    let mut searcher = Searcher::new();
    let mut open = || loop {
        let cell = Cell::new(rng.below(512) as u32, rng.below(512) as u32);
        if tiles.tag(cell) != Some(0) {
            break cell;
        }
    };
    let queries: Vec<(Cell, Cell)> = (0..200).map(|_| (open(), open())).collect();
    for (name, layer) in
        [("walkers (swamp costs 4: plain A*)", walker), ("flyers (uniform: jump points)", flyer)]
    {
        let start = Instant::now();
        let (mut found, mut cells) = (0, 0);
        for &(a, b) in &queries {
            let route =
                searcher.astar(&tiles, layer, signposts::grid::Connectivity::Eight, a, b).expect("inside");
            found += usize::from(!matches!(route, Route::Unreachable));
            cells += searcher.expanded();
        }
        println!(
            "   {name}: {:.1} µs per path, {} cells searched per path on average, {found} of {} paths found",
            start.elapsed().as_secs_f64() * 1e6 / queries.len() as f64,
            cells / queries.len(),
            queries.len()
        );
    }
}

fn show(graph: &Graph, width: usize, from: NodeId, to: NodeId) {
    let xy = |v: NodeId| (v as usize % width, v as usize / width);
    let hops: Vec<_> = graph.neighbors_to(from, to).map(xy).collect();
    let cost = graph.cost(from, to).map_or("no way".to_string(), |c| format!("{} steps", c.value()));
    println!(
        "   from {:?} to {:?}: {cost}; first step to any of {hops:?} (every optimal one); the path visits {} cells",
        xy(from),
        xy(to),
        graph.path_to(from, to).count()
    );
}

/// Random pairs one by one, the same pairs batched, and a crowd toward one target: for any
/// table.
fn queries(graph: &impl NextHop) {
    let n = graph.nodes_len() as u64;
    let mut rng = SplitMix64::new(1);
    let pairs: Vec<(NodeId, NodeId)> =
        (0..1_000_000).map(|_| (rng.below(n) as NodeId, rng.below(n) as NodeId)).collect();
    let start = Instant::now();
    let sum: u64 = pairs.iter().map(|&(u, t)| u64::from(graph.neighbor_to(u, t).unwrap_or(0))).sum();
    let single = start.elapsed().as_secs_f64() * 1e9 / pairs.len() as f64;
    let mut steps = Vec::new();
    let start = Instant::now();
    graph.neighbor_to_each(&pairs, &mut steps);
    let batched = start.elapsed().as_secs_f64() * 1e9 / pairs.len() as f64;
    assert_eq!(steps.iter().map(|s| u64::from(s.unwrap_or(0))).sum::<u64>(), sum);
    let target = (n / 2) as NodeId;
    let start = Instant::now();
    let crowd: u64 = (0..n as NodeId).map(|u| u64::from(graph.neighbor_to(u, target).unwrap_or(0))).sum();
    let chase = start.elapsed().as_secs_f64() * 1e9 / n as f64;
    std::hint::black_box((sum, crowd));
    println!(
        "   query speed: {single:.1} ns per \"next step from A to B?\" (1,000,000 random pairs, one at a time), \
         {batched:.1} ns asked 1,000 at a time, {chase:.1} ns per cell when every cell heads for one target"
    );
}

/// 2,000 entities chase a wandering player on a 100×100 grid with 20% walls, first on the
/// dense table while a door (one edge) closes and opens every 25 ticks, the table repaired in
/// place, then on the compressed table of the same map: the same generic code, one batched
/// query a tick.
fn chase() {
    const SIDE: usize = 100;
    const MIB: f64 = (1u32 << 20) as f64;
    println!("== chase: 2000 enemies run after a player walking across a 100x100 map with 20% walls");
    let builder = walled_grid(SIDE, SIDE, 0.2, 7, Connectivity::Four);
    let start = Instant::now();
    let mut graph = builder.build();
    let dense_ms = start.elapsed().as_secs_f64() * 1e3;
    let start = Instant::now();
    let mut compressed = builder.build_compressed().expect("4-connected");
    println!(
        "   built the dense table in {dense_ms:.1} ms ({:.1} MiB) and the compressed one in {:.1} ms ({:.2} MiB)",
        graph.memory_bytes() as f64 / MIB,
        start.elapsed().as_secs_f64() * 1e3,
        compressed.memory_bytes() as f64 / MIB
    );
    let mut rng = SplitMix64::new(9);
    let open: Vec<NodeId> =
        (0..graph.nodes_len() as NodeId).filter(|&v| !graph.neighbors(v).is_empty()).collect();
    let pick = |rng: &mut SplitMix64| open[rng.below(open.len() as u64) as usize];
    // The player's walk: shortest paths between random cells, 200 ticks long.
    let mut route = vec![pick(&mut rng)];
    while route.len() < 200 {
        let goal = pick(&mut rng);
        route.extend(graph.path_to(*route.last().expect("one cell"), goal).skip(1).take(200));
    }
    let starts: Vec<NodeId> = (0..2000).map(|_| pick(&mut rng)).collect();
    // What the door does: the routes between 10,000 random pairs, before and after.
    let pairs: Vec<(NodeId, NodeId)> = (0..10_000).map(|_| (pick(&mut rng), pick(&mut rng))).collect();
    // Candidates for the door: the passages the first 1,000 pairs' shortest paths cross most.
    let mut crossings = std::collections::HashMap::new();
    for &(a, b) in &pairs[..1000] {
        let path: Vec<NodeId> = graph.path_to(a, b).collect();
        for step in path.windows(2) {
            *crossings.entry((step[0].min(step[1]), step[0].max(step[1]))).or_insert(0) += 1;
        }
    }
    let mut busiest: Vec<((NodeId, NodeId), usize)> = crossings.into_iter().collect();
    busiest.sort_unstable_by_key(|&(edge, n)| (std::cmp::Reverse(n), edge));
    // Of the 12 busiest, the one whose closing lengthens the most of the pairs' routes.
    let lengthened = |g: &mut Graph, (a, b): (NodeId, NodeId)| {
        let before: Vec<_> = pairs.iter().map(|&(u, v)| g.cost(u, v)).collect();
        let _ = g.disconnect(a, b);
        let changed = pairs.iter().zip(&before).filter(|&(&(u, v), was)| g.cost(u, v) != *was).count();
        let _ = g.connect(a, b);
        changed
    };
    let door = busiest
        .iter()
        .take(12)
        .map(|&(edge, _)| edge)
        .max_by_key(|&e| lengthened(&mut graph, e))
        .expect("paths");
    println!(
        "   the door: the passage between cells {:?} and {:?}, of the 12 that the most random shortest paths cross, the one whose closing lengthens the most routes",
        (door.0 as usize % SIDE, door.0 as usize / SIDE),
        (door.1 as usize % SIDE, door.1 as usize / SIDE)
    );
    let mut door_open = true;
    let toggle = |g: &mut Graph, tick: usize| {
        if tick == 0 || !tick.is_multiple_of(25) {
            return None;
        }
        let before: Vec<_> = pairs.iter().map(|&(a, b)| g.cost(a, b)).collect();
        let start = Instant::now();
        let _ = if door_open { g.disconnect(door.0, door.1) } else { g.connect(door.0, door.1) };
        let repair_ms = start.elapsed().as_secs_f64() * 1e3;
        door_open = !door_open;
        let after = pairs.iter().map(|&(a, b)| g.cost(a, b));
        let changed = before.iter().zip(after).filter(|(b, a)| *b != a).count();
        Some(DoorChange { closed: !door_open, repair_ms, changed })
    };
    let changes = run_chase("dense table", &mut graph, &route, &starts, toggle);
    let repairs: Vec<f64> = changes.iter().map(|c| c.repair_ms).collect();
    if let Some(closed) = changes.iter().find(|c| c.closed) {
        println!(
            "     the door closed and opened {} times (every 25 ticks): each time the table was repaired in place in {:.1}–{:.1} ms \
             (building it anew takes {dense_ms:.0} ms); closed, it lengthens or cuts {} of {} random routes",
            changes.len(),
            repairs.iter().copied().fold(f64::INFINITY, f64::min),
            repairs.iter().copied().fold(0.0, f64::max),
            closed.changed,
            pairs.len()
        );
    }
    run_chase(
        "compressed table (no door: its edits go to an overlay or rebuild it, slower than the dense repair)",
        &mut compressed,
        &route,
        &starts,
        |_, _| None,
    );
    println!(
        "   what it shows: the same code drives either table; no enemy ever searches, and when the door changes \
         the crowd takes the new shortest ways on the next tick"
    );
}

/// The chase, written once for every table: each tick `door` may edit the table, the player
/// takes the next cell of `route`, and the whole crowd steps by one batched query; the
/// caught come back where they started. Returns the door's changes.
fn run_chase<T: NextHop>(
    name: &str,
    table: &mut T,
    route: &[NodeId],
    starts: &[NodeId],
    mut door: impl FnMut(&mut T, usize) -> Option<DoorChange>,
) -> Vec<DoorChange> {
    let mut crowd = Crowd::new(starts.to_vec());
    let (mut caught, mut step_ns, mut notes) = (0, 0.0, Vec::new());
    for (tick, &player) in route.iter().enumerate() {
        notes.extend(door(table, tick));
        let start = Instant::now();
        crowd.step_toward(&*table, player).expect("nodes of the table");
        step_ns += start.elapsed().as_secs_f64() * 1e9;
        for (position, &home) in crowd.positions_mut().iter_mut().zip(starts) {
            if *position == player {
                caught += 1;
                *position = home;
            }
        }
    }
    println!(
        "   {name}: {} ticks; every tick all {} enemies step with one batched query, {:.1} ns per enemy ({:.0} µs a tick); \
         enemies reached the player {caught} times (each then starts over from its spawn point)",
        route.len(),
        starts.len(),
        step_ns / (route.len() * starts.len()) as f64,
        step_ns / route.len() as f64 / 1e3
    );
    notes
}

/// One change of the chase's door.
struct DoorChange {
    /// Closed (true) or opened.
    closed: bool,
    /// Milliseconds the table's repair took.
    repair_ms: f64,
    /// Of the sampled routes, how many changed length.
    changed: usize,
}
