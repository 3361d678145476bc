//! The octile search: undirected graphs whose arcs cost 1 or √2 (octile grids) or integer
//! costs 1 and 2, searched with one exact integer key per cost, three buckets and eight arc
//! slots per node tested without a branch (four at a time with AVX2); see [`Octile`]. With
//! AVX2, octile grids are searched 32 targets at a time by [`super::levels`] instead; this
//! search then only takes the batches that pass that engine's level limit.

use super::dijkstra::{Arcs, BATCH};
use crate::{Cost, NodeId};

/// Counts of unit and √2 steps of at most this many per path: the [`Octile`] search's keys
/// then order them exactly.
const OCTILE_COUNTS: u64 = 1 << 20;

/// Fixed-point bits of an [`Octile`] key.
const KEY_SHIFT: u32 = 42;

/// `√2 · 2^42`, rounded to the nearest integer.
#[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "below 2^43")]
const SQRT_2_KEY: u64 = (core::f64::consts::SQRT_2 * (1u64 << KEY_SHIFT) as f64 + 0.5) as u64;

/// The key of a path cost `a + b·√2`: `a · 2^42 + b · round(√2 · 2^42)`, an integer.
///
/// Keys of costs whose counts are below 2^20 add exactly (an arc's key plus a path's key is
/// the longer path's key) and order exactly as the costs: a key is off the cost's exact
/// multiple of 2^42 by at most `b / 2 < 2^19`, two keys together by less than 2^20, and two
/// different costs differ by more than `1 / (2^20 · (1 + √2))` (`|p + q√2| = |p² − 2q²| /
/// |p − q√2|`, a non-zero integer over less than `2^20 (1 + √2)`), which is more than
/// `1.7 · 10^6` at this scale. They are also below 2^64 (`2^20 · (1 + √2) < 2^22`), and
/// `key >> 42` is `⌊a + b√2⌋`: the key's error is below `2^-23` at the scale of the cost, and
/// such a cost is never within `1 / (3 · 2^20)` of an integer unless `b = 0`, when the key is
/// exact.
#[inline]
fn key(cost: Cost) -> u64 {
    (cost.straight << KEY_SHIFT) + cost.diagonal * SQRT_2_KEY
}

/// The key of a node no path has reached yet.
const UNREACHED: u64 = u64::MAX;

/// The search for undirected graphs whose arcs cost between 1 and 2 and whose paths count
/// fewer than 2^20 unit and √2 steps (octile grids under a million cells; costs 1 and 2).
/// Against the general search:
///
/// - A node's cost is one integer [`key`], added and compared exactly.
/// - The queue is three buckets of width 1: arcs cost 1 to 2, so a bucket only feeds the next
///   two, and every node of a bucket is final when its bucket is reached (see
///   [`Queue`](super::dijkstra::Queue)). A node whose cost fell into an earlier bucket after
///   it was queued is skipped when its old entry comes up; one queued twice in the same
///   bucket is settled twice, the second time changing nothing. No settled flags, no separate
///   distance array.
/// - A node's optimal moves are the arcs toward a neighbour whose cost plus the arc's equals
///   its own, tested when it is settled, as in the general search of [`super::dijkstra`] (an
///   unsettled neighbour's tentative cost is never that low). They are kept as one byte per node and target, in a row per
///   target; the batch's rows become one mask per arc by 64 × 64 bit transposes.
///
/// Measured (`OCTILE=1 cargo run --release -p signposts-bench --bin profile_compressed -- MAP`,
/// alternating binaries, 2 cores): lak303d (14,784 cells) 9.8–10.3 s with counts packed in a
/// `u64` beside a float value, a byte of moves per node and target turned into masks a bit at
/// a time, and a head and a cost per arc; 4.5–5.3 s with keys, transposes and packed slots;
/// brc202d (43,151 cells) 152–164 s → 39–50 s.
///
/// A node's slots are prefetched when it is queued, one or two buckets before it is settled:
/// past a few tens of thousands of cells they do not stay in the level-2 cache, and the load
/// of the settled node's slots took a third of the samples (maze512-4-0). Searches alone,
/// one thread, 384 targets: AR0602SR 57 → 38 ns per node, maze512-4-0 80 → 52–57 ns
/// (alternating); whole builds: brc202d 50 → 41 s, lak303d (whose slots fit that cache)
/// 5.0 → 4.6 s.
///
/// On processors with AVX2 (detected at run time) the eight slots of a settled node are tested
/// four at a time: heads and arc keys decoded in vectors, the eight keys gathered, both masks
/// from two comparisons each (searches alone, one thread, medians of 5 and 3 alternating runs:
/// AR0602SR 36.4 → 33.7 ns per node, maze512-4-0 50.7 → 44.7; loading the keys one by one
/// instead of gathering them measured the same).
///
/// Tried and dropped:
///
/// - pushing every neighbour without a branch (each entry written, the bucket's length
///   advanced by the comparison): 6.5–7.5 s on lak303d against 4.7–5.2 s; the stores make
///   each settle wait on the previous one's;
/// - the first improved neighbour queued without a branch (with none, a spare key and an entry
///   past the bucket's end written), the rest in a loop: 15–20% slower (AR0602SR 32.7 → 38.1
///   ns per node, lak303d 32.6 → 37.1, medians of 5);
/// - prefetching the next queued node's slots and key (one settle ahead, too late): no
///   faster; also prefetching, at queue time, the key of the cell beyond the queued one:
///   no faster than the slots alone;
/// - the buckets settled first-in first-out: lak303d 2.3 → 2.8 s;
/// - the buckets as bitmaps over node ids (each settled in id order, a node queued twice in
///   a bucket settled once): 10–20% slower (AR0602SR 47 → 54 ns per node, maze512-4-0 66 →
///   79) — the stacks settle first what was queued last, whose lines are still in cache;
/// - indexing the search by the cells of the padded grid (neighbours at fixed offsets, no
///   arcs read, the grid's layout handed down from the grid layer): lak303d 9% faster,
///   brc202d (43,151 open cells of 254,930) 3% slower in one run each: its rows grow sixfold;
/// - one mask per arc written when a node settles, instead of a move byte per node: 28% of
///   the samples on that store, the masks (64 bytes a node) not staying in cache.
pub(crate) struct Octile<'a> {
    /// Each node's arcs.
    arcs: &'a OctileArcs,
    /// Per node: the key of the best path found.
    key: Vec<u64>,
    buckets: [Vec<u32>; 3],
    /// Per target of the batch, then per node: the slots of the optimal moves.
    moves: Vec<u8>,
    /// Present when the processor has AVX2: slots are then tested four at a time.
    avx2: Option<super::Avx2>,
}

/// Per node, its arcs in slot order as the head shifted left by 2, or'ed with the cost's index
/// in `keys`; slots past the node's degree hold the node itself at cost 1, which is never
/// optimal and never improves it, so a settled node's eight slots are tested without a branch.
///
/// Heads are stored as their offset from the node in 14 bits when every arc allows it (grid
/// maps up to 8,000 cells wide): 16 bytes a node instead of 32, which the search streams for
/// every node it settles (brc202d's octile build 49–54 s → 42–46 s, alternating).
pub(super) enum OctileArcs {
    Near(Slots<u16>),
    Far(Slots<u32>),
}

/// Each node's eight slots, every one of which leads to a node (checked when made): the AVX2
/// slot tests read the heads' keys without bounds checks.
pub(super) struct Slots<S>(Vec<[S; 8]>);

impl<S: Slot> Slots<S> {
    fn new(slots: Vec<[S; 8]>) -> Slots<S> {
        let n = slots.len();
        assert!(
            slots.iter().enumerate().all(|(v, arcs)| arcs.iter().all(|&a| a.arc(v).0 < n)),
            "every slot leads to a node"
        );
        Slots(slots)
    }
}

/// The keys of the (at most three) arc costs from 1 to 2: 1, 2 and √2, by their index in an
/// [`OctileArcs`] slot.
const ARC_KEYS: [u64; 4] = [1 << KEY_SHIFT, 2 << KEY_SHIFT, SQRT_2_KEY, 0];

/// A stored arc slot of [`OctileArcs`].
pub(super) trait Slot: Copy {
    /// The head of the arc in this slot of node `v`, and the arc's key.
    fn arc(self, v: usize) -> (usize, u64);
}

impl Slot for u16 {
    #[inline]
    fn arc(self, v: usize) -> (usize, u64) {
        (v.wrapping_add_signed((self.cast_signed() >> 2) as isize), ARC_KEYS[(self & 3) as usize])
    }
}

impl Slot for u32 {
    #[inline]
    fn arc(self, _: usize) -> (usize, u64) {
        ((self >> 2) as usize, ARC_KEYS[(self & 3) as usize])
    }
}

impl OctileArcs {
    pub(super) fn new(g: Arcs<'_>, nodes: usize) -> OctileArcs {
        let class = |a: usize| {
            let k = key(g.cost[a]);
            ARC_KEYS.iter().position(|&c| c == k).expect("a cost from 1 to 2") as u32
        };
        let slots = |v: usize| g.offsets[v] as usize..g.offsets[v + 1] as usize;
        // A slot toward a skipped node is left as padding: never optimal, never relaxed.
        let skipped = |a: usize| super::flagged(g.skip, g.heads[a] as usize);
        // The head's offset from the node, when it fits in 14 bits.
        let near = |v: usize, a: usize| {
            let offset = i64::from(g.heads[a]) - i64::try_from(v).ok()?;
            (-(1 << 13)..1 << 13).contains(&offset).then(|| i16::try_from(offset).ok()).flatten()
        };
        if (0..nodes).all(|v| slots(v).all(|a| near(v, a).is_some())) {
            OctileArcs::Near(Slots::new(
                (0..nodes)
                    .map(|v| {
                        let mut slot_arcs = [0u16; 8];
                        for (slot, a) in slots(v).enumerate().filter(|&(_, a)| !skipped(a)) {
                            let offset = near(v, a).expect("checked above");
                            slot_arcs[slot] = (offset << 2).cast_unsigned() | class(a) as u16;
                        }
                        slot_arcs
                    })
                    .collect(),
            ))
        } else {
            OctileArcs::Far(Slots::new(
                (0..nodes)
                    .map(|v| {
                        let mut far = [(v as u32) << 2; 8];
                        for (slot, a) in slots(v).enumerate().filter(|&(_, a)| !skipped(a)) {
                            far[slot] = g.heads[a] << 2 | class(a);
                        }
                        far
                    })
                    .collect(),
            ))
        }
    }
}

impl<'a> Octile<'a> {
    /// Whether `g` meets the search's conditions.
    pub(super) fn fits(g: Arcs<'_>, nodes: usize) -> bool {
        let largest = g.cost.iter().map(|c| c.straight.max(c.diagonal)).max().unwrap_or(0);
        let fits = (nodes as u64).saturating_mul(largest.max(1)) < OCTILE_COUNTS;
        let steps = g.cost.iter().all(|c| (1.0..=2.0).contains(&c.value()));
        let slots = (0..nodes).all(|v| g.offsets[v + 1] - g.offsets[v] <= 8);
        g.symmetric && fits && steps && slots
    }

    /// The search's scratch over `arcs` (of a graph that [`Octile::fits`]).
    pub(super) fn new(arcs: &'a OctileArcs, nodes: usize, avx2: Option<super::Avx2>) -> Octile<'a> {
        Octile {
            arcs,
            key: vec![UNREACHED; nodes],
            buckets: [Vec::new(), Vec::new(), Vec::new()],
            moves: vec![0; nodes * BATCH],
            avx2,
        }
    }

    /// Searches from each of the `targets`, then writes every arc's mask in `acc` (one per
    /// arc): bit `j` set when the arc is an optimal first move toward `targets[j]`.
    ///
    /// Each search writes its nodes' move bytes into a row of its own (`n` bytes, where its
    /// writes stay in cache); blocks of 8 nodes × 64 targets are then turned into masks by
    /// one 64 × 64 bit transpose.
    pub(super) fn search_batch(&mut self, g: Arcs<'_>, targets: &[NodeId], acc: &mut [u64]) {
        let n = self.key.len();
        for (j, &t) in targets.iter().enumerate() {
            let Octile { arcs, key, buckets, moves, avx2: detected } = self;
            let moves = &mut moves[j * n..(j + 1) * n];
            match (arcs, *detected) {
                #[cfg(target_arch = "x86_64")]
                (OctileArcs::Near(near), Some(token)) => avx2::search(token, near, t, key, buckets, moves),
                (OctileArcs::Near(near), _) => octile_search(Scalar, near, t, key, buckets, moves),
                (OctileArcs::Far(far), _) => octile_search(Scalar, far, t, key, buckets, moves),
            }
        }
        for first in (0..n).step_by(8) {
            let nodes = (n - first).min(8);
            let mut block = [0u64; 64];
            for (j, word) in block.iter_mut().enumerate().take(targets.len()) {
                let row = &self.moves[j * n + first..j * n + first + nodes];
                // Eight bytes as one load (a copy of a variable length was a call to memmove).
                *word = if let Ok(eight) = row.try_into() {
                    u64::from_le_bytes(eight)
                } else {
                    let mut bytes = [0u8; 8];
                    bytes[..nodes].copy_from_slice(row);
                    u64::from_le_bytes(bytes)
                };
            }
            transpose64(&mut block);
            for (k, slots) in block.chunks_exact(8).take(nodes).enumerate() {
                let v = first + k;
                let arcs = &mut acc[g.offsets[v] as usize..g.offsets[v + 1] as usize];
                arcs.copy_from_slice(&slots[..arcs.len()]);
            }
        }
    }
}

/// How [`octile_search`] tests the eight slots of a node it settles.
trait SlotTests<S: Slot>: Copy {
    /// For node `v` of key `own`, whose arcs are `slots`: the slots whose arc is optimal (the
    /// head's key plus the arc's is `own`) and those whose head it improves (`own` plus the
    /// arc's key is below the head's), as bit masks.
    ///
    /// # Safety
    /// Every slot's head must be below `key.len()`.
    unsafe fn test(self, slots: &[S; 8], v: usize, key: &[u64], own: u64) -> (u8, u8);
}

/// One slot at a time, on any processor.
#[derive(Debug, Clone, Copy)]
struct Scalar;

impl<S: Slot> SlotTests<S> for Scalar {
    #[expect(clippy::inline_always, reason = "the search's inner loop: one copy per search body")]
    #[inline(always)]
    unsafe fn test(self, slots: &[S; 8], v: usize, key: &[u64], own: u64) -> (u8, u8) {
        let (mut optimal, mut improved) = (0u8, 0u8);
        // An unreached neighbour's key plus the arc wraps to `arc - 1` (2^42 - 1, 2^43 - 1
        // or `SQRT_2_KEY - 1`), which is no node's key: the only keys below 2^43 (costs
        // under 2) are 0, 2^42 and `SQRT_2_KEY`. So the test needs no check that the
        // neighbour was reached (a search 6% faster without it, median of 7 alternating
        // runs on AR0602SR).
        for (slot, &a) in slots.iter().enumerate() {
            let (w, arc) = a.arc(v);
            let kw = key[w];
            optimal |= u8::from(kw.wrapping_add(arc) == own) << slot;
            improved |= u8::from(own + arc < kw) << slot;
        }
        (optimal, improved)
    }
}

/// One [`Octile`] search from `target`, leaving each node's optimal moves toward it in `moves`.
///
/// Always inlined, so that the AVX2 copy is compiled with AVX2 and its slot tests inline.
#[expect(clippy::inline_always, reason = "compiled once per caller's target features")]
#[inline(always)]
fn octile_search<S: Slot>(
    tests: impl SlotTests<S>,
    Slots(arcs): &Slots<S>,
    target: NodeId,
    key: &mut [u64],
    buckets: &mut [Vec<u32>; 3],
    moves: &mut [u8],
) {
    assert_eq!(key.len(), arcs.len(), "a key per node");
    moves.fill(0);
    key.fill(UNREACHED);
    key[target as usize] = 0;
    buckets[0].push(target);
    let mut pending = 1usize;
    let mut bucket = 0usize;
    while pending > 0 {
        while let Some(v) = buckets[bucket % 3].pop() {
            pending -= 1;
            let vi = v as usize;
            let own = key[vi];
            if (own >> KEY_SHIFT) as usize != bucket {
                continue; // its cost fell into an earlier bucket, where it was settled
            }
            let slots = &arcs[vi];
            // SAFETY: every slot leads to a node (`Slots`), and `key` has one entry per node.
            let (optimal, mut improved) = unsafe { tests.test(slots, vi, key, own) };
            moves[vi] = optimal;
            while improved != 0 {
                let (w, arc) = slots[improved.trailing_zeros() as usize].arc(vi);
                improved &= improved - 1;
                let nk = own + arc;
                key[w] = nk;
                // Settled one or two buckets from now: its slots will be in cache by then.
                crate::prefetch::prefetch(&arcs[w]);
                buckets[(nk >> KEY_SHIFT) as usize % 3].push(w as u32);
                pending += 1;
            }
        }
        bucket += 1;
    }
}

/// The slot tests of [`octile_search`] eight at a time with AVX2, for slots stored as offsets
/// ([`OctileArcs::Near`]).
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use core::arch::x86_64::{
        __m256i, _mm_and_si128, _mm_loadu_si128, _mm_set1_epi16, _mm_srai_epi16, _mm_unpackhi_epi64,
        _mm256_add_epi64, _mm256_castsi256_pd, _mm256_cmpeq_epi64, _mm256_cmpgt_epi64, _mm256_cvtepi16_epi64,
        _mm256_i64gather_epi64, _mm256_movemask_pd, _mm256_permutevar8x32_epi32, _mm256_set1_epi64x,
        _mm256_setr_epi64x, _mm256_slli_epi64, _mm256_xor_si256,
    };

    use super::super::Avx2;
    use super::{ARC_KEYS, NodeId, SlotTests, Slots};

    /// [`super::octile_search`] with the AVX2 slot tests, compiled for AVX2 (so that the
    /// slot tests inline).
    #[inline]
    pub(super) fn search(
        token: Avx2,
        arcs: &Slots<u16>,
        target: NodeId,
        key: &mut [u64],
        buckets: &mut [Vec<u32>; 3],
        moves: &mut [u8],
    ) {
        // SAFETY: the token exists only when the processor has AVX2.
        unsafe { search_avx2(token, arcs, target, key, buckets, moves) }
    }

    #[target_feature(enable = "avx2")]
    fn search_avx2(
        token: Avx2,
        arcs: &Slots<u16>,
        target: NodeId,
        key: &mut [u64],
        buckets: &mut [Vec<u32>; 3],
        moves: &mut [u8],
    ) {
        super::octile_search(token, arcs, target, key, buckets, moves);
    }

    impl SlotTests<u16> for Avx2 {
        #[expect(clippy::inline_always, reason = "the search's inner loop, compiled with AVX2")]
        #[inline(always)]
        unsafe fn test(self, slots: &[u16; 8], v: usize, key: &[u64], own: u64) -> (u8, u8) {
            debug_assert!((0..8).all(|i| super::Slot::arc(slots[i], v).0 < key.len()));
            // SAFETY: `self` exists only when the processor has AVX2; the heads are in
            // bounds of `key` (the caller's promise).
            unsafe { test(slots, v, key, own) }
        }
    }

    /// The slot tests of node `v`: heads `v + (slot >> 2)` and arc keys `ARC_KEYS[slot & 3]`,
    /// four slots per vector; unsigned comparisons as signed ones with the top bits flipped.
    ///
    /// # Safety
    /// Every slot's head must be below `key.len()`.
    #[target_feature(enable = "avx2")]
    unsafe fn test(slots: &[u16; 8], v: usize, key: &[u64], own: u64) -> (u8, u8) {
        // SAFETY: `slots` is 16 bytes, read unaligned.
        let raw = unsafe { _mm_loadu_si128(slots.as_ptr().cast()) };
        let offsets = _mm_srai_epi16::<2>(raw);
        let classes = _mm_and_si128(raw, _mm_set1_epi16(3));
        let node = _mm256_set1_epi64x((v as u64).cast_signed());
        let own = _mm256_set1_epi64x(own.cast_signed());
        let top = _mm256_set1_epi64x(i64::MIN);
        let table = _mm256_setr_epi64x(
            ARC_KEYS[0].cast_signed(),
            ARC_KEYS[1].cast_signed(),
            ARC_KEYS[2].cast_signed(),
            ARC_KEYS[3].cast_signed(),
        );
        // The 32-bit halves `2c` and `2c + 1` of each lane's class `c`: `c · (2 + 2^33) + 2^32`.
        let halves = |c: __m256i| {
            _mm256_add_epi64(
                _mm256_add_epi64(_mm256_slli_epi64::<1>(c), _mm256_slli_epi64::<33>(c)),
                _mm256_set1_epi64x(1 << 32),
            )
        };
        let four = |offsets, classes| {
            let heads = _mm256_add_epi64(_mm256_cvtepi16_epi64(offsets), node);
            // SAFETY: every head is below `key.len()` (the caller's promise).
            let keys = unsafe { _mm256_i64gather_epi64::<8>(key.as_ptr().cast(), heads) };
            let arcs = _mm256_permutevar8x32_epi32(table, halves(_mm256_cvtepi16_epi64(classes)));
            let optimal = _mm256_cmpeq_epi64(_mm256_add_epi64(keys, arcs), own);
            let improved = _mm256_cmpgt_epi64(
                _mm256_xor_si256(keys, top),
                _mm256_xor_si256(_mm256_add_epi64(own, arcs), top),
            );
            // Four bits: the top bit of each lane.
            let mask = |x| _mm256_movemask_pd(_mm256_castsi256_pd(x)).cast_unsigned() as u8;
            (mask(optimal), mask(improved))
        };
        let (optimal_low, improved_low) = four(offsets, classes);
        let (optimal_high, improved_high) =
            four(_mm_unpackhi_epi64(offsets, offsets), _mm_unpackhi_epi64(classes, classes));
        (optimal_low | optimal_high << 4, improved_low | improved_high << 4)
    }
}

/// Transposes a 64 × 64 bit matrix in place: bit `c` of `rows[r]` becomes bit `r` of
/// `rows[c]` (blocks of 32, 16, …, 1 swapped across the diagonal).
fn transpose64(rows: &mut [u64; 64]) {
    let mut width = 32;
    let mut mask = 0x0000_0000_FFFF_FFFF_u64;
    while width != 0 {
        let mut k = 0;
        while k < 64 {
            let t = (rows[k] >> width ^ rows[k + width]) & mask;
            rows[k] ^= t << width;
            rows[k + width] ^= t;
            k = (k + width + 1) & !width;
        }
        width >>= 1;
        mask ^= mask << width;
    }
}

#[cfg(test)]
mod tests {
    use super::transpose64;

    /// The AVX2 slot tests against the scalar ones, on random slots around a node, keys that
    /// are unreached, equal to the node's less the arc (optimal), above or below it.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_slot_tests_match_scalar() {
        use super::super::Avx2;
        use super::{ARC_KEYS, KEY_SHIFT, Scalar, SlotTests, UNREACHED};
        let Some(avx2) = Avx2::detect() else { return };
        let mut x = 0x2545_F491_4F6C_DD1D_u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (n, v) = (20_000usize, 10_000usize);
        let mut key = vec![UNREACHED; n];
        for _ in 0..20_000 {
            let own = ((next() % (1 << 20) + 3) << KEY_SHIFT) | (next() % (1 << KEY_SHIFT));
            let slots: [u16; 8] = core::array::from_fn(|_| {
                let offset = (next() % 16_001) as i16 - 8_000; // within 14 bits, signed
                (offset << 2).cast_unsigned() | (next() % 3) as u16
            });
            for &slot in &slots {
                let w = v.wrapping_add_signed((slot.cast_signed() >> 2) as isize);
                let arc = ARC_KEYS[(slot & 3) as usize];
                key[w] = match next() % 5 {
                    0 => UNREACHED,
                    1 => own - arc,
                    2 => own + arc + next() % 3,
                    3 => own + arc - 1,
                    _ => next() >> 1,
                };
            }
            // SAFETY: the heads are within 8,000 of `v`, inside `key`.
            let (got, want) = unsafe {
                (
                    SlotTests::<u16>::test(avx2, &slots, v, &key, own),
                    SlotTests::<u16>::test(Scalar, &slots, v, &key, own),
                )
            };
            assert_eq!(got, want, "slots {slots:?} own {own}");
        }
    }

    #[test]
    fn transpose64_moves_every_bit_across_the_diagonal() {
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        let rows: [u64; 64] = core::array::from_fn(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        });
        let mut got = rows;
        transpose64(&mut got);
        for (r, row) in rows.iter().enumerate() {
            for (c, column) in got.iter().enumerate() {
                assert_eq!(column >> r & 1, row >> c & 1, "row {r} column {c}");
            }
        }
    }
}
