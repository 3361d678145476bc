//! Reading the files the commands take: Moving AI `.map` and `.scen` files, read whole but
//! never past a size cap (an endless file like `/dev/zero` is refused, not read); and what a
//! file holds told from its first bytes ([`sniff`]), so that every command given the wrong
//! kind of file says what it is and which command takes it ([`expect_kind`]).

use std::path::Path;

use anyhow::{Context, Result, bail};
use signposts::grid::{Grid, parse_map};

/// The largest map or scenario file read: the largest shared map takes under 2 MiB.
const MAX_INPUT_BYTES: u64 = 64 << 20;

/// Reads at most [`MAX_INPUT_BYTES`] of `path`, refusing a longer file (or an endless one,
/// like `/dev/zero`) instead of reading it all into memory.
pub(crate) fn read_capped(path: &Path) -> Result<Vec<u8>> {
    use std::io::Read as _;
    let file = std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("reading {}", path.display()))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        let size = std::fs::metadata(path).map_or(0, |m| m.len());
        if size > MAX_INPUT_BYTES {
            bail!(
                "{} is {size} bytes, over the {MAX_INPUT_BYTES}-byte limit on map and scenario files",
                path.display()
            );
        }
        bail!("{} goes on past the {MAX_INPUT_BYTES}-byte limit on map and scenario files", path.display());
    }
    Ok(bytes)
}

/// Reads and parses a Moving AI `.map` file.
pub(crate) fn read_map(path: &Path) -> Result<Grid> {
    expect_kind(path, &[FileKind::Map], "a Moving AI map")?;
    let bytes = read_capped(path)?;
    parse_map(&bytes).with_context(|| format!("{}", path.display()))
}

/// What a file holds, told from its first bytes (magic bytes, or its first line of text), so
/// that a command given the wrong kind of file says what it is and which command takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FileKind {
    /// A saved grid oracle, dense or compressed (`build`, `merge`).
    Table,
    /// A saved table of a plain graph (the library's `Graph::save`), not a grid's.
    GraphTable,
    /// One part of a sharded build (`build --shard`).
    Shard,
    /// Saved rooms (`rooms`).
    Rooms,
    /// A saved exact index (`rooms --exact`).
    Exact,
    /// A Moving AI `.map` (`type …` first).
    Map,
    /// A Moving AI `.scen` (`version …` first).
    Scen,
    /// Polygon text (`boundary`, `obstacle` or `radius` lines).
    Polygon,
    /// None of these (an empty, damaged or foreign file): the reader's own error says more.
    Unknown,
}

impl FileKind {
    /// What the kind is, as a phrase: "a Moving AI map".
    fn phrase(self) -> &'static str {
        match self {
            FileKind::Table => "a saved table (from `signposts build` or `signposts merge`)",
            FileKind::GraphTable => "a saved graph table (from the library's `save`), not a grid's",
            FileKind::Shard => "one part of a sharded build (from `signposts build --shard`)",
            FileKind::Rooms => "saved rooms (from `signposts rooms`)",
            FileKind::Exact => "a saved exact index (from `signposts rooms --exact`)",
            FileKind::Map => "a Moving AI map",
            FileKind::Scen => "a Moving AI scenario file",
            FileKind::Polygon => "a polygon file",
            FileKind::Unknown => "an unknown kind of file",
        }
    }

    /// Which commands take a file of this kind at `path`, as a sentence.
    fn uses(self, path: &Path) -> String {
        let p = path.display();
        let stem = path.file_stem().map_or_else(|| "out".into(), |s| s.to_string_lossy().into_owned());
        let stem = stem.split('.').next().unwrap_or("out");
        match self {
            FileKind::Table => format!(
                "ask it with `signposts query {p} SX SY GX GY`, or check scenarios with `signposts scen FILE.scen --oracle {p}`"
            ),
            FileKind::GraphTable => {
                "the command line reads grid tables only: build one with `signposts build MAP.map -o TABLE.sp`".into()
            }
            FileKind::Shard => format!("join it with the other parts: `signposts merge {p} OTHER_PARTS… -o {stem}.sp`"),
            FileKind::Rooms => format!(
                "ask it with `signposts rooms-query {p} SX SY GX GY`, or draw it with `signposts render {p} --rooms -o {stem}.png`"
            ),
            FileKind::Exact => format!("ask it with `signposts rooms-query {p} SX SY GX GY`"),
            FileKind::Map => format!(
                "build a table with `signposts build {p} -o {stem}.sp` (for `query`), or rooms with `signposts rooms {p} -o {stem}.rooms` (or its exact index with `--exact -o {stem}.exact`; both for `rooms-query`); `render` and `chase` take it as it is, and `scen FILE.scen` reads it beside its scenarios (or with `--map {p}`)"
            ),
            FileKind::Scen => format!("check it with `signposts scen {p}`"),
            FileKind::Polygon => format!(
                "build rooms with `signposts rooms {p} -o {stem}.rooms` (for `rooms-query`), or draw its mesh with `signposts render {p} --rooms -o {stem}.png`"
            ),
            FileKind::Unknown => String::new(),
        }
    }
}

/// Bytes read to tell a file's kind.
const SNIFF_BYTES: u64 = 4096;

/// What the file at `path` holds, from its first bytes; [`FileKind::Unknown`] when it cannot
/// be read or is of no kind the commands know (their readers then say what is wrong).
pub(crate) fn sniff(path: &Path) -> FileKind {
    use std::io::Read as _;
    // Only plain files: what is read from a pipe would be gone for the reader.
    let Ok(file) = std::fs::File::open(path) else { return FileKind::Unknown };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return FileKind::Unknown;
    }
    let mut head = Vec::new();
    if file.take(SNIFF_BYTES).read_to_end(&mut head).is_err() {
        return FileKind::Unknown;
    }
    sniff_bytes(&head)
}

/// What a file starting with `head` holds (see [`sniff`]).
pub(crate) fn sniff_bytes(head: &[u8]) -> FileKind {
    if let Some(rest) = head.strip_prefix(b"SIGNPOST") {
        // Then the format version and the kind, both little-endian `u32`s.
        let kind = rest.get(4..8).map(|k| u32::from_le_bytes(k.try_into().expect("4 bytes")));
        return match kind {
            Some(2 | 4) => FileKind::Table,
            Some(1 | 3) => FileKind::GraphTable,
            Some(5 | 6) => FileKind::Shard,
            _ => FileKind::Unknown,
        };
    }
    if head.starts_with(b"SPROOMS\0") {
        return FileKind::Rooms;
    }
    if head.starts_with(b"SPEXACT\0") {
        return FileKind::Exact;
    }
    let text = String::from_utf8_lossy(head);
    let first =
        text.lines().map(|l| l.split('#').next().unwrap_or("").trim()).find(|l| !l.is_empty()).unwrap_or("");
    match first.split_whitespace().next() {
        Some("type") => FileKind::Map,
        Some("version") => FileKind::Scen,
        Some("boundary" | "obstacle" | "radius") => FileKind::Polygon,
        _ => FileKind::Unknown,
    }
}

/// Refuses the file at `path` when it is of a known kind other than `wanted`, saying what it
/// is, that it is not `noun`, and which command takes it. Unknown files pass: the reader's
/// own error says what is wrong with them.
pub(crate) fn expect_kind(path: &Path, wanted: &[FileKind], noun: &str) -> Result<()> {
    let kind = sniff(path);
    if kind == FileKind::Unknown || wanted.contains(&kind) {
        return Ok(());
    }
    let name =
        path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    bail!("{name} is {}, not {noun}: {}", kind.phrase(), kind.uses(path))
}
