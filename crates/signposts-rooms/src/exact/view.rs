//! Each corner's visibility polygon, as pieces sorted by angle: whether the corner sees a
//! point is a binary search and one orientation test (Euclidean Hub Labeling keeps the same
//! kind of polygon per vertex for the same question).

use core::cmp::Ordering;

use crate::Point;
use crate::geom::orient;

use super::expand::Piece;
use super::topology::{Topology, beyond};

/// The ray from a corner towards `+x`, where pieces that cross it are cut in two.
pub(crate) const PLUS_X: u32 = u32::MAX;

/// The visibility polygons of all corners.
#[derive(Debug, Clone, Default)]
pub(crate) struct Views {
    /// Corner `c`'s pieces: `pieces[start[c]..start[c + 1]]`, sorted by their right rays,
    /// none one ray wide; then its spikes in `spikes[spike_start[c]..]`, sorted by ray.
    pub(crate) start: Vec<u32>,
    pub(crate) pieces: Vec<Piece>,
    /// Each piece's right ray as a pseudo-angle ([`pseudo_angle`]), to find it fast: the
    /// exact tests then run on it and its neighbours only.
    pub(crate) keys: Vec<f64>,
    pub(crate) spike_start: Vec<u32>,
    pub(crate) spikes: Vec<Piece>,
}

/// A point on ray `id` from `c` (`PLUS_X`: towards `+x`).
#[inline]
fn ray_point(topo: &Topology, c: Point, id: u32) -> Point {
    if id == PLUS_X { Point::new(c.x + c.x.abs().max(1.0), c.y) } else { topo.at(id) }
}

/// Upper half-plane (counting `+x`) first, then the lower.
#[inline]
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

impl Views {
    /// Corner `c`'s polygon from the pieces its sweep found: its pieces sorted by angle (any
    /// crossing `+x` cut there), and its spikes.
    pub(crate) fn sorted(topo: &Topology, c: u32, found: &[Piece]) -> (Vec<Piece>, Vec<Piece>) {
        let pc = topo.at(c);
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
            self.start.push(0);
            self.spike_start.push(0);
        }
        let pc = topo.at(c);
        self.keys.extend(
            pieces.iter().map(|q| if q.right == PLUS_X { 0.0 } else { pseudo_angle(pc, topo.at(q.right)) }),
        );
        self.pieces.extend_from_slice(pieces);
        self.spikes.extend_from_slice(spikes);
        self.start.push(self.pieces.len() as u32);
        self.spike_start.push(self.spikes.len() as u32);
    }

    /// Whether corner `c` (the `i`-th pushed) sees `p`.
    pub(crate) fn sees(&self, topo: &Topology, i: usize, c: u32, p: Point) -> bool {
        let pc = topo.at(c);
        if p == pc {
            return true;
        }
        let range = self.start[i] as usize..self.start[i + 1] as usize;
        let (pieces, keys) = (&self.pieces[range.clone()], &self.keys[range]);
        // Found by pseudo-angle, decided exactly: the piece found, and a neighbour each side
        // in case rounding put `p` across a boundary.
        let key = pseudo_angle(pc, p);
        let at = keys.partition_point(|&k| k <= key);
        let holds = |q: &Piece| {
            angle_cmp(pc, ray_point(topo, pc, q.right), p) != Ordering::Greater
                && (q.left == PLUS_X || angle_cmp(pc, p, ray_point(topo, pc, q.left)) != Ordering::Greater)
                && orient(topo.at(q.wall[0]), topo.at(q.wall[1]), p) >= 0.0
        };
        // The piece found first, then its neighbours.
        let near = [at.wrapping_sub(1), at.wrapping_sub(2), at, at.wrapping_sub(3)];
        if near.iter().filter_map(|&k| pieces.get(k)).any(holds) {
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
        let spikes = &self.spikes[self.spike_start[i] as usize..self.spike_start[i + 1] as usize];
        let from = spikes.partition_point(|q| angle_cmp(pc, topo.at(q.right), p) == Ordering::Less);
        spikes[from..].iter().take_while(|q| angle_cmp(pc, topo.at(q.right), p) == Ordering::Equal).any(|q| {
            if q.wall[0] == q.wall[1] {
                !beyond(pc, topo.at(q.wall[0]), p)
            } else {
                orient(topo.at(q.wall[0]), topo.at(q.wall[1]), p) >= 0.0
            }
        })
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        (self.start.len() + self.spike_start.len()) * 4
            + (self.pieces.len() + self.spikes.len()) * size_of::<Piece>()
    }
}
