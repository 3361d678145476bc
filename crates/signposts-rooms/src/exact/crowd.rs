//! A crowd heading for one goal: every corner's distance to the goal worked out once, from
//! the table rows of the corners the goal sees (or one Dijkstra search without a table), and
//! the goal's visibility polygon; then each entity only picks, best first, among the corners
//! its cell lists.

use super::table::Lengths;
use super::{End, ExactRooms, ExactScratch, FULL, INDEX, TAUT, expand, length, view};
use crate::Point;
use crate::mesh::NONE;

/// Crowds at least this large (and larger on maps where the goal sees many corners) share one
/// pass over the goal's corners ([`ExactRooms::field`]).
pub(super) const CROWD: usize = 16;

/// Folds the table row of goal corner `end` into the field: `field[a] = min(field[a],
/// d(a, b) + |b t|)`.
#[inline]
fn fold_row<T: Copy + Into<f64>>(row: &[T], end: &End, field: &mut [f64]) {
    // A plain minimum, which the compiler turns into vector instructions; which goal corner
    // gave it is found again only for an entity that needs it.
    for (f, &d) in field.iter_mut().zip(row) {
        *f = f.min(d.into() + end.distance);
    }
}

/// Collects a sweep's pieces only.
struct PiecesOnly<'a>(&'a mut Vec<expand::Piece>);

impl expand::Sink for PiecesOnly<'_> {
    fn vertex(&mut self, _: u32, _: u32) {}
    fn region(&mut self, _: u32, _: bool) {}
    fn piece(&mut self, piece: expand::Piece) {
        self.0.push(piece);
    }
}

impl ExactRooms {
    /// Every corner's distance to the goal into `scratch.field`: one pass over the table rows
    /// of the corners the goal sees, or, without a table, one Dijkstra search from them, which
    /// also leaves in `scratch.toward` each corner's next corner (`NONE`: straight to the
    /// goal).
    #[expect(clippy::single_match_else, reason = "the table and graph tiers read as two cases")]
    pub(super) fn field(&self, scratch: &mut ExactScratch) {
        let to = scratch.goal_at;
        let n = self.corners.len();
        scratch.field.clear();
        scratch.field.resize(n, f64::INFINITY);
        scratch.toward.clear();
        scratch.toward.resize(n, NONE);
        let mut ends = core::mem::take(&mut scratch.to);
        ends.retain_mut(|e| self.sees_end(to, e));
        match &self.table {
            Some(table) => {
                for e in &ends {
                    let b = e.corner as usize;
                    match &table.lengths {
                        Lengths::Wide(v) => fold_row(&v[b * n..(b + 1) * n], e, &mut scratch.field),
                        Lengths::Narrow(v) => fold_row(&v[b * n..(b + 1) * n], e, &mut scratch.field),
                    }
                }
            }
            None => {
                let heap = &mut scratch.heap;
                heap.clear();
                for e in &ends {
                    let b = e.corner as usize;
                    if e.distance < scratch.field[b] {
                        scratch.field[b] = e.distance;
                        heap.push(core::cmp::Reverse((e.distance.to_bits(), e.corner)));
                    }
                }
                while let Some(core::cmp::Reverse((key, u))) = heap.pop() {
                    let d = f64::from_bits(key);
                    if d > scratch.field[u as usize] {
                        continue;
                    }
                    for &(v, w) in self.graph.of(u) {
                        let nd = d + w;
                        if nd < scratch.field[v as usize] {
                            scratch.field[v as usize] = nd;
                            scratch.toward[v as usize] = u;
                            heap.push(core::cmp::Reverse((nd.to_bits(), v)));
                        }
                    }
                }
            }
        }
        scratch.to = ends;
        // The goal's visibility polygon: whether an entity sees the goal is then a binary
        // search rather than a walk.
        scratch.found.clear();
        expand::sweep(
            &self.topo,
            to,
            &scratch.to_regions,
            None,
            &mut scratch.sweep,
            &mut PiecesOnly(&mut scratch.found),
        );
        let (pieces, spikes) = view::Views::sorted(&self.topo, to, &scratch.found);
        scratch.goal_view.1.clear();
        scratch.goal_view.1.extend(view::keys(&self.topo, to, &pieces));
        scratch.goal_view.3.clear();
        scratch.goal_view.3.extend(view::keys(&self.topo, to, &spikes));
        (scratch.goal_view.0, scratch.goal_view.2) = (pieces, spikes);
    }

    /// One entity's waypoint once [`ExactRooms::field`] has run for the goal.
    pub(super) fn field_waypoint(&self, from: Point, to: Point, scratch: &mut ExactScratch) -> Option<Point> {
        let from = self.locate(from, &mut scratch.from_regions)?;
        let goal = scratch.goal_at;
        let part = |r: &u32| self.topo.part[*r as usize];
        if !scratch.from_regions.iter().any(|r| scratch.to_regions.iter().any(|q| part(r) == part(q))) {
            return None;
        }
        let (pieces, keys, spikes, spike_keys) = &scratch.goal_view;
        if view::polygon_sees(&self.topo, goal, (pieces, keys, spikes, spike_keys), from) {
            return Some(to);
        }
        // Each candidate's total first; then, best first, its turn and its visibility until
        // one holds (most often the first).
        let k = self.grid.of(from);
        let totals = &mut scratch.totals;
        totals.clear();
        for e in self.cell_list.entries(self.cell_start[k] as usize..self.cell_start[k + 1] as usize) {
            let c = e & INDEX;
            let total = length(from, self.geo[c as usize].at) + scratch.field[c as usize];
            if total.is_finite() {
                totals.push((total, e));
            }
        }
        let mut best = (f64::INFINITY, NONE);
        while let Some(i) = (0..totals.len()).min_by(|&i, &j| totals[i].0.total_cmp(&totals[j].0)) {
            let (total, e) = totals.swap_remove(i);
            let c = e & INDEX;
            if (e & TAUT != 0 || self.geo[c as usize].taut(from))
                && (e & FULL != 0 || self.views.sees(&self.topo, c as usize, self.corners[c as usize], from))
            {
                best = (total, c);
                break;
            }
        }
        let a = best.1;
        if a == NONE {
            return None;
        }
        let p = self.topo.at(self.corners[a as usize]);
        if p != from {
            return Some(p);
        }
        let next = match &self.table {
            Some(table) => {
                // The goal corner that gave `a` its distance, and the first step towards it.
                let last = scratch
                    .to
                    .iter()
                    .map(|e| (table.length(a, e.corner) + e.distance, e.corner))
                    .min_by(|x, y| x.0.total_cmp(&y.0))
                    .map_or(a, |(_, b)| b);
                if last == a {
                    return Some(to);
                }
                table.hop(a, last)
            }
            None if scratch.toward[a as usize] == NONE => return Some(to),
            None => scratch.toward[a as usize],
        };
        Some(self.topo.at(self.corners[next as usize]))
    }
}
