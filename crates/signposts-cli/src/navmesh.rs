//! What `rooms`, `rooms-query` and `render --rooms` share: navigation meshes read from a
//! Moving AI map or a polygon file, saved rooms loaded within a size cap, and the region
//! oracle and the exact index built with a progress bar.

use std::path::Path;

use anyhow::{Context, Result, bail};
use signposts::BuildOptions;
use signposts_rooms::{
    BuildRooms as _, ExactBuilder, ExactRooms, NavMesh, NavMeshBuilder, Rooms, RoomsBuilder,
};

use crate::cli::Threads;
use crate::input::{FileKind, expect_kind, read_capped};
use crate::oracle::show_progress;
use crate::output::progress_bar;

/// The largest saved rooms file read.
const MAX_ROOMS_BYTES: u64 = 4 << 30;

/// Whether the file at `path` starts as saved rooms do (`signposts rooms`' output).
pub(crate) fn is_saved_rooms(path: &Path) -> bool {
    let magic = std::fs::File::open(path).and_then(|mut f| {
        let mut magic = [0u8; 8];
        std::io::Read::read_exact(&mut f, &mut magic).map(|()| magic)
    });
    magic.is_ok_and(|m| &m == b"SPROOMS\0")
}

/// Reads saved rooms, refusing a file over [`MAX_ROOMS_BYTES`] before reading it (and a
/// stream, which has no length, at that many bytes).
pub(crate) fn load_rooms(path: &Path) -> Result<Rooms> {
    expect_kind(path, &[FileKind::Rooms], "saved rooms")?;
    let loading = || format!("loading {}", path.display());
    let file = std::fs::File::open(path).with_context(loading)?;
    let metadata = file.metadata().with_context(loading)?;
    if !metadata.is_file() {
        return Rooms::load(std::io::Read::take(file, MAX_ROOMS_BYTES)).with_context(loading);
    }
    if metadata.len() > MAX_ROOMS_BYTES {
        bail!(
            "{} is {} bytes, over the {MAX_ROOMS_BYTES}-byte limit on saved rooms",
            path.display(),
            metadata.len()
        );
    }
    Rooms::load_from(path).with_context(loading)
}

/// Opens a saved exact index memory-mapped, every part checked.
pub(crate) fn open_exact(path: &Path) -> Result<ExactRooms> {
    expect_kind(path, &[FileKind::Exact], "a saved exact index")?;
    // SAFETY: the index is only read; a file rewritten while this process runs is the user's
    // to avoid (the map would show the change).
    unsafe { ExactRooms::map_file(path, signposts::format::Check::Full) }
        .with_context(|| format!("loading {}", path.display()))
}

/// Builds the rooms `builder` describes and their region oracle, refusing a table of more
/// than `memory_limit` bytes before building it, with a progress bar on standard error (hidden
/// when `quiet`, and when it is not a terminal).
pub(crate) fn build_rooms(
    builder: &RoomsBuilder<'_>,
    memory_limit: u64,
    threads: Threads,
    quiet: bool,
) -> Result<Rooms> {
    let bar = progress_bar(
        quiet,
        "{spinner} region oracle [{bar:40}] {pos}/{len} batches, {elapsed} elapsed, ETA {eta}",
    );
    let mut options = BuildOptions::new();
    threads.apply(options.memory_limit(memory_limit).progress(|p| show_progress(&bar, p)));
    let rooms = options.build_rooms(builder);
    bar.finish_and_clear();
    rooms.context("building the region oracle")
}

/// Builds the exact index of `rooms`' mesh and door states within `budget` bytes, with a
/// progress bar on standard error (hidden when `quiet`, and when it is not a terminal).
pub(crate) fn build_exact(rooms: &Rooms, budget: u64, threads: Threads, quiet: bool) -> Result<ExactRooms> {
    let bar = progress_bar(quiet, "{spinner} exact index: {msg} [{bar:40}] {pos}/{len} corners, {elapsed}");
    let mut options = BuildOptions::new();
    // The build reports 2 · corners steps: each corner's sweep, then each row of its table.
    threads.apply(options.progress(|p| {
        let corners = p.total / 2;
        let (stage, done) = if p.done < corners {
            ("what each corner sees", p.done)
        } else {
            ("the corner table", p.done - corners)
        };
        bar.set_message(stage);
        bar.set_length(corners as u64);
        bar.set_position(done as u64);
    }));
    let exact = options.build_exact(ExactBuilder::from(rooms).memory_budget(budget));
    bar.finish_and_clear();
    exact.context("building the exact index")
}

/// The mesh of a `.map` or a polygon file (the radius from the flag, or the file's `radius`).
pub(crate) fn read_mesh(path: &Path, radius: f64) -> Result<(NavMesh, Option<signposts::grid::Grid>)> {
    expect_kind(path, &[FileKind::Map, FileKind::Polygon], "a Moving AI map or a polygon file")?;
    let bytes = read_capped(path)?;
    if bytes.starts_with(b"type ") {
        let grid = signposts::grid::parse_map(&bytes).with_context(|| format!("{}", path.display()))?;
        let mesh = match terrain(&bytes, &grid) {
            // Swamp (`S`) besides ground (`.`, `G`): two areas (tags 1 and 2).
            Some(tiles) => NavMesh::from_tiles(&tiles, radius),
            None => NavMesh::from_grid_for_radius(&grid, radius),
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
    // The build validates; only a refused input is validated again, to list every problem.
    match builder.clone().build() {
        Ok(mesh) => Ok((mesh, None)),
        Err(err) => {
            let problems = builder.validate();
            if problems.is_empty() {
                return Err(err).with_context(|| format!("{}", path.display()));
            }
            let list: Vec<String> = problems.iter().map(ToString::to_string).collect();
            bail!("{}: {}", path.display(), list.join("; "))
        }
    }
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
