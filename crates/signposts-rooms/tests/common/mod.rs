//! Plain references for the rooms tests: walkability by brute force, connectivity by union-find,
//! shortest region walks by the article's min-plus matrix squaring.

#![allow(dead_code, reason = "each test file uses part of the helpers")]
#![allow(
    clippy::many_single_char_names,
    clippy::cast_sign_loss,
    clippy::float_cmp,
    reason = "points of figures (p q a b), cell coordinates checked non-negative, exact tests on grid lines"
)]

use signposts::grid::{Cell, Grid};
use signposts_rooms::{DoorState, NavMesh, Point, RegionId, Rooms};

/// Whether the closed segment `p q` stays in the closed walkable area of `grid`: inside the map
/// and through the open interior of no blocked cell (walls and pinch corners are walkable).
pub fn segment_is_walkable(grid: &Grid, p: Point, q: Point) -> bool {
    let (w, h) = (f64::from(grid.width()), f64::from(grid.height()));
    let inside = |a: Point| a.x >= 0.0 && a.y >= 0.0 && a.x <= w && a.y <= h;
    if !inside(p) || !inside(q) {
        return false;
    }
    let (x0, x1) = (p.x.min(q.x).floor().max(0.0) as u32, (p.x.max(q.x).ceil() as u32).min(grid.width()));
    let (y0, y1) = (p.y.min(q.y).floor().max(0.0) as u32, (p.y.max(q.y).ceil() as u32).min(grid.height()));
    for y in y0..y1 {
        for x in x0..x1 {
            if !grid.is_passable(Cell::new(x, y)) && crosses_open_square(p, q, f64::from(x), f64::from(y)) {
                return false;
            }
        }
    }
    true
}

/// Whether the segment meets the open square `(x, x + 1) × (y, y + 1)` (Liang–Barsky with strict
/// bounds).
fn crosses_open_square(p: Point, q: Point, x: f64, y: f64) -> bool {
    let (dx, dy) = (q.x - p.x, q.y - p.y);
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for (d, start, min, max) in [(dx, p.x, x, x + 1.0), (dy, p.y, y, y + 1.0)] {
        if d == 0.0 {
            if start <= min || start >= max {
                return false;
            }
        } else {
            let (a, b) = ((min - start) / d, (max - start) / d);
            let (a, b) = (a.min(b), a.max(b));
            lo = lo.max(a);
            hi = hi.min(b);
        }
    }
    lo < hi
}

/// Components of the closed walkable area of `grid`: open cells joined across edges and
/// corners (a corner between two open cells is walkable whatever the other two are).
pub fn components(grid: &Grid) -> Vec<u32> {
    fn root(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            parent[x as usize] = parent[parent[x as usize] as usize];
            x = parent[x as usize];
        }
        x
    }
    let (w, h) = (grid.width(), grid.height());
    let mut parent: Vec<u32> = (0..w * h).collect();
    for y in 0..h {
        for x in 0..w {
            if !grid.is_passable(Cell::new(x, y)) {
                continue;
            }
            for (dx, dy) in [(1i64, 0i64), (0, 1), (1, 1), (-1, 1)] {
                let (nx, ny) = (i64::from(x) + dx, i64::from(y) + dy);
                if nx >= 0 && ny >= 0 && nx < i64::from(w) && ny < i64::from(h) {
                    let n = Cell::new(nx as u32, ny as u32);
                    if grid.is_passable(n) {
                        let (a, b) = (root(&mut parent, y * w + x), root(&mut parent, n.y * w + n.x));
                        parent[a as usize] = b;
                    }
                }
            }
        }
    }
    (0..w * h).map(|i| root(&mut parent, i)).collect()
}

/// Checks one path query between point `s` of open cell `a` and point `t` of open cell `b` of
/// `grid` against the references.
pub fn check_grid_query(
    grid: &Grid,
    rooms: &Rooms,
    comps: &[u32],
    (a, s): (Cell, Point),
    (b, t): (Cell, Point),
) {
    let cell = |c: Cell| (c.y * grid.width() + c.x) as usize;
    let connected = comps[cell(a)] == comps[cell(b)];
    let path = rooms.path(s, t);
    assert_eq!(path.is_some(), connected, "{s} → {t}: connected {connected}\n{grid:?}");
    let Some(path) = path else {
        assert_eq!(rooms.next_waypoint(s, t), None);
        return;
    };
    let points = path.points();
    assert_eq!((points[0], *points.last().unwrap()), (s, t));
    for pair in points.windows(2) {
        assert!(
            segment_is_walkable(grid, pair[0], pair[1]),
            "{s} → {t}: segment {} → {} leaves the walkable area: {points:?}\n{grid:?}",
            pair[0],
            pair[1]
        );
    }
    assert!(path.length() >= s.distance(t) - 1e-9);
    assert_eq!(rooms.next_waypoint(s, t), Some(points[1]), "{s} → {t}: {points:?}");
    // An entity that steps onto each waypoint and asks again reaches the goal, never asked to
    // stay where it stands.
    let mut at = s;
    for _ in 0..=points.len() + 2 {
        if at == t {
            break;
        }
        let next = rooms.next_waypoint(at, t).expect("still connected");
        assert_ne!(next, at, "{s} → {t}: stuck at {at}: {points:?}");
        at = next;
    }
    assert_eq!(at, t, "{s} → {t}: waypoints from the start do not reach the goal: {points:?}");
}

/// All-pairs (length, next) of the oracle's graph by the article's min-plus squaring:
/// `D ← D ⊗ D` until it stops changing, then the set of first regions entered on some shortest
/// walk from each region to each other, found by following the optimal arcs inside the start
/// region until one leaves it.
pub struct MinPlus {
    n: usize,
    regions: usize,
    dist: Vec<u64>,
    arcs: Vec<(u32, u32, u32)>,
}

pub const INF: u64 = u64::MAX / 4;

impl MinPlus {
    pub fn new(rooms: &Rooms) -> MinPlus {
        let regions = rooms.mesh().regions_len();
        let n = regions + rooms.mesh().doors_len();
        let arcs: Vec<(u32, u32, u32)> = rooms.oracle_arcs().collect();
        let mut dist = vec![INF; n * n];
        for i in 0..n {
            dist[i * n + i] = 0;
        }
        for &(u, v, c) in &arcs {
            let e = &mut dist[u as usize * n + v as usize];
            *e = (*e).min(u64::from(c));
        }
        // Repeated squaring: after k rounds, walks of up to 2^k arcs.
        loop {
            let mut next = dist.clone();
            for i in 0..n {
                for k in 0..n {
                    let dik = dist[i * n + k];
                    if dik >= INF {
                        continue;
                    }
                    for j in 0..n {
                        let via = dik + dist[k * n + j];
                        if via < next[i * n + j] {
                            next[i * n + j] = via;
                        }
                    }
                }
            }
            if next == dist {
                break;
            }
            dist = next;
        }
        MinPlus { n, regions, dist, arcs }
    }

    pub fn distance(&self, u: u32, v: u32) -> u64 {
        self.dist[u as usize * self.n + v as usize]
    }

    /// The regions entered first on some shortest walk from region `a` to region `b`.
    pub fn first_regions(&self, rooms: &Rooms, a: RegionId, b: RegionId) -> Vec<RegionId> {
        let mesh = rooms.mesh();
        let d = |u: u32| self.distance(u, b.0);
        let region_of = |u: u32, v: u32| -> RegionId {
            if (u as usize) < self.regions {
                RegionId(u)
            } else if (v as usize) < self.regions {
                RegionId(v)
            } else {
                let [x, y] = mesh.door(signposts_rooms::DoorId(u - self.regions as u32)).regions;
                if mesh.door(signposts_rooms::DoorId(v - self.regions as u32)).regions.contains(&x) {
                    x
                } else {
                    y
                }
            }
        };
        let (mut out, mut stack, mut seen) = (Vec::new(), vec![a.0], vec![false; self.n]);
        while let Some(u) = stack.pop() {
            if std::mem::replace(&mut seen[u as usize], true) {
                continue;
            }
            for &(x, v, c) in &self.arcs {
                if x == u && d(v) < INF && u64::from(c) + d(v) == d(u) {
                    let r = region_of(u, v);
                    if r == a {
                        stack.push(v);
                    } else if !out.contains(&r) {
                        out.push(r);
                    }
                }
            }
        }
        out
    }
}

/// Door states drawn from `bits` (two bits a door: open, closed, one way either side).
pub fn states_from(mesh: &NavMesh, bits: &[u8]) -> Vec<DoorState> {
    (0..mesh.doors_len())
        .map(|d| {
            let door = mesh.door(signposts_rooms::DoorId(d as u32));
            match bits.get(d).copied().unwrap_or(0) % 5 {
                0 | 1 => DoorState::Open,
                2 => DoorState::Closed,
                3 => DoorState::OneWay { from: door.regions[0] },
                _ => DoorState::OneWay { from: door.regions[1] },
            }
        })
        .collect()
}

/// Whether segments `a b` and `c d` cross at a single point inside both (a closed door is
/// crossed only so; touching its ends or running along it is walking beside a wall).
fn crosses_properly(a: Point, b: Point, c: Point, d: Point) -> bool {
    let o = |p: Point, q: Point, r: Point| (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x);
    let (o1, o2, o3, o4) = (o(a, b, c), o(a, b, d), o(c, d, a), o(c, d, b));
    o1 * o2 < 0.0 && o3 * o4 < 0.0
}

/// Whether `p` lies in the closed square of an open cell.
pub fn point_in_area(grid: &Grid, p: Point) -> bool {
    let (fx, fy) = (p.x.floor() as i64, p.y.floor() as i64);
    (fy - 1..=fy).any(|y| {
        (fx - 1..=fx).any(|x| {
            x >= 0
                && y >= 0
                && x < i64::from(grid.width())
                && y < i64::from(grid.height())
                && grid.is_passable(Cell::new(x as u32, y as u32))
                && p.x >= x as f64
                && p.x <= (x + 1) as f64
                && p.y >= y as f64
                && p.y <= (y + 1) as f64
        })
    })
}

/// Whether the closed segment `p q` lies in the union of the open cells' closed squares: cut
/// where it crosses grid lines, each piece's midpoint in such a square.
pub fn segment_in_area(grid: &Grid, p: Point, q: Point) -> bool {
    if !point_in_area(grid, p) || !point_in_area(grid, q) {
        return false;
    }
    let mut cuts = vec![0.0, 1.0];
    for (a, b) in [(p.x, q.x), (p.y, q.y)] {
        if a != b {
            for k in (a.min(b).ceil() as i64)..=(a.max(b).floor() as i64) {
                cuts.push((k as f64 - a) / (b - a));
            }
        }
    }
    cuts.sort_by(f64::total_cmp);
    cuts.windows(2).filter(|w| w[1] - w[0] > 1e-12).all(|w| {
        let m = f64::midpoint(w[0], w[1]);
        point_in_area(grid, Point::new(p.x + (q.x - p.x) * m, p.y + (q.y - p.y) * m))
    })
}

/// The brute-force visibility graph of a grid: every grid point and both ends, every pair
/// tested with [`segment_in_area`] (and for crossing a closed door), Dijkstra over it.
/// Returns the shortest length from `s` to each of `targets`.
pub fn visibility_lengths(
    grid: &Grid,
    closed: &[(Point, Point)],
    s: Point,
    targets: &[Point],
) -> Vec<Option<f64>> {
    let mut nodes = vec![s];
    nodes.extend_from_slice(targets);
    // Grid points inside a closed door's segment are left out: turning there would cross it.
    let on_door = |p: Point| {
        closed.iter().any(|&(c, d)| {
            (d.x - c.x) * (p.y - c.y) == (d.y - c.y) * (p.x - c.x)
                && p != c
                && p != d
                && p.x >= c.x.min(d.x)
                && p.x <= c.x.max(d.x)
                && p.y >= c.y.min(d.y)
                && p.y <= c.y.max(d.y)
        })
    };
    for y in 0..=grid.height() {
        for x in 0..=grid.width() {
            let p = Point::new(f64::from(x), f64::from(y));
            if !on_door(p) {
                nodes.push(p);
            }
        }
    }
    let sees = |p: Point, q: Point| {
        segment_in_area(grid, p, q) && !closed.iter().any(|&(c, d)| crosses_properly(p, q, c, d))
    };
    let n = nodes.len();
    let mut dist = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    dist[0] = 0.0;
    for _ in 0..n {
        let Some(u) =
            (0..n).filter(|&i| !done[i] && dist[i].is_finite()).min_by(|&a, &b| dist[a].total_cmp(&dist[b]))
        else {
            break;
        };
        done[u] = true;
        if (1..=targets.len()).contains(&u) {
            continue; // an end, not a place to turn (it may lie on a closed door)
        }
        for v in 0..n {
            if !done[v] {
                let nd = dist[u] + nodes[u].distance(nodes[v]);
                if nd < dist[v] && sees(nodes[u], nodes[v]) {
                    dist[v] = nd;
                }
            }
        }
    }
    (0..targets.len()).map(|i| dist[i + 1].is_finite().then_some(dist[i + 1])).collect()
}

/// The closed doors' segments.
pub fn closed_segments(mesh: &NavMesh, states: &[DoorState]) -> Vec<(Point, Point)> {
    mesh.doors()
        .iter()
        .zip(states)
        .filter(|&(_, &s)| s == DoorState::Closed)
        .map(|(d, _)| (d.ends[0], d.ends[1]))
        .collect()
}
