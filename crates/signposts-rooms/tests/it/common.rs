//! Plain references for the rooms tests: walkability by brute force, connectivity by union-find,
//! shortest region walks by the article's min-plus matrix squaring.

#![allow(
    clippy::many_single_char_names,
    clippy::cast_sign_loss,
    clippy::float_cmp,
    clippy::too_many_lines,
    reason = "points of figures (p q a b), cell coordinates checked non-negative, exact tests on grid lines, one long brute force"
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
    /// Oracle nodes per door.
    per_door: u32,
    dist: Vec<u64>,
    arcs: Vec<(u32, u32, u32)>,
}

pub const INF: u64 = u64::MAX / 4;

impl MinPlus {
    pub fn new(rooms: &Rooms) -> MinPlus {
        let regions = rooms.mesh().regions_len();
        let per_door = if rooms.door_nodes() == signposts_rooms::DoorNodes::Ends { 2 } else { 1 };
        let n = regions + per_door as usize * rooms.mesh().doors_len();
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
        MinPlus { n, regions, per_door, dist, arcs }
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
                // Door nodes: one per door (its midpoint) or two (its ends).
                let door =
                    |w: u32| mesh.door(signposts_rooms::DoorId((w - self.regions as u32) / self.per_door));
                let [x, y] = door(u).regions;
                if door(v).regions.contains(&x) { x } else { y }
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

/// The open cells of `grid`, row by row.
pub fn open_cells(grid: &Grid) -> Vec<Cell> {
    (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
        .filter(|&c| grid.is_passable(c))
        .collect()
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
    closed: &[ClosedDoor],
    s: Point,
    targets: &[Point],
) -> Vec<Option<f64>> {
    visibility_lengths_via(grid, closed, s, None, targets)
}

/// [`visibility_lengths`] of paths whose first step from `s` goes straight to `first` (when
/// given): the length of the best path starting with that step. With `DEBUG_BRUTE` set in the
/// environment it prints the path it found to each target, for a failing case.
pub fn visibility_lengths_via(
    grid: &Grid,
    closed: &[ClosedDoor],
    s: Point,
    first: Option<Point>,
    targets: &[Point],
) -> Vec<Option<f64>> {
    // Nodes: the start, the targets, then grid points. A grid point at sealed ends of closed
    // doors is one node per choice of side of each such door: a path may turn there only
    // without going from one side of a door to the other.
    let mut nodes = vec![s];
    nodes.extend_from_slice(targets);
    let mut sides: Vec<Option<f64>> = vec![None; nodes.len()];
    // Grid points inside a closed door's segment are left out: turning there would cross it.
    let on_door = |p: Point| {
        closed.iter().any(|door| {
            let [c, d] = door.ends;
            turn(c, d, p) == 0.0
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
            if on_door(p) {
                continue;
            }
            // At a sealed end of a closed door: one node per wedge the doors leave, each
            // known by a direction inside it.
            let sealed = closed.iter().any(|d| (0..2).any(|k| d.ends[k] == p && !d.pinch[k]));
            if !sealed {
                nodes.push(p);
                sides.push(None);
                continue;
            }
            let mut reps: Vec<f64> = Vec::new();
            for k in 0..64 {
                let a = (f64::from(k) + 0.5) * std::f64::consts::TAU / 64.0;
                let q = quadrants(grid, p)[(a / std::f64::consts::FRAC_PI_2) as usize % 4];
                if q && !reps.iter().any(|&r| same_wedge(grid, closed, p, r, a)) {
                    reps.push(a);
                }
            }
            for r in reps {
                nodes.push(p);
                sides.push(Some(r));
            }
        }
    }
    let side_ok = |u: usize, q: Point| match sides[u] {
        None => true,
        Some(r) => q == nodes[u] || same_wedge(grid, closed, nodes[u], r, angle(nodes[u], q)),
    };
    let sees = |u: usize, v: usize| {
        let (p, q) = (nodes[u], nodes[v]);
        // Two sides of one sealed end are not one place.
        if p == q && sides[u] != sides[v] {
            return false;
        }
        // Along a closed door a path keeps to one of its faces: it cannot leave one of the
        // door's sealed ends on one face and reach the other on the other.
        let along = closed.iter().any(|door| {
            let [c, d] = door.ends;
            let on_line = turn(c, d, p) == 0.0 && turn(c, d, q) == 0.0;
            let key = |x: Point| (x.x - c.x) * (d.x - c.x) + (x.y - c.y) * (d.y - c.y);
            let (lo, hi) = (key(p).min(key(q)), key(p).max(key(q)));
            let overlap = on_line && lo.max(0.0) < hi.min(key(d));
            // The face of the door a node keeps to: its wedge beside the door's ray, on the
            // ray's counter-clockwise side (left of c → d at c, right of it at d) or the other.
            let face = |w: usize| {
                let r = sides[w]?;
                let k = (0..2).find(|&k| door.ends[k] == nodes[w])?;
                let phi = angle(nodes[w], door.ends[1 - k]);
                let ccw =
                    same_wedge(grid, closed, nodes[w], r, (phi + 1e-6).rem_euclid(std::f64::consts::TAU));
                let cw =
                    same_wedge(grid, closed, nodes[w], r, (phi - 1e-6).rem_euclid(std::f64::consts::TAU));
                match (ccw, cw) {
                    (true, false) => Some(if k == 0 { 1 } else { -1 }),
                    (false, true) => Some(if k == 0 { -1 } else { 1 }),
                    _ => None,
                }
            };
            // A sealed end strictly inside the segment: the path must stop there (its node
            // then says which face it keeps to); with both ends on such nodes, one face.
            let end_inside = (0..2).any(|k| {
                let e = door.ends[k];
                !door.pinch[k] && e != p && e != q && key(e) > lo && key(e) < hi
            });
            overlap && (end_inside || matches!((face(u), face(v)), (Some(a), Some(b)) if a != b))
        });
        !along
            && segment_in_area(grid, p, q)
            && !crosses_door(grid, closed, p, q)
            && side_ok(u, q)
            && side_ok(v, p)
    };
    let n = nodes.len();
    let mut dist = vec![f64::INFINITY; n];
    let mut parent = vec![usize::MAX; n];
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
            // Forced: from the start straight to `first`, stopping only at points on the way.
            if let Some(f) = first {
                let key = |w: usize| (nodes[w].x - s.x) * (f.x - s.x) + (nodes[w].y - s.y) * (f.y - s.y);
                let leg = |w: usize| {
                    w != 0
                        && nodes[w] != f
                        && turn(s, f, nodes[w]) == 0.0
                        && key(w) > 0.0
                        && key(w) < key_f(s, f)
                };
                if (u == 0 || leg(u))
                    && !(nodes[v] == f || (leg(v) && key(v) > if u == 0 { 0.0 } else { key(u) }))
                {
                    continue;
                }
            }
            if !done[v] {
                let nd = dist[u] + nodes[u].distance(nodes[v]);
                if nd < dist[v] && sees(u, v) {
                    dist[v] = nd;
                    parent[v] = u;
                }
            }
        }
    }
    if std::env::var_os("DEBUG_BRUTE").is_some() {
        for i in 1..=targets.len() {
            let mut at = i;
            let mut path = Vec::new();
            while at != usize::MAX {
                path.push((nodes[at], sides[at]));
                at = parent[at];
            }
            eprintln!("brute path to {}: {path:?}", nodes[i]);
        }
    }
    (0..targets.len()).map(|i| dist[i + 1].is_finite().then_some(dist[i + 1])).collect()
}

/// `|f - s|²`: the key of `f` along the ray from `s` through it.
fn key_f(s: Point, f: Point) -> f64 {
    (f.x - s.x) * (f.x - s.x) + (f.y - s.y) * (f.y - s.y)
}

/// A closed door for the brute force: its segment, and which ends are pinch points (two
/// open cells touching at a corner: passable whatever the door does; its other ends seal it
/// against the walls they meet).
#[derive(Debug, Clone, Copy)]
pub struct ClosedDoor {
    pub ends: [Point; 2],
    pub pinch: [bool; 2],
}

/// Whether grid point `(x, y)` is a pinch point: two open cells touching there at a corner.
fn is_pinch(grid: &Grid, e: Point) -> bool {
    let q = quadrants(grid, e);
    (q[0] && q[2] && !q[1] && !q[3]) || (q[1] && q[3] && !q[0] && !q[2])
}

/// The closed doors of `mesh` in the given states.
pub fn closed_doors(grid: &Grid, mesh: &NavMesh, states: &[DoorState]) -> Vec<ClosedDoor> {
    mesh.doors()
        .iter()
        .zip(states)
        .filter(|&(_, &s)| s == DoorState::Closed)
        .map(|(d, _)| ClosedDoor {
            ends: d.ends,
            pinch: [is_pinch(grid, d.ends[0]), is_pinch(grid, d.ends[1])],
        })
        .collect()
}

/// Twice the signed area of `a b c` (exact on the small coordinates of the tests).
fn turn(a: Point, b: Point, c: Point) -> f64 {
    (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
}

/// Which of the four cells around grid point `e` are open, counter-clockwise by angle from
/// `+x` (`atan2` with `y` as given): `[x, y]`, `[x - 1, y]`, `[x - 1, y - 1]`, `[x, y - 1]`.
fn quadrants(grid: &Grid, e: Point) -> [bool; 4] {
    let (x, y) = (e.x as i64, e.y as i64);
    let open = |cx: i64, cy: i64| {
        cx >= 0
            && cy >= 0
            && cx < i64::from(grid.width())
            && cy < i64::from(grid.height())
            && grid.is_passable(Cell::new(cx as u32, cy as u32))
    };
    [open(x, y), open(x - 1, y), open(x - 1, y - 1), open(x, y - 1)]
}

/// The angle in `[0, 2π)` of the direction from `e` to `p`.
fn angle(e: Point, p: Point) -> f64 {
    (p.y - e.y).atan2(p.x - e.x).rem_euclid(std::f64::consts::TAU)
}

/// Whether the arc counter-clockwise from angle `a` to angle `b` around grid point `e` stays
/// in open cells and meets none of the `doors` directions strictly inside.
fn arc_clear(open: [bool; 4], doors: &[f64], a: f64, b: f64) -> bool {
    use std::f64::consts::{FRAC_PI_2, TAU};
    let span = (b - a).rem_euclid(TAU);
    let inside = |x: f64| {
        let d = (x - a).rem_euclid(TAU);
        d > 1e-12 && d < span - 1e-12
    };
    if doors.iter().any(|&d| inside(d)) {
        return false;
    }
    // A closed quadrant whose interior meets the arc: its middle or an end strictly inside,
    // or the arc inside it.
    (0..4).filter(|&k| !open[k]).all(|k| {
        let lo = k as f64 * FRAC_PI_2;
        let mid = lo + FRAC_PI_2 / 2.0;
        !(inside(mid)
            || inside(lo)
            || inside(lo + FRAC_PI_2)
            || ((a - lo).rem_euclid(TAU) < FRAC_PI_2 && span > 0.0))
    })
}

/// Whether directions `a` and `b` (angles) at grid point `e` lie in one wedge that walls and
/// the closed doors sealed at `e` do not divide.
fn same_wedge(grid: &Grid, closed: &[ClosedDoor], e: Point, a: f64, b: f64) -> bool {
    let open = quadrants(grid, e);
    let doors: Vec<f64> = closed
        .iter()
        .flat_map(|d| [(d.ends[0], d.ends[1], d.pinch[0]), (d.ends[1], d.ends[0], d.pinch[1])])
        .filter(|&(end, _, pinch)| end == e && !pinch)
        .map(|(end, other, _)| angle(end, other))
        .collect();
    (a - b).abs() < 1e-12 || arc_clear(open, &doors, a, b) || arc_clear(open, &doors, b, a)
}

/// Whether segment `a b` gets past a closed door: through its inside, or through one of its
/// sealed ends (the end strictly inside `a b`, from one side of it to another).
pub fn crosses_door(grid: &Grid, closed: &[ClosedDoor], a: Point, b: Point) -> bool {
    closed.iter().any(|door| {
        let [c, d] = door.ends;
        let (o1, o2, o3, o4) = (turn(a, b, c), turn(a, b, d), turn(c, d, a), turn(c, d, b));
        if o1 * o2 < 0.0 && o3 * o4 < 0.0 {
            return true;
        }
        let inside = |e: Point| {
            e != a
                && e != b
                && e.x >= a.x.min(b.x)
                && e.x <= a.x.max(b.x)
                && e.y >= a.y.min(b.y)
                && e.y <= a.y.max(b.y)
        };
        [(c, o1, door.pinch[0]), (d, o2, door.pinch[1])].iter().any(|&(e, o, p)| {
            !p && o == 0.0 && inside(e) && !same_wedge(grid, closed, e, angle(e, a), angle(e, b))
        })
    })
}
