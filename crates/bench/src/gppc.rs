//! The exact bench's queries for the any-angle entries of the 2023 Grid-Based Path Planning
//! Competition (GPPC), and their answers read back.
//!
//! `exact --write-scen DIR` writes each map's queries as `DIR/<map>.map.scen`: the Moving AI
//! scenario layout, version 1 (`bucket map width height sx sy gx gy length`), with the points
//! as they are, cell centres (`x + 0.5`, `y` down, as the competition's plane: cell `(x, y)` is
//! the square from `(x, y)` to `(x + 1, y + 1)`), and `ExactRooms`' length as the last column.
//! The competition's own scenario reader takes integer points (cell corners), so a harness
//! for the entries reads these as reals.
//!
//! `exact --peer-results FILE` reads one entry's answers on one map: header lines
//! `# key value` (`peer` and `map` required; `query_us`, `preprocess_s`, `index_bytes`,
//! `memory_bytes` shown where present), then one length a query in the order of the
//! scenario, negative where the entry found no path.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use signposts_rooms::Point;

/// One map's queries in the scenario layout, `length` being the reference length of each.
#[must_use]
pub fn scen_text(map: &str, width: u32, height: u32, queries: &[(Point, Point)], lengths: &[f64]) -> String {
    let mut out = String::from("version 1\n");
    for (&(s, t), length) in queries.iter().zip(lengths) {
        let _ =
            writeln!(out, "0\t{map}.map\t{width}\t{height}\t{}\t{}\t{}\t{}\t{length:.9}", s.x, s.y, t.x, t.y);
    }
    out
}

/// One entry's answers on one map, as read from a `--peer-results` file.
#[derive(Debug, Clone, PartialEq)]
pub struct PeerResults {
    /// The entry's name (`# peer`).
    pub peer: String,
    /// The map's name without `.map` (`# map`).
    pub map: String,
    /// Every header field, by key.
    pub fields: BTreeMap<String, String>,
    /// The length of each query's path, `None` where the entry found none.
    pub lengths: Vec<Option<f64>>,
}

impl PeerResults {
    /// A numeric header field, `None` if absent or not a number.
    #[must_use]
    pub fn number(&self, key: &str) -> Option<f64> {
        self.fields.get(key).and_then(|v| v.parse().ok())
    }

    /// Parses a results file's text; `origin` names it in errors.
    ///
    /// # Errors
    ///
    /// A line that is neither a `# key value` header nor a number, or a missing `peer` or
    /// `map` header, with the line's number.
    pub fn parse(text: &str, origin: &str) -> Result<Self, String> {
        let mut fields = BTreeMap::new();
        let mut lengths = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if let Some(header) = line.strip_prefix('#') {
                let (key, value) = header.trim().split_once(char::is_whitespace).ok_or_else(|| {
                    format!("{origin}:{}: a header line is `# key value`, found {line:?}", number + 1)
                })?;
                fields.insert(key.to_string(), value.trim().to_string());
            } else {
                let length: f64 = line.parse().map_err(|_| {
                    format!(
                        "{origin}:{}: expected a path length (negative: no path), found {line:?}",
                        number + 1
                    )
                })?;
                lengths.push((length >= 0.0).then_some(length));
            }
        }
        let field = |key: &str| {
            fields.get(key).cloned().ok_or_else(|| format!("{origin}: no `# {key} ...` header line"))
        };
        Ok(Self { peer: field("peer")?, map: field("map")?, fields, lengths })
    }

    /// Reads and parses a results file.
    ///
    /// # Errors
    ///
    /// The file cannot be read, or [`PeerResults::parse`] refuses it.
    pub fn read(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Self::parse(&text, &path.display().to_string())
    }
}

/// How one entry's lengths compare with `ExactRooms`' on one map.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct PeerCompared {
    /// Equal within the tolerance.
    pub equal: usize,
    /// signposts shorter through a pinch (two blocked cells touching at a corner), which the
    /// competition forbids: the entry's length is polyanya's, or both found nothing across
    /// a pinch.
    pub pinch: usize,
    /// The entry longer otherwise.
    pub longer: usize,
    /// The entry shorter than signposts.
    pub shorter: usize,
    /// The entry found nothing where polyanya found a path.
    pub none: usize,
    /// Queries the file lacks (it is shorter than the query set).
    pub missing: usize,
}

impl PeerCompared {
    /// Every query not equal and not explained by a pinch.
    #[must_use]
    pub fn mismatches(&self) -> usize {
        self.longer + self.shorter + self.none + self.missing
    }
}

/// Compares an entry's lengths with signposts' (`ours`) and polyanya's (`polyanya`: `None`
/// where it found nothing; `pinched`: whether start and goal are apart at a pinch), within
/// relative `tolerance`.
#[must_use]
pub fn compare_peer(
    ours: &[f64],
    polyanya: &[Option<f64>],
    pinched: &[bool],
    theirs: &[Option<f64>],
    tolerance: f64,
) -> PeerCompared {
    let close = |a: f64, b: f64| (a - b).abs() <= tolerance * a.max(b).max(1.0);
    let mut c = PeerCompared::default();
    for (i, &ours) in ours.iter().enumerate() {
        match theirs.get(i) {
            None => c.missing += 1,
            Some(Some(theirs)) if close(ours, *theirs) => c.equal += 1,
            Some(Some(theirs)) if *theirs < ours => c.shorter += 1,
            Some(Some(theirs)) if polyanya[i].is_some_and(|p| close(p, *theirs)) => c.pinch += 1,
            Some(Some(_)) => c.longer += 1,
            Some(None) if polyanya[i].is_none() && pinched[i] => c.pinch += 1,
            Some(None) => c.none += 1,
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_reads_headers_and_lengths() {
        let r = PeerResults::parse("# peer EPS\n# map arena\n# query_us 1.5\n3.0\n-1\n\n2.5\n", "t").unwrap();
        assert_eq!((r.peer.as_str(), r.map.as_str()), ("EPS", "arena"));
        assert_eq!(r.number("query_us"), Some(1.5));
        assert_eq!(r.lengths, vec![Some(3.0), None, Some(2.5)]);
        let err = PeerResults::parse("# peer EPS\n# map arena\nthree\n", "f").unwrap_err();
        assert!(err.starts_with("f:3:"), "{err}");
        assert!(PeerResults::parse("# peer EPS\n1\n", "f").unwrap_err().contains("# map"));
    }

    #[test]
    fn compare_sorts_every_difference() {
        let ours = [1.0, 2.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let polyanya = [Some(1.0), Some(2.5), None, Some(3.0), Some(4.0), Some(5.0), Some(6.0)];
        let pinched = [false, false, true, false, false, false, false];
        let theirs = [Some(1.0), Some(2.5), None, Some(3.5), Some(3.0), None];
        let c = compare_peer(&ours, &polyanya, &pinched, &theirs, 1e-5);
        let want = PeerCompared { equal: 1, pinch: 2, longer: 1, shorter: 1, none: 1, missing: 1 };
        assert_eq!(c, want);
        assert_eq!(c.mismatches(), 4);
    }

    #[test]
    fn scen_lines_hold_real_points() {
        let q = [(Point::new(1.5, 2.5), Point::new(3.5, 0.5))];
        let text = scen_text("arena", 49, 49, &q, &[3.0]);
        assert_eq!(text, "version 1\n0\tarena.map\t49\t49\t1.5\t2.5\t3.5\t0.5\t3.000000000\n");
    }
}
