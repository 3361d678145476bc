//! `signposts render`: a map drawn as a PNG, with a shortest path or the flow field toward a
//! goal; with `--rooms`, its navigation mesh ([`rooms`]).

mod rooms;

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use serde_json::json;
use signposts::grid::{Cell, Direction};

use crate::input::read_map;
use crate::limits;
use crate::oracle::{Making, build_oracle};
use crate::output::write_png;

/// Arguments of `signposts render`.
#[derive(Args)]
pub(crate) struct RenderArgs {
    /// The Moving AI `.map` file; with `--rooms`, a polygon file or saved rooms (from
    /// `signposts rooms`) too.
    map: PathBuf,
    /// Draw a shortest path from (SX, SY) to (GX, GY).
    #[arg(long, num_args = 4, value_names = ["SX", "SY", "GX", "GY"])]
    path: Option<Vec<u32>>,
    /// Colour every cell by its first move toward (GX, GY): the flow field. A key below the map
    /// shows each move's colour at its place on a compass (north up: blue north, green east,
    /// yellow south, red west, the diagonals between), the goal black in its middle, and grey,
    /// to its right, for open cells that cannot reach the goal.
    #[arg(long, num_args = 2, value_names = ["GX", "GY"])]
    field: Option<Vec<u32>>,
    /// Pixels per cell, 1 to 256 (default: the largest that keeps the image within 1024
    /// pixels). Images over 1 GiB of pixels are refused.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(limits::MAX_SCALE)))]
    pub(crate) scale: Option<u32>,
    /// Where to write the PNG.
    #[arg(short, long)]
    output: PathBuf,
    /// Draw the navigation mesh instead (regions, doors — closed ones red, one-way ones with
    /// an arrow — and with `--points` a path between two points).
    #[arg(long, conflicts_with_all = ["path", "field"])]
    rooms: bool,
    /// With `--rooms`: the agent radius, in cells or map units, as `rooms --radius` (saved
    /// rooms keep the radius they were built with).
    #[arg(long, requires = "rooms", default_value_t = 0.0)]
    radius: f64,
    /// With `--rooms`: draw the path from point (SX, SY) to (GX, GY) (cell units: a cell's
    /// centre is x + 0.5).
    #[arg(long, requires = "rooms", num_args = 4, value_names = ["SX", "SY", "GX", "GY"], allow_negative_numbers = true)]
    points: Option<Vec<f64>>,
    /// With `--points`: draw the exactly shortest path too (dashed blue), beside the corridor
    /// path (red), and say both lengths.
    #[arg(long, requires = "points")]
    exact: bool,
    /// The exact index's memory budget (the first tier that fits: hub labels, the
    /// tables, the labels alone, the graph; `ExactBuilder::memory_budget`). Suffixes K, M, G,
    /// T (powers of 1024), optionally followed by `B` or `iB`.
    #[arg(long, default_value = "2G", value_parser = crate::cli::parse_bytes, requires = "exact")]
    exact_budget: u64,
    #[command(flatten)]
    making: Making,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs `signposts render`.
pub(crate) fn run(args: &RenderArgs) -> Result<()> {
    if args.rooms {
        return rooms::render(args);
    }
    let grid = read_map(&args.map)?;
    let scale = limits::render_scale(args.scale, grid.width(), grid.height());
    let (w, h) = limits::render_image(grid.width(), grid.height(), scale)?;
    let mut colours: Vec<[u8; 3]> = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
        .map(|c| if grid.is_passable(c) { [245, 245, 240] } else { [40, 44, 52] })
        .collect();
    let index = |c: Cell| (c.y * grid.width() + c.x) as usize;
    let mut drawn = Vec::new();
    if args.path.is_some() || args.field.is_some() {
        let oracle = build_oracle(&grid, &args.making, args.json)?.oracle;
        if let Some(field) = &args.field {
            let goal = Cell::new(field[0], field[1]);
            oracle.try_next_step(goal, goal).context("the field's goal")?;
            for y in 0..grid.height() {
                for x in 0..grid.width() {
                    let c = Cell::new(x, y);
                    if let Some(d) = oracle.next_step(c, goal) {
                        colours[index(c)] = direction_colour(d);
                    } else if grid.is_passable(c) && c != goal {
                        colours[index(c)] = UNREACHABLE;
                    }
                }
            }
            colours[index(goal)] = GOAL;
        }
        if let Some(p) = &args.path {
            let (from, to) = (Cell::new(p[0], p[1]), Cell::new(p[2], p[3]));
            oracle.try_next_step(from, to).context("the path's ends")?;
            drawn = oracle.path(from, to).collect();
            if drawn.is_empty() {
                bail!("{to} cannot be reached from {from}");
            }
            for &c in &drawn {
                colours[index(c)] = [220, 40, 40];
            }
            colours[index(from)] = [30, 160, 60];
            colours[index(to)] = [30, 80, 220];
        }
    }
    let mut image = image::RgbImage::from_fn(w, h, |px, py| {
        image::Rgb(colours[index(Cell::new(px / scale, py / scale))])
    });
    if args.field.is_some() {
        image = with_field_key(&image);
    }
    let (w, h) = image.dimensions();
    write_png(&image, &args.output)?;
    if args.json {
        out!(
            "{}",
            json!({
                "map": args.map.display().to_string(),
                "output": args.output.display().to_string(),
                "width": w,
                "height": h,
                "scale": scale,
                "path": args.path.is_some().then(|| drawn.iter().map(|c| [c.x, c.y]).collect::<Vec<_>>()),
            })
        );
    } else {
        out!("wrote {} ({w}×{h} pixels, {scale} per cell)", args.output.display());
    }
    Ok(())
}

/// Pixels a side of one swatch of the flow field's key.
const SWATCH: u32 = 12;

/// `map` with the flow field's key below it: a compass of 3×3 swatches, each move's colour
/// where it points (north up), the goal's black in the middle, and the grey of cells that
/// cannot reach the goal to its right.
fn with_field_key(map: &image::RgbImage) -> image::RgbImage {
    const PAD: u32 = 4;
    const BACKGROUND: [u8; 3] = [40, 44, 52];
    let key_width = PAD + 3 * SWATCH + PAD + SWATCH + PAD;
    let (w, h) = (map.width().max(key_width), map.height() + PAD + 3 * SWATCH + PAD);
    let mut out = image::RgbImage::from_pixel(w, h, image::Rgb(BACKGROUND));
    image::imageops::replace(&mut out, map, 0, 0);
    let mut swatch = |column: u32, row: u32, colour: [u8; 3]| {
        // The grey swatch (column 3) stands apart from the compass.
        let gap = if column == 3 { PAD } else { 0 };
        let (x0, y0) = (PAD + column * SWATCH + gap, map.height() + PAD + row * SWATCH);
        // One pixel of background between swatches, so neighbours stay apart.
        for y in y0..y0 + SWATCH - 1 {
            for x in x0..x0 + SWATCH - 1 {
                out.put_pixel(x, y, image::Rgb(colour));
            }
        }
    };
    for d in Direction::ALL {
        let (dx, dy) = d.delta();
        swatch(dx.saturating_add(1).unsigned_abs(), dy.saturating_add(1).unsigned_abs(), direction_colour(d));
    }
    swatch(1, 1, GOAL);
    swatch(3, 1, UNREACHABLE);
    out
}

/// The goal's colour in a flow field.
const GOAL: [u8; 3] = [0, 0, 0];

/// The colour of open cells that cannot reach a flow field's goal.
const UNREACHABLE: [u8; 3] = [150, 150, 150];

/// A hue per direction, so a flow field reads at a glance.
fn direction_colour(d: Direction) -> [u8; 3] {
    match d {
        Direction::North => [66, 133, 244],
        Direction::NorthEast => [0, 172, 193],
        Direction::East => [52, 168, 83],
        Direction::SouthEast => [160, 200, 40],
        Direction::South => [251, 188, 5],
        Direction::SouthWest => [255, 112, 67],
        Direction::West => [234, 67, 53],
        Direction::NorthWest => [171, 71, 188],
    }
}
