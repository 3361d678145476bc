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
    /// Colour every cell by its first move toward (GX, GY): the flow field.
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
    /// The exact index's memory budget (the fastest tier that fits is kept). Suffixes K, M, G,
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
                        colours[index(c)] = [150, 150, 150];
                    }
                }
            }
            colours[index(goal)] = [0, 0, 0];
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
    let image = image::RgbImage::from_fn(w, h, |px, py| {
        image::Rgb(colours[index(Cell::new(px / scale, py / scale))])
    });
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
