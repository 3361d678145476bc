//! `signposts render --rooms`: a navigation mesh drawn as a PNG (regions, doors and their
//! states), with a path between two points and its corridor, and the exactly shortest one.

#![expect(
    clippy::cast_sign_loss,
    clippy::many_single_char_names,
    reason = "pixel coordinates are clamped to 0 before each cast; points of figures are a b p q"
)]

use anyhow::{Context, Result, bail};
use serde_json::json;
use signposts_rooms::{DoorState, ExactRooms, NavMesh, Path as RoomsPath, Point, RegionId, Rooms};

use super::RenderArgs;
use crate::limits;
use crate::navmesh::{build_exact, build_rooms, is_saved_rooms, load_rooms, read_mesh};
use crate::output::{decimal, point, write_png};

/// Draws the mesh (each region its own pale colour, walls dark, doors as lines, one-way doors
/// with an arrow), and a path between two points with its corridor, as a PNG.
pub(super) fn render(args: &RenderArgs) -> Result<()> {
    let (map, output, path) = (&args.map, &args.output, args.points.as_deref());
    let rooms = if is_saved_rooms(map) {
        load_rooms(map)?
    } else {
        let (mesh, _) = read_mesh(map, args.radius)?;
        build_rooms(&Rooms::builder(&mesh), args.making.memory_limit, args.making.threads, args.json)?
    };
    let mesh = rooms.mesh();
    let (lo, width, height) = extent(mesh)?;
    let scale = limits::render_scale(args.scale, width, height).max(4);
    let (w, h) = limits::render_image(width, height, scale)?;
    let s = f64::from(scale);
    let mut image = image::RgbImage::from_pixel(w, h, image::Rgb([40, 44, 52]));
    let to_pixel = |p: Point| ((p.x - lo.x) * s, (p.y - lo.y) * s);
    let corridor: Vec<RegionId> = path
        .and_then(|p| {
            let (a, b) = (rooms.region_at(Point::new(p[0], p[1]))?, rooms.region_at(Point::new(p[2], p[3]))?);
            rooms.region_path(a, b)
        })
        .unwrap_or_default();
    fill_regions(&mut image, mesh, &corridor, &to_pixel);
    draw_doors(&mut image, &rooms, &to_pixel, s);
    let mut drawn = None;
    if let Some(p) = path {
        let (from, to) = (Point::new(p[0], p[1]), Point::new(p[2], p[3]));
        let Some(route) = rooms.path(from, to) else {
            bail!(
                "{} cannot be reached from {} (or a point is outside the walkable area)",
                point(to.x, to.y),
                point(from.x, from.y)
            )
        };
        for pair in route.points().windows(2) {
            line(&mut image, to_pixel(pair[0]), to_pixel(pair[1]), (s / 5.0).max(1.5), [220, 40, 40]);
        }
        for &q in &route.points()[1..route.points().len() - 1] {
            disc(&mut image, to_pixel(q), (s / 3.0).max(2.5), [220, 40, 40]);
        }
        let shortest = if args.exact {
            let index = build_exact(&rooms, args.exact_budget, args.making.threads, true)?;
            Some(draw_exact(&mut image, &index, (from, to), &to_pixel, s)?)
        } else {
            None
        };
        disc(&mut image, to_pixel(from), (s / 2.0).max(3.0), [30, 160, 60]);
        disc(&mut image, to_pixel(to), (s / 2.0).max(3.0), [30, 80, 220]);
        drawn = Some((route, shortest));
    }
    write_png(&image, output)?;
    if args.json {
        let points = |p: &RoomsPath| p.points().iter().map(|q| [q.x, q.y]).collect::<Vec<_>>();
        let exact = drawn.as_ref().and_then(|(_, shortest)| shortest.as_ref());
        out!(
            "{}",
            json!({
                "map": map.display().to_string(),
                "output": output.display().to_string(),
                "width": w,
                "height": h,
                "scale": scale,
                "regions": mesh.regions_len(),
                "doors": mesh.doors_len(),
                "path": drawn.as_ref().map(|(route, _)| json!({
                    "points": points(route), "length": route.length(), "corridor_regions": corridor.len(),
                })),
                "exact_path": exact.map(|e| json!({ "points": points(e), "length": e.length() })),
            })
        );
        return Ok(());
    }
    if let Some((route, shortest)) = &drawn {
        if let Some(shortest) = shortest {
            out!(
                "exact path: {} points, length {} ({:.3}% shorter than the corridor path)",
                shortest.points().len(),
                decimal(shortest.walked()),
                100.0 * (1.0 - shortest.walked() / route.length())
            );
        }
        out!(
            "path: {} points, length {}, {} regions in its corridor",
            route.points().len(),
            decimal(route.length()),
            corridor.len()
        );
    }
    out!(
        "wrote {} ({w}×{h} pixels, {} regions, {} doors)",
        output.display(),
        mesh.regions_len(),
        mesh.doors_len()
    );
    Ok(())
}

/// The mesh's lowest corner, and its width and height in whole map units (checked before
/// the cast to pixels, which would saturate).
fn extent(mesh: &NavMesh) -> Result<(Point, u32, u32)> {
    let (lo, hi) = mesh.vertices().iter().fold(
        (Point::new(f64::INFINITY, f64::INFINITY), Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY)),
        |(lo, hi), p| (Point::new(lo.x.min(p.x), lo.y.min(p.y)), Point::new(hi.x.max(p.x), hi.y.max(p.y))),
    );
    let (span_x, span_y) = ((hi.x - lo.x).ceil().max(1.0), (hi.y - lo.y).ceil().max(1.0));
    if span_x > f64::from(u32::MAX) || span_y > f64::from(u32::MAX) {
        bail!(
            "the mesh spans {span_x}×{span_y} map units, over the {} a side that can be drawn at one pixel a unit",
            u32::MAX
        );
    }
    Ok((lo, span_x as u32, span_y as u32))
}

/// Regions: every pixel whose centre a region holds takes the region's colour (those of
/// `corridor` one highlight).
fn fill_regions(
    image: &mut image::RgbImage,
    mesh: &NavMesh,
    corridor: &[RegionId],
    to_pixel: &impl Fn(Point) -> (f64, f64),
) {
    let (w, h) = image.dimensions();
    for r in 0..mesh.regions_len() as u32 {
        let region = RegionId(r);
        let polygon: Vec<(f64, f64)> = mesh.polygon(region).map(to_pixel).collect();
        let colour = if corridor.contains(&region) { [255, 236, 170] } else { pale(r) };
        let (x0, x1) =
            polygon.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.0), b.max(p.0)));
        let (y0, y1) =
            polygon.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.1), b.max(p.1)));
        for py in (y0.floor().max(0.0) as u32)..(y1.ceil() as u32).min(h) {
            for px in (x0.floor().max(0.0) as u32)..(x1.ceil() as u32).min(w) {
                let (cx, cy) = (f64::from(px) + 0.5, f64::from(py) + 0.5);
                let n = polygon.len();
                let inside = (0..n).all(|i| {
                    let (a, b) = (polygon[i], polygon[(i + 1) % n]);
                    (b.0 - a.0) * (cy - a.1) - (b.1 - a.1) * (cx - a.0) >= 0.0
                });
                if inside {
                    image.put_pixel(px, py, image::Rgb(colour));
                }
            }
        }
    }
}

/// Doors: thin grey lines (closed: thick red); point doors a dot; one-way doors an arrow into
/// the region they lead to.
fn draw_doors(image: &mut image::RgbImage, rooms: &Rooms, to_pixel: &impl Fn(Point) -> (f64, f64), s: f64) {
    for (d, door) in rooms.mesh().doors().iter().enumerate() {
        let state = rooms.door_state(signposts_rooms::DoorId(d as u32)).unwrap_or(DoorState::Open);
        let (a, b) = (to_pixel(door.ends[0]), to_pixel(door.ends[1]));
        let closed = state == DoorState::Closed;
        if door.is_point() {
            disc(image, a, 2.0, if closed { [200, 30, 30] } else { [200, 60, 160] });
        } else if closed {
            line(image, a, b, (s / 6.0).max(1.5), [200, 30, 30]);
        } else {
            line(image, a, b, 0.6, [150, 150, 160]);
        }
        if let DoorState::OneWay { from } = state {
            let [l, r] = door.ends_from(from);
            let (m, across) = (door.midpoint(), rooms.mesh().centroid(door.other(from)));
            let tip = Point::new(m.x + (across.x - m.x) * 0.3, m.y + (across.y - m.y) * 0.3);
            let width = (s / 8.0).max(1.5);
            line(image, to_pixel(l.midpoint_to(m)), to_pixel(tip), width, [230, 120, 20]);
            line(image, to_pixel(r.midpoint_to(m)), to_pixel(tip), width, [230, 120, 20]);
        }
    }
}

/// Draws the exactly shortest path from `from` to `to` (dashed blue) by `index`, and returns it.
fn draw_exact(
    image: &mut image::RgbImage,
    index: &ExactRooms,
    (from, to): (Point, Point),
    to_pixel: &impl Fn(Point) -> (f64, f64),
    s: f64,
) -> Result<RoomsPath> {
    let shortest = index.path(from, to).context("the exact index found no path")?;
    // Dashed blue, over the corridor path.
    for pair in shortest.points().windows(2) {
        let (a, b) = (to_pixel(pair[0]), to_pixel(pair[1]));
        let dashes = ((b.0 - a.0).hypot(b.1 - a.1) / (s * 0.8)).ceil().max(1.0) as u32;
        for k in (0..dashes).step_by(2) {
            let (t0, t1) = (f64::from(k) / f64::from(dashes), f64::from(k + 1) / f64::from(dashes));
            let at = |t: f64| (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1));
            line(image, at(t0), at(t1), (s / 5.0).max(1.5), [30, 60, 210]);
        }
    }
    for &q in &shortest.points()[1..shortest.points().len() - 1] {
        disc(image, to_pixel(q), (s / 3.0).max(2.5), [30, 60, 210]);
    }
    Ok(shortest)
}

/// A pale colour of its own for region `r`.
fn pale(r: u32) -> [u8; 3] {
    let x = r.wrapping_mul(0x9E37_79B9).rotate_left(7);
    let c = |k: u32| 170 + ((x >> k) & 0x3F) as u8;
    [c(0), c(8), c(16)]
}

fn disc(image: &mut image::RgbImage, (x, y): (f64, f64), radius: f64, colour: [u8; 3]) {
    let (w, h) = image.dimensions();
    for py in ((y - radius).floor().max(0.0) as u32)..((y + radius).ceil() as u32).min(h) {
        for px in ((x - radius).floor().max(0.0) as u32)..((x + radius).ceil() as u32).min(w) {
            let (dx, dy) = (f64::from(px) + 0.5 - x, f64::from(py) + 0.5 - y);
            if dx * dx + dy * dy <= radius * radius {
                image.put_pixel(px, py, image::Rgb(colour));
            }
        }
    }
}

fn line(image: &mut image::RgbImage, a: (f64, f64), b: (f64, f64), half_width: f64, colour: [u8; 3]) {
    let steps = ((b.0 - a.0).hypot(b.1 - a.1) * 2.0).ceil().max(1.0) as u32;
    for i in 0..=steps {
        let t = f64::from(i) / f64::from(steps);
        disc(image, (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1)), half_width, colour);
    }
}

/// Halfway between two points.
trait Halfway {
    fn midpoint_to(self, other: Point) -> Point;
}

impl Halfway for Point {
    fn midpoint_to(self, other: Point) -> Point {
        Point::new(self.x.midpoint(other.x), self.y.midpoint(other.y))
    }
}
