//! Bit interleaving: turning per-slot target masks into table entries.
//!
//! A batch of 64 targets produces, for each node, one 64-bit mask per neighbour slot (bit `j` =
//! "slot `i` is optimal toward target `j`"). The table wants the transpose: for each target, a
//! `bits`-wide entry holding one bit per slot. Spreading a mask so that its bits land `bits`
//! apart does this with a handful of shifts per word instead of a loop per bit.

/// Spreads the low `64 / stride` bits of `x` so that bit `k` moves to bit `k * stride`.
///
/// `stride` must be a power of two from 1 to 64.
#[inline]
pub(crate) fn spread(x: u64, stride: u32) -> u64 {
    match stride {
        1 => x,
        2 => {
            let mut x = x & 0xFFFF_FFFF;
            x = (x | x << 16) & 0x0000_FFFF_0000_FFFF;
            x = (x | x << 8) & 0x00FF_00FF_00FF_00FF;
            x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F;
            x = (x | x << 2) & 0x3333_3333_3333_3333;
            (x | x << 1) & 0x5555_5555_5555_5555
        }
        4 => {
            let mut x = x & 0xFFFF;
            x = (x | x << 24) & 0x0000_00FF_0000_00FF;
            x = (x | x << 12) & 0x000F_000F_000F_000F;
            x = (x | x << 6) & 0x0303_0303_0303_0303;
            (x | x << 3) & 0x1111_1111_1111_1111
        }
        8 => {
            let mut x = x & 0xFF;
            x = (x | x << 28) & 0x0000_000F_0000_000F;
            x = (x | x << 14) & 0x0003_0003_0003_0003;
            (x | x << 7) & 0x0101_0101_0101_0101
        }
        _ => {
            let mut out = 0;
            let mut rest = x & ((1u64 << (64 / stride)) - 1);
            while rest != 0 {
                let k = rest.trailing_zeros();
                out |= 1 << (k * stride);
                rest &= rest - 1;
            }
            out
        }
    }
}

/// Writes the entries of one node for a batch of up to 64 consecutive columns.
///
/// `mask(i)` for `i < slots` holds, for slot `i`, the targets toward which that slot is optimal
/// (bit `j` = the chunk's `j`-th column). `out` receives the chunk of the row covering the batch:
/// `bits` words when the batch is full (64 entries of `bits` bits), fewer for the last batch.
/// `emit(k, word)` stores word `k` of the chunk.
#[inline]
pub(crate) fn transpose_chunk(
    slots: usize,
    mask: impl Fn(usize) -> u64,
    bits: u32,
    words: usize,
    mut emit: impl FnMut(usize, u64),
) {
    if bits <= 64 {
        let per_word = 64 / bits; // entries per word
        for k in 0..words {
            let shift = k as u32 * per_word;
            let mut word = 0;
            for i in 0..slots {
                let part = mask(i) >> shift; // shift < 64: k < words <= bits
                if part != 0 {
                    word |= spread(part, bits) << i;
                }
            }
            emit(k, word);
        }
    } else {
        // Wide entries: `per` words per entry, entry j at words [j * per, (j + 1) * per).
        let per = (bits / 64) as usize;
        let entries = words / per;
        for j in 0..entries {
            for p in 0..per {
                let mut word = 0;
                for i in p * 64..slots.min(p * 64 + 64) {
                    word |= (mask(i) >> j & 1) << (i - p * 64);
                }
                emit(j * per + p, word);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spread_naive(x: u64, stride: u32) -> u64 {
        (0..64 / stride).filter(|k| x >> k & 1 == 1).fold(0, |acc, k| acc | 1 << (k * stride))
    }

    #[test]
    fn spread_matches_naive_for_every_stride() {
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for stride in [1, 2, 4, 8, 16, 32, 64] {
                assert_eq!(spread(x, stride), spread_naive(x, stride), "x {x:#x} stride {stride}");
            }
        }
    }

    fn transpose_naive(masks: &[u64], bits: u32, entries: usize) -> Vec<u64> {
        let words = (entries * bits as usize).div_ceil(64);
        let mut out = vec![0u64; words];
        for (i, &mask) in masks.iter().enumerate() {
            for j in 0..entries {
                if mask >> j & 1 == 1 {
                    let bit = j * bits as usize + i;
                    out[bit / 64] |= 1 << (bit % 64);
                }
            }
        }
        out
    }

    #[test]
    fn transpose_matches_naive_for_every_width() {
        let mut x = 0x2545_F491_4F6C_DD1D_u64;
        for deg in [1usize, 2, 3, 4, 5, 8, 9, 17, 40, 64, 65, 130] {
            let bits = crate::dense::table::entry_bits(u32::try_from(deg).unwrap());
            for entries in [1usize, 7, 63, 64] {
                let masks: Vec<u64> = (0..deg)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        x & if entries == 64 { u64::MAX } else { (1 << entries) - 1 }
                    })
                    .collect();
                let want = transpose_naive(&masks, bits, entries);
                let mut got = vec![0u64; want.len()];
                transpose_chunk(masks.len(), |i| masks[i], bits, want.len(), |k, w| got[k] = w);
                assert_eq!(got, want, "deg {deg} entries {entries}");
            }
        }
    }
}
