//! The batched bit-parallel BFS engine for undirected unit-cost graphs.
//!
//! One run handles up to `64 · K` targets at once, one bit per target in a lane of `K` words.
//! At level `L`, a node `v` is newly reached for the targets `S` whose search reached one of
//! `v`'s neighbours at level `L − 1` and has not reached `v` yet, so `d(v, t) = L` for each
//! `t ∈ S`.
//!
//! ## Distances modulo 3, and nothing else
//!
//! Slot `i` of `v` (neighbour `w`) is an optimal first move toward `t` exactly when
//! `d(w, t) = d(v, t) − 1`. On an undirected graph neighbours' distances differ by at most one,
//! so `d(v, t) − d(w, t) ∈ {−1, 0, 1}` and the residues `d mod 3` alone decide it:
//! `d(w, t) ≡ d(v, t) − 1 (mod 3)`. The engine's whole state is two bit planes per node, a
//! 2-bit code per target: `00` not reached yet, `01`, `10`, `11` reached at a distance
//! ≡ 0, 1, 2 (mod 3). Every slot's mask is derived once, after the search, from the codes of
//! the node and of its neighbour.
//!
//! The frontier needs no state of its own either. Level `L` reads the neighbours whose code is
//! that of `L − 1`: those reached at `L − 1`, and those reached at `L − 4`, `L − 7`, …, whose
//! neighbours were all reached by `L − 3` and so are masked out by "not reached yet". Nodes
//! are updated in place: a node reached during level `L` takes the code of `L`, which no read
//! of level `L` matches. Against separate visited, frontier and next-frontier lanes, a level
//! touches 2 lanes per node instead of 5 (measured: brc202d's searches 18% faster on 2 cores).
//!
//! ## Which nodes are looked at
//!
//! Only *live* nodes are evaluated at each level: a node joins the live set when one of its
//! neighbours is first reached (before that it cannot gain anything), and leaves it once it has
//! been reached by every target of the batch that can reach it (its *goal*: the batch's targets
//! in its connected component); the search ends when no node is live (or, as a bound, after
//! as many levels as there are nodes). Because a batch's targets are close together (see
//! [`super::order`]), each node is live for only about as many levels as the batch's
//! diameter, and the engine never scans the whole graph per level (only the live set's summary,
//! a word per 4,096 nodes). The goal only has to
//! contain every target that can reach the node: a larger goal costs time, never correctness.
//!
//! On graphs of degree at most 4 (4-connected grids) the neighbours come from
//! [`Adjacency::padded`], four per node with a sentinel that is never reached: no offsets to
//! load and no loop whose length varies from node to node (a mispredicted branch per node).
//! The same lists, with peeled neighbours already turned into the sentinel, wake up the
//! neighbours of the nodes a level reached (they were just read, so they are in cache; the
//! in-arc offsets, tails and peeled flags were three more loads per node: AR0602SR's
//! compressed build 10.3–11.2 s → 8.8–10.3 s, alternating).

use crate::NodeId;

/// Read-only adjacency for the engine: out-arcs (table slots) and in-arcs (who to wake up).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Adjacency<'a> {
    /// Out-arcs of node `v`: `heads[offsets[v]..offsets[v + 1]]`, in table slot order. A
    /// plain offset array (not the table's wider rows) keeps the engine's working set small.
    pub offsets: &'a [u32],
    /// Out-arc heads.
    pub heads: &'a [NodeId],
    /// In-arcs of `v`: `tails[in_offsets[v]..in_offsets[v + 1]]` (the out-arcs again for
    /// undirected graphs).
    pub in_offsets: &'a [u32],
    /// In-arc tails.
    pub tails: &'a [NodeId],
    /// Component label per node: targets in other components never reach a node.
    pub component: &'a [u32],
    /// Nodes the search must not enter (peeled trees), one flag per node, or empty.
    pub peeled: &'a [bool],
    /// The neighbours of each node padded to four with the sentinel [`Adjacency::nodes`], or
    /// empty when some node has more than four ([`padded`] makes it, for undirected graphs
    /// only: the search reads these lists as both the out-arcs and the in-arcs). Peeled
    /// neighbours are the sentinel too.
    pub padded: &'a [[NodeId; 4]],
}

/// [`Adjacency::padded`] of an undirected graph: each node's neighbours padded to four with
/// the sentinel `n`, or empty when some node has more than four. Neighbours flagged in
/// `peeled` (empty, or a flag per node) are the sentinel too: the search never enters them.
pub(crate) fn padded(offsets: &[u32], heads: &[NodeId], peeled: &[bool]) -> Vec<[NodeId; 4]> {
    let n = offsets.len() - 1;
    if offsets.windows(2).any(|w| w[1] - w[0] > 4) {
        return Vec::new();
    }
    (0..n)
        .map(|v| {
            let mut four = [n as NodeId; 4];
            let list = &heads[offsets[v] as usize..offsets[v + 1] as usize];
            for (slot, &w) in four.iter_mut().zip(list) {
                if !super::flagged(peeled, w as usize) {
                    *slot = w;
                }
            }
            four
        })
        .collect()
}

/// A lane of `K · 64` target bits.
pub(crate) type Lane<const K: usize> = [u64; K];

impl Adjacency<'_> {
    /// Out-arc indices of `v`.
    #[inline]
    pub fn arcs(&self, v: usize) -> core::ops::Range<usize> {
        self.offsets[v] as usize..self.offsets[v + 1] as usize
    }

    /// In-arc indices of `v`.
    #[inline]
    fn in_arcs(&self, v: usize) -> core::ops::Range<usize> {
        self.in_offsets[v] as usize..self.in_offsets[v + 1] as usize
    }

    /// Number of nodes.
    #[inline]
    pub fn nodes(&self) -> usize {
        self.offsets.len() - 1
    }
}

#[inline]
fn or<const K: usize>(a: Lane<K>, b: Lane<K>) -> Lane<K> {
    core::array::from_fn(|k| a[k] | b[k])
}

#[inline]
fn and_not<const K: usize>(a: Lane<K>, b: Lane<K>) -> Lane<K> {
    core::array::from_fn(|k| a[k] & !b[k])
}

#[inline]
fn is_zero<const K: usize>(a: Lane<K>) -> bool {
    a.iter().fold(0, |acc, &w| acc | w) == 0
}

/// Sets `goals` to the batch's targets grouped by component, sorted by component.
fn collect_goals<const K: usize>(component: &[u32], targets: &[NodeId], goals: &mut Vec<(u32, Lane<K>)>) {
    goals.clear();
    for (j, &t) in targets.iter().enumerate() {
        let c = component[t as usize];
        let i = goals.iter().position(|&(gc, _)| gc == c).unwrap_or_else(|| {
            goals.push((c, [0; K]));
            goals.len() - 1
        });
        goals[i].1[j / 64] |= 1 << (j % 64);
    }
    goals.sort_unstable_by_key(|&(c, _)| c);
}

/// The live nodes as a bitmap over node ids, with a summary bit per non-empty word: a node
/// joins in O(1) and at most once, and a level visits the live nodes in id order. On maps
/// numbered row by row a level's loads then sweep memory in a few streams the processor
/// prefetches, with no list to sort or merge (which took 13% of brc202d's build as a sorted
/// list merged with each level's joins).
#[derive(Debug)]
struct LiveSet {
    words: Vec<u64>,
    summary: Vec<u64>,
}

impl LiveSet {
    fn new(nodes: usize) -> Self {
        let words = nodes.div_ceil(64);
        LiveSet { words: vec![0; words], summary: vec![0; words.div_ceil(64)] }
    }

    #[inline]
    fn insert(&mut self, v: usize) {
        self.words[v / 64] |= 1 << (v % 64);
        self.summary[v / 4096] |= 1 << ((v / 64) % 64);
    }

    fn is_empty(&self) -> bool {
        self.summary.iter().all(|&s| s == 0)
    }

    fn clear(&mut self) {
        for_each_bit(&self.summary, |w| self.words[w] = 0);
        self.summary.fill(0);
    }

    /// Calls `keep(v)` for every live node in id order; nodes for which it returns `false`
    /// leave the set.
    #[expect(clippy::inline_always, reason = "compiled once per caller's target features")]
    #[inline(always)]
    fn retain(&mut self, mut keep: impl FnMut(usize) -> bool) {
        for (i, summary) in self.summary.iter_mut().enumerate() {
            let mut nonempty = *summary;
            while nonempty != 0 {
                let w = i * 64 + nonempty.trailing_zeros() as usize;
                nonempty &= nonempty - 1;
                let mut bits = self.words[w];
                let mut kept = bits;
                while bits != 0 {
                    let b = bits.trailing_zeros();
                    bits &= bits - 1;
                    kept ^= u64::from(!keep(w * 64 + b as usize)) << b;
                }
                self.words[w] = kept;
                *summary &= !(u64::from(kept == 0) << (w % 64));
            }
        }
    }
}

/// Sets the bits of `nodes` in `bitmap`.
fn mark(nodes: &[u32], bitmap: &mut [u64]) {
    for &v in nodes {
        bitmap[v as usize / 64] |= 1 << (v % 64);
    }
}

/// Calls `f(v)` for every bit `v` set in `bitmap`, in increasing order. The reached nodes'
/// masks are derived in id order, not in the order first reached: the state and the output
/// are then read and written in a few streams (AR0602SR's compressed build 11.1–12.3 s →
/// 10.6–11.1 s, alternating).
fn for_each_bit(bitmap: &[u64], mut f: impl FnMut(usize)) {
    for (i, &word) in bitmap.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            f(i * 64 + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
}

/// A node's state, one 2-bit code per target: `[high, low]` planes.
type Codes<const K: usize> = [Lane<K>; 2];

/// `(high, low)` bits of the code of distances `≡ r (mod 3)`, as all-zero or all-one words.
#[inline]
fn code(r: u32) -> (u64, u64) {
    match r % 3 {
        0 => (0, !0),
        1 => (!0, 0),
        _ => (!0, !0),
    }
}

/// Writes the slot masks of `v` from the codes to `masks` (one per arc): neighbour `w` is
/// optimal toward `t` iff `d(w, t) ≡ d(v, t) − 1 (mod 3)`, for targets that reach both.
#[expect(clippy::inline_always, reason = "compiled once per caller's target features")]
#[inline(always)]
fn slot_masks<const K: usize>(g: Adjacency<'_>, v: usize, codes: &[Codes<K>], masks: &mut [Lane<K>]) {
    let [h, l] = codes[v];
    for (mask, &w) in masks.iter_mut().zip(&g.heads[g.arcs(v)]) {
        let [hw, lw] = codes[w as usize];
        *mask = core::array::from_fn(|k| {
            // Residue 1 and residue 2 of each end; reached with neither: residue 0.
            let (a1, a2) = (h[k] & !l[k], h[k] & l[k]);
            let (b1, b2) = (hw[k] & !lw[k], hw[k] & lw[k]);
            let both = (h[k] | l[k]) & (hw[k] | lw[k]);
            // (d(w), d(v)) mod 3 ∈ {(0, 1), (1, 2), (2, 0)}
            let one_after = (!b1 & !b2 & a1) | (b1 & a2) | (b2 & !a1 & !a2);
            both & one_after
        });
    }
}

/// Reusable scratch for batch runs on one graph: two lanes per node, reset in O(reached +
/// nodes / 64).
#[derive(Debug)]
pub(crate) struct BfsBatch<const K: usize> {
    /// Per node (and the sentinel, never reached): `d(v, t) mod 3` per target.
    codes: Vec<Codes<K>>,
    /// One node's slot masks, for `emit`.
    masks: Vec<Lane<K>>,
    live: LiveSet,
    /// The nodes reached so far, in the order first reached.
    touched: Vec<u32>,
    /// The nodes reached, as a bitmap (all zero between runs).
    reached: Vec<u64>,
    goals: Vec<(u32, Lane<K>)>,
}

impl<const K: usize> BfsBatch<K> {
    /// Targets per run.
    pub const WIDTH: usize = 64 * K;

    pub fn new(nodes: usize) -> Self {
        BfsBatch {
            codes: crate::memory::filled(nodes + 1, [[0; K]; 2]),
            masks: Vec::new(),
            live: LiveSet::new(nodes),
            touched: Vec::new(),
            reached: vec![0; nodes.div_ceil(64)],
            goals: Vec::new(),
        }
    }

    /// Runs the searches of up to `64 · K` `targets` (bit `j` = `targets[j]`), then calls
    /// `emit(node, masks)` once for every node reached by some target, with that node's
    /// per-slot lanes. Nodes not reached have all-zero entries and are not emitted.
    ///
    /// The dense build's engine, compiled for the baseline only: a copy for AVX2 (as
    /// [`BfsBatch::run_into`] has), with 128 or 256 targets a batch, measured no faster on
    /// 200 × 200 grids (`profile_build`, alternating).
    pub fn run(&mut self, g: Adjacency<'_>, targets: &[NodeId], mut emit: impl FnMut(usize, &[Lane<K>])) {
        self.search::<0>(g, targets);
        let BfsBatch { codes, masks, touched, reached, .. } = self;
        mark(touched, reached);
        for_each_bit(reached, |v| {
            masks.resize(g.arcs(v).len(), [0; K]);
            slot_masks(g, v, codes, masks);
            emit(v, masks);
        });
        for_each_bit(reached, |v| codes[v] = [[0; K]; 2]);
        reached.fill(0);
        touched.clear();
    }

    /// As [`BfsBatch::run`], writing the slot masks of each node `v` reached to
    /// `out[v * stride..]` (one per arc) and setting bit `v` of `reached`, which the caller
    /// clears before each run; entries of nodes not reached are left as they were. With
    /// `avx2`, runs a copy compiled for AVX2 (a lane of 256 targets in one instruction).
    pub fn run_into(
        &mut self,
        avx2: Option<super::Avx2>,
        g: Adjacency<'_>,
        targets: &[NodeId],
        out: &mut [Lane<K>],
        stride: usize,
        reached: &mut [u64],
    ) {
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = avx2 {
            // SAFETY: the token exists only when the processor has AVX2.
            unsafe { self.run_into_avx2(token, g, targets, out, stride, reached) };
            return;
        }
        let _ = avx2;
        self.run_into_here::<1>(g, targets, out, stride, reached);
    }

    /// [`BfsBatch::run_into`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn run_into_avx2(
        &mut self,
        _: super::Avx2,
        g: Adjacency<'_>,
        targets: &[NodeId],
        out: &mut [Lane<K>],
        stride: usize,
        reached: &mut [u64],
    ) {
        self.run_into_here::<2>(g, targets, out, stride, reached);
    }

    /// The body of [`BfsBatch::run_into`], inlined into each copy with its caller's target
    /// features (the search and its level loop with it). `COPY` tells the copies (and
    /// [`BfsBatch::run`]) apart, so that each has closures of its own, each called from one
    /// place and inlined.
    #[expect(clippy::inline_always, reason = "compiled once per caller's target features")]
    #[inline(always)]
    fn run_into_here<const COPY: u8>(
        &mut self,
        g: Adjacency<'_>,
        targets: &[NodeId],
        out: &mut [Lane<K>],
        stride: usize,
        reached: &mut [u64],
    ) {
        debug_assert!(reached.iter().all(|&w| w == 0));
        self.search::<COPY>(g, targets);
        let BfsBatch { codes, touched, .. } = self;
        mark(touched, reached);
        for_each_bit(reached, |v| {
            slot_masks(g, v, codes, &mut out[v * stride..v * stride + g.arcs(v).len()]);
        });
        for_each_bit(reached, |v| codes[v] = [[0; K]; 2]);
        touched.clear();
    }

    /// The searches of `targets`: leaves the codes of every node reached, and the nodes
    /// reached in `touched`.
    #[expect(clippy::inline_always, reason = "compiled once per caller's target features")]
    #[inline(always)]
    fn search<const COPY: u8>(&mut self, g: Adjacency<'_>, targets: &[NodeId]) {
        debug_assert!(targets.len() <= Self::WIDTH);
        debug_assert!(g.padded.is_empty() || g.padded.len() == g.nodes());
        let BfsBatch { codes, live, touched, goals, .. } = self;

        collect_goals(g.component, targets, goals);
        let only_goal = if let [(_, only)] = goals.as_slice() { Some(*only) } else { None };
        // The targets that can reach a live node: those of its component.
        let goal = |v: usize| -> Lane<K> {
            if let Some(only) = only_goal {
                return only;
            }
            let c = g.component[v];
            let i = goals
                .binary_search_by_key(&c, |&(gc, _)| gc)
                .expect("a live node shares a target's component");
            goals[i].1
        };
        // Adds `v` to the live set (a node that left it may join again: it then gains nothing
        // and leaves after one look).
        let join = |v: u32, live: &mut LiveSet| {
            if !super::flagged(g.peeled, v as usize) {
                live.insert(v as usize);
            }
        };

        // Level 0: each target, residue 0.
        for (j, &t) in targets.iter().enumerate() {
            let [h, l] = &mut codes[t as usize];
            if is_zero(*h) && is_zero(*l) {
                touched.push(t);
            }
            l[j / 64] |= 1 << (j % 64);
        }

        let (mut level, mut reached) = (0u32, 0);
        loop {
            if g.padded.is_empty() {
                for &v in &touched[reached..] {
                    join(v, live);
                    for &w in &g.tails[g.in_arcs(v as usize)] {
                        join(w, live);
                    }
                }
            } else {
                // The lists just read by the level that reached `v`, with the peeled trees
                // already left out: no in-arc offsets, tails or flags to load.
                let sentinel = g.nodes() as NodeId;
                for &v in &touched[reached..] {
                    live.insert(v as usize);
                    for w in g.padded[v as usize] {
                        if w != sentinel {
                            live.insert(w as usize);
                        }
                    }
                }
            }
            // No distance reaches the number of nodes: past that level every search is over,
            // whatever is left live, so the end does not rest on the goals alone (a goal naming
            // a target that cannot reach its node would otherwise keep the loop going). A
            // test per level, where tracking whether a level reached anything (a test per
            // node) measured up to 15% slower on AR0602SR.
            if live.is_empty() || level as usize >= g.nodes() {
                break;
            }

            level += 1;
            reached = touched.len();
            if g.padded.is_empty() {
                let neighbors = |v: usize| g.heads[g.arcs(v)].iter().map(|&w| w as usize);
                evaluate_level::<K, COPY, _>(level, live, codes, &goal, touched, neighbors);
            } else {
                let padded = g.padded;
                let neighbors = |v: usize| padded[v].map(|w| w as usize);
                evaluate_level::<K, COPY, _>(level, live, codes, &goal, touched, neighbors);
            }
        }
        live.clear();
    }
}

/// Level `level` of a search: [`evaluate`]'s copy for its residue.
#[expect(clippy::inline_always, reason = "compiled once per caller's target features")]
#[inline(always)]
fn evaluate_level<const K: usize, const COPY: u8, N: IntoIterator<Item = usize>>(
    level: u32,
    live: &mut LiveSet,
    codes: &mut [Codes<K>],
    goal: &impl Fn(usize) -> Lane<K>,
    touched: &mut Vec<u32>,
    neighbors: impl Fn(usize) -> N,
) {
    match level % 3 {
        0 => evaluate::<K, COPY, 0, N>(live, codes, goal, touched, neighbors),
        1 => evaluate::<K, COPY, 1, N>(live, codes, goal, touched, neighbors),
        _ => evaluate::<K, COPY, 2, N>(live, codes, goal, touched, neighbors),
    }
}

/// A level of a search, `RESIDUE` its number modulo 3: every live node gains the targets
/// that reached one of its `neighbors` at the level before, and leaves the live set once it
/// holds its `goal`; nodes reached for the first time are pushed to `touched`.
///
/// One copy per residue, so that the codes compared and written are constants: the test of
/// a neighbour's code folds into one and-not of its two planes, and a node's update into ORs
/// of the planes it sets (with the residue a run-time value, two more XORs per neighbour and
/// ANDs per plane). Measured on 2 cores, alternating: AR0602SR's whole compressed build
/// 4.0–4.1 s → 3.5–3.7 s, random512-10-0 69 → 60 s, `64room_000` 66 → 59 s, maze512-4-0
/// 67 → 58 s.
///
/// Each look at a live node costs about 7 ns (256 targets, AVX2), on maps whose state fits
/// the level-2 cache (arena) as on large ones. Compiling it for AVX-512VL (the logic then
/// fuses into `vpternlog`), appending to `touched` without `Vec::push`'s growth path, and
/// returning the goal by reference all measured within the noise.
///
/// A function of its own, on slices: with the node state a `&mut` slice argument the compiler
/// keeps its address in a register (inside the search's closures it reloaded it after every
/// store).
#[expect(clippy::inline_always, reason = "compiled once per caller's target features")]
#[inline(always)]
fn evaluate<const K: usize, const COPY: u8, const RESIDUE: u32, N: IntoIterator<Item = usize>>(
    live: &mut LiveSet,
    codes: &mut [Codes<K>],
    goal: &impl Fn(usize) -> Lane<K>,
    touched: &mut Vec<u32>,
    neighbors: impl Fn(usize) -> N,
) {
    // Neighbours whose code is that of `level - 1`: `(high ^ xh) & (low ^ xl)` all ones.
    let (ph, pl) = code(RESIDUE + 2);
    let (xh, xl) = (!ph, !pl);
    let (nh, nl) = code(RESIDUE);
    // Branch-free on purpose: whether a live node gains anything is unpredictable, and a
    // straight-line body lets the processor overlap the loads of many nodes. Nodes reached for
    // the first time are about one in 40 live nodes a level: that branch predicts well
    // (writing every node and counting measured 7% slower on AR0602SR).
    live.retain(|v| {
        let reach = neighbors(v).into_iter().fold([0; K], |r, w| {
            let [h, l] = &codes[w];
            or(r, core::array::from_fn(|k| (h[k] ^ xh) & (l[k] ^ xl)))
        });
        let [h, l] = &mut codes[v];
        let before = or(*h, *l);
        let new = and_not(reach, before);
        *h = or(*h, core::array::from_fn(|k| new[k] & nh));
        *l = or(*l, core::array::from_fn(|k| new[k] & nl));
        if is_zero(before) && !is_zero(new) {
            touched.push(v as u32);
        }
        or(before, new) != goal(v)
    });
}

#[cfg(test)]
mod tests {
    use super::LiveSet;

    #[test]
    fn live_set_visits_in_id_order_and_forgets_what_leaves() {
        let mut live = LiveSet::new(10_000);
        assert!(live.is_empty());
        for v in [9_999, 5, 4_096, 64, 5, 63, 4_095] {
            live.insert(v);
        }
        let mut seen = Vec::new();
        live.retain(|v| {
            seen.push(v);
            v % 2 == 1
        });
        assert_eq!(seen, [5, 63, 64, 4_095, 4_096, 9_999]);
        seen.clear();
        live.retain(|v| {
            seen.push(v);
            v != 4_095
        });
        assert_eq!(seen, [5, 63, 4_095, 9_999]);
        assert_eq!(live.summary[1], 0, "an emptied word leaves the summary");
        live.clear();
        assert!(live.is_empty());
        assert!(live.words.iter().all(|&w| w == 0));
        live.insert(4_096);
        live.retain(|v| {
            seen.push(v);
            false
        });
        assert!(live.is_empty());
    }
}
