//! What the commands write: lines on standard output (`out!`, which ends quietly on a closed
//! pipe), progress bars on standard error, and files written whole or not at all.

use std::path::Path;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};

/// `println!` that ends the program quietly when standard output is closed (a pipe into
/// `head`), instead of panicking.
#[macro_export]
#[doc(hidden)]
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout().lock(), $($arg)*) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
            panic!("writing to standard output: {e}");
        }
    }};
}

/// A progress bar on standard error drawn by `template` (hidden when `quiet`, and by
/// indicatif when standard error is not a terminal).
pub(crate) fn progress_bar(quiet: bool, template: &str) -> ProgressBar {
    let bar = if quiet { ProgressBar::hidden() } else { ProgressBar::new(0) };
    bar.set_style(ProgressStyle::with_template(template).expect("a valid template").progress_chars("=> "));
    bar
}

/// Writes `bytes` to a temporary file beside `path` and renames it onto `path`, so a failed
/// write leaves no partial file.
pub(crate) fn write_whole(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.tmp", std::process::id()));
    let tmp = path.with_file_name(name);
    let written = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("writing {}", path.display()));
    }
    Ok(())
}

/// Encodes `image` as a PNG into `output`: in memory first, so a failed encoding leaves no
/// file behind.
pub(crate) fn write_png(image: &image::RgbImage, output: &Path) -> Result<()> {
    let mut png = std::io::Cursor::new(Vec::new());
    image.write_to(&mut png, image::ImageFormat::Png).context("encoding the PNG")?;
    write_whole(output, png.get_ref())
}

/// A length or coordinate as printed by every command: rounded to 6 decimals, then written
/// shortest (`19.4`, not `19.4000000004`; `46.870058`; `4`).
pub(crate) fn decimal(x: f64) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    let text = format!("{x:.6}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" { "0".into() } else { text.into() }
}

/// A point as printed by every command: `(x, y)`, each coordinate by [`decimal`].
pub(crate) fn point(x: f64, y: f64) -> String {
    format!("({}, {})", decimal(x), decimal(y))
}

#[cfg(test)]
mod tests {
    use super::decimal;

    #[test]
    fn decimals_are_rounded_then_written_shortest() {
        assert_eq!(decimal(19.400_000_000_4), "19.4");
        assert_eq!(decimal(4.0), "4");
        assert_eq!(decimal(46.870_057_685_088_8), "46.870058");
        assert_eq!(decimal(-0.000_000_1), "0");
        assert_eq!(decimal(-2.5), "-2.5");
        assert_eq!(decimal(100.0), "100");
        assert_eq!(decimal(f64::INFINITY), "inf");
    }
}
