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
    pub(crate) fn append(&mut self, pieces: &[Piece], spikes: &[Piece]) {
        if self.start.is_empty() {
            self.start.push(0);
            self.spike_start.push(0);
        }
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
        let pieces = &self.pieces[self.start[i] as usize..self.start[i + 1] as usize];
        let at =
            pieces.partition_point(|q| angle_cmp(pc, ray_point(topo, pc, q.right), p) != Ordering::Greater);
        // Pieces do not overlap: at most the last two that start at or before `p` hold it;
        // straight towards +x, the last piece too, if it ends there (at 360°).
        let wrapped =
            (p.y == pc.y && p.x > pc.x).then(|| pieces.last()).flatten().filter(|q| q.left == PLUS_X);
        for q in pieces[..at].iter().rev().take(2).chain(wrapped) {
            if (q.left == PLUS_X || angle_cmp(pc, p, ray_point(topo, pc, q.left)) != Ordering::Greater)
                && orient(topo.at(q.wall[0]), topo.at(q.wall[1]), p) >= 0.0
            {
                return true;
            }
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
