//! Target order: which targets share a batch.
//!
//! A batch of the bit-parallel engine costs time in proportion to how many levels each node
//! stays live, about the batch's diameter. Three orders pack targets into compact groups:
//!
//! - [`ball_order`], the dense build's: each batch grows a breadth-first ball of up to `batch`
//!   not-yet-ordered nodes around a seed, seeds taken in the order of one breadth-first sweep
//!   over the whole graph so that balls tile it from one side. On a 4-connected grid a ball of
//!   128 cells has diameter about 16, against 127 for a row of 128 ids.
//! - [`compact_batches`] over a [`dfs_order`], the compressed build's, whose rows need the
//!   depth-first numbering (nearby targets get nearby numbers, which keeps runs long): within
//!   each span of a few batches, balls are grown over the span's targets only. A run of
//!   depth-first numbers is a long thin strip (brc202d: nodes live 47 levels per batch of
//!   128), a ball of the same targets a compact patch.
//! - [`bisected_batches`], the compressed octile build's (groups of 32 single targets, when
//!   the fold has bit shuffles): each span cut in two again and again along a long
//!   breadth-first path. No ragged leftovers: 16–22% fewer looks per node and target than
//!   balls of single targets in the same spans (brc202d, AR0602SR, lak303d, a corner of
//!   random512-10-0), 9% on a corner of `64room_000`, 5% on a maze's corridors. Cutting by
//!   distance from one end of the path instead of along it made 4–8% more looks (as many on
//!   the rooms).
//!
//! Measured with the compressed build's engine (batches of 128): nodes stay live 41 levels
//! per batch on brc202d and AR0602SR with balls regrouped within spans, against 114 and 71
//! with [`ball_order`] (on such maps its last balls are grown from what earlier ones left,
//! ragged and far apart). On the dense build's 100×100 grids (open, and with 20% walls) the
//! regrouped depth-first order measured no faster than [`ball_order`] for spans of 4 to 1000
//! batches, so the dense build keeps it.
//!
//! Also measured for the compressed 4-connected build, and dropped: spans of 8 to 32 batches
//! (a wave's worth was then 4 on 2 cores) and batches of 128 cut by recursive bisection
//! instead of grown greedily, with octets or single targets: nodes stay live 41–48 levels in
//! every case on brc202d and AR0602SR, the batches' diameters 40–56 steps (brc202d's corridors set them, not the
//! grouping). Column orders compact at every scale cost runs: a depth-first order that visits
//! neighbours by Hilbert-curve index built brc202d 15% faster but with 19–21% more runs
//! (den312d, lak303d, brc202d), recursive bisection by breadth-first distance with three
//! times the runs.

use crate::NodeId;
use crate::dense::table::NodeRow;

/// Returns the column order of the nodes not `skip`ped: `order[c]` is the node of column `c`.
/// `skip` is empty or has one flag per node; skipped nodes are neither ordered nor crossed.
pub(crate) fn ball_order(rows: &[NodeRow], neighbors: &[NodeId], skip: &[bool], batch: usize) -> Vec<NodeId> {
    let n = rows.len();
    let mut placed = if skip.is_empty() { vec![false; n] } else { skip.to_vec() };
    let wanted = placed.iter().filter(|&&p| !p).count();
    let sweep = bfs_sweep(rows, neighbors, &placed);
    let mut order = Vec::with_capacity(wanted);
    let mut queue = Vec::with_capacity(batch * 8);
    let mut queued = vec![0u32; n];
    let mut generation = 0u32;
    let mut seeds = sweep.iter();
    while order.len() < wanted {
        let Some(&seed) = seeds.find(|&&s| !placed[s as usize]) else { break };
        let want = batch - order.len() % batch;
        generation += 1;
        queue.clear();
        queue.push(seed);
        queued[seed as usize] = generation;
        let mut head = 0;
        let mut taken = 0;
        while head < queue.len() && taken < want {
            let u = queue[head];
            head += 1;
            placed[u as usize] = true;
            order.push(u);
            taken += 1;
            for &v in &neighbors[rows[u as usize].slots()] {
                if !placed[v as usize] && queued[v as usize] != generation {
                    queued[v as usize] = generation;
                    queue.push(v);
                }
            }
        }
    }
    debug_assert_eq!(order.len(), wanted);
    order
}

/// One BFS order over every node not yet `seen`, component after component (lowest id first).
fn bfs_sweep(rows: &[NodeRow], neighbors: &[NodeId], seen: &[bool]) -> Vec<NodeId> {
    let n = rows.len();
    let mut seen = seen.to_vec();
    let mut out = Vec::with_capacity(n);
    for root in 0..n {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        let start = out.len();
        out.push(root as NodeId);
        let mut head = start;
        while head < out.len() {
            let u = out[head] as usize;
            head += 1;
            for &v in &neighbors[rows[u].slots()] {
                if !seen[v as usize] {
                    seen[v as usize] = true;
                    out.push(v);
                }
            }
        }
    }
    out
}

/// The nodes not `skip`ped (`skip` has one flag per node) in depth-first preorder, component
/// after component (lowest id first); `neighbors(v)` lists `v`'s neighbours. Skipped nodes are
/// neither ordered nor crossed.
pub(crate) fn dfs_order<'a>(
    n: usize,
    neighbors: impl Fn(usize) -> &'a [NodeId],
    skip: &[bool],
) -> Vec<NodeId> {
    let mut seen = skip.to_vec();
    let mut order = Vec::with_capacity(n);
    let mut stack: Vec<(NodeId, usize)> = Vec::new();
    for root in 0..n {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        order.push(root as NodeId);
        stack.push((root as NodeId, 0));
        while let Some(top) = stack.last_mut() {
            let (v, next) = *top;
            let Some(&w) = neighbors(v as usize).get(next) else {
                stack.pop();
                continue;
            };
            top.1 += 1;
            if !seen[w as usize] {
                seen[w as usize] = true;
                order.push(w);
                stack.push((w, 0));
            }
        }
    }
    order
}

/// The nodes not `skip`ped in a nested-dissection order, for the compressed tables of octile
/// maps: each connected part is cut by a level of a breadth-first search from a peripheral node
/// (the level of fewest nodes for the balance it leaves, `h · n² / (below · above)`, each side
/// at least 5%), the two sides ordered recursively with the separator between them, and each
/// side turned so that its nodes next to the separator come next to it. Nearby targets then sit
/// in nearby columns on every scale, as the targets of one side share their first moves from
/// afar: measured on the octile maps, 14% fewer table bytes than [`dfs_order`] on lak303d, 27%
/// on brc202d, 37% on arena, 2% on den312d (4-connected maps: more, so they keep
/// [`dfs_order`]). Separators are listed in depth-first preorder.
pub(crate) fn dissection_order<'a>(
    n: usize,
    neighbors: impl Fn(usize) -> &'a [NodeId],
    skip: &[bool],
) -> Vec<NodeId> {
    Dissection::new(n, neighbors).order(skip)
}

/// The work of [`dissection_order`]: stamps marking the current set and what a search has seen.
struct Dissection<'a, F: Fn(usize) -> &'a [NodeId]> {
    neighbors: F,
    in_set: Vec<u32>,
    seen: Vec<u32>,
    level: Vec<u32>,
    stamp: u32,
}

/// A step of the dissection: a set to cut (with the nodes next to its neighbouring separator,
/// and whether they should come first), or a separator to list.
enum Task {
    Cut(Vec<NodeId>, Option<(Vec<NodeId>, bool)>),
    List(Vec<NodeId>),
}

impl<'a, F: Fn(usize) -> &'a [NodeId]> Dissection<'a, F> {
    fn new(n: usize, neighbors: F) -> Self {
        Dissection { neighbors, in_set: vec![0; n], seen: vec![0; n], level: vec![0; n], stamp: 0 }
    }

    fn order(&mut self, skip: &[bool]) -> Vec<NodeId> {
        let core: Vec<NodeId> = (0..skip.len()).filter(|&v| !skip[v]).map(|v| v as NodeId).collect();
        let mut out = Vec::with_capacity(core.len());
        // An explicit stack: the output order is the depth-first order of the tasks.
        let mut tasks = vec![Task::Cut(core, None)];
        while let Some(task) = tasks.pop() {
            match task {
                Task::List(set) => out.extend(self.preorder(&set)),
                Task::Cut(set, anchor) => self.cut(set, anchor.as_ref(), &mut tasks),
            }
        }
        out
    }

    /// A fresh stamp marking `set`.
    fn mark(&mut self, set: &[NodeId]) -> u32 {
        self.stamp += 1;
        for &v in set {
            self.in_set[v as usize] = self.stamp;
        }
        self.stamp
    }

    /// Breadth-first search within the set marked `stamp` from `roots`; levels in `self.level`.
    fn search(&mut self, stamp: u32, roots: &[NodeId]) -> Vec<NodeId> {
        let mut out: Vec<NodeId> = Vec::new();
        for &r in roots {
            if self.in_set[r as usize] == stamp && self.seen[r as usize] != stamp {
                self.seen[r as usize] = stamp;
                self.level[r as usize] = 0;
                out.push(r);
            }
        }
        let mut head = 0;
        while head < out.len() {
            let u = out[head] as usize;
            head += 1;
            for &w in (self.neighbors)(u) {
                let w = w as usize;
                if self.in_set[w] == stamp && self.seen[w] != stamp {
                    self.seen[w] = stamp;
                    self.level[w] = self.level[u] + 1;
                    out.push(w as NodeId);
                }
            }
        }
        out
    }

    /// The nodes of `set` in depth-first preorder, roots by increasing id.
    fn preorder(&mut self, set: &[NodeId]) -> Vec<NodeId> {
        let stamp = self.mark(set);
        let mut roots = set.to_vec();
        roots.sort_unstable();
        let mut out = Vec::with_capacity(set.len());
        let mut stack: Vec<(NodeId, usize)> = Vec::new();
        for root in roots {
            if self.seen[root as usize] == stamp {
                continue;
            }
            self.seen[root as usize] = stamp;
            out.push(root);
            stack.push((root, 0));
            while let Some(top) = stack.last_mut() {
                let (v, next) = *top;
                let Some(&w) = (self.neighbors)(v as usize).get(next) else {
                    stack.pop();
                    continue;
                };
                top.1 += 1;
                if self.in_set[w as usize] == stamp && self.seen[w as usize] != stamp {
                    self.seen[w as usize] = stamp;
                    out.push(w);
                    stack.push((w, 0));
                }
            }
        }
        out
    }

    /// Cuts `set` and queues its parts.
    fn cut(&mut self, set: Vec<NodeId>, anchor: Option<&(Vec<NodeId>, bool)>, tasks: &mut Vec<Task>) {
        if set.len() <= 1 {
            tasks.push(Task::List(set));
            return;
        }
        // Connected parts one after another, in the order the searches find them.
        let stamp = self.mark(&set);
        let mut parts = Vec::new();
        for &r in &set {
            if self.seen[r as usize] != stamp {
                parts.push(self.search(stamp, &[r]));
            }
        }
        if parts.len() > 1 {
            tasks.extend(parts.into_iter().rev().map(|part| Task::Cut(part, anchor.cloned())));
            return;
        }
        // Levels of a search from a peripheral node (the last of a search from the last of a
        // search from the first).
        let far = *parts[0].last().expect("a part has nodes");
        let stamp = self.mark(&set);
        let far = *self.search(stamp, &[far]).last().expect("a part has nodes");
        let stamp = self.mark(&set);
        let levels = self.search(stamp, &[far]);
        let Some((a, separator, b)) = self.split(&levels) else {
            tasks.push(Task::List(set));
            return;
        };
        // The side holding more of the nodes next to the last separator goes on its side.
        let (first, last) = match anchor {
            Some((near, come_first)) => {
                let stamp = self.mark(near);
                let count =
                    |side: &[NodeId]| side.iter().filter(|&&v| self.in_set[v as usize] == stamp).count();
                if (count(&a) >= count(&b)) == *come_first { (a, b) } else { (b, a) }
            }
            None => (a, b),
        };
        let next_first = self.touching(&first, &separator);
        let next_last = self.touching(&last, &separator);
        tasks.push(Task::Cut(last, Some((next_last, true))));
        tasks.push(Task::List(separator));
        tasks.push(Task::Cut(first, Some((next_first, false))));
    }

    /// Splits a search's nodes (`self.level` set) at the level that is smallest for the balance
    /// it leaves, each side at least 5% of the nodes (the median level when none is): the nodes
    /// below, at and above that level; `None` when both sides would be empty.
    fn split(&self, found: &[NodeId]) -> Option<(Vec<NodeId>, Vec<NodeId>, Vec<NodeId>)> {
        let n = found.len();
        let deepest = found.iter().map(|&v| self.level[v as usize]).max()? as usize;
        let mut sizes = vec![0usize; deepest + 1];
        for &v in found {
            sizes[self.level[v as usize] as usize] += 1;
        }
        let least = n / 20;
        let (mut below, mut median, mut best) = (0usize, None, None::<(u128, usize, usize)>);
        for (k, &h) in sizes.iter().enumerate() {
            let above = n - below - h;
            if median.is_none() && below + h > n / 2 {
                median = Some(k);
            }
            if h > 0 && below >= least && above >= least && below > 0 && above > 0 {
                // h · n² / (below · above), scaled: compared exactly in integers.
                let score = (h as u128 * (n as u128 * n as u128) * 1000) / (below as u128 * above as u128);
                let candidate = (score, below.abs_diff(above), k);
                if best.is_none_or(|b| (candidate.0, candidate.1) < (b.0, b.1)) {
                    best = Some(candidate);
                }
            }
            below += h;
        }
        let cut = best.map_or(median.unwrap_or(0), |(_, _, k)| k) as u32;
        let (mut a, mut separator, mut b) = (Vec::new(), Vec::new(), Vec::new());
        for &v in found {
            match self.level[v as usize].cmp(&cut) {
                core::cmp::Ordering::Less => a.push(v),
                core::cmp::Ordering::Equal => separator.push(v),
                core::cmp::Ordering::Greater => b.push(v),
            }
        }
        (!a.is_empty() || !b.is_empty()).then_some((a, separator, b))
    }

    /// The nodes of `side` next to a node of `separator`.
    fn touching(&mut self, side: &[NodeId], separator: &[NodeId]) -> Vec<NodeId> {
        let stamp = self.mark(separator);
        side.iter()
            .copied()
            .filter(|&v| (self.neighbors)(v as usize).iter().any(|&w| self.in_set[w as usize] == stamp))
            .collect()
    }
}

/// Regroups `order` for the search (see the [module docs](self)): within each `span` of
/// consecutive positions, batches of `width` are grown as balls, seeds taken in order.
/// Targets move in units of `unit` consecutive positions (`column[v]` is `v`'s position in
/// `order`) that stay together and in order; only the last unit of `order` may be short, and
/// it is taken last, so that every batch but the last is full. `span` is a multiple of
/// `width`, and `width` of `unit`.
///
/// Returns the searched order: `batched[p]` is bit `p % width` of batch `p / width`.
pub(crate) fn compact_batches<'a>(
    neighbors: impl Fn(usize) -> &'a [NodeId],
    order: &[NodeId],
    column: &[u32],
    span: usize,
    width: usize,
    unit: usize,
) -> Vec<NodeId> {
    debug_assert!(span.is_multiple_of(width) && width.is_multiple_of(unit));
    let units = order.len().div_ceil(unit);
    let short = if order.len().is_multiple_of(unit) { units } else { units - 1 };
    let mut taken = vec![false; units];
    let mut batched: Vec<NodeId> = Vec::with_capacity(order.len());
    let take = |o: usize, batched: &mut Vec<NodeId>| {
        batched.extend_from_slice(&order[o * unit..order.len().min((o + 1) * unit)]);
    };
    for range in (0..order.len()).step_by(span) {
        let end = order.len().min(range + span);
        let mut seed = range / unit;
        while batched.len() < end {
            let full = end.min(batched.len() + width);
            while taken[seed] {
                seed += 1;
            }
            // One ball: breadth-first from the seed's unit over the span's free units.
            let mut head = batched.len();
            taken[seed] = true;
            take(seed, &mut batched);
            while head < batched.len() && batched.len() < full {
                let u = batched[head] as usize;
                head += 1;
                for &w in neighbors(u) {
                    let c = column[w as usize] as usize;
                    let o = c / unit;
                    if (range..end).contains(&c) && o != short && !taken[o] && batched.len() < full {
                        taken[o] = true;
                        take(o, &mut batched);
                    }
                }
            }
        }
    }
    batched
}

/// Regroups `order` for the search by recursive bisection: each `span` of consecutive
/// positions is cut in two, again and again, until every part holds `width` targets. Each cut
/// is a multiple of `width` targets along a long path through the part: its ends `a` and `b`
/// are found by a double breadth-first sweep over the part's own targets, and the targets
/// nearer `b` than `a` by the most come first. Only a short span's last group is short.
/// `column[v]` is `v`'s position in `order` (anything past `order.len()` for nodes not in
/// it); `span` is a multiple of `width`.
///
/// Returns the searched order: `batched[p]` is target `p % width` of group `p / width`.
pub(crate) fn bisected_batches<'a>(
    neighbors: impl Fn(usize) -> &'a [NodeId],
    order: &[NodeId],
    column: &[u32],
    span: usize,
    width: usize,
) -> Vec<NodeId> {
    debug_assert!(span.is_multiple_of(width));
    let mut batched = Vec::with_capacity(order.len());
    // Per position of the span: which part it is in (a stamp), and its distances from the two
    // ends of the part's path.
    let (mut part, mut from_a, mut from_b) = (vec![0u32; span], vec![0u32; span], vec![0u32; span]);
    let mut stamp = 0u32;
    let mut queue = Vec::with_capacity(span);
    let mut parts: Vec<Vec<u32>> = Vec::new();
    for range in (0..order.len()).step_by(span) {
        let end = order.len().min(range + span);
        parts.push((0..(end - range) as u32).collect());
        while let Some(mut set) = parts.pop() {
            if set.len() <= width {
                batched.extend(set.iter().map(|&p| order[range + p as usize]));
                continue;
            }
            stamp += 1;
            for &p in &set {
                part[p as usize] = stamp;
            }
            // Breadth-first within the part from `from`: the distances, and the last reached.
            let sweep = |from: u32, dist: &mut [u32], queue: &mut Vec<u32>| {
                for &p in &set {
                    dist[p as usize] = u32::MAX;
                }
                queue.clear();
                queue.push(from);
                dist[from as usize] = 0;
                let mut head = 0;
                while let Some(&p) = queue.get(head) {
                    head += 1;
                    for &w in neighbors(order[range + p as usize] as usize) {
                        let q = (column[w as usize] as usize).wrapping_sub(range);
                        if q < end - range && part[q] == stamp && dist[q] == u32::MAX {
                            dist[q] = dist[p as usize] + 1;
                            queue.push(q as u32);
                        }
                    }
                }
                queue[queue.len() - 1]
            };
            let a = sweep(set[0], &mut from_a, &mut queue);
            let b = sweep(a, &mut from_a, &mut queue);
            sweep(b, &mut from_b, &mut queue);
            // Targets the sweeps did not reach (other pieces of the part) sort last.
            set.sort_unstable_by_key(|&p| {
                let (to_a, to_b) = (from_a[p as usize], from_b[p as usize]);
                let lead = if to_b == u32::MAX { i64::MAX } else { i64::from(to_b) - i64::from(to_a) };
                (lead, p)
            });
            let rest = set.split_off(set.len().div_ceil(width) / 2 * width);
            parts.push(rest);
            parts.push(set);
        }
    }
    batched
}

#[cfg(test)]
mod tests {
    use super::{bisected_batches, compact_batches, dfs_order, dissection_order};
    use crate::{GraphBuilder, NodeId};

    /// The dissection order lists every node not skipped once, on open grids, grids with walls
    /// that cut them into parts, and with skipped nodes; a separator's nodes come between the
    /// two sides it separates.
    #[test]
    fn the_dissection_order_is_a_permutation_of_the_nodes_not_skipped() {
        // A wall down column 5 with no gap: two parts; a wall with a gap; an open grid.
        let cases = [
            (11, 7, (0..7).map(|y| y * 11 + 5).collect::<Vec<u32>>()),
            (11, 7, vec![5, 16, 27, 49, 60, 71]),
            (16, 16, vec![]),
        ];
        for (w, h, walls) in cases {
            let builder = grid(w, h, &walls);
            let n = builder.nodes_len();
            for skip_every in [0usize, 3] {
                let skip: Vec<bool> = (0..n)
                    .map(|v| walls.contains(&(v as u32)) || (skip_every > 0 && v % skip_every == 0))
                    .collect();
                let order = dissection_order(n, |v| builder.neighbors(v as u32), &skip);
                let mut sorted = order.clone();
                sorted.sort_unstable();
                let expected: Vec<NodeId> = (0..n as NodeId).filter(|&v| !skip[v as usize]).collect();
                assert_eq!(sorted, expected, "{w}x{h}, walls {walls:?}, skip every {skip_every}");
            }
        }
        // A path of 9 nodes: cut at its middle, the sides on either side of it.
        let mut path = GraphBuilder::new(9);
        for v in 0..8 {
            path.connect(v, v + 1);
        }
        let order = dissection_order(9, |v| path.neighbors(v as u32), &[false; 9]);
        let middle = order.iter().position(|&v| v == 4).unwrap();
        assert!(
            order[..middle].iter().all(|&v| v < 4) || order[..middle].iter().all(|&v| v > 4),
            "{order:?}"
        );
    }

    /// An open `w` × `h` 4-grid, less the cells in `walls`.
    fn grid(w: u32, h: u32, walls: &[u32]) -> GraphBuilder {
        let mut builder = GraphBuilder::new((w * h) as usize);
        for y in 0..h {
            for x in 0..w {
                let v = y * w + x;
                if x + 1 < w && !walls.contains(&v) && !walls.contains(&(v + 1)) {
                    builder.connect(v, v + 1);
                }
                if y + 1 < h && !walls.contains(&v) && !walls.contains(&(v + w)) {
                    builder.connect(v, v + w);
                }
            }
        }
        builder
    }

    /// The depth-first order of `builder`'s nodes and each node's position in it.
    fn depth_first(builder: &GraphBuilder) -> (Vec<NodeId>, Vec<u32>) {
        let n = builder.nodes_len();
        let order = dfs_order(n, |v| builder.neighbors(v as u32), &vec![false; n]);
        let mut column = vec![0u32; n];
        for (c, &v) in order.iter().enumerate() {
            column[v as usize] = c as u32;
        }
        (order, column)
    }

    /// `batched` searches every target exactly once, each within its span of `span` positions.
    fn assert_regrouped(batched: &[NodeId], targets: &[NodeId], column: &[u32], span: usize) {
        let (mut sorted, mut all) = (batched.to_vec(), targets.to_vec());
        sorted.sort_unstable();
        all.sort_unstable();
        assert_eq!(sorted, all, "every target searched exactly once");
        for (p, &v) in batched.iter().enumerate() {
            assert_eq!(column[v as usize] as usize / span, p / span, "a target stays in its span");
        }
    }

    #[test]
    fn compact_batches_regroup_within_each_span() {
        // A 20 × 20 open 4-grid with one wall cell: targets in depth-first order.
        let builder = grid(20, 20, &[45]);
        let neighbors = |v: usize| builder.neighbors(v as u32);
        let (order, column) = depth_first(&builder);
        assert_eq!(order.len(), 400);
        // Single targets, and octets of the first 399.
        let cut = &order[..399];
        for (targets, unit) in [(&order[..], 1), (cut, 8)] {
            let (span, width) = (96, 24);
            let batched = compact_batches(neighbors, targets, &column, span, width, unit);
            assert_regrouped(&batched, targets, &column, span);
            // Units stay whole and in order.
            for chunk in batched.chunks(unit) {
                let first = column[chunk[0] as usize] as usize;
                assert_eq!(first % unit, 0);
                for (i, &v) in chunk.iter().enumerate() {
                    assert_eq!(column[v as usize] as usize, first + i);
                }
            }
        }
        // 399 targets in octets: 49 whole ones and a short one, searched last.
        let batched = compact_batches(neighbors, cut, &column, 96, 24, 8);
        assert_eq!(column[batched[batched.len() - 1] as usize] as usize, 398);
    }

    /// Bisection keeps each target in its span, cuts every group but a short span's last to
    /// the full width, and cuts compact groups where runs of the depth-first order are strips.
    #[test]
    fn bisected_batches_are_compact_and_stay_in_their_spans() {
        let (w, h) = (30u32, 25u32);
        let builder = grid(w, h, &[]);
        let neighbors = |v: usize| builder.neighbors(v as u32);
        let (order, column) = depth_first(&builder);
        // Half-perimeter of a group's bounding box.
        let extent = |group: &[u32]| {
            let (xs, ys): (Vec<u32>, Vec<u32>) = group.iter().map(|&v| (v % w, v / w)).unzip();
            let spread = |c: &[u32]| c.iter().max().unwrap() - c.iter().min().unwrap() + 1;
            spread(&xs) + spread(&ys)
        };
        let (span, width) = (256, 32);
        let batched = bisected_batches(neighbors, &order, &column, span, width);
        assert_regrouped(&batched, &order, &column, span);
        // 750 targets: two spans of 256 and one of 238, whose last group holds 14.
        let groups: Vec<&[u32]> = batched.chunks(width).collect();
        assert_eq!(groups.len(), 24);
        assert_eq!(groups[23].len(), 750 - 23 * 32);
        // Runs of the depth-first order span 15 to 32 rows and columns together here.
        let mean = |extents: &[u32]| f64::from(extents.iter().sum::<u32>()) / extents.len() as f64;
        let cut: Vec<u32> = groups[..23].iter().map(|g| extent(g)).collect();
        let runs: Vec<u32> = order.chunks(width).map(extent).collect();
        assert!(cut.iter().all(|&e| e <= 24), "groups: {cut:?}");
        assert!(mean(&cut) <= 17.0 && mean(&runs) >= 22.0, "{cut:?} against {runs:?}");
    }
}
