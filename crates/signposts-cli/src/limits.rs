//! The sizes that command-line arguments make the commands allocate, checked before anything
//! is read or built: one place for every bound that a flag can push (image pixels, GIF
//! frames), so that no flag value reaches an allocation unchecked.
//!
//! Counts are bounded by their parsers (`--enemies` at most 5,000,000, `--ticks` 1,000,000,
//! `--frames` 10,000, `--scale` 256 for `render` and 64 for `chase`, `--threads` 1,024); what
//! depends on the map too (an image is the map's size times the scale) is checked here, in
//! `u128` so nothing wraps, once the map's size is known and before its oracle is built.

use anyhow::{Result, bail};

use crate::cli::{Cli, Command};

/// The largest `--scale` of `render`.
pub const MAX_SCALE: u32 = 256;

/// The largest image a command draws, in bytes of pixels (RGB for `render`, one palette
/// index a pixel for `chase`).
pub const MAX_IMAGE_BYTES: u64 = 1 << 30;

/// The widest and tallest GIF (its sizes are 16-bit).
pub const MAX_GIF_SIDE: u32 = u16::MAX as u32;

/// What a command line will allocate beyond its oracle, on a map of a given size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Sizes {
    /// Pixels of the image drawn (`render`, and each frame of `chase`), width and height.
    pub image: Option<(u32, u32)>,
    /// Bytes of that image's pixels: at most [`MAX_IMAGE_BYTES`].
    pub image_bytes: u64,
}

/// Checks what `cli` would allocate on a `width`×`height` map, beside its oracle (whose size
/// `--memory-limit` bounds when it is built).
///
/// # Errors
/// An image over [`MAX_IMAGE_BYTES`] or over a GIF's 65,535 pixels a side, with the sizes and
/// the flag to lower.
///
/// ```
/// use clap::Parser as _;
/// use signposts_cli::{Cli, limits};
/// let cli = Cli::try_parse_from(["signposts", "render", "m.map", "--scale", "256", "-o", "m.png"])?;
/// assert_eq!(limits::check(&cli, 64, 32)?.image, Some((16_384, 8_192)));
/// assert!(limits::check(&cli, 4_096, 4_096).is_err()); // 3 TiB of pixels
/// # Ok::<(), anyhow::Error>(())
/// ```
pub fn check(cli: &Cli, width: u32, height: u32) -> Result<Sizes> {
    match &cli.command {
        Command::Render(args) => {
            let (w, h) = render_image(width, height, render_scale(args.scale, width, height))?;
            Ok(Sizes { image: Some((w, h)), image_bytes: u64::from(w) * u64::from(h) * 3 })
        }
        Command::Chase(args) => {
            let (w, h) = chase_image(width, height, args.scale(width, height))?;
            Ok(Sizes { image: Some((w, h)), image_bytes: u64::from(w) * u64::from(h) })
        }
        Command::Build(_)
        | Command::Merge(_)
        | Command::Query(_)
        | Command::Scen(_)
        | Command::Rooms(_)
        | Command::RoomsQuery(_) => Ok(Sizes::default()),
    }
}

/// `render`'s pixels per cell: `--scale`, or the largest (up to 16) that keeps the image
/// within 1,024 pixels.
#[must_use]
pub fn render_scale(scale: Option<u32>, width: u32, height: u32) -> u32 {
    scale.unwrap_or_else(|| (1024 / width.max(height).max(1)).clamp(1, 16))
}

/// The pixel size of a `width`×`height` map drawn `scale` RGB pixels a cell.
///
/// # Errors
/// Over [`MAX_IMAGE_BYTES`] (or over `u32` pixels a side).
pub fn render_image(width: u32, height: u32, scale: u32) -> Result<(u32, u32)> {
    image_size(width, height, scale, 3, u32::MAX)
}

/// The pixel size of a GIF frame of a `width`×`height` map at `scale` pixels a cell.
///
/// # Errors
/// Over [`MAX_GIF_SIDE`] pixels a side or over [`MAX_IMAGE_BYTES`].
pub fn chase_image(width: u32, height: u32, scale: u32) -> Result<(u32, u32)> {
    image_size(width, height, scale, 1, MAX_GIF_SIDE)
}

fn image_size(
    width: u32,
    height: u32,
    scale: u32,
    bytes_per_pixel: u128,
    max_side: u32,
) -> Result<(u32, u32)> {
    let (w, h) = (u128::from(width) * u128::from(scale), u128::from(height) * u128::from(scale));
    let bytes = w * h * bytes_per_pixel;
    if w > u128::from(max_side) || h > u128::from(max_side) {
        bail!(
            "a {width}×{height} map at {scale} pixels a cell is a {w}×{h} image, over {max_side} pixels a side: lower --scale"
        );
    }
    if bytes > u128::from(MAX_IMAGE_BYTES) {
        bail!(
            "a {width}×{height} map at {scale} pixels a cell is a {w}×{h} image ({} pixels, {bytes} bytes), over the {MAX_IMAGE_BYTES}-byte limit: lower --scale",
            w * h
        );
    }
    Ok((w as u32, h as u32))
}

#[cfg(test)]
mod tests {
    use clap::Parser as _;

    use super::*;

    fn sizes(args: &[&str], width: u32, height: u32) -> Result<Sizes> {
        let cli = Cli::try_parse_from(std::iter::once("signposts").chain(args.iter().copied()))?;
        check(&cli, width, height)
    }

    #[test]
    fn chase_scale_that_makes_a_4_gb_frame_is_refused_before_the_build() -> Result<()> {
        // 1,000 cells at 64 pixels is 64,000 a side: under a GIF's 65,535, but 4 GB a frame.
        let err = sizes(&["chase", "m.map", "-o", "c.gif", "--scale", "64"], 1000, 1000).unwrap_err();
        assert!(err.to_string().contains("4096000000 bytes"), "{err}");
        let err = sizes(&["chase", "m.map", "-o", "c.gif", "--scale", "64"], 1100, 10).unwrap_err();
        assert!(err.to_string().contains("over 65535 pixels a side"), "{err}");
        assert_eq!(sizes(&["chase", "m.map", "-o", "c.gif"], 512, 512)?.image, Some((512, 512)));
        assert_eq!(sizes(&["chase", "m.map", "-o", "c.gif"], 40, 20)?.image, Some((480, 240)));
        Ok(())
    }

    #[test]
    fn render_images_are_bounded_whatever_the_scale() -> Result<()> {
        assert!(sizes(&["render", "m.map", "-o", "m.png", "--scale", "67108865"], 64, 64).is_err()); // the parser
        assert!(sizes(&["render", "m.map", "-o", "m.png", "--scale", "256"], 4096, 4096).is_err());
        assert_eq!(sizes(&["render", "m.map", "-o", "m.png"], 512, 256)?.image, Some((1024, 512)));
        assert_eq!(sizes(&["build", "m.map", "-o", "m.sp"], u32::MAX, u32::MAX)?, Sizes::default());
        Ok(())
    }
}
