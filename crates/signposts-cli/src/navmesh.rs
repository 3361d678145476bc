//! What `rooms`, `rooms-query` and `render --rooms` share: navigation meshes read from a
//! Moving AI map or a polygon file, the cap on saved rooms, and the exact index built with a
//! progress bar.

use std::path::Path;

use anyhow::{Context, Result, bail};
use signposts_rooms::{DoorState, ExactRooms, ExactStage, NavMesh, NavMeshBuilder, Rooms};

use crate::input::read_capped;
use crate::output::progress_bar;

/// The largest saved rooms file `rooms-query` reads.
pub(crate) const MAX_ROOMS_BYTES: u64 = 4 << 30;

/// Builds the exact index of `rooms`' mesh and door states, with a progress bar on standard
/// error (hidden when it is not a terminal).
pub(crate) fn build_exact(rooms: &Rooms, budget: u64, quiet: bool) -> Result<ExactRooms> {
    let mesh = rooms.mesh();
    let states: Vec<DoorState> = (0..mesh.doors_len() as u32)
        .map(|d| rooms.door_state(signposts_rooms::DoorId(d)).unwrap_or(DoorState::Open))
        .collect();
    let bar = progress_bar(quiet, "{spinner} exact index: {msg} [{bar:40}] {pos}/{len} corners, {elapsed}");
    let exact = ExactRooms::builder(mesh)
        .door_states(states)
        .memory_budget(budget)
        .progress(|p| {
            bar.set_message(if p.stage == ExactStage::Visibility {
                "what each corner sees"
            } else {
                "the corner table"
            });
            bar.set_length(p.total as u64);
            bar.set_position(p.done as u64);
        })
        .build();
    bar.finish_and_clear();
    exact.context("building the exact index")
}

/// The mesh of a `.map` or a polygon file (the radius from the flag, or the file's `radius`).
pub(crate) fn read_mesh(path: &Path, radius: f64) -> Result<(NavMesh, Option<signposts::grid::Grid>)> {
    let bytes = read_capped(path)?;
    if bytes.starts_with(b"type ") {
        let grid = signposts::grid::parse_map(&bytes).with_context(|| format!("{}", path.display()))?;
        let mesh = match terrain(&bytes, &grid) {
            // Swamp (`S`) besides ground (`.`, `G`): two areas (tags 1 and 2).
            Some(tiles) => NavMesh::from_tiles(&tiles, radius),
            None => NavMesh::from_grid_with_radius(&grid, radius),
        }
        .with_context(|| format!("the mesh of {}", path.display()))?;
        return Ok((mesh, Some(grid)));
    }
    let text = std::str::from_utf8(&bytes)
        .with_context(|| format!("{} is neither a Moving AI map nor polygon text", path.display()))?;
    let mut builder = NavMeshBuilder::from_text(text).with_context(|| format!("{}", path.display()))?;
    if radius != 0.0 {
        builder = builder.agent_radius(radius);
    }
    let problems = builder.validate();
    if !problems.is_empty() {
        let list: Vec<String> = problems.iter().map(ToString::to_string).collect();
        bail!("{}: {}", path.display(), list.join("; "));
    }
    Ok((builder.build().with_context(|| format!("{}", path.display()))?, None))
}

/// The tile tags of a Moving AI map with more than one passable kind of ground — 1 for `.` and
/// `G`, 2 for swamp `S`, 0 for the rest — or `None` when it has only one.
fn terrain(bytes: &[u8], grid: &signposts::grid::Grid) -> Option<signposts::search::TileGrid> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mut lines = text.lines().map(|l| l.trim_end_matches('\r'));
    lines.by_ref().find(|l| l.trim() == "map")?;
    let rows: Vec<&[u8]> = lines.take(grid.height() as usize).map(str::as_bytes).collect();
    if !rows.iter().any(|r| r.contains(&b'S')) {
        return None;
    }
    let tag = |c: signposts::grid::Cell| match rows.get(c.y as usize).and_then(|r| r.get(c.x as usize)) {
        Some(b'.' | b'G') => 1,
        Some(b'S') => 2,
        _ => 0,
    };
    signposts::search::TileGrid::try_from_fn(grid.width(), grid.height(), tag).ok()
}
