//! The command line: any arguments parse to a command or a clap error, never a panic; a
//! parsed command's allocations on a map of any size (`limits::check`) are refused over their
//! limits or stay within them, never computed with wrapping arithmetic.
//!
//! Input: four bytes of map size (width and height, 16 bits each, so maps past 65,535 cells
//! a side are reached by multiplying by 2^16 when the next byte is odd), then the arguments
//! separated by NUL bytes (lossy UTF-8).
#![no_main]

use clap::Parser as _;
use libfuzzer_sys::fuzz_target;
use signposts_cli::{Cli, limits};

fuzz_target!(|data: &[u8]| {
    let Some((size, rest)) = data.split_first_chunk::<5>() else { return };
    let wide = if size[4] & 1 == 1 { 1 << 16 } else { 1 };
    let width = u32::from(u16::from_le_bytes([size[0], size[1]])).saturating_mul(wide);
    let height = u32::from(u16::from_le_bytes([size[2], size[3]])).saturating_mul(wide);
    let args = rest.split(|&b| b == 0).map(|a| String::from_utf8_lossy(a).into_owned());
    let Ok(cli) = Cli::try_parse_from(std::iter::once("signposts".to_owned()).chain(args)) else { return };
    if let Ok(sizes) = limits::check(&cli, width, height) {
        assert!(sizes.image_bytes <= limits::MAX_IMAGE_BYTES, "{sizes:?} on a {width}x{height} map");
        if let Some((w, h)) = sizes.image {
            assert!(u64::from(w) * u64::from(h) <= sizes.image_bytes, "{sizes:?}");
            assert!(w >= width && h >= height, "{sizes:?} smaller than the {width}x{height} map");
        }
    }
});
