//! The any-angle peer's side of the rooms benchmarks: the walkable area of a grid traced into
//! rings for polyanya, its mesh, checks of paths against the grid, and timing helpers.

#![expect(
    clippy::must_use_candidate,
    clippy::missing_panics_doc,
    reason = "benchmark helpers: they panic on maps the benchmarks never read, and are called for their results"
)]

use std::path::PathBuf;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use glam::Vec2;
use polyanya::{Layer, Mesh, Triangulation};
use signposts::grid::{Cell, Grid};
use signposts_rooms::Point;

/// The shared Moving AI maps.
#[must_use]
pub fn maps_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../maps")
}

/// Whether cell `(x, y)` is inside the map and open.
pub fn is_open(grid: &Grid, x: i64, y: i64) -> bool {
    let (Ok(x), Ok(y)) = (u32::try_from(x), u32::try_from(y)) else { return false };
    x < grid.width() && y < grid.height() && grid.is_passable(Cell::new(x, y))
}

/// The row-major index of cell `(x, y)` of a map `w` cells wide.
pub fn index(w: i64, x: i64, y: i64) -> usize {
    usize::try_from(y * w + x).expect("a cell of the map")
}

/// The 4-connected components of the open cells: a label per cell (`u32::MAX` for blocked
/// cells, row-major) and how many there are.
pub fn four_components(grid: &Grid) -> (Vec<u32>, u32) {
    let (w, h) = (i64::from(grid.width()), i64::from(grid.height()));
    let mut labels = vec![u32::MAX; index(w, 0, h)];
    let mut count = 0;
    let mut stack = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if !is_open(grid, x, y) || labels[index(w, x, y)] != u32::MAX {
                continue;
            }
            labels[index(w, x, y)] = count;
            stack.push((x, y));
            while let Some((cx, cy)) = stack.pop() {
                for (dx, dy) in STEP {
                    let (nx, ny) = (cx + dx, cy + dy);
                    if is_open(grid, nx, ny) && labels[index(w, nx, ny)] == u32::MAX {
                        labels[index(w, nx, ny)] = count;
                        stack.push((nx, ny));
                    }
                }
            }
            count += 1;
        }
    }
    (labels, count)
}

/// The components of the closed walkable area: open cells joined across edges and corners (a
/// corner between two open cells is walkable whatever the other two cells are). A root per
/// cell, row-major.
pub fn closed_components(grid: &Grid) -> Vec<u32> {
    fn root(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            parent[x as usize] = parent[parent[x as usize] as usize];
            x = parent[x as usize];
        }
        x
    }
    let (w, h) = (i64::from(grid.width()), i64::from(grid.height()));
    let cells = u32::try_from(index(w, 0, h)).expect("a grid has at most u32::MAX cells");
    let mut parent: Vec<u32> = (0..cells).collect();
    for y in 0..h {
        for x in 0..w {
            if !is_open(grid, x, y) {
                continue;
            }
            for (dx, dy) in [(1, 0), (0, 1), (1, 1), (-1, 1)] {
                let (nx, ny) = (x + dx, y + dy);
                if is_open(grid, nx, ny) {
                    let here = root(&mut parent, index(w, x, y) as u32);
                    let there = root(&mut parent, index(w, nx, ny) as u32);
                    parent[here as usize] = there;
                }
            }
        }
    }
    (0..cells).map(|i| root(&mut parent, i)).collect()
}

/// Unit steps of the wall edges, counter-clockwise with `y` up: east, north, west, south.
pub const STEP: [(i64, i64); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// The rings of one 4-connected component of open cells, integer corners only.
#[derive(Default)]
pub struct ComponentRings {
    /// The outer ring.
    pub outer: Vec<Vec2>,
    /// The rings of its holes.
    pub holes: Vec<Vec<Vec2>>,
}

/// The wall edges of a grid: unit edges between an open cell and a blocked cell (or the map's
/// edge), directed with the open cell on their left (`y` up), kept per start vertex as a mask
/// of [`STEP`] directions.
struct Walls<'a> {
    labels: &'a [u32],
    w: i64,
    h: i64,
    out: Vec<u8>,
}

impl Walls<'_> {
    fn vertex(&self, (x, y): (i64, i64)) -> usize {
        index(self.w + 1, x, y)
    }

    /// The 4-component of cell `(x, y)`, `u32::MAX` when blocked or off the map.
    fn label(&self, x: i64, y: i64) -> u32 {
        if x < 0 || y < 0 || x >= self.w || y >= self.h { u32::MAX } else { self.labels[index(self.w, x, y)] }
    }

    /// The component of the open cell on the left of the edge leaving `(x, y)` in direction `d`.
    fn left(&self, (x, y): (i64, i64), d: usize) -> u32 {
        match d {
            0 => self.label(x, y),
            1 => self.label(x - 1, y),
            2 => self.label(x - 1, y - 1),
            _ => self.label(x, y - 1),
        }
    }

    /// Where to go from `at`, arrived in direction `d`, along the walls of `component`: turning
    /// right first, hugging the blocked cell. Where two open cells of the component touch only
    /// at `at` (a pinch), the ring goes round the blocked cell and so joins the two open cells
    /// there: the other two edges at `at` belong to another ring (the two blocked cells there
    /// cannot be joined without cutting the component), so every ring is simple and rings
    /// touch only at pinches. At a pinch between two components only the edges of `component`
    /// count, which turn left round its own cell.
    fn next(&self, at: (i64, i64), d: usize, component: u32) -> usize {
        let mask = self.out[self.vertex(at)];
        [(d + 3) % 4, d, (d + 1) % 4]
            .into_iter()
            .find(|&e| mask & (1 << e) != 0 && self.left(at, e) == component)
            .expect("a wall goes on from every wall corner")
    }

    /// The ring of wall edges that starts with the edge leaving `start` in direction `first`,
    /// marking its edges in `used`: its corners (where the direction changes), counter-clockwise
    /// around open cells.
    fn walk(&self, used: &mut [u8], start: (i64, i64), first: usize) -> Vec<(i64, i64)> {
        let component = self.left(start, first);
        let (mut at, mut direction) = (start, first);
        let mut corners = Vec::new();
        loop {
            let vertex = self.vertex(at);
            assert_eq!(used[vertex] & (1 << direction), 0, "a wall edge walked twice at {at:?}");
            used[vertex] |= 1 << direction;
            at = (at.0 + STEP[direction].0, at.1 + STEP[direction].1);
            let turn = self.next(at, direction, component);
            if turn != direction {
                corners.push(at);
            }
            if (at, turn) == (start, first) {
                return corners;
            }
            direction = turn;
        }
    }
}

/// The outer ring and hole rings of every 4-connected component of open cells, with
/// collinear vertices dropped.
///
/// # Panics
/// If a component has other than one outer ring (a bug of the tracing).
pub fn trace_rings(grid: &Grid, labels: &[u32], count: u32) -> Vec<ComponentRings> {
    let (w, h) = (i64::from(grid.width()), i64::from(grid.height()));
    let mut walls = Walls { labels, w, h, out: vec![0; index(w + 1, 0, h + 1)] };
    for y in 0..h {
        for x in 0..w {
            if !is_open(grid, x, y) {
                continue;
            }
            // (blocked neighbour, start of the side with this cell on its left, direction)
            let sides = [
                ((x, y - 1), (x, y), 0),
                ((x + 1, y), (x + 1, y), 1),
                ((x, y + 1), (x + 1, y + 1), 2),
                ((x - 1, y), (x, y + 1), 3),
            ];
            for ((nx, ny), from, direction) in sides {
                if !is_open(grid, nx, ny) {
                    let vertex = walls.vertex(from);
                    walls.out[vertex] |= 1 << direction;
                }
            }
        }
    }
    let mut used = vec![0u8; walls.out.len()];
    let mut rings: Vec<ComponentRings> = (0..count).map(|_| ComponentRings::default()).collect();
    for y in 0..=h {
        for x in 0..=w {
            for direction in 0..4 {
                let vertex = walls.vertex((x, y));
                if walls.out[vertex] & !used[vertex] & (1 << direction) == 0 {
                    continue;
                }
                let component = walls.left((x, y), direction);
                let corners = walls.walk(&mut used, (x, y), direction);
                let area2: i64 = (0..corners.len())
                    .map(|i| {
                        let (p, q) = (corners[i], corners[(i + 1) % corners.len()]);
                        p.0 * q.1 - q.0 * p.1
                    })
                    .sum();
                let ring: Vec<Vec2> =
                    corners.iter().map(|&(cx, cy)| Vec2::new(cx as f32, cy as f32)).collect();
                let rings = &mut rings[component as usize];
                if area2 > 0 {
                    assert!(rings.outer.is_empty(), "component {component} has two outer rings");
                    rings.outer = ring;
                } else {
                    rings.holes.push(ring);
                }
            }
        }
    }
    assert!(rings.iter().all(|r| !r.outer.is_empty()), "a component without an outer ring");
    rings
}

/// polyanya's mesh of the components: one triangulation per component (its outer ring, its
/// holes as obstacles), concatenated into one layer, merged, baked; exact point location.
/// With `one_way`, dead-end polygons are marked for polyanya's pruning (not the authors'
/// pipeline for triangulations: its rule assumes every vertex of two polygons is on a wall).
#[expect(
    clippy::field_reassign_with_default,
    reason = "polyanya's Mesh has a private field under its `stats` feature: no struct literal"
)]
pub fn polyanya_mesh(components: &[ComponentRings], one_way: bool) -> Mesh {
    let mut layer = Layer::default();
    for c in components {
        let mut t = Triangulation::from_outer_edges(&c.outer);
        t.add_obstacles(c.holes.iter().map(|h| h.iter().copied()));
        let part = t.as_layer();
        let v_off = u32::try_from(layer.vertices.len()).expect("fits");
        let p_off = u32::try_from(layer.polygons.len()).expect("fits");
        layer.polygons.extend(part.polygons.into_iter().map(|mut p| {
            p.vertices.iter_mut().for_each(|v| *v += v_off);
            p
        }));
        layer.vertices.extend(part.vertices.into_iter().map(|mut v| {
            v.polygons.iter_mut().filter(|p| **p != u32::MAX).for_each(|p| *p += p_off);
            v
        }));
    }
    let mut mesh = Mesh::default();
    mesh.layers = vec![layer];
    while mesh.merge_polygons() {}
    if one_way {
        mesh.update_is_one_way();
    }
    mesh.bake();
    mesh.set_search_delta(0.0).set_search_steps(1);
    mesh
}

/// The bytes of polyanya's public mesh data (vertices with their polygon lists, polygons with
/// their vertex lists) and its island table; its R-tree is private and not counted.
pub fn polyanya_bytes(mesh: &Mesh) -> usize {
    mesh.layers
        .iter()
        .map(|l| {
            let vertices: usize =
                l.vertices.iter().map(|v| size_of::<polyanya::Vertex>() + v.polygons.capacity() * 4).sum();
            let polygons: usize =
                l.polygons.iter().map(|p| size_of::<polyanya::Polygon>() + p.vertices.capacity() * 4).sum();
            vertices + polygons + l.polygons.len() * size_of::<usize>()
        })
        .sum()
}

/// Whether the closed segment `p q` stays in the closed walkable area: inside the map, and
/// through the open interior of no blocked cell (walls and pinch corners are walkable). The
/// cells looked at are those of the columns the segment spans, a row either side of its
/// extent in each.
pub fn segment_is_walkable(grid: &Grid, p: Point, q: Point) -> bool {
    let (w, h) = (f64::from(grid.width()), f64::from(grid.height()));
    let inside = |a: Point| a.x >= 0.0 && a.y >= 0.0 && a.x <= w && a.y <= h;
    if !inside(p) || !inside(q) {
        return false;
    }
    let (dx, dy) = (q.x - p.x, q.y - p.y);
    let x_first = (p.x.min(q.x).floor() as i64).min(i64::from(grid.width()) - 1);
    let x_last = (p.x.max(q.x).ceil() as i64 - 1).max(x_first);
    for cx in x_first..=x_last {
        let (y_lo, y_hi) = if dx == 0.0 {
            (p.y.min(q.y), p.y.max(q.y))
        } else {
            let (t0, t1) = ((cx as f64 - p.x) / dx, (cx as f64 + 1.0 - p.x) / dx);
            let (t0, t1) = (t0.min(t1).clamp(0.0, 1.0), t0.max(t1).clamp(0.0, 1.0));
            let (ya, yb) = (p.y + t0 * dy, p.y + t1 * dy);
            (ya.min(yb), ya.max(yb))
        };
        for cy in y_lo.floor() as i64 - 1..=y_hi.ceil() as i64 {
            let inside_map =
                cy >= 0 && cy < i64::from(grid.height()) && cx >= 0 && cx < i64::from(grid.width());
            if inside_map && !is_open(grid, cx, cy) && crosses_open_square(p, q, cx as f64, cy as f64) {
                return false;
            }
        }
    }
    true
}

/// Whether the segment meets the open square `(x, x + 1) × (y, y + 1)` (Liang–Barsky with
/// strict bounds).
pub fn crosses_open_square(p: Point, q: Point, left: f64, bottom: f64) -> bool {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for (delta, start, min) in [(q.x - p.x, p.x, left), (q.y - p.y, p.y, bottom)] {
        let max = min + 1.0;
        if delta == 0.0 {
            if start <= min || start >= max {
                return false;
            }
        } else {
            let (at_min, at_max) = ((min - start) / delta, (max - start) / delta);
            lo = lo.max(at_min.min(at_max));
            hi = hi.min(at_min.max(at_max));
        }
    }
    lo < hi
}

/// A polyline's length.
pub fn polyline_length(points: &[Point]) -> f64 {
    points.windows(2).map(|w| w[0].distance(w[1])).sum()
}

/// The fastest of `rounds` passes over `queries`, in µs per query.
pub fn fastest<T>(
    rounds: usize,
    queries: &[(Point, Point)],
    mut query: impl FnMut(Point, Point) -> T,
) -> f64 {
    (0..rounds)
        .map(|_| {
            let start = Instant::now();
            for &(s, t) in queries {
                std::hint::black_box(query(std::hint::black_box(s), std::hint::black_box(t)));
            }
            start.elapsed().as_secs_f64() * 1e6 / queries.len() as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// Today's date (UTC), `YYYY-MM-DD`.
pub fn today() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    // Howard Hinnant's civil_from_days.
    let z = i64::try_from(secs / 86_400).unwrap_or(0) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The processor's model name.
#[must_use]
pub fn cpu() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines().find_map(|l| Some(l.strip_prefix("model name")?.split_once(':')?.1.trim().to_string()))
        })
        .unwrap_or_else(|| "unknown CPU".to_string())
}

/// Cell centres where polyanya's `point_in_mesh` disagrees with the grid's openness.
pub fn polyanya_cover_errors(grid: &Grid, pa: &Mesh) -> usize {
    (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let centre = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
            pa.point_in_mesh(centre) != grid.is_passable(Cell::new(x, y))
        })
        .count()
}
