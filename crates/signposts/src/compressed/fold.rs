//! The folds that put searched targets' bits back in column order: octets by byte stores,
//! and with AVX-512, byte permutes and bit shuffles.

use super::format::RowBuilder;
use crate::NodeId;

/// Columns a span of the weighted fold with bit shuffles, for waves of `batches` batches: the
/// most batches, up to 8 (one 512-bit vector of masks), that divide the wave, so that no span
/// crosses waves.
pub(super) fn bit_span(batches: usize) -> usize {
    (1..=8).rev().find(|d| batches.is_multiple_of(*d)).unwrap_or(1) * 64
}

/// Where each bit of one span of columns comes from in its batches' masks (up to 8 batches of
/// 64 searched targets, one 512-bit vector), for the weighted fold with bit shuffles: bit `b`
/// of the span's word `k` is bit `bit[k][b] % 8` of byte `index[k][b]` of the vector (`bit`
/// as the shuffle takes it, counted within the byte's quadword), when bit `b` of `valid[k]`
/// is set.
#[cfg(target_arch = "x86_64")]
#[derive(Debug, Clone)]
pub(super) struct BitPlan {
    index: [[u8; 64]; 8],
    bit: [[u8; 64]; 8],
    valid: [u64; 8],
}

#[cfg(target_arch = "x86_64")]
impl BitPlan {
    /// The plans of the spans of `span` columns, for targets searched in the order `batched`
    /// (a regrouping within those spans: [`build::order::bisected_batches`]).
    ///
    /// [`build::order::bisected_batches`]: crate::build::order::bisected_batches
    pub(super) fn plan(batched: &[NodeId], column: &[u32], span: usize) -> Vec<BitPlan> {
        debug_assert!(span <= 512 && span.is_multiple_of(64));
        batched
            .chunks(span)
            .enumerate()
            .map(|(s, searched)| {
                let mut plan = BitPlan { index: [[0; 64]; 8], bit: [[0; 64]; 8], valid: [0; 8] };
                for (q, &v) in searched.iter().enumerate() {
                    let o = column[v as usize] as usize - s * span;
                    debug_assert!(o < span, "a target stays in its span");
                    let (k, b) = (o / 64, o % 64);
                    plan.index[k][b] = (q / 8) as u8;
                    plan.bit[k][b] = (8 * (b % 8) + q % 8) as u8;
                    plan.valid[k] |= 1 << b;
                }
                plan
            })
            .collect()
    }
}

/// Where each searched octet goes in its wave's bitmaps, in bytes, for targets searched in the
/// order `batched` ([`build::order::compact_batches`] within spans of `span` columns): every
/// octet stays in its span, which is its wave.
///
/// [`build::order::compact_batches`]: crate::build::order::compact_batches
pub(super) fn octet_slots(batched: &[NodeId], column: &[u32], span: usize) -> Vec<u32> {
    batched.iter().step_by(OCTET).map(|&v| (column[v as usize] as usize % span / OCTET) as u32).collect()
}

/// One node's bitmaps of a wave of columns `start..end`, one per move, put back in column
/// order an octet (a byte) at a time by plain byte stores, each byte written once (ORs into
/// words chained a read-modify-write per octet through memory).
pub(super) struct OctetFold<'a> {
    bytes: &'a mut Vec<u8>,
    start: usize,
    end: usize,
    stride: usize,
    moves: usize,
}

impl<'a> OctetFold<'a> {
    /// Empty bitmaps of `moves` moves, in `bytes`.
    pub(super) fn new(bytes: &'a mut Vec<u8>, start: usize, end: usize, moves: usize) -> OctetFold<'a> {
        let stride = (end - start).div_ceil(64) * 8;
        bytes.clear();
        bytes.resize(moves * stride, 0);
        OctetFold { bytes, start, end, stride, moves }
    }

    /// Writes the octets of the batch of `width` searched targets from position `first` on
    /// (in the order [`octet_slots`] was given): `masks` yields one bitmap per move, in words.
    pub(super) fn scatter<'m>(
        &mut self,
        masks: impl Iterator<Item = &'m [u64]>,
        octet_slot: &[u32],
        first: usize,
        width: usize,
    ) {
        let slots = &octet_slot[first / OCTET..self.end.div_ceil(OCTET).min((first + width) / OCTET)];
        for (mask, to) in masks.zip(self.bytes.chunks_exact_mut(self.stride)) {
            for (o, &slot) in slots.iter().enumerate() {
                to[slot as usize] = (mask[o / 8] >> (8 * (o % 8))) as u8;
            }
        }
    }

    /// Adds the bitmaps' entries to `row` (`bitmaps` is scratch).
    pub(super) fn push(self, bitmaps: &mut Vec<u64>, row: &mut RowBuilder) {
        bitmaps.clear();
        bitmaps.extend(
            self.bytes.chunks_exact(8).map(|word| u64::from_le_bytes(word.try_into().expect("8 bytes"))),
        );
        row.push_masks(self.start as u32, self.end - self.start, bitmaps, self.moves);
    }
}

/// Targets that move together between the column order and the searched order
/// ([`build::order::compact_batches`]'s units): the fold moves a byte of each move's bitmap
/// at a time. Against single targets, nodes stay live about 9% more levels (brc202d).
///
/// [`build::order::compact_batches`]: crate::build::order::compact_batches
pub(super) const OCTET: usize = 8;

/// Where the bytes of one 64-byte chunk of a move's bitmap (a wave's columns, in order) come
/// from in one quad of the wave's batches (their lanes of that move, 4 × 32 bytes), for the
/// fold with byte permutes: byte `k` of the chunk is byte `index[k]` of the quad when bit `k`
/// of `mask` is set.
#[cfg(target_arch = "x86_64")]
#[derive(Debug, Clone)]
pub(super) struct Gather {
    chunk: usize,
    quad: usize,
    index: [u8; 64],
    mask: u64,
}

#[cfg(target_arch = "x86_64")]
impl Gather {
    /// The gathers of the wave of columns `start..end`, searched in batches of `width` (256)
    /// targets whose octets go to the bytes `octet_slot` gives.
    pub(super) fn plan(start: usize, end: usize, width: usize, octet_slot: &[u32]) -> Vec<Gather> {
        debug_assert_eq!(width, 256, "lanes of 32 bytes");
        let mut plan: Vec<Gather> = Vec::new();
        for (b, first) in (start..end).step_by(width).enumerate() {
            let octets = (end.min(first + width) - first).div_ceil(OCTET);
            for (o, &slot) in octet_slot[first / OCTET..][..octets].iter().enumerate() {
                let (chunk, quad) = (slot as usize / 64, b / 4);
                let at = if let Some(at) = plan.iter().position(|g| g.chunk == chunk && g.quad == quad) {
                    at
                } else {
                    plan.push(Gather { chunk, quad, index: [0; 64], mask: 0 });
                    plan.len() - 1
                };
                plan[at].index[slot as usize % 64] = ((b % 4) * 32 + o) as u8;
                plan[at].mask |= 1 << (slot % 64);
            }
        }
        plan
    }
}

/// The fold's byte permutes with AVX-512 (F, BW, VBMI).
#[cfg(target_arch = "x86_64")]
pub(super) mod vbmi {
    use core::arch::x86_64::{
        __m256i, _mm256_loadu_si256, _mm256_setzero_si256, _mm512_castsi256_si512, _mm512_inserti64x4,
        _mm512_loadu_si512, _mm512_mask_bitshuffle_epi64_mask, _mm512_mask_storeu_epi64,
        _mm512_maskz_loadu_epi64, _mm512_maskz_permutex2var_epi8, _mm512_or_si512, _mm512_permutexvar_epi8,
        _mm512_setzero_si512,
    };
    use core::ops::Range;

    use super::{BitPlan, Gather};
    use crate::build::{Bitalg, Vbmi};

    /// Writes a wave's bitmaps of one node (`bitmaps`, zeros on entry: `words` per move, one
    /// move after the other) from `lanes(b)`, the node's lanes in batch `b` of the wave (`None`
    /// when that batch did not reach it: zeros), by the wave's `plan`.
    ///
    /// # Panics
    /// If a batch's lanes are not 4 words per move of `bitmaps`, or the plan points past them.
    pub(in crate::compressed) fn fold<'a>(
        token: Vbmi,
        plan: &[Gather],
        lanes: impl Fn(usize) -> Option<&'a [u64]>,
        words: usize,
        bitmaps: &mut [u64],
    ) {
        assert!(plan.iter().all(|g| g.chunk * 8 < words), "a chunk within the bitmap");
        // SAFETY: the token exists only when the processor has AVX-512 F, BW and VBMI.
        unsafe { fold_vbmi(token, plan, lanes, words, bitmaps) }
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn fold_vbmi<'a>(
        _: Vbmi,
        plan: &[Gather],
        lanes: impl Fn(usize) -> Option<&'a [u64]>,
        words: usize,
        bitmaps: &mut [u64],
    ) {
        let moves = bitmaps.len() / words;
        for g in plan {
            let quad: [Option<&[u64]>; 4] = core::array::from_fn(|i| lanes(4 * g.quad + i));
            assert!(quad.iter().flatten().all(|lane| lane.len() == 4 * moves), "4 words a move");
            // SAFETY: `index` is 64 bytes.
            let index = unsafe { _mm512_loadu_si512(g.index.as_ptr().cast()) };
            let at = g.chunk * 8;
            let count = (words - at).min(8);
            let keep = if count == 8 { u8::MAX } else { (1u8 << count) - 1 };
            for m in 0..moves {
                let lane = |l: Option<&[u64]>| match l {
                    // SAFETY: the slice holds the 32 bytes read (an unaligned load).
                    #[expect(clippy::cast_ptr_alignment, reason = "an unaligned load")]
                    Some(words) => unsafe {
                        _mm256_loadu_si256(words[4 * m..4 * m + 4].as_ptr().cast::<__m256i>())
                    },
                    None => _mm256_setzero_si256(),
                };
                let low = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lane(quad[0])), lane(quad[1]));
                let high = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lane(quad[2])), lane(quad[3]));
                let bytes = _mm512_maskz_permutex2var_epi8(g.mask, low, index, high);
                let to = &mut bitmaps[m * words + at..m * words + at + count];
                // SAFETY: `to` holds `count` words, the bits of `keep`.
                unsafe {
                    let old = _mm512_maskz_loadu_epi64(keep, to.as_ptr().cast());
                    _mm512_mask_storeu_epi64(to.as_mut_ptr().cast(), keep, _mm512_or_si512(old, bytes));
                }
            }
        }
    }

    /// Writes one node's bitmaps of a wave (`bitmaps`: one word per move and batch, one move
    /// after the other) from its arcs' masks in each of the wave's batches (`wave`), by the
    /// plans of the wave's spans of `span_words` batches (`plans`, from the wave's first span
    /// on).
    ///
    /// # Panics
    /// If `bitmaps` is not one word per arc and batch, a node has more than 8 arcs, or `plans`
    /// has too few spans.
    pub(in crate::compressed) fn fold_bits(
        token: Bitalg,
        plans: &[BitPlan],
        span_words: usize,
        arcs: Range<usize>,
        wave: &[Vec<u64>],
        bitmaps: &mut [u64],
    ) {
        assert_eq!(bitmaps.len(), arcs.len() * wave.len(), "a word per arc and batch");
        assert!(arcs.len() <= 8 && (1..=8).contains(&span_words), "8 moves and 8 words a span at most");
        assert!(plans.len() >= wave.len().div_ceil(span_words), "a plan per span");
        assert!(wave.iter().all(|acc| acc.len() >= arcs.end), "masks of the arcs");
        // SAFETY: the token exists only when the processor has AVX-512 F, BW, VBMI and BITALG.
        unsafe { fold_bits_bitalg(token, plans, span_words, arcs, wave, bitmaps) }
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512bitalg")]
    fn fold_bits_bitalg(
        _: Bitalg,
        plans: &[BitPlan],
        span_words: usize,
        arcs: Range<usize>,
        wave: &[Vec<u64>],
        bitmaps: &mut [u64],
    ) {
        let words = wave.len();
        let moves = arcs.len();
        let mut sources = [_mm512_setzero_si512(); 8];
        for (s, (batches, plan)) in wave.chunks(span_words).zip(plans).enumerate() {
            // Each move's masks of the span's batches, as one vector.
            for (source, a) in sources.iter_mut().zip(arcs.clone()) {
                let mut masks = [0u64; 8];
                for (mask, acc) in masks.iter_mut().zip(batches) {
                    *mask = acc[a];
                }
                // SAFETY: `masks` is 64 bytes.
                *source = unsafe { _mm512_loadu_si512(masks.as_ptr().cast()) };
            }
            for k in 0..batches.len() {
                // SAFETY: each plan row is 64 bytes.
                let (index, bit) = unsafe {
                    (
                        _mm512_loadu_si512(plan.index[k].as_ptr().cast()),
                        _mm512_loadu_si512(plan.bit[k].as_ptr().cast()),
                    )
                };
                for (m, &source) in sources[..moves].iter().enumerate() {
                    let bytes = _mm512_permutexvar_epi8(index, source);
                    bitmaps[m * words + s * span_words + k] =
                        _mm512_mask_bitshuffle_epi64_mask(plan.valid[k], bytes, bit);
                }
            }
        }
    }
}
