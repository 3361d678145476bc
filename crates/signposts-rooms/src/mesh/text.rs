//! A small text format for polygon worlds, for files and the command line:
//!
//! ```text
//! # a comment, and blank lines, anywhere
//! boundary 0,0 40,0 40,30 0,30
//! obstacle 10,10 20,10 15,18
//! obstacle 25.5,5 30,5 30,12 25.5,12
//! radius 0.4
//! ```
//!
//! One ring per line: `boundary` once, `obstacle` any number of times, each followed by at
//! least three `x,y` points (either orientation, no repeated first point needed); `radius`
//! at most once, the agent radius. Errors name the line and column.

use super::input::NavMeshBuilder;
use crate::Point;
use crate::error::Error;

impl NavMeshBuilder {
    /// A builder from a small text format, for files and the command line:
    ///
    /// ```text
    /// # a comment, and blank lines, anywhere
    /// boundary 0,0 40,0 40,30 0,30
    /// obstacle 10,10 20,10 15,18
    /// obstacle 25.5,5 30,5 30,12 25.5,12
    /// radius 0.4
    /// ```
    ///
    /// One ring per line: `boundary` once, `obstacle` any number of times, each followed by
    /// at least three `x,y` points (either orientation, no repeated first point needed);
    /// `radius` at most once, the agent radius.
    ///
    /// # Errors
    /// [`Error::Parse`] naming the line and column: an unknown keyword, a point that is not
    /// `x,y` of two numbers, a second `boundary` or `radius`, a ring of fewer than three
    /// points. The geometry itself is checked by [`NavMeshBuilder::build`].
    ///
    /// ```
    /// use signposts_rooms::{Error, NavMeshBuilder, Point};
    /// let mesh = NavMeshBuilder::from_text("boundary 0,0 10,0 10,10 0,10\nobstacle 4,4 6,4 5,6\n")?.build()?;
    /// assert!(mesh.region_at(Point::new(1.0, 1.0)).is_some());
    /// let err = NavMeshBuilder::from_text("boundary 0,0 10,0 10,x 0,10").unwrap_err();
    /// assert_eq!(err, Error::Parse { line: 1, column: 19, message: "`10,x` is not a point `x,y`".into() });
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_text(text: &str) -> Result<NavMeshBuilder, Error> {
        let mut builder = NavMeshBuilder::default();
        let (mut boundary, mut radius) = (false, false);
        for (l, line) in text.lines().enumerate() {
            let line_no = l + 1;
            let content = line.split('#').next().unwrap_or("");
            let mut tokens = tokens(content);
            let Some((column, keyword)) = tokens.next() else { continue };
            let error = |column: usize, message: String| Error::Parse { line: line_no, column, message };
            match keyword {
                "boundary" | "obstacle" => {
                    let mut ring = Vec::new();
                    for (column, token) in tokens {
                        ring.push(
                            point(token)
                                .ok_or_else(|| error(column, format!("`{token}` is not a point `x,y`")))?,
                        );
                    }
                    if ring.len() < 3 {
                        return Err(error(
                            column,
                            format!("`{keyword}` needs at least 3 points, found {}", ring.len()),
                        ));
                    }
                    if keyword == "boundary" {
                        if std::mem::replace(&mut boundary, true) {
                            return Err(error(column, "a second `boundary` (one is allowed)".into()));
                        }
                        builder = builder.boundary(ring);
                    } else {
                        builder = builder.obstacle(ring);
                    }
                }
                "radius" => {
                    if std::mem::replace(&mut radius, true) {
                        return Err(error(column, "a second `radius` (one is allowed)".into()));
                    }
                    let (column, token) =
                        tokens.next().ok_or_else(|| error(column + 6, "`radius` needs a number".into()))?;
                    let r = token
                        .parse::<f64>()
                        .map_err(|_| error(column, format!("`{token}` is not a number")))?;
                    if let Some((column, extra)) = tokens.next() {
                        return Err(error(column, format!("`{extra}` after the radius")));
                    }
                    builder = builder.agent_radius(r);
                }
                other => {
                    return Err(error(
                        column,
                        format!("unknown keyword `{other}` (boundary, obstacle, radius)"),
                    ));
                }
            }
        }
        Ok(builder)
    }
}

/// The whitespace-separated tokens of a line with their 1-based columns (in characters).
fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = line.char_indices().peekable();
    std::iter::from_fn(move || {
        while rest.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        let &(start, _) = rest.peek()?;
        let mut end = line.len();
        while let Some(&(i, c)) = rest.peek() {
            if c.is_whitespace() {
                end = i;
                break;
            }
            rest.next();
        }
        Some((line[..start].chars().count() + 1, &line[start..end]))
    })
}

fn point(token: &str) -> Option<Point> {
    let (x, y) = token.split_once(',')?;
    Some(Point::new(x.trim().parse().ok()?, y.trim().parse().ok()?))
}
