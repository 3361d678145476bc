//! Each corner's visibility polygon, as pieces sorted by angle: whether the corner sees a
//! point is a binary search and one orientation test (Euclidean Hub Labeling keeps the same
//! kind of polygon per vertex for the same question).

use core::cmp::Ordering;

use crate::Point;
use crate::buf::Buf;
use crate::geom::{magnitude, orient, ulp};

use super::expand::Piece;
use super::topology::{Topology, beyond};

/// The ray from a corner towards `+x`, where pieces that cross it are cut in two.
pub(crate) const PLUS_X: u32 = u32::MAX;

/// The visibility polygons of all corners.
#[derive(Debug, Clone, Default)]
pub(crate) struct Views {
    /// Corner `c`'s pieces: `pieces[start[c]..start[c + 1]]`, sorted by their right rays,
    /// none one ray wide; then its spikes in `spikes[spike_start[c]..]`, sorted by ray.
    pub(crate) start: Buf<u32>,
    pub(crate) pieces: Buf<Piece>,
    /// Each piece's right ray as a pseudo-angle ([`pseudo_angle`]), to find it fast: the
    /// exact tests then run on it and its neighbours only.
    pub(crate) keys: Buf<f64>,
    pub(crate) spike_start: Buf<u32>,
    pub(crate) spikes: Buf<Piece>,
    /// Each spike's pseudo-angle.
    pub(crate) spike_keys: Buf<f64>,
}

/// How far apart two pseudo-angles ([`pseudo_angle`]) may be and still be of the same
/// direction, for the window of pieces the exact tests look at. A pseudo-angle has no unit: it
/// is a ratio of the differences `p - c` of two exact points, each rounded once (a relative
/// 2^-53), so its rounding is a few 1e-16 at any coordinate magnitude (5e6, 1e12 or 1e-6
/// alike), far below this slack; a wider window only costs a test or two more.
const KEY_SLACK: f64 = 1e-9;

/// A point on ray `id` from `c` (`PLUS_X`: towards `+x`).
#[inline]
fn ray_point(topo: &Topology, c: Point, id: u32) -> Point {
    if id == PLUS_X { Point::new(c.x + c.x.abs().max(1.0), c.y) } else { topo.at(id) }
}

/// Upper half-plane (counting `+x`) first, then the lower.
#[inline]
#[expect(clippy::float_cmp, reason = "exactly on the line through c")]
fn half(c: Point, p: Point) -> u8 {
    u8::from(!(p.y > c.y || (p.y == c.y && p.x > c.x)))
}

/// The order of the directions from `c` to `p` and to `q`, counter-clockwise from `+x`.
#[inline]
pub(crate) fn angle_cmp(c: Point, p: Point, q: Point) -> Ordering {
    half(c, p).cmp(&half(c, q)).then_with(|| {
        let o = orient(c, p, q);
        if o > 0.0 {
            Ordering::Less
        } else if o < 0.0 {
            Ordering::Greater
        } else {
            Ordering::Equal
        }
    })
}

/// A number that grows with the angle from `+x` counter-clockwise of the direction from `c` to
/// `p`, in `[0, 4)` (the "diamond angle": one division, no trigonometry). Rounded, so only a
/// guide to where the exact tests should look.
#[inline]
pub(crate) fn pseudo_angle(c: Point, p: Point) -> f64 {
    let (dx, dy) = (p.x - c.x, p.y - c.y);
    if dy >= 0.0 {
        if dx >= 0.0 { dy / (dx + dy) } else { 1.0 - dx / (dy - dx) }
    } else if dx < 0.0 {
        2.0 - dy / (-dx - dy)
    } else {
        3.0 + dx / (dx - dy)
    }
}

/// The pseudo-angles of sorted pieces' right rays from `pc`.
pub(crate) fn keys<'a>(topo: &'a Topology, pc: Point, pieces: &'a [Piece]) -> impl Iterator<Item = f64> + 'a {
    pieces.iter().map(move |q| if q.right == PLUS_X { 0.0 } else { pseudo_angle(pc, topo.at(q.right)) })
}

/// Whether the visibility polygon of `pc` (its sorted pieces, their keys, its spikes) holds
/// `p`.
#[expect(clippy::float_cmp, reason = "exactly on the ray towards +x")]
pub(crate) fn polygon_sees(
    topo: &Topology,
    pc: Point,
    (pieces, keys, spikes, spike_keys): (&[Piece], &[f64], &[Piece], &[f64]),
    p: Point,
) -> bool {
    if p == pc {
        return true;
    }
    // Found by pseudo-angle, decided exactly (the wall first: beyond it, `p` is hidden
    // whatever the angle).
    let key = pseudo_angle(pc, p);
    // The piece holding `p` starts before it: the last one starting clearly before, or one
    // starting within rounding of it.
    let (before, upto) =
        (keys.partition_point(|&k| k < key - KEY_SLACK), keys.partition_point(|&k| k <= key + KEY_SLACK));
    let holds = |q: &Piece| {
        orient(topo.at(q.wall[0]), topo.at(q.wall[1]), p) >= 0.0
            && angle_cmp(pc, ray_point(topo, pc, q.right), p) != Ordering::Greater
            && (q.left == PLUS_X || angle_cmp(pc, p, ray_point(topo, pc, q.left)) != Ordering::Greater)
    };
    // (`min`: keys read from a saved file are not trusted to be sorted.)
    if pieces[before.saturating_sub(1).min(upto)..upto].iter().rev().any(holds) {
        return true;
    }
    // Straight towards +x: the last piece too, if it ends there (at 360°).
    if p.y == pc.y
        && p.x > pc.x
        && pieces
            .last()
            .is_some_and(|q| q.left == PLUS_X && orient(topo.at(q.wall[0]), topo.at(q.wall[1]), p) >= 0.0)
    {
        return true;
    }
    // Spikes: those whose pseudo-angle is near `p`'s, then exactly on its ray.
    let from = spike_keys.partition_point(|&k| k < key - KEY_SLACK);
    spikes[from..].iter().zip(&spike_keys[from..]).take_while(|&(_, &k)| k <= key + KEY_SLACK).any(
        |(q, _)| {
            angle_cmp(pc, topo.at(q.right), p) == Ordering::Equal
                && if q.wall[0] == q.wall[1] {
                    !beyond(pc, topo.at(q.wall[0]), p)
                } else {
                    orient(topo.at(q.wall[0]), topo.at(q.wall[1]), p) >= 0.0
                }
        },
    )
}

impl Views {
    /// Corner `c`'s polygon from the pieces its sweep found: its pieces sorted by angle (any
    /// crossing `+x` cut there), and its spikes.
    pub(crate) fn sorted(topo: &Topology, pc: Point, found: &[Piece]) -> (Vec<Piece>, Vec<Piece>) {
        let (mut pieces, mut spikes) = (Vec::with_capacity(found.len() + 1), Vec::new());
        for &piece in found {
            if piece.right == piece.left {
                spikes.push(piece);
                continue;
            }
            let (r, l) = (topo.at(piece.right), topo.at(piece.left));
            if half(pc, r) == 1 && half(pc, l) == 0 {
                // Crosses +x: cut there (a half with no width is dropped).
                if angle_cmp(pc, ray_point(topo, pc, PLUS_X), l) == Ordering::Less {
                    pieces.push(Piece { right: PLUS_X, ..piece });
                }
                pieces.push(Piece { left: PLUS_X, ..piece });
            } else {
                pieces.push(piece);
            }
        }
        let key = |p: &Piece| ray_point(topo, pc, p.right);
        pieces.sort_by(|a, b| angle_cmp(pc, key(a), key(b)));
        spikes.sort_by(|a, b| angle_cmp(pc, key(a), key(b)));
        (pieces, spikes)
    }

    /// Appends the next corner's polygon (from [`Views::sorted`]).
    pub(crate) fn append(&mut self, topo: &Topology, c: u32, pieces: &[Piece], spikes: &[Piece]) {
        if self.start.is_empty() {
            self.start.edit(|s| s.push(0));
            self.spike_start.edit(|s| s.push(0));
        }
        let pc = topo.at(c);
        self.keys.edit(|k| k.extend(keys(topo, pc, pieces)));
        self.spike_keys.edit(|k| k.extend(keys(topo, pc, spikes)));
        self.pieces.edit(|p| p.extend_from_slice(pieces));
        self.spikes.edit(|s| s.extend_from_slice(spikes));
        let (pieces, spikes) = (self.pieces.len() as u32, self.spikes.len() as u32);
        self.start.edit(|s| s.push(pieces));
        self.spike_start.edit(|s| s.push(spikes));
    }

    /// Whether corner `c` (the `i`-th pushed) sees `p`.
    #[inline]
    pub(crate) fn sees(&self, topo: &Topology, i: usize, c: u32, p: Point) -> bool {
        let range = self.start[i] as usize..self.start[i + 1] as usize;
        let spikes = &self.spikes[self.spike_start[i] as usize..self.spike_start[i + 1] as usize];
        let spike_keys = &self.spike_keys[self.spike_start[i] as usize..self.spike_start[i + 1] as usize];
        polygon_sees(
            topo,
            topo.at(c),
            (&self.pieces[range.clone()], &self.keys[range], spikes, spike_keys),
            p,
        )
    }

    /// Makes room for `corners` more corners' polygons of `pieces` pieces and `spikes` spikes.
    pub(crate) fn reserve(&mut self, corners: usize, pieces: usize, spikes: usize) {
        self.start.edit(|s| s.reserve(corners + 1));
        self.spike_start.edit(|s| s.reserve(corners + 1));
        self.pieces.edit(|p| p.reserve(pieces));
        self.keys.edit(|k| k.reserve(pieces));
        self.spikes.edit(|s| s.reserve(spikes));
        self.spike_keys.edit(|k| k.reserve(spikes));
    }

    /// Appends corner `i` of `old` as it is (its point unchanged).
    pub(crate) fn append_from(&mut self, old: &Views, i: usize) {
        if self.start.is_empty() {
            self.start.edit(|s| s.push(0));
            self.spike_start.edit(|s| s.push(0));
        }
        let range = old.start[i] as usize..old.start[i + 1] as usize;
        let spikes = old.spike_start[i] as usize..old.spike_start[i + 1] as usize;
        self.keys.edit(|k| k.extend_from_slice(&old.keys[range.clone()]));
        self.pieces.edit(|p| p.extend_from_slice(&old.pieces[range]));
        self.spike_keys.edit(|k| k.extend_from_slice(&old.spike_keys[spikes.clone()]));
        self.spikes.edit(|s| s.extend_from_slice(&old.spikes[spikes]));
        let (pieces, spikes) = (self.pieces.len() as u32, self.spikes.len() as u32);
        self.start.edit(|s| s.push(pieces));
        self.spike_start.edit(|s| s.push(spikes));
    }

    /// Whether corner `i`'s polygon (the corner at `pc`) may hold a point of the segment
    /// `p q`: always when it does, and perhaps when it passes within a rounding of it (each
    /// side test leans to yes by a margin relative to the lengths and coordinates at hand).
    /// What a door toggle asks: a corner whose view does not reach the door sees the same
    /// whether it is open or closed.
    #[expect(
        clippy::many_single_char_names,
        reason = "points of figures: the segment p q, rays r l, walls a b"
    )]
    pub(crate) fn may_touch(&self, topo: &Topology, i: usize, pc: Point, [p, q]: [Point; 2]) -> bool {
        let far = |x: Point| (x.x - pc.x).abs().max((x.y - pc.y).abs());
        let size = far(p).max(far(q));
        let reach = magnitude([pc, p, q]);
        // Within `[lo, hi]` of the segment (0 at p, 1 at q), the side test that gives `fp`
        // at p and `fq` at q holds (both already leaning by the margin).
        let clip = |(lo, hi): (f64, f64), fp: f64, fq: f64| -> (f64, f64) {
            match (fp >= 0.0, fq >= 0.0) {
                (true, true) => (lo, hi),
                (false, false) => (1.0, 0.0),
                (true, false) => (lo, hi.min(fp / (fp - fq))),
                (false, true) => (lo.max(fp / (fp - fq)), hi),
            }
        };
        let margin = |extent: f64| {
            let s = extent.max(size);
            1e-9 * s * s + 64.0 * ulp(reach.max(extent)) * s
        };
        let range = self.start[i] as usize..self.start[i + 1] as usize;
        for piece in &self.pieces[range] {
            let (r, l) = (ray_point(topo, pc, piece.right), ray_point(topo, pc, piece.left));
            let (a, b) = (topo.at(piece.wall[0]), topo.at(piece.wall[1]));
            let tol = margin(far(a).max(far(b)).max(far(r)).max(far(l)));
            let mut span = clip((0.0, 1.0), orient(a, b, p) + tol, orient(a, b, q) + tol);
            // A cone under 180° (as every piece is): between its rays; else (not met) the
            // wall's side alone, which holds more.
            if orient(pc, r, l) > 0.0 {
                span = clip(span, orient(pc, r, p) + tol, orient(pc, r, q) + tol);
                span = clip(span, orient(pc, p, l) + tol, orient(pc, q, l) + tol);
            }
            if span.0 <= span.1 {
                return true;
            }
        }
        let spikes = self.spike_start[i] as usize..self.spike_start[i + 1] as usize;
        for spike in &self.spikes[spikes] {
            // The spike runs from the corner along its ray to its wall (or its vertex).
            let (a, b) = (topo.at(spike.wall[0]), topo.at(spike.wall[1]));
            let ray = topo.at(spike.right);
            let end = if spike.wall[0] == spike.wall[1] {
                a
            } else {
                let (dx, dy) = (ray.x - pc.x, ray.y - pc.y);
                let (ex, ey) = (b.x - a.x, b.y - a.y);
                let denom = dx * ey - dy * ex;
                let u = ((a.x - pc.x) * ey - (a.y - pc.y) * ex) / denom;
                if !u.is_finite() {
                    return true; // a wall along the ray: where it ends is not known here
                }
                let u = u.max(1.0);
                Point::new(pc.x + u * dx, pc.y + u * dy)
            };
            let tol = margin(far(end).max(far(a)).max(far(b)));
            let dot =
                |x: Point, from: Point| (x.x - from.x) * (end.x - pc.x) + (x.y - from.y) * (end.y - pc.y);
            let mut span = clip((0.0, 1.0), orient(pc, end, p) + tol, orient(pc, end, q) + tol);
            span = clip(span, tol - orient(pc, end, p), tol - orient(pc, end, q));
            span = clip(span, dot(p, pc) + tol, dot(q, pc) + tol);
            span = clip(span, tol - dot(p, end), tol - dot(q, end));
            if span.0 <= span.1 {
                return true;
            }
        }
        false
    }

    /// Gives back the room the vectors grew beyond their contents.
    pub(crate) fn shrink_to_fit(&mut self) {
        self.start.edit(Vec::shrink_to_fit);
        self.pieces.edit(Vec::shrink_to_fit);
        self.keys.edit(Vec::shrink_to_fit);
        self.spike_start.edit(Vec::shrink_to_fit);
        self.spikes.edit(Vec::shrink_to_fit);
        self.spike_keys.edit(Vec::shrink_to_fit);
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        (self.start.len() + self.spike_start.len()) * 4
            + (self.pieces.len() + self.spikes.len()) * (size_of::<Piece>() + size_of::<f64>())
    }
}
