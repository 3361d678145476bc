//! Optimal reciprocal collision avoidance: the half-planes of permitted velocities and the
//! small linear program that picks the permitted velocity nearest the preferred one (the
//! algorithm of van den Berg, Guy, Lin and Manocha, "Reciprocal n-body collision avoidance",
//! 2011, as RVO2 solves it), in `f64` and without allocation once the buffers have grown.
//!
//! Not `dodgy_2d` (landmass's ORCA): it picks a random direction (`rand::random`) for two
//! agents on one point, which would break the crowd's determinism, collects its half-planes
//! into a new `Vec` per agent and call, and works in `f32`. Walls here are single half-planes
//! (the nearest point of each wall segment within reach), not `dodgy_2d`'s obstacle polygons.

use core::ops::{Add, Mul, Neg, Sub};

/// A 2-D vector.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct V2 {
    pub x: f64,
    pub y: f64,
}

impl V2 {
    pub const ZERO: V2 = V2 { x: 0.0, y: 0.0 };

    #[inline]
    pub const fn new(x: f64, y: f64) -> V2 {
        V2 { x, y }
    }

    #[inline]
    pub fn dot(self, o: V2) -> f64 {
        self.x * o.x + self.y * o.y
    }

    /// The 2-D cross product (the determinant of `[self, o]`).
    #[inline]
    pub fn det(self, o: V2) -> f64 {
        self.x * o.y - self.y * o.x
    }

    #[inline]
    pub fn len_sq(self) -> f64 {
        self.dot(self)
    }

    #[inline]
    pub fn len(self) -> f64 {
        self.len_sq().sqrt()
    }
}

impl Add for V2 {
    type Output = V2;
    #[inline]
    fn add(self, o: V2) -> V2 {
        V2::new(self.x + o.x, self.y + o.y)
    }
}

impl Sub for V2 {
    type Output = V2;
    #[inline]
    fn sub(self, o: V2) -> V2 {
        V2::new(self.x - o.x, self.y - o.y)
    }
}

impl Neg for V2 {
    type Output = V2;
    #[inline]
    fn neg(self) -> V2 {
        V2::new(-self.x, -self.y)
    }
}

impl Mul<V2> for f64 {
    type Output = V2;
    #[inline]
    fn mul(self, v: V2) -> V2 {
        V2::new(self * v.x, self * v.y)
    }
}

/// Below this a determinant counts as parallel lines.
const EPSILON: f64 = 1e-12;

/// A half-plane of permitted velocities: those on the left of the directed line through
/// `point` along the unit vector `direction`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Line {
    pub point: V2,
    pub direction: V2,
}

impl Line {
    /// The half-plane `v · normal >= -slack` (`normal` a unit vector).
    #[inline]
    pub fn at_least(normal: V2, slack: f64) -> Line {
        Line { point: -slack * normal, direction: V2::new(normal.y, -normal.x) }
    }
}

/// The ORCA half-plane of an agent (position `p`, velocity `v`, radius `r`) towards a
/// neighbour, taking half the responsibility for avoiding it. `away` is the unit direction to
/// push apart when the two stand on the same point (opposite for the two of a pair, so that
/// they separate).
#[expect(clippy::too_many_arguments, reason = "the two agents' states, unpacked")]
#[expect(clippy::many_single_char_names, reason = "the paper's names: p v r q w s")]
#[inline]
pub(crate) fn agent_line(
    p: V2,
    v: V2,
    r: f64,
    q: V2,
    w: V2,
    s: f64,
    time_horizon: f64,
    dt: f64,
    away: V2,
) -> Line {
    let rel_pos = q - p;
    let rel_vel = v - w;
    let dist_sq = rel_pos.len_sq();
    let combined = r + s;
    let combined_sq = combined * combined;
    let inv_h = 1.0 / time_horizon;
    let (direction, u);
    if dist_sq > combined_sq {
        // No collision yet: the truncated cone of velocities that collide within the horizon.
        let wv = rel_vel - inv_h * rel_pos;
        let w_len_sq = wv.len_sq();
        let dot1 = wv.dot(rel_pos);
        if dot1 < 0.0 && dot1 * dot1 > combined_sq * w_len_sq {
            // Nearest the cut-off circle.
            let w_len = w_len_sq.sqrt();
            let unit = (1.0 / w_len) * wv;
            direction = V2::new(unit.y, -unit.x);
            u = (combined * inv_h - w_len) * unit;
        } else {
            // Nearest a leg of the cone.
            let leg = (dist_sq - combined_sq).sqrt();
            direction = if rel_pos.det(wv) > 0.0 {
                (1.0 / dist_sq)
                    * V2::new(rel_pos.x * leg - rel_pos.y * combined, rel_pos.x * combined + rel_pos.y * leg)
            } else {
                -(1.0 / dist_sq)
                    * V2::new(rel_pos.x * leg + rel_pos.y * combined, -rel_pos.x * combined + rel_pos.y * leg)
            };
            u = rel_vel.dot(direction) * direction - rel_vel;
        }
    } else {
        // Overlapping: separate within this step.
        let inv_dt = 1.0 / dt;
        let wv = rel_vel - inv_dt * rel_pos;
        let w_len = wv.len();
        let unit = if w_len > EPSILON { (1.0 / w_len) * wv } else { away };
        direction = V2::new(unit.y, -unit.x);
        u = (combined * inv_dt - w_len) * unit;
    }
    Line { point: v + 0.5 * u, direction }
}

/// The velocity within `radius` of the origin on line `i` that satisfies lines `..i` and is
/// nearest `opt` (or furthest along `opt` when `direction_opt`), or `None` when there is none.
fn program1(lines: &[Line], i: usize, radius: f64, opt: V2, direction_opt: bool) -> Option<V2> {
    let line = lines[i];
    let dot = line.point.dot(line.direction);
    let disc = dot * dot + radius * radius - line.point.len_sq();
    if disc < 0.0 {
        return None;
    }
    let sq = disc.sqrt();
    let (mut left, mut right) = (-dot - sq, -dot + sq);
    for other in &lines[..i] {
        let den = line.direction.det(other.direction);
        let num = other.direction.det(line.point - other.point);
        if den.abs() <= EPSILON {
            if num < 0.0 {
                return None;
            }
            continue;
        }
        let t = num / den;
        if den >= 0.0 {
            right = right.min(t);
        } else {
            left = left.max(t);
        }
        if left > right {
            return None;
        }
    }
    let t = if direction_opt {
        if opt.dot(line.direction) > 0.0 { right } else { left }
    } else {
        line.direction.dot(opt - line.point).clamp(left, right)
    };
    Some(line.point + t * line.direction)
}

/// The velocity within `radius` satisfying every line and nearest `opt`: `Ok` with it, or
/// `Err` with the first line that could not be met and the best velocity before it.
fn program2(lines: &[Line], radius: f64, opt: V2, direction_opt: bool) -> Result<V2, (usize, V2)> {
    let mut result = if direction_opt {
        radius * opt
    } else if opt.len_sq() > radius * radius {
        (radius / opt.len()) * opt
    } else {
        opt
    };
    for (i, line) in lines.iter().enumerate() {
        if line.direction.det(line.point - result) > 0.0 {
            match program1(lines, i, radius, opt, direction_opt) {
                Some(v) => result = v,
                None => return Err((i, result)),
            }
        }
    }
    Ok(result)
}

/// When the lines cannot all be met: the velocity that violates the agents' lines (those from
/// `fixed` on) least, the first `fixed` lines (the walls) kept.
fn program3(
    lines: &[Line],
    fixed: usize,
    begin: usize,
    radius: f64,
    mut result: V2,
    projected: &mut Vec<Line>,
) -> V2 {
    let mut distance = 0.0;
    for i in begin..lines.len() {
        let li = lines[i];
        if li.direction.det(li.point - result) > distance {
            projected.clear();
            projected.extend_from_slice(&lines[..fixed]);
            for lj in &lines[fixed..i] {
                let det = li.direction.det(lj.direction);
                let point = if det.abs() <= EPSILON {
                    if li.direction.dot(lj.direction) > 0.0 {
                        continue;
                    }
                    0.5 * (li.point + lj.point)
                } else {
                    li.point + (lj.direction.det(li.point - lj.point) / det) * li.direction
                };
                let d = lj.direction - li.direction;
                let len = d.len();
                if len <= EPSILON {
                    continue;
                }
                projected.push(Line { point, direction: (1.0 / len) * d });
            }
            if let Ok(v) = program2(projected, radius, V2::new(-li.direction.y, li.direction.x), true) {
                result = v;
            }
            distance = li.direction.det(li.point - result);
        }
    }
    result
}

/// The permitted velocity (at most `max_speed`) nearest `preferred`: `lines[..fixed]` (walls)
/// are kept whenever they can be, the rest (agents) relaxed equally when they cannot all hold.
pub(crate) fn solve(
    lines: &[Line],
    fixed: usize,
    max_speed: f64,
    preferred: V2,
    projected: &mut Vec<Line>,
) -> V2 {
    match program2(lines, max_speed, preferred, false) {
        Ok(v) => v,
        Err((failed, best)) => program3(lines, fixed, failed.max(fixed), max_speed, best, projected),
    }
}
