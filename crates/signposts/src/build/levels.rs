//! The octile engine: 32 targets a search, level by level, in vector registers.
//!
//! For undirected graphs whose arcs cost 1 or √2 (octile grids), with at most four of each
//! per node. A path's cost is `a + b√2`; in the band `[L, L + 1)` of costs, a cost is
//! `L + frac(b√2)`. Costs are kept per node and target as one `u32`: the level `L` modulo 4
//! in the top two bits, `frac(b√2)` in 29 fixed-point bits (bits 1 to 29; bit 0 is zero), or
//! all ones for "not reached". Adding a unit arc adds `2^30`, a √2 arc `2^30` plus the 29-bit
//! `frac(√2)`: the carry out of the fraction moves into the level by itself.
//!
//! ## Exactness
//!
//! The sums are exact for the rational arc cost `1 + F / 2^29` that stands in for √2 (`F` is
//! `frac(√2)` rounded to 29 bits, `|F / 2^29 − frac(√2)| ≤ 2^-30`), so the search is an exact
//! Dijkstra on those costs. Two paths with `b₁`, `b₂ < B` diagonal steps and different costs
//! differ by `|p + q√2| ≥ 1 / (2.83 |q| + 1)` (`q = b₂ − b₁`, `|p² − 2q²| ≥ 1`), while their
//! stand-in costs are off by less than `B · 2^-30` each: the order and the ties are the true
//! ones while `2B · 2^-30 < 1 / (2.83 B + 1)`, i.e. `B < 13,774`. A cost below level
//! [`LEVEL_LIMIT`] has `b√2 < 19,000`, `b < 13,436`; a search that would go past it stops and
//! the batch is searched by the per-target engine instead.
//!
//! ## Levels
//!
//! Arcs cost at least 1, so the costs in band `L` come only from bands `L − 1` (a unit arc, or
//! a √2 arc without carry) and `L − 2` (a √2 arc with carry). Level `L` looks at each *live*
//! node (reached by some target, not yet by all it can be): for each of its slots and each
//! target, the neighbour's cost plus the arc, less `L · 2^30`, is below `2^30 − 1` exactly
//! when it lands in band `L` (neighbours reached at `L` itself never do, nor unreached ones
//! behind a unit arc: see [`IN_BAND`]); the least such sum over the slots is the node's cost
//! toward that target if it had none. One add and one minimum per slot and 16 targets, and a
//! compare for the √2 slots (AVX-512; two of each with AVX2).
//! A node's optimal moves are read once after the search: slot `s` is optimal toward target
//! `j` when the neighbour's cost plus the arc equals the node's (the levels can only agree
//! modulo 4 when they are equal: neighbours' costs differ by at most √2).
//!
//! Nodes join the live set when a neighbour is first reached, which is the earliest level
//! they can gain anything, and leave it once every target in their component has reached
//! them. Each level looks at the nodes live when it starts, in id order, asking for the state
//! of the highest-numbered neighbour of the node six places ahead (the one least likely to be
//! in cache: on a grid, the next row's).
//!
//! Measured against the per-target search ([`super::dijkstra`]'s `Octile`), one thread, 16
//! nearby targets a search (a prototype of this engine, ns per node and target): brc202d
//! 6.2 (AVX-512) and 9.7 (AVX2), random512-10-0 9.0 and 12.8, where the per-target search
//! takes 35–40.
//!
//! Then, on an AMD EPYC with AVX-512 (2 cores, whole compressed builds of brc202d, lak303d
//! and AR0602SR; the same tables): most of a look is its own instructions and branches, not
//! waiting for memory. Taking out the branches that follow no pattern (whether a look gains
//! anything, whether it finishes its node, the end of each live word's bits): brc202d 14.2 →
//! 13.0 s, lak303d 1.55 → 1.33 s. 32 targets a search instead of 16 (two vectors a state with
//! AVX-512): nodes stay live 18.4 levels a search on brc202d instead of 11.3, 0.58 looks per
//! node and target instead of 0.71, and a look costs about 1.2 times as much: 13.0 → 12.7 s,
//! lak303d 1.33 → 1.24 s. No reached test on unit slots: within the noise, kept as it does
//! less. Prefetching the states of all eight neighbours of the node ahead cost 8% against
//! none on AR0602SR (27.6 s against 25.5 s), the highest-numbered one alone 25.0 s. The same
//! search ahead of the prototype measured about 10% faster on large maps on an Intel Xeon.
//!
//! Tried and dropped (same machine, alternating runs): 64 targets a search, four vectors a
//! state (brc202d 11.5–11.9 s against 11.2–12.1 s, AR0602SR 24.7–24.9 s against 23.0–24.8
//! s); reading a node's moves in the look that finishes it (see [`Levels::search`]); the
//! moves pass leaving each state unreached once read for the last time, instead of a fill
//! before each search, and each look's state stored whole instead of by a masked store (no
//! faster on either map); the prefetched slot precomputed per node, a shortcut for the goals
//! of graphs in one piece, and finished nodes leaving the live set after each level instead
//! of in each look (no faster on brc202d). With AVX2 instead of AVX-512 on the same machine,
//! brc202d's build takes 14.1–14.3 s against 10.9 s. Large maps cost about the same per
//! node and target as brc202d (11–12.5 ns of both cores' time): a search's cost is set by how
//! many levels its nodes stay live, about its targets' spread. Whole builds cost about 24 ns
//! of one core per look on 192×192 to 256×256 corners of random512-10-0 as on 96×96 ones
//! (23.8–24.9 ns; states of 1 to 7.5 MB). Also prefetching the arc slots of the node twelve
//! looks ahead: within the noise (corners of random512-10-0, 5.5 s against 5.2–5.8 s and
//! 18.2 s against 18.7 s; of `64room_000`, 4.3 s against 3.8–4.3 s).

use core::f64::consts::SQRT_2;

use super::dijkstra::Arcs;
use crate::NodeId;

/// Targets a search.
pub(crate) const LANES: usize = 32;

/// A node's cost toward each of a search's targets.
#[repr(C, align(64))]
#[derive(Debug, Clone, Copy)]
struct State([u32; LANES]);

/// Not reached.
const UNREACHED: u32 = u32::MAX;

/// `frac(√2)` in 29 bits, in bits 1 to 29.
#[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "below 2^29")]
pub(crate) const SQRT_2_FRAC: u32 = ((SQRT_2 - 1.0) * (1u64 << 29) as f64 + 0.5) as u32 * 2;

/// The level field's unit.
const LEVEL: u32 = 1 << 30;

/// Sums below this land in the band of the level they were taken at. A cost in band is at
/// most `LEVEL - 2` past the level (bit 0 is zero). An unreached neighbour (all ones) plus a
/// unit arc, less the level, is `LEVEL - 1` past some level, never below: unit slots need no
/// test for unreached neighbours, √2 slots do (`frac(√2)` more lands in band once every four
/// levels).
const IN_BAND: u32 = LEVEL - 1;

/// A unit arc's and a √2 arc's addend.
const ARC: [u32; 2] = [LEVEL, LEVEL + SQRT_2_FRAC];

/// Levels a search may reach before it stops (see the module docs).
pub(crate) const LEVEL_LIMIT: u32 = 19_000;

/// Slot of no arc.
const NO_ARC: u8 = u8::MAX;

/// The arcs as the engine reads them, made once per build.
pub(crate) struct LevelArcs {
    /// Per node: the heads of its unit arcs in slots 0 to 3, of its √2 arcs in slots 4 to 7;
    /// free slots (and arcs into skipped nodes) hold the node itself, which is never in band.
    slots: Vec<[NodeId; 8]>,
    /// Per node and slot: the index of the arc among the node's arcs, or [`NO_ARC`].
    arc: Vec<[u8; 8]>,
    /// Connected component of each node (over the slots).
    component: Vec<u32>,
}

impl LevelArcs {
    /// The engine's arcs, when `g` is undirected, every arc costs 1 or √2, and no node has
    /// more than four of either.
    pub(crate) fn new(g: Arcs<'_>, nodes: usize) -> Option<LevelArcs> {
        if !g.symmetric || u32::try_from(nodes).is_err() {
            return None;
        }
        let mut slots = Vec::with_capacity(nodes);
        let mut arc = Vec::with_capacity(nodes);
        for v in 0..nodes {
            let mut s = [v as NodeId; 8];
            let mut a = [NO_ARC; 8];
            let mut used = [0usize; 2];
            let first = g.offsets[v] as usize;
            for i in first..g.offsets[v + 1] as usize {
                let class = match (g.cost[i].straight, g.cost[i].diagonal) {
                    (1, 0) => 0,
                    (0, 1) => 1,
                    _ => return None,
                };
                if used[class] == 4 {
                    return None;
                }
                let slot = 4 * class + used[class];
                used[class] += 1;
                if super::flagged(g.skip, v) || super::flagged(g.skip, g.heads[i] as usize) {
                    continue;
                }
                s[slot] = g.heads[i];
                a[slot] = u8::try_from(i - first).ok()?;
            }
            slots.push(s);
            arc.push(a);
        }
        let (component, _) =
            crate::components::label_by(nodes, |v, visit| slots[v].iter().for_each(|&w| visit(w as usize)));
        Some(LevelArcs { slots, arc, component })
    }
}

/// The vector instructions a search runs on.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Simd {
    /// Four 8-lane vectors per state.
    Avx2(super::Avx2),
    /// Two 16-lane vectors per state.
    Avx512(super::Avx512),
}

impl Simd {
    /// The widest the processor has, given AVX2.
    pub(crate) fn detect(avx2: super::Avx2) -> Simd {
        super::Avx512::detect().map_or(Simd::Avx2(avx2), Simd::Avx512)
    }
}

/// Per-thread scratch of the engine.
pub(crate) struct Levels<'a> {
    arcs: &'a LevelArcs,
    states: Vec<State>,
    live: Vec<u64>,
    summary: Vec<u64>,
    list: Vec<u32>,
    goals: Vec<(u32, u32)>,
    simd: Simd,
    limit: u32,
}

impl Simd {
    /// The optimal moves of node `v` toward each lane's target, as masks of its slots, read
    /// from its finished state and its neighbours'.
    ///
    /// # Safety
    /// `v` and every slot of `slots` are below the length of `states`' allocation.
    #[inline]
    unsafe fn moves(self, states: *const State, v: usize, slots: &[NodeId; 8]) -> [u32; 8] {
        // SAFETY: the token in `self` proves the instructions; the caller, that the slots
        // lead to nodes whose states `states` holds.
        match self {
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2(_) => unsafe { x86::moves_avx2(states, v, slots) },
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512(_) => unsafe { x86::moves_avx512(states, v, slots) },
            #[cfg(not(target_arch = "x86_64"))]
            Simd::Avx2(token) => token.never(),
            #[cfg(not(target_arch = "x86_64"))]
            Simd::Avx512(token) => token.never(),
        }
    }
}

impl<'a> Levels<'a> {
    pub(crate) fn new(arcs: &'a LevelArcs, simd: Simd) -> Levels<'a> {
        let n = arcs.slots.len();
        Levels {
            arcs,
            states: vec![State([UNREACHED; LANES]); n],
            live: vec![0; n.div_ceil(64)],
            summary: vec![0; n.div_ceil(64 * 64)],
            list: vec![0; n + 8],
            goals: Vec::new(),
            simd,
            limit: LEVEL_LIMIT,
        }
    }

    /// Runs the level-synchronous searches of `targets` (set up in `goals`); `false` when
    /// they would pass the level limit.
    fn run_simd(&mut self, targets: &[NodeId]) -> bool {
        // SAFETY: the token in `simd` proves the instructions.
        match self.simd {
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2(_) => unsafe { x86::run_avx2(self, targets) },
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512(_) => unsafe { x86::run_avx512(self, targets) },
            #[cfg(not(target_arch = "x86_64"))]
            Simd::Avx2(token) => token.never(),
            #[cfg(not(target_arch = "x86_64"))]
            Simd::Avx512(token) => token.never(),
        }
    }

    /// Searches from up to 32 `targets` and ORs bit `shift + j` into `out[a]` (one word per arc
    /// of `g`) for every arc `a` that is an optimal first move toward `targets[j]`. `false`
    /// (and `out` unchanged) when a search would pass the level limit.
    pub(crate) fn search(&mut self, g: Arcs<'_>, targets: &[NodeId], shift: u32, out: &mut [u64]) -> bool {
        debug_assert!(targets.len() <= LANES && shift as usize + targets.len() <= 64);
        let arcs = self.arcs;
        assert!(targets.iter().all(|&t| (t as usize) < arcs.slots.len()), "targets are nodes");
        self.goals.clear();
        for (j, &t) in targets.iter().enumerate() {
            let c = arcs.component[t as usize];
            match self.goals.iter_mut().find(|(gc, _)| *gc == c) {
                Some((_, lanes)) => *lanes |= 1 << j,
                None => self.goals.push((c, 1 << j)),
            }
        }
        let done = self.run_simd(targets);
        if !done {
            self.live.fill(0);
            self.summary.fill(0);
            return false;
        }
        // The moves in a pass of their own: read in the look that finishes each node (its
        // neighbours' states then in cache), brc202d's build took 13.3–13.6 s against
        // 11.4–11.6 s.
        let states = self.states.as_ptr();
        for (v, (slots, arc)) in arcs.slots.iter().zip(&arcs.arc).enumerate() {
            // SAFETY: `states` holds every node's state, and slots lead to nodes.
            let masks = unsafe { self.simd.moves(states, v, slots) };
            let first = g.offsets[v] as usize;
            for (&m, &a) in masks.iter().zip(arc) {
                if a != NO_ARC && m != 0 {
                    out[first + a as usize] |= u64::from(m) << shift;
                }
            }
        }
        true
    }
}

/// One state lane set per search step, with the instructions of `L`.
trait Look: Copy {
    /// Looks at live node `v` at the level whose field is `level`: sets the costs it gains and
    /// returns the lanes it gained and the lanes it had not been reached by before.
    ///
    /// # Safety
    /// The processor has the instructions; `v` and its slots are below `states.len()`.
    unsafe fn look(self, states: *mut State, v: usize, slots: &[NodeId; 8], level: u32) -> (u32, u32);
}

/// The search of [`Levels::search`], inlined into each instruction set's copy.
#[inline(always)]
fn run<L: Look>(look: L, s: &mut Levels<'_>, targets: &[NodeId]) -> bool {
    /// Looks ahead for which a neighbour's state is asked for.
    const AHEAD: usize = 6;
    let Levels { arcs, states, live, summary, list, goals, limit, .. } = s;
    let slots = &arcs.slots;
    states.fill(State([UNREACHED; LANES]));
    let wake = |live: &mut [u64], summary: &mut [u64], v: usize| {
        live[v / 64] |= 1 << (v % 64);
        summary[v / 4096] |= 1 << ((v / 64) % 64);
    };
    for (j, &t) in targets.iter().enumerate() {
        states[t as usize].0[j] = 0;
        wake(live, summary, t as usize);
        for &w in &slots[t as usize] {
            wake(live, summary, w as usize);
        }
    }
    let goal = |v: usize| {
        let c = arcs.component[v];
        goals.iter().find(|&&(gc, _)| gc == c).map_or(0, |&(_, lanes)| lanes)
    };
    let all = u32::MAX >> (32 - LANES);
    let base = states.as_mut_ptr();
    let mut level = 1u32;
    loop {
        // The live nodes in id order, eight at a time: a word's few live bits then take one
        // round of a loop whose exit is predicted (not one per bit).
        let mut len = 0;
        for (si, &word) in summary.iter().enumerate() {
            let mut words = word;
            while words != 0 {
                let wi = si * 64 + words.trailing_zeros() as usize;
                words &= words - 1;
                let mut bits = live[wi];
                let first = (wi * 64) as u32;
                let end = len + bits.count_ones() as usize;
                while len < end {
                    for slot in &mut list[len..len + 8] {
                        *slot = first + bits.trailing_zeros();
                        bits &= bits.wrapping_sub(1);
                    }
                    len = end.min(len + 8);
                }
            }
        }
        let list = &list[..len];
        if list.is_empty() {
            return true;
        }
        if level >= *limit {
            return false;
        }
        let field = (level % 4) << 30;
        for i in 0..list.len() {
            if let Some(&ahead) = list.get(i + AHEAD) {
                let w = slots[ahead as usize].iter().copied().max().unwrap_or(0);
                for line in 0..LANES / 16 {
                    // SAFETY: slots lead to nodes.
                    crate::prefetch::prefetch(unsafe { &(*base.add(w as usize)).0[16 * line] });
                }
            }
            let v = list[i] as usize;
            // SAFETY: the caller's features; `v` is a node and its slots lead to nodes.
            let (gained, unreached) = unsafe { look.look(base, v, &slots[v], field) };
            if gained != 0 && unreached == all {
                for &w in &slots[v] {
                    wake(live, summary, w as usize);
                }
            }
            // Without branches: whether a look finishes its node is as good as random.
            let done = u64::from(unreached & !gained & goal(v) == 0);
            live[v / 64] &= !(done << (v % 64));
            summary[v / 4096] &= !(u64::from(live[v / 64] == 0) << ((v / 64) % 64));
        }
        level += 1;
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::{
        __m256i, __m512i, _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256, _mm256_blendv_epi8,
        _mm256_castsi256_ps, _mm256_cmpeq_epi32, _mm256_load_si256, _mm256_min_epu32, _mm256_movemask_ps,
        _mm256_or_si256, _mm256_set1_epi32, _mm256_store_si256, _mm512_add_epi32, _mm512_cmpeq_epu32_mask,
        _mm512_cmpneq_epu32_mask, _mm512_load_si512, _mm512_mask_cmpeq_epu32_mask,
        _mm512_mask_cmplt_epu32_mask, _mm512_mask_min_epu32, _mm512_mask_store_epi32, _mm512_min_epu32,
        _mm512_or_si512, _mm512_set1_epi32,
    };

    use super::super::{Avx2, Avx512};
    use super::{ARC, IN_BAND, LANES, Levels, Look, NodeId, State, UNREACHED};

    /// The search with AVX2.
    ///
    /// # Safety
    /// The processor has AVX2, BMI1 and POPCNT (a token in `s.simd` proves it).
    #[target_feature(enable = "avx2,bmi1,popcnt")]
    pub(super) unsafe fn run_avx2(s: &mut Levels<'_>, targets: &[NodeId]) -> bool {
        let super::Simd::Avx2(token) = s.simd else { unreachable!("called for AVX2") };
        super::run(token, s, targets)
    }

    /// The search with AVX-512.
    ///
    /// # Safety
    /// The processor has AVX-512 F, AVX2, BMI1 and POPCNT (a token in `s.simd` proves it: an
    /// AVX-512 search is only made from an AVX2 token).
    #[target_feature(enable = "avx2,avx512f,bmi1,popcnt")]
    pub(super) unsafe fn run_avx512(s: &mut Levels<'_>, targets: &[NodeId]) -> bool {
        let super::Simd::Avx512(token) = s.simd else { unreachable!("called for AVX-512") };
        super::run(token, s, targets)
    }

    impl Look for Avx2 {
        #[expect(clippy::inline_always, reason = "the search's inner loop, compiled with AVX2")]
        #[inline(always)]
        unsafe fn look(self, states: *mut State, v: usize, slots: &[NodeId; 8], level: u32) -> (u32, u32) {
            // SAFETY: the token proves AVX2; the caller's bounds.
            unsafe { look_avx2(states, v, slots, level) }
        }
    }

    impl Look for Avx512 {
        #[expect(clippy::inline_always, reason = "the search's inner loop, compiled with AVX-512")]
        #[inline(always)]
        unsafe fn look(self, states: *mut State, v: usize, slots: &[NodeId; 8], level: u32) -> (u32, u32) {
            // SAFETY: the token proves AVX-512 F; the caller's bounds.
            unsafe { look_avx512(states, v, slots, level) }
        }
    }

    /// The addend of slot `s` at the level field `level`: the arc, less the level.
    #[inline]
    fn addend(s: usize, level: u32) -> i32 {
        ARC[s / 4].wrapping_sub(level).cast_signed()
    }

    /// # Safety
    /// AVX2; `v` and its slots are below the length of `states`' allocation.
    #[target_feature(enable = "avx2")]
    unsafe fn look_avx2(states: *mut State, v: usize, slots: &[NodeId; 8], level: u32) -> (u32, u32) {
        let none = _mm256_set1_epi32(-1);
        let (mut gained, mut unreached) = (0u32, 0u32);
        for half in 0..LANES / 8 {
            let mut best = none;
            for (s, &w) in slots.iter().enumerate() {
                // SAFETY: `w` is a node; states are 64-byte aligned, halves 32.
                let key =
                    unsafe { _mm256_load_si256((*states.add(w as usize)).0.as_ptr().add(8 * half).cast()) };
                let sum = _mm256_add_epi32(key, _mm256_set1_epi32(addend(s, level)));
                best = _mm256_min_epu32(
                    best,
                    if s < 4 { sum } else { _mm256_or_si256(sum, _mm256_cmpeq_epi32(key, none)) },
                );
            }
            // SAFETY: `v` is a node.
            let own_ptr: *mut __m256i = unsafe { (*states.add(v)).0.as_mut_ptr().add(8 * half).cast() };
            // SAFETY: as above, aligned.
            let own = unsafe { _mm256_load_si256(own_ptr) };
            let open = _mm256_cmpeq_epi32(own, none);
            let in_band = _mm256_cmpeq_epi32(
                _mm256_min_epu32(best, _mm256_set1_epi32((IN_BAND - 1).cast_signed())),
                best,
            );
            let gain = _mm256_and_si256(open, in_band);
            let bits = _mm256_movemask_ps(_mm256_castsi256_ps(gain)).cast_unsigned();
            unreached |= _mm256_movemask_ps(_mm256_castsi256_ps(open)).cast_unsigned() << (8 * half);
            // Stored without a branch: whether a look gains anything follows no pattern.
            gained |= bits << (8 * half);
            let new = _mm256_or_si256(best, _mm256_set1_epi32(level.cast_signed()));
            // SAFETY: as above.
            unsafe { _mm256_store_si256(own_ptr, _mm256_blendv_epi8(own, new, gain)) };
        }
        (gained, unreached)
    }

    /// # Safety
    /// AVX-512 F; `v` and its slots are below the length of `states`' allocation.
    #[target_feature(enable = "avx512f")]
    unsafe fn look_avx512(states: *mut State, v: usize, slots: &[NodeId; 8], level: u32) -> (u32, u32) {
        let none = _mm512_set1_epi32(-1);
        let (mut gained, mut unreached) = (0u32, 0u32);
        for half in 0..LANES / 16 {
            let mut best = none;
            for (s, &w) in slots.iter().enumerate() {
                // SAFETY: `w` is a node; states are 64-byte aligned, halves too.
                let key: __m512i =
                    unsafe { _mm512_load_si512((*states.add(w as usize)).0.as_ptr().add(16 * half).cast()) };
                let sum = _mm512_add_epi32(key, _mm512_set1_epi32(addend(s, level)));
                best = if s < 4 {
                    _mm512_min_epu32(best, sum)
                } else {
                    _mm512_mask_min_epu32(best, _mm512_cmpneq_epu32_mask(key, none), best, sum)
                };
            }
            // SAFETY: `v` is a node.
            let own_ptr: *mut i32 = unsafe { (*states.add(v)).0.as_mut_ptr().add(16 * half).cast() };
            // SAFETY: as above, aligned.
            let own: __m512i = unsafe { _mm512_load_si512(own_ptr.cast()) };
            let open = _mm512_cmpeq_epu32_mask(own, none);
            let gain = _mm512_mask_cmplt_epu32_mask(open, best, _mm512_set1_epi32(IN_BAND.cast_signed()));
            // Stored without a branch: whether a look gains anything follows no pattern.
            let new = _mm512_or_si512(best, _mm512_set1_epi32(level.cast_signed()));
            // SAFETY: as above.
            unsafe { _mm512_mask_store_epi32(own_ptr, gain, new) };
            gained |= u32::from(gain) << (16 * half);
            unreached |= u32::from(open) << (16 * half);
        }
        (gained, unreached)
    }

    /// Per slot of `v`, the lanes toward which it is an optimal move (AVX2).
    ///
    /// # Safety
    /// AVX2; `v` and its slots are below the length of `states`' allocation.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn moves_avx2(states: *const State, v: usize, slots: &[NodeId; 8]) -> [u32; 8] {
        let none = _mm256_set1_epi32(-1);
        let mut masks = [0u32; 8];
        for half in 0..LANES / 8 {
            // SAFETY: aligned loads of nodes' states.
            let own = unsafe { _mm256_load_si256((*states.add(v)).0.as_ptr().add(8 * half).cast()) };
            let open = _mm256_cmpeq_epi32(own, none);
            for (s, (&w, mask)) in slots.iter().zip(&mut masks).enumerate() {
                // SAFETY: as above.
                let key =
                    unsafe { _mm256_load_si256((*states.add(w as usize)).0.as_ptr().add(8 * half).cast()) };
                let sum = _mm256_or_si256(
                    _mm256_add_epi32(key, _mm256_set1_epi32(ARC[s / 4].cast_signed())),
                    _mm256_cmpeq_epi32(key, none),
                );
                let optimal = _mm256_andnot_si256(open, _mm256_cmpeq_epi32(sum, own));
                let bits = _mm256_movemask_ps(_mm256_castsi256_ps(optimal)).cast_unsigned();
                *mask |= bits << (8 * half);
            }
        }
        masks
    }

    /// Per slot of `v`, the lanes toward which it is an optimal move (AVX-512).
    ///
    /// # Safety
    /// AVX-512 F; `v` and its slots are below the length of `states`' allocation.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn moves_avx512(states: *const State, v: usize, slots: &[NodeId; 8]) -> [u32; 8] {
        let none = _mm512_set1_epi32(-1);
        let mut masks = [0u32; 8];
        for half in 0..LANES / 16 {
            // SAFETY: aligned loads of nodes' states.
            let own: __m512i =
                unsafe { _mm512_load_si512((*states.add(v)).0.as_ptr().add(16 * half).cast()) };
            let reached = _mm512_cmpneq_epu32_mask(own, none);
            for (s, (&w, mask)) in slots.iter().zip(&mut masks).enumerate() {
                // SAFETY: as above.
                let key: __m512i =
                    unsafe { _mm512_load_si512((*states.add(w as usize)).0.as_ptr().add(16 * half).cast()) };
                let from = _mm512_cmpneq_epu32_mask(key, none) & reached;
                let sum = _mm512_add_epi32(key, _mm512_set1_epi32(ARC[s / 4].cast_signed()));
                *mask |= u32::from(_mm512_mask_cmpeq_epu32_mask(from, sum, own)) << (16 * half);
            }
        }
        masks
    }

    const _: () = assert!(UNREACHED == u32::MAX, "the all-ones lanes");
}

#[cfg(test)]
mod tests {
    use core::cmp::Reverse;
    use std::collections::BinaryHeap;

    use super::{LANES, LevelArcs, Levels, Simd};
    use crate::build::dijkstra::Arcs;
    use crate::{Cost, NodeId};

    /// An octile grid with random walls (several components), no corner cutting: offsets,
    /// heads and costs.
    #[expect(
        clippy::cast_possible_wrap,
        clippy::cast_sign_loss,
        clippy::cast_possible_truncation,
        reason = "coordinates of small test grids"
    )]
    fn grid(width: usize, height: usize, seed: u64) -> (Vec<u32>, Vec<NodeId>, Vec<Cost>) {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let open: Vec<bool> = (0..width * height).map(|_| !next().is_multiple_of(4)).collect();
        let mut id = vec![u32::MAX; open.len()];
        for (count, cell) in (0..open.len()).filter(|&c| open[c]).enumerate() {
            id[cell] = count as u32;
        }
        let at = |cx: i64, cy: i64| {
            (0..width as i64).contains(&cx)
                && (0..height as i64).contains(&cy)
                && open[cy as usize * width + cx as usize]
        };
        let (mut offsets, mut heads, mut cost) = (vec![0u32], Vec::new(), Vec::new());
        for cell in (0..open.len()).filter(|&c| open[c]) {
            let (cx, cy) = ((cell % width) as i64, (cell / width) as i64);
            for (dx, dy) in [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)] {
                let diagonal = dx != 0 && dy != 0;
                if at(cx + dx, cy + dy) && (!diagonal || (at(cx + dx, cy) && at(cx, cy + dy))) {
                    heads.push(id[(cy + dy) as usize * width + (cx + dx) as usize]);
                    cost.push(Cost { straight: u64::from(!diagonal), diagonal: u64::from(diagonal) });
                }
            }
            offsets.push(heads.len() as u32);
        }
        (offsets, heads, cost)
    }

    fn arcs<'a>(offsets: &'a [u32], heads: &'a [NodeId], cost: &'a [Cost]) -> Arcs<'a> {
        Arcs {
            offsets,
            heads,
            cost,
            in_offsets: offsets,
            incoming: &[],
            tails: &[],
            integer: false,
            symmetric: true,
            skip: &[],
        }
    }

    /// Exact costs toward `t` by a plain Dijkstra.
    fn dijkstra(g: Arcs<'_>, t: usize) -> Vec<Option<Cost>> {
        let mut dist = vec![None; g.offsets.len() - 1];
        let mut heap = BinaryHeap::from([Reverse((Cost::ZERO, t))]);
        while let Some(Reverse((d, v))) = heap.pop() {
            if dist[v].is_some() {
                continue;
            }
            dist[v] = Some(d);
            for a in g.offsets[v] as usize..g.offsets[v + 1] as usize {
                if dist[g.heads[a] as usize].is_none() {
                    heap.push(Reverse((d + g.cost[a], g.heads[a] as usize)));
                }
            }
        }
        dist
    }

    fn simds() -> Vec<Simd> {
        let Some(avx2) = crate::build::Avx2::detect() else { return Vec::new() };
        let mut all = vec![Simd::Avx2(avx2)];
        all.extend(crate::build::Avx512::detect().map(Simd::Avx512));
        all
    }

    /// Every arc's mask is exactly the set of targets toward which it is optimal, with 32 and
    /// fewer targets, some in other components, with AVX2 and AVX-512.
    #[test]
    fn searches_mark_exactly_the_optimal_arcs() {
        for seed in 0..6 {
            let (offsets, heads, cost) = grid(23 + seed as usize, 17, seed);
            let g = arcs(&offsets, &heads, &cost);
            let n = offsets.len() - 1;
            let prepared = LevelArcs::new(g, n).expect("an octile grid");
            let step = 1 + seed as usize;
            let targets: Vec<NodeId> = (0..n).step_by(step).map(|v| v as NodeId).collect();
            for simd in simds() {
                let mut levels = Levels::new(&prepared, simd);
                for group in targets.chunks(LANES - seed as usize % 3) {
                    let mut out = vec![0u64; heads.len()];
                    assert!(levels.search(g, group, 7, &mut out));
                    for (j, &t) in group.iter().enumerate() {
                        let dist = dijkstra(g, t as usize);
                        for v in 0..n {
                            for a in offsets[v] as usize..offsets[v + 1] as usize {
                                let want = matches!((dist[v], dist[heads[a] as usize]), (Some(d), Some(dw)) if dw + cost[a] == d);
                                let got = out[a] >> (7 + j) & 1 == 1;
                                assert_eq!(got, want, "{simd:?} seed {seed}: arc {a} of {v} toward {t}");
                            }
                        }
                    }
                    assert!(out.iter().all(|m| m.trailing_zeros() >= 7), "bits below the shift untouched");
                }
            }
        }
    }

    /// A search that would pass the level limit says so, and the scratch stays usable.
    #[test]
    fn searches_past_the_level_limit_stop() {
        let (offsets, heads, cost) = grid(30, 20, 3);
        let g = arcs(&offsets, &heads, &cost);
        let n = offsets.len() - 1;
        let prepared = LevelArcs::new(g, n).expect("an octile grid");
        // A target that reaches nodes more than 3 away.
        let far = |t: usize| dijkstra(g, t).iter().flatten().any(|d| d.value() > 4.0);
        let t = (0..n).find(|&t| far(t)).expect("a large component") as NodeId;
        for simd in simds() {
            let mut levels = Levels::new(&prepared, simd);
            levels.limit = 3;
            let mut out = vec![0u64; heads.len()];
            assert!(!levels.search(g, &[t], 0, &mut out));
            levels.limit = super::LEVEL_LIMIT;
            let mut again = vec![0u64; heads.len()];
            assert!(levels.search(g, &[t], 0, &mut again));
            let mut fresh = vec![0u64; heads.len()];
            assert!(Levels::new(&prepared, simd).search(g, &[t], 0, &mut fresh));
            assert_eq!(again, fresh);
        }
    }

    /// Graphs with other costs, or more than four arcs of a cost at a node, are not taken.
    #[test]
    fn other_graphs_are_not_taken() {
        let (offsets, heads, mut cost) = grid(10, 10, 1);
        assert!(LevelArcs::new(arcs(&offsets, &heads, &cost), offsets.len() - 1).is_some());
        cost[0] = Cost::integer(2);
        assert!(LevelArcs::new(arcs(&offsets, &heads, &cost), offsets.len() - 1).is_none());
        let star_offsets = [0u32, 5, 6, 7, 8, 9, 10];
        let star_heads = [1, 2, 3, 4, 5, 0, 0, 0, 0, 0];
        let unit = [Cost::integer(1); 10];
        assert!(LevelArcs::new(arcs(&star_offsets, &star_heads, &unit), 6).is_none());
    }
}
