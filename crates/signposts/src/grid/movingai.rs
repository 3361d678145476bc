//! The Moving AI benchmark formats: `.map` grids and `.scen` scenario files.
//!
//! Written here rather than taken from the `movingai` crate because every malformed input must
//! come back as an error naming its line and column, never a panic, on arbitrary bytes, and
//! the three scenario dialects found in the benchmark sets must all read:
//!
//! - **Maps**: `type octile`, `height H`, `width W`, `map`, then `H` rows of `W` characters;
//!   `.` `G` `S` are passable, `@` `O` `T` `W` blocked; LF or CRLF line ends, with or without
//!   a final newline.
//! - **Scenarios**: `version 1` or `version 1.0`, then lines of nine fields separated by tabs
//!   or spaces: bucket, map (a path or a bare file name), map width, map height, start x,
//!   start y, goal x, goal y, optimal length. Lengths are printed rounded (6 significant
//!   digits, 2 decimals or 8 decimals by dialect), so a length matches when it lies within
//!   half a unit of the last printed decimal, plus 2·10⁻⁵.

use super::{Cell, Grid, GridOracle};
use crate::Error;

fn parse_error(line: usize, column: usize, message: impl Into<String>) -> Error {
    Error::Parse { line, column, message: message.into() }
}

/// Lines of the input with their 1-based numbers, `\r` stripped; bytes must be ASCII.
fn lines(bytes: &[u8]) -> Result<Vec<(usize, &str)>, Error> {
    let mut out = Vec::new();
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if let Some(col) = raw.iter().position(|b| !b.is_ascii() || (b.is_ascii_control() && *b != b'\t')) {
            return Err(parse_error(i + 1, col + 1, format!("unexpected byte 0x{:02x}", raw[col])));
        }
        let text = core::str::from_utf8(raw).map_err(|_| parse_error(i + 1, 1, "not text"))?;
        out.push((i + 1, text));
    }
    // A final newline leaves one empty piece.
    if out.last().is_some_and(|(_, l)| l.is_empty()) {
        out.pop();
    }
    Ok(out)
}

/// The error for input that ends early: at the column after the last line's text (line 1,
/// column 1 when there is no line).
fn end_of_file(lines: &[(usize, &str)], message: impl Into<String>) -> Error {
    let (line, column) = lines.last().map_or((1, 1), |(l, t)| (*l, t.len() + 1));
    parse_error(line, column, message)
}

/// Reads `key value` where value is a number, and nothing after it.
fn header_number(line: usize, text: &str, key: &str) -> Result<u32, Error> {
    let fields = field_columns(text);
    if fields.first().map(|f| f.1) != Some(key) {
        return Err(parse_error(line, 1, format!("expected `{key} <number>`, found `{text}`")));
    }
    let &(column, value) =
        fields.get(1).ok_or_else(|| parse_error(line, text.len() + 1, format!("`{key}` needs a number")))?;
    if let Some(&(extra, token)) = fields.get(2) {
        return Err(parse_error(line, extra, format!("unexpected `{token}` after `{key} {value}`")));
    }
    value.parse().map_err(|_| parse_error(line, column, format!("`{value}` is not a whole number")))
}

/// Parses a Moving AI `.map` file.
///
/// # Errors
/// [`Error::Parse`] naming the line and column of the first problem: a wrong header, a short
/// or long row, a character outside `.GS@OTW`, too few or too many rows, non-ASCII bytes.
///
/// ```
/// let grid = signposts::grid::parse_map(b"type octile\nheight 2\nwidth 3\nmap\n..@\nT.G\n")?;
/// assert_eq!(grid.passable_len(), 4);
/// let err = signposts::grid::parse_map(b"type octile\nheight 1\nwidth 3\nmap\n.x.\n").unwrap_err();
/// assert_eq!(err.to_string(), "line 5, column 2: unexpected map character `x`");
/// # Ok::<(), signposts::Error>(())
/// ```
pub fn parse_map(bytes: &[u8]) -> Result<Grid, Error> {
    let lines = lines(bytes)?;
    let mut it = lines.iter().copied();
    let mut next =
        |what: &str| it.next().ok_or_else(|| end_of_file(&lines, format!("the file ends before {what}")));
    let (l, t) = next("the `type` line")?;
    let mut parts = t.split_whitespace();
    if parts.next() != Some("type") || parts.next() != Some("octile") || parts.next().is_some() {
        return Err(parse_error(l, 1, format!("expected `type octile`, found `{t}`")));
    }
    let (l, t) = next("the `height` line")?;
    let (first, second) =
        if t.trim_start().starts_with("width") { ("width", "height") } else { ("height", "width") };
    let a = header_number(l, t, first)?;
    let (l, t) = next("the `width` line")?;
    let b = header_number(l, t, second)?;
    let (height, width) = if first == "height" { (a, b) } else { (b, a) };
    let (l, t) = next("the `map` line")?;
    if t.trim() != "map" {
        return Err(parse_error(l, 1, format!("expected `map`, found `{t}`")));
    }
    let Some(cells) = super::cells_of(width, height) else {
        return Err(parse_error(l, 1, format!("a {width}×{height} map has too many cells")));
    };
    // Each cell takes a byte of the input, so never reserve more than the input holds: a
    // header promising more cells than follow is reported at the line where the rows end.
    let mut passable = crate::memory::try_with_capacity(cells.min(bytes.len()))?;
    for row in 0..height {
        let (l, t) = next(&format!("row {} of {height}", row + 1))?;
        let chars = t.as_bytes();
        if chars.len() != width as usize {
            return Err(parse_error(
                l,
                chars.len().min(width as usize) + 1,
                format!("row of {} cells, expected {width}", chars.len()),
            ));
        }
        for (c, &ch) in chars.iter().enumerate() {
            passable.push(match ch {
                b'.' | b'G' | b'S' => true,
                b'@' | b'O' | b'T' | b'W' => false,
                other => {
                    return Err(parse_error(
                        l,
                        c + 1,
                        format!("unexpected map character `{}`", other as char),
                    ));
                }
            });
        }
    }
    if let Some((l, t)) = it.find(|(_, t)| !t.trim().is_empty()) {
        return Err(parse_error(l, 1, format!("more rows than the header's height {height}: `{t}`")));
    }
    Grid::from_slice(width, height, &passable)
}

/// One line of a scenario file: a start, a goal and the optimal octile length between them.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// 1-based line number in the file.
    pub line: usize,
    /// The bucket (difficulty group).
    pub bucket: u32,
    /// The map as written (a path or a bare name); compare by file name.
    pub map: String,
    /// Map width as written.
    pub width: u32,
    /// Map height as written.
    pub height: u32,
    /// Start cell.
    pub start: Cell,
    /// Goal cell.
    pub goal: Cell,
    /// Optimal length as printed.
    pub optimal: f64,
    /// Decimals printed in the optimal length.
    pub decimals: u32,
}

impl Scenario {
    /// How far a computed length may be from the printed one: half a unit of the last printed
    /// decimal, plus 2·10⁻⁵.
    ///
    /// ```
    /// let s = &signposts::grid::parse_scenarios(b"version 1\n0\tm.map\t9\t9\t0\t0\t1\t1\t1.41421\n")?[0];
    /// assert!((s.tolerance() - 0.000025).abs() < 1e-12);
    /// assert!(s.accepts(2f64.sqrt()));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    pub fn tolerance(&self) -> f64 {
        0.5 * 10f64.powi(-i32::try_from(self.decimals).unwrap_or(i32::MAX)) + 2e-5
    }

    /// Whether a computed length matches the printed one within [`Scenario::tolerance`].
    #[must_use]
    pub fn accepts(&self, length: f64) -> bool {
        (length - self.optimal).abs() <= self.tolerance()
    }

    /// Why this line cannot be valid on `grid` (written for a map of another size, or a start
    /// or goal outside it or blocked), if so.
    ///
    /// ```
    /// let grid = signposts::grid::Grid::from_ascii(".#")?;
    /// let s = signposts::grid::parse_scenarios(b"version 1\n0 m 2 1 0 0 1 0 1\n0 m 3 1 0 0 0 0 0")?;
    /// assert_eq!(s[0].problem(&grid).as_deref(), Some("goal (1, 0) is blocked"));
    /// assert_eq!(s[1].problem(&grid).as_deref(), Some("written for a 3×1 map, not this 2×1 one"));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    pub fn problem(&self, grid: &Grid) -> Option<String> {
        if (self.width, self.height) != (grid.width(), grid.height()) {
            return Some(format!(
                "written for a {}×{} map, not this {}×{} one",
                self.width,
                self.height,
                grid.width(),
                grid.height()
            ));
        }
        [("start", self.start), ("goal", self.goal)].into_iter().find_map(|(what, cell)| {
            if !grid.contains(cell) {
                Some(format!("{what} {cell} is outside the {}×{} map", grid.width(), grid.height()))
            } else if !grid.is_passable(cell) {
                Some(format!("{what} {cell} is blocked"))
            } else {
                None
            }
        })
    }

    /// The file name of [`Scenario::map`] (after the last `/` or `\`).
    ///
    /// ```
    /// let s = &signposts::grid::parse_scenarios(b"version 1.0\n2 maps/dao/arena.map 49 49 1 2 3 4 5.00")?[0];
    /// assert_eq!(s.map_name(), "arena.map");
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    pub fn map_name(&self) -> &str {
        self.map.rsplit(['/', '\\']).next().unwrap_or(&self.map)
    }
}

/// Parses a Moving AI `.scen` file (all three dialects: see the module docs).
///
/// # Errors
/// [`Error::Parse`] naming the line and column of the first problem: a missing or unknown
/// `version` line, a line without nine fields, a field that is not a number.
///
/// ```
/// let text = b"version 1\n0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n";
/// let s = signposts::grid::parse_scenarios(text)?;
/// assert_eq!((s[0].start.y, s[0].goal.y, s[0].optimal), (11, 12, 1.0));
/// assert!(signposts::grid::parse_scenarios(b"version 1\n0 m 1 1 0 0 0 x 1").is_err());
/// # Ok::<(), signposts::Error>(())
/// ```
pub fn parse_scenarios(bytes: &[u8]) -> Result<Vec<Scenario>, Error> {
    let lines = lines(bytes)?;
    let mut it = lines.iter().copied().filter(|(_, t)| !t.trim().is_empty());
    let (l, t) = it.next().ok_or_else(|| end_of_file(&lines, "empty scenario file: expected `version 1`"))?;
    let mut parts = t.split_whitespace();
    let version_ok = parts.next() == Some("version")
        && parts.next().is_some_and(|v| {
            v == "1" || v.strip_prefix("1.").is_some_and(|z| !z.is_empty() && z.bytes().all(|b| b == b'0'))
        })
        && parts.next().is_none();
    if !version_ok {
        return Err(parse_error(l, 1, format!("expected `version 1` or `version 1.0`, found `{t}`")));
    }
    let mut out = Vec::new();
    for (l, t) in it {
        let fields: Vec<(usize, &str)> = field_columns(t);
        if fields.len() != 9 {
            let column = fields.get(9).map_or(t.len() + 1, |f| f.0);
            return Err(parse_error(l, column, format!("expected 9 fields, found {}", fields.len())));
        }
        let number = |i: usize, what: &str| -> Result<u32, Error> {
            let (c, f) = fields[i];
            f.parse().map_err(|_| parse_error(l, c, format!("{what} `{f}` is not a whole number")))
        };
        let (oc, of) = fields[8];
        let optimal: f64 =
            of.parse().map_err(|_| parse_error(l, oc, format!("optimal length `{of}` is not a number")))?;
        if !optimal.is_finite() || optimal < 0.0 {
            return Err(parse_error(l, oc, format!("optimal length `{of}` is not a finite length")));
        }
        let decimals = of.split_once('.').map_or(0, |(_, d)| d.len());
        out.push(Scenario {
            line: l,
            bucket: number(0, "bucket")?,
            map: fields[1].1.to_string(),
            width: number(2, "map width")?,
            height: number(3, "map height")?,
            start: Cell::new(number(4, "start x")?, number(5, "start y")?),
            goal: Cell::new(number(6, "goal x")?, number(7, "goal y")?),
            optimal,
            decimals: u32::try_from(decimals).unwrap_or(u32::MAX),
        });
    }
    Ok(out)
}

/// Whitespace-separated fields with their 1-based columns.
fn field_columns(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in text.char_indices().chain(core::iter::once((text.len(), ' '))) {
        match (ch.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.push((s + 1, &text[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// The outcome of checking scenarios against an oracle.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScenarioCheck {
    /// Lines whose computed length matched.
    pub matched: usize,
    /// Lines whose computed length did not match: (line, printed, computed or `None` when
    /// unreachable).
    pub mismatched: Vec<(usize, f64, Option<f64>)>,
    /// Lines that cannot be valid on this map (written for a map of another size, or a start or
    /// goal outside it or blocked): (line, reason).
    pub invalid: Vec<(usize, String)>,
    /// Largest `|computed − printed|` among the matched lines.
    pub max_error: f64,
}

impl ScenarioCheck {
    /// Checks every scenario against `oracle` (octile lengths need an 8-connected oracle).
    ///
    /// ```
    /// use signposts::grid::{Connectivity, GridOracle, ScenarioCheck, parse_map, parse_scenarios};
    /// let grid = parse_map(b"type octile\nheight 2\nwidth 2\nmap\n..\n..\n")?;
    /// let oracle = GridOracle::build(&grid, Connectivity::Eight)?;
    /// let scen = parse_scenarios(b"version 1\n0 m.map 2 2 0 0 1 1 1.41421\n0 m.map 2 2 0 0 5 5 1\n")?;
    /// let check = ScenarioCheck::run(&oracle, &scen);
    /// assert_eq!((check.matched, check.invalid.len()), (1, 1));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    pub fn run(oracle: &GridOracle, scenarios: &[Scenario]) -> ScenarioCheck {
        ScenarioCheck::run_lengths(oracle.grid(), scenarios, |start, goal| oracle.distance(start, goal))
    }

    /// Checks every scenario on `grid` against the lengths `length(start, goal)` gives (`None`
    /// when unreachable); lines that cannot be valid on `grid` are not asked.
    ///
    /// ```
    /// use signposts::grid::{Connectivity, ScenarioCheck, parse_map, parse_scenarios};
    /// use signposts::search::{Layer, Searcher, TileGrid};
    /// let grid = parse_map(b"type octile\nheight 2\nwidth 2\nmap\n..\n..\n")?;
    /// let tiles = TileGrid::from_grid(&grid);
    /// let scen = parse_scenarios(b"version 1\n0 m.map 2 2 0 0 1 1 1.41421\n")?;
    /// let mut searcher = Searcher::new();
    /// let check = ScenarioCheck::run_lengths(&grid, &scen, |a, b| {
    ///     searcher.astar(&tiles, Layer::WALKABLE, Connectivity::Eight, a, b).ok()?.cost().map(|c| c.value())
    /// });
    /// assert_eq!(check.matched, 1);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn run_lengths(
        grid: &Grid,
        scenarios: &[Scenario],
        mut length: impl FnMut(Cell, Cell) -> Option<f64>,
    ) -> ScenarioCheck {
        let mut check = ScenarioCheck::default();
        for s in scenarios {
            if let Some(reason) = s.problem(grid) {
                check.invalid.push((s.line, reason));
                continue;
            }
            match length(s.start, s.goal) {
                Some(length) if s.accepts(length) => {
                    check.matched += 1;
                    check.max_error = check.max_error.max((length - s.optimal).abs());
                }
                length => check.mismatched.push((s.line, s.optimal, length)),
            }
        }
        check
    }
}
