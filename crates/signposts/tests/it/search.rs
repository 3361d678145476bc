//! Single-query searches against a plain Dijkstra, on random tile grids and layers.

use proptest::prelude::*;
use signposts::grid::{Cell, Connectivity, Direction};
use signposts::search::{Cut, Layer, PackedPath, Route, Searcher, TileGrid};

/// Every cell's optimal cost from `start` (`None` = unreachable), by Dijkstra over the same
/// moves: entering a tile costs its layer cost, √2 times that diagonally, no corner cutting.
fn dijkstra(tiles: &TileGrid, layer: Layer, eight: bool, start: Cell) -> Vec<Option<f64>> {
    let (w, h) = (tiles.width(), tiles.height());
    let index = |c: Cell| (c.y * w + c.x) as usize;
    let mut dist: Vec<Option<f64>> = vec![None; (w * h) as usize];
    let mut done = vec![false; (w * h) as usize];
    if !layer.is_passable(tiles.tag(start).unwrap()) {
        return dist;
    }
    dist[index(start)] = Some(0.0);
    while let Some(i) = (0..dist.len())
        .filter(|&i| !done[i] && dist[i].is_some())
        .min_by(|&a, &b| dist[a].unwrap().total_cmp(&dist[b].unwrap()))
    {
        done[i] = true;
        let cell = Cell::new(i as u32 % w, i as u32 / w);
        for next in moves(tiles, layer, eight, cell) {
            let (to, cost) = next;
            let d = dist[i].unwrap() + cost;
            if dist[index(to)].is_none_or(|old| d < old - 1e-12) {
                dist[index(to)] = Some(d);
            }
        }
    }
    dist
}

/// The moves out of `cell` with their costs.
fn moves(tiles: &TileGrid, layer: Layer, eight: bool, cell: Cell) -> Vec<(Cell, f64)> {
    let open = |c: Option<Cell>| c.and_then(|c| tiles.tag(c)).is_some_and(|t| layer.is_passable(t));
    let mut out = Vec::new();
    for d in Direction::ALL {
        if d.is_diagonal() && !eight {
            continue;
        }
        let Some(to) = cell.step(d) else { continue };
        if !open(Some(to)) {
            continue;
        }
        let (dx, dy) = d.delta();
        if d.is_diagonal()
            && !(open(cell.step(Direction::from_delta(dx, 0).unwrap()))
                && open(cell.step(Direction::from_delta(0, dy).unwrap())))
        {
            continue;
        }
        let w = f64::from(layer.cost(tiles.tag(to).unwrap()));
        out.push((to, if d.is_diagonal() { w * std::f64::consts::SQRT_2 } else { w }));
    }
    out
}

/// Walks `path` from `start` checking every step is a legal move; returns the end and cost.
fn walk(tiles: &TileGrid, layer: Layer, eight: bool, start: Cell, path: &PackedPath) -> (Cell, f64) {
    let mut at = start;
    let mut cost = 0.0;
    for d in path.iter() {
        let to = at.step(d).expect("stays on the grid");
        let (_, c) = *moves(tiles, layer, eight, at).iter().find(|m| m.0 == to).expect("a legal move");
        cost += c;
        at = to;
    }
    (at, cost)
}

fn case() -> impl Strategy<Value = (TileGrid, Layer, bool, Cell, Cell)> {
    (1u32..12, 1u32..12).prop_flat_map(|(w, h)| {
        (
            proptest::collection::vec(0u8..4, (w * h) as usize),
            proptest::array::uniform4(0u8..5),
            any::<bool>(),
            (0..w, 0..h, 0..w, 0..h),
        )
            .prop_map(move |(tags, costs, eight, (sx, sy, gx, gy))| {
                let tiles = TileGrid::from_fn(w, h, |c| tags[(c.y * w + c.x) as usize]);
                let mut layer = Layer::new([0; 16]);
                for (tag, cost) in costs.into_iter().enumerate() {
                    layer = layer.with(tag as u8, cost);
                }
                (tiles, layer, eight, Cell::new(sx, sy), Cell::new(gx, gy))
            })
    })
}

fn connectivity(eight: bool) -> Connectivity {
    if eight { Connectivity::Eight } else { Connectivity::Four }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn astar_costs_are_optimal((tiles, layer, eight, start, goal) in case()) {
        let mut searcher = Searcher::new();
        let best = dijkstra(&tiles, layer, eight, start)[(goal.y * tiles.width() + goal.x) as usize];
        let route = searcher.astar(&tiles, layer, connectivity(eight), start, goal).unwrap();
        match (route, best) {
            (Route::Complete { path, cost }, Some(best)) => {
                prop_assert!((cost.value() - best).abs() < 1e-9, "cost {} vs {best}", cost.value());
                let (end, walked) = walk(&tiles, layer, eight, start, &path);
                prop_assert_eq!(end, goal);
                prop_assert!((walked - best).abs() < 1e-9);
            }
            (Route::Partial { path, reached, cut: Cut::TooLong { cost } }, Some(best)) => {
                prop_assert_eq!(path.len(), PackedPath::CAPACITY);
                prop_assert!((cost.value() - best).abs() < 1e-9);
                prop_assert_eq!(walk(&tiles, layer, eight, start, &path).0, reached);
            }
            (Route::Unreachable, None) => {}
            (route, best) => prop_assert!(false, "{route:?} vs {best:?}"),
        }
        // The same searcher again, and the buffer variant, agree.
        prop_assert_eq!(searcher.astar(&tiles, layer, connectivity(eight), start, goal).unwrap(), route);
        let mut cells = Vec::new();
        let cost = searcher.astar_into(&tiles, layer, connectivity(eight), start, goal, &mut cells).unwrap();
        prop_assert_eq!(cost, route.cost());
        if cost.is_some() {
            prop_assert_eq!(cells.first(), Some(&start));
            prop_assert_eq!(cells.last(), Some(&goal));
            let steps: PackedPath = cells
                .windows(2)
                .map(|p| Direction::from_delta(
                    p[1].x.cast_signed() - p[0].x.cast_signed(),
                    p[1].y.cast_signed() - p[0].y.cast_signed(),
                )
                .unwrap())
                .collect();
            prop_assert_eq!(&steps, route.path().unwrap());
        } else {
            prop_assert!(cells.is_empty());
        }
    }

    #[test]
    fn uniform_costs_search_jump_points_and_stay_optimal(
        (w, h) in prop_oneof![(1u32..20, 1u32..20), (60u32..150, 1u32..6), (1u32..6, 60u32..150), (60u32..140, 6u32..24)],
        walls in proptest::collection::vec(0u8..100, 401),
        density in 0u8..30,
        cells in (any::<u32>(), any::<u32>(), any::<u32>(), any::<u32>()),
        cost in 1u8..4,
        eight in any::<bool>(),
    ) {
        // Uniform costs take the jump point search, 4- and 8-connected.
        // Long thin grids make runs cross the bitmaps' 64-bit words.
        let tiles = TileGrid::from_fn(w, h, |c| u8::from(walls[((c.y * 151 + c.x) % 401) as usize] >= density));
        let layer = Layer::new([0; 16]).with(1, cost);
        let (start, goal) = (Cell::new(cells.0 % w, cells.1 % h), Cell::new(cells.2 % w, cells.3 % h));
        let best = dijkstra(&tiles, layer, eight, start)[(goal.y * w + goal.x) as usize];
        let mut searcher = Searcher::new();
        let route = searcher.astar(&tiles, layer, connectivity(eight), start, goal).unwrap();
        match (route, best) {
            (Route::Complete { path, cost }, Some(best)) => {
                prop_assert!((cost.value() - best).abs() < 1e-9, "cost {} vs {best}\n{tiles:?}", cost.value());
                let (end, walked) = walk(&tiles, layer, eight, start, &path);
                prop_assert_eq!(end, goal);
                prop_assert!((walked - best).abs() < 1e-9);
            }
            (Route::Partial { path, reached, cut: Cut::TooLong { cost } }, Some(best)) => {
                prop_assert!((cost.value() - best).abs() < 1e-9);
                prop_assert_eq!(walk(&tiles, layer, eight, start, &path).0, reached);
            }
            (Route::Unreachable, None) => {}
            (route, best) => prop_assert!(false, "{route:?} vs {best:?}\n{tiles:?}"),
        }
        let mut cells = Vec::new();
        let total = searcher.astar_into(&tiles, layer, connectivity(eight), start, goal, &mut cells).unwrap();
        prop_assert_eq!(total, route.cost());
        if total.is_some() {
            prop_assert_eq!((cells.first(), cells.last()), (Some(&start), Some(&goal)));
        }
    }

    #[test]
    fn greedy_finds_legal_paths_exactly_when_one_exists((tiles, layer, eight, start, goal) in case()) {
        let best = dijkstra(&tiles, layer, eight, start)[(goal.y * tiles.width() + goal.x) as usize];
        let route = Searcher::new().greedy(&tiles, layer, connectivity(eight), start, goal).unwrap();
        match (route, best) {
            (Route::Complete { path, cost }, Some(best)) => {
                let (end, walked) = walk(&tiles, layer, eight, start, &path);
                prop_assert_eq!(end, goal);
                prop_assert!((walked - cost.value()).abs() < 1e-9 && cost.value() >= best - 1e-9);
            }
            (Route::Partial { cut: Cut::TooLong { cost }, .. }, Some(best)) => prop_assert!(cost.value() >= best - 1e-9),
            (Route::Unreachable, None) => {}
            (route, best) => prop_assert!(false, "{route:?} vs {best:?}"),
        }
    }

    #[test]
    fn budgets_cut_searches_short((tiles, layer, eight, start, goal) in case(), budget in 0usize..20) {
        let mut searcher = Searcher::new();
        searcher.set_budget(Some(budget));
        let route = searcher.astar(&tiles, layer, connectivity(eight), start, goal).unwrap();
        prop_assert!(searcher.expanded() <= budget + 1);
        if let Route::Partial { path, reached, cut: Cut::Budget } = route {
            prop_assert_eq!(walk(&tiles, layer, eight, start, &path).0, reached);
        }
    }
}

#[test]
fn long_paths_come_back_partial_with_the_cell_reached() {
    let tiles = TileGrid::from_fn(100, 1, |_| 1);
    let mut searcher = Searcher::new();
    let route = searcher
        .astar(&tiles, Layer::WALKABLE, Connectivity::Four, Cell::new(0, 0), Cell::new(99, 0))
        .unwrap();
    let Route::Partial { path, reached, cut: Cut::TooLong { cost } } = route else { panic!("{route:?}") };
    assert_eq!((path.len(), reached, cost.value()), (PackedPath::CAPACITY, Cell::new(42, 0), 99.0));
    // Continuing from the reached cell gets there.
    let rest =
        searcher.astar(&tiles, Layer::WALKABLE, Connectivity::Four, reached, Cell::new(99, 0)).unwrap();
    assert!(matches!(rest, Route::Partial { reached: Cell { x: 84, y: 0 }, .. }), "{rest:?}");
}

#[test]
fn layers_change_the_route_per_unit_kind() {
    // A swamp (tag 2) straight ahead; walkers pay 5 to enter it, flyers 1.
    let tiles = TileGrid::from_fn(5, 3, |c| if c.y == 1 && (1..4).contains(&c.x) { 2 } else { 1 });
    let walker = Layer::WALKABLE.with(2, 5);
    let flyer = Layer::WALKABLE;
    let mut searcher = Searcher::new();
    let (start, goal) = (Cell::new(0, 1), Cell::new(4, 1));
    let mut cost =
        |layer| searcher.astar(&tiles, layer, Connectivity::Four, start, goal).unwrap().cost().unwrap();
    assert_eq!(cost(flyer), signposts::Cost::integer(4));
    assert_eq!(cost(walker), signposts::Cost::integer(6)); // around the swamp
}

#[test]
fn cells_outside_the_grid_are_errors_and_blocked_ones_unreachable() {
    let tiles = TileGrid::from_fn(3, 3, |c| u8::from(c != Cell::new(1, 1)));
    let mut searcher = Searcher::new();
    let eight = Connectivity::Eight;
    assert!(searcher.astar(&tiles, Layer::WALKABLE, eight, Cell::new(3, 0), Cell::new(0, 0)).is_err());
    assert!(searcher.greedy(&tiles, Layer::WALKABLE, eight, Cell::new(0, 0), Cell::new(0, 9)).is_err());
    let blocked = searcher.astar(&tiles, Layer::WALKABLE, eight, Cell::new(0, 0), Cell::new(1, 1)).unwrap();
    assert_eq!(blocked, Route::Unreachable);
    let nothing =
        searcher.astar(&tiles, Layer::new([0; 16]), eight, Cell::new(0, 0), Cell::new(2, 2)).unwrap();
    assert_eq!(nothing, Route::Unreachable);
    let same = searcher.astar(&tiles, Layer::WALKABLE, eight, Cell::new(0, 0), Cell::new(0, 0)).unwrap();
    assert!(matches!(same, Route::Complete { path, .. } if path.is_empty()));
}
