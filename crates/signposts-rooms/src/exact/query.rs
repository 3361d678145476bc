//! A query's stages: where each end lies, the corners each end sees, the best pair of them
//! (from the table, the labels or a search) and the waypoint or route it gives.

use super::labels::Labels;
use super::table::{Lengths, Table};
use super::{Answer, End, ExactRooms, ExactScratch, FULL, INDEX, Seen, TAUT, expand, length};
use crate::Point;
use crate::mesh::NONE;

impl ExactRooms {
    /// The waypoint, the goal's side being ready in `scratch`.
    pub(super) fn waypoint(&self, from: Point, to: Point, scratch: &mut ExactScratch) -> Option<Point> {
        let (answer, from) = self.solve(from, scratch)?;
        match answer {
            Answer::Straight => Some(to),
            Answer::Route { first, last, hub } => {
                let p = self.topo.at(self.corners[first as usize]);
                if p != from {
                    return Some(p);
                }
                if first == last {
                    return Some(to);
                }
                let next = match (&self.table, &self.labels) {
                    (Some(table), _) => table.hop(first, last),
                    (None, Some(labels)) => labels.step(first, last, hub),
                    (None, None) => {
                        scratch.route.clear();
                        scratch.astar.route(last, &mut scratch.route);
                        scratch.route[1]
                    }
                };
                Some(self.topo.at(self.corners[next as usize]))
            }
        }
    }

    /// The corners from `first` to `last` (through hub rank `hub` in the labels tier) into
    /// `scratch.route`.
    pub(super) fn route(&self, first: u32, last: u32, hub: u32, scratch: &mut ExactScratch) {
        if let Some(labels) = &self.labels {
            labels.route(first, last, hub, &mut scratch.route);
            return;
        }
        match &self.table {
            Some(table) => {
                let mut at = first;
                scratch.route.push(at);
                for _ in 0..self.corners.len() {
                    if at == last {
                        break;
                    }
                    at = table.hop(at, last);
                    scratch.route.push(at);
                }
            }
            None => scratch.astar.route(last, &mut scratch.route),
        }
    }

    /// The regions holding `p` into `regions` (several when it lies on their boundary), and
    /// the point to answer from: `p`, or, when `p` lies outside its region by a rounding (as
    /// [`NavMesh::region_at`] allows: a few units in the last place of the coordinates), the
    /// first point inside it on the way to its centroid (moved by a few ulps too: the steps
    /// grow fourfold from one `f64::EPSILON` of the way). `None` outside the walkable area.
    /// The regions beside the one found come from the mesh's point locator, whose buckets are
    /// grown by ulps of the coordinates for the same reason.
    pub(super) fn locate(&self, point: Point, regions: &mut Vec<u32>) -> Option<Point> {
        let region = self.mesh.region_at(point)?;
        let mut inside = point;
        if !self.topo.contains(region.0, point) {
            let centre = self.mesh.centroid(region);
            let mut k = f64::EPSILON;
            inside = centre;
            while k < 1.0 {
                let moved =
                    Point::new(point.x + (centre.x - point.x) * k, point.y + (centre.y - point.y) * k);
                if self.topo.contains(region.0, moved) {
                    inside = moved;
                    break;
                }
                k *= 4.0;
            }
        }
        regions.clear();
        regions.push(region.0);
        if self.topo.on_boundary(region.0, inside) {
            regions.extend(self.mesh.other_regions_at(inside, region).map(|other| other.0));
        }
        Some(inside)
    }

    /// The corners `p` could see and turn at into `out`, with their distances; whether `p`
    /// sees each is decided later ([`ExactRooms::sees_end`]), and their bounds set by the
    /// query. A corner at `p` is one of them, at distance 0, but the path need not turn
    /// there: `p` is an end.
    pub(super) fn ends(&self, p: Point, out: &mut Vec<End>) {
        out.clear();
        let k = self.grid.of(p);
        for e in self.cell_list.entries(self.cell_start[k] as usize..self.cell_start[k + 1] as usize) {
            let c = e & INDEX;
            let geo = &self.geo[c as usize];
            if e & TAUT == 0 && !geo.taut(p) {
                continue;
            }
            let seen = if e & FULL == 0 { Seen::Unknown } else { Seen::Yes };
            out.push(End { corner: c, distance: length(p, geo.at), bound: 0.0, seen });
        }
    }

    /// The ends that `p` sees, into `seen` as `(corner, distance)`.
    fn seen_ends(&self, p: Point, ends: &mut [End], seen: &mut Vec<(u32, f64)>) {
        seen.clear();
        for e in ends {
            if self.sees_end(p, e) {
                seen.push((e.corner, e.distance));
            }
        }
    }

    /// Whether `p` sees the corner of `end`, decided once.
    #[inline]
    pub(super) fn sees_end(&self, p: Point, end: &mut End) -> bool {
        if end.seen == Seen::Unknown {
            let c = end.corner;
            end.seen = if self.views.sees(&self.topo, c as usize, self.corners[c as usize], p) {
                Seen::Yes
            } else {
                Seen::No
            };
        }
        end.seen == Seen::Yes
    }

    /// The pair `(a, b)` with the shortest `|s a| + d(a, b) + |b t|`.
    ///
    /// Each end's corners get a lower bound of any path through them: `|s a|` plus the
    /// table's bound from `a` to the goal's region (the shortest way from `a` to a corner
    /// that region's points may see, and on to the region), and `|b t|` plus the bound from
    /// the start's region to `b`. The start's corners are tried in the order of their
    /// bounds, and with each the goal's corners in the order of theirs, none whose bound is no
    /// better than the best so far; the table is read for the rest, and visibility decided
    /// only for a pair that would be the best so far.
    #[expect(clippy::many_single_char_names, reason = "the ends s t, corners a b, their count n")]
    pub(super) fn best_pair<T: Copy + Into<f64>>(
        &self,
        table: &Table,
        lengths: &[T],
        (s, t): (Point, Point),
        scratch: &mut ExactScratch,
    ) -> Option<(u32, u32)> {
        let n = table.n;
        let (from, to) = (&mut scratch.from, &mut scratch.to);
        // A point on regions' boundaries is in each of them: the least of their bounds.
        let bound = |regions: &[u32], c: u32| {
            regions.iter().map(|&r| table.bounds_row(r)[c as usize]).fold(f32::INFINITY, f32::min)
        };
        for e in from.iter_mut() {
            e.bound = e.distance + f64::from(bound(&scratch.to_regions, e.corner));
        }
        for e in to.iter_mut() {
            e.bound = e.distance + f64::from(bound(&scratch.from_regions, e.corner));
        }
        // Bounds are not negative: their bits order as they do.
        from.sort_unstable_by_key(|e| e.bound.to_bits());
        to.sort_unstable_by_key(|e| e.bound.to_bits());
        let mut best = (f64::INFINITY, 0, 0);
        for start in from.iter_mut() {
            if start.bound >= best.0 {
                break;
            }
            let (a, da) = (start.corner, start.distance);
            // The lengths are symmetric: read along row `a`, where the corners near the goal
            // sit close together.
            let row = &lengths[a as usize * n..(a as usize + 1) * n];
            for end in to.iter_mut() {
                if end.bound >= best.0 {
                    break;
                }
                let (b, db) = (end.corner, end.distance);
                let total = da + row[b as usize].into() + db;
                if total < best.0 {
                    if !self.sees_end(s, start) {
                        break;
                    }
                    if self.sees_end(t, end) {
                        best = (total, a, b);
                    }
                }
            }
        }
        best.0.is_finite().then_some((best.1, best.2))
    }

    /// Works out the goal's side: its regions and the corners it sees. `false` when `to` is
    /// outside the walkable area.
    pub(super) fn goal(&self, to: Point, scratch: &mut ExactScratch) -> bool {
        let Some(t) = self.locate(to, &mut scratch.to_regions) else { return false };
        scratch.goal_at = t;
        let mut to_corners = core::mem::take(&mut scratch.to);
        self.ends(t, &mut to_corners);
        scratch.to = to_corners;
        true
    }

    /// The goal's corners not known unseen whose bound is at most `limit`, folded per hub.
    pub(super) fn fold_goal(&self, labels: &Labels, scratch: &mut ExactScratch, limit: f64) {
        scratch.hubs.reset(self.corners.len());
        for e in &scratch.to {
            if e.seen != Seen::No && e.bound <= limit {
                scratch.hubs.fold(labels, e.corner, e.distance);
            }
        }
    }

    /// The labels tier's best `(first, last, hub)`. Each end's corners get a lower bound of a
    /// path through them (`|s a| + |a t|`), and an upper bound comes from the first corner
    /// of each end, in that order, that the end sees: the goal's corners with a bound
    /// past it are left out of the fold per hub. The start's corners are then taken in
    /// the order of their bounds, until one is no shorter than the best so far; each gets
    /// the shortest path through it (one scan of its label against the fold), and whether
    /// the start sees it is decided when that would be the best so far. The goal's corner
    /// on the best path (found again from the hub) is then checked: when the goal does not
    /// see it, the fold is made again without it and the start's corners taken again. The
    /// first answer whose both ends are seen is the best, as every pair not ruled out was in
    /// the running.
    #[expect(clippy::many_single_char_names, reason = "the ends s t, their corners a b, indices i k")]
    pub(super) fn best_by_labels(
        &self,
        labels: &Labels,
        s: Point,
        t: Point,
        scratch: &mut ExactScratch,
    ) -> Option<(u32, u32, u32)> {
        for e in &mut scratch.from {
            e.bound = e.distance + length(self.geo[e.corner as usize].at, t);
        }
        for e in &mut scratch.to {
            e.bound = e.distance + length(self.geo[e.corner as usize].at, s);
        }
        // Not negative: the bits order as the values.
        scratch.from.sort_unstable_by_key(|e| e.bound.to_bits());
        scratch.to.sort_unstable_by_key(|e| e.bound.to_bits());
        let a = scratch.from.iter_mut().position(|e| self.sees_end(s, e))?;
        let b = scratch.to.iter_mut().position(|e| self.sees_end(t, e))?;
        let (a, b) = (&scratch.from[a], &scratch.to[b]);
        // Grown by a rounding's worth: the bounds of that pair's own corners (at most it by
        // the triangle inequality) are summed in another order. Infinite when the graph,
        // which keeps only edges taut at both ends, joins no path from one to the other.
        let limit = (a.distance + labels.distance(a.corner, b.corner) + b.distance) * (1.0 + 1e-12);
        self.fold_goal(labels, scratch, limit);
        loop {
            let mut best = (f64::INFINITY, NONE, NONE);
            for i in 0..scratch.from.len() {
                let e = &mut scratch.from[i];
                if e.bound >= best.0 || e.bound > limit {
                    break;
                }
                if e.seen == Seen::No {
                    continue;
                }
                let (through, hub) = scratch.hubs.through(labels, e.corner);
                let total = e.distance + through;
                if total < best.0 {
                    let mut end = *e;
                    let seen = self.sees_end(s, &mut end);
                    scratch.from[i].seen = end.seen;
                    if seen {
                        best = (total, i as u32, hub);
                    }
                }
            }
            let (_, i, hub) = best;
            if i == NONE {
                return None;
            }
            // The goal's corner that gave the hub its length.
            let mut last = (f64::INFINITY, NONE);
            for (k, e) in scratch.to.iter().enumerate() {
                if e.seen != Seen::No
                    && e.bound <= limit
                    && let Some(d) = labels.length_to(e.corner, hub)
                    && d + e.distance < last.0
                {
                    last = (d + e.distance, k as u32);
                }
            }
            if last.1 == NONE {
                return None; // not for labels as built: the hub came from one of these
            }
            let k = last.1 as usize;
            let mut end = scratch.to[k];
            let seen = self.sees_end(t, &mut end);
            scratch.to[k].seen = end.seen;
            if seen {
                return Some((scratch.from[i as usize].corner, end.corner, hub));
            }
            self.fold_goal(labels, scratch, limit);
        }
    }

    /// The query from `from` once the goal's side is ready, and the point it was answered
    /// from ([`ExactRooms::locate`]).
    #[expect(clippy::single_match_else, reason = "the table and graph tiers read as two cases")]
    pub(super) fn solve(&self, from: Point, scratch: &mut ExactScratch) -> Option<(Answer, Point)> {
        let from = self.locate(from, &mut scratch.from_regions)?;
        let to = scratch.goal_at;
        let part = |r: &u32| self.topo.part[*r as usize];
        if !scratch.from_regions.iter().any(|r| scratch.to_regions.iter().any(|q| part(r) == part(q))) {
            return None;
        }
        if expand::sees(&self.topo, from, &scratch.from_regions, to) {
            return Some((Answer::Straight, from));
        }
        let mut from_corners = core::mem::take(&mut scratch.from);
        self.ends(from, &mut from_corners);
        scratch.from = from_corners;
        if let Some(labels) = &self.labels {
            let (first, last, hub) = self.best_by_labels(labels, from, to, scratch)?;
            return Some((Answer::Route { first, last, hub }, from));
        }
        let (first, last) = match &self.table {
            Some(table) => match &table.lengths {
                Lengths::Wide(l) => self.best_pair(table, l, (from, to), scratch)?,
                Lengths::Narrow(l) => self.best_pair(table, l, (from, to), scratch)?,
            },
            None => {
                self.seen_ends(from, &mut scratch.from, &mut scratch.from_seen);
                self.seen_ends(to, &mut scratch.to, &mut scratch.to_seen);
                let corner_at = |c: u32| self.topo.at(self.corners[c as usize]);
                let (_, last) = scratch.astar.run(
                    &self.graph,
                    self.corners.len(),
                    &scratch.from_seen,
                    &scratch.to_seen,
                    to,
                    corner_at,
                )?;
                scratch.route.clear();
                scratch.astar.route(last, &mut scratch.route);
                (scratch.route[0], last)
            }
        };
        Some((Answer::Route { first, last, hub: NONE }, from))
    }
}
