//! Reading the files the commands take: Moving AI `.map` and `.scen` files, read whole but
//! never past a size cap (an endless file like `/dev/zero` is refused, not read).

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
    let bytes = read_capped(path)?;
    parse_map(&bytes).with_context(|| format!("{}", path.display()))
}
