//! The stored format: packed run records, three-byte columns, the two-level row index, and
//! the rows being built.

use crate::buf::Buf;

/// Runs packed as little-endian records `first column << move_bits | moves`: 4 bits of moves
/// when no node has more than four neighbours, else 8; 3 bytes per record when the column
/// fits in the rest of 24 bits (4-connected maps up to a million cells, octile ones up to
/// 65,536). Past that, nodes of more than four neighbours keep one move of each run, as its
/// slot in 3 bits, so that records stay 3 bytes up to 2^21 nodes (a quarter smaller than 4,
/// the runs unchanged); 4 bytes of a whole move set beyond. Comparing records compares first
/// columns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Packed {
    /// The records, then padding so that any record reads as a whole `u32`.
    pub(super) bytes: Buf<u8>,
    pub(super) len: usize,
    pub(super) width: usize,
    pub(super) move_bits: u32,
}

/// Padding after the records.
pub(super) const PAD: usize = 1;

/// Bits of a record that holds one move, as its slot (below [`MAX_DEGREE`]).
///
/// [`MAX_DEGREE`]: super::MAX_DEGREE
pub(super) const SLOT_BITS: u32 = 3;

impl Packed {
    pub(super) fn new(width: usize, move_bits: u32) -> Packed {
        Packed { bytes: vec![0; PAD].into(), len: 0, width, move_bits }
    }

    /// The record layout for `nodes` nodes of at most `degree` neighbours.
    pub(super) fn for_graph(nodes: usize, degree: usize) -> Packed {
        let column_bits = usize::BITS - nodes.leading_zeros();
        match (degree <= 4, column_bits) {
            (true, bits) => Packed::new(if 4 + bits <= 24 { 3 } else { 4 }, 4),
            (false, bits) if 8 + bits <= 24 => Packed::new(3, 8),
            (false, bits) if SLOT_BITS + bits <= 24 => Packed::new(3, SLOT_BITS),
            (false, _) => Packed::new(4, 8),
        }
    }

    /// Whether records hold one move's slot instead of a set of moves.
    fn single(&self) -> bool {
        self.move_bits == SLOT_BITS
    }

    /// Appends the record of a run from column `start` whose moves are `moves` (not empty) to
    /// `bytes`, the records being built; [`Packed::finish`] stores them.
    pub(super) fn encode(&self, bytes: &mut Vec<u8>, start: u32, moves: u8) {
        debug_assert!(moves != 0);
        let low = if self.single() { moves.trailing_zeros() as u8 } else { moves };
        let record = start << self.move_bits | u32::from(low);
        bytes.extend_from_slice(&record.to_le_bytes()[..self.width]);
    }

    /// Stores the records [`Packed::encode`] appended to `bytes`.
    pub(super) fn finish(&mut self, mut bytes: Vec<u8>) {
        self.len = bytes.len() / self.width;
        bytes.resize(bytes.len() + PAD, 0);
        bytes.shrink_to_fit();
        self.bytes = bytes.into();
    }

    #[inline]
    fn record(&self, i: usize) -> u32 {
        let at = i * self.width;
        let word = u32::from_le_bytes(self.bytes[at..at + 4].try_into().expect("padded"));
        if self.width == 4 { word } else { word & 0x00FF_FFFF }
    }

    #[inline]
    pub(super) fn start(&self, i: usize) -> u32 {
        self.record(i) >> self.move_bits
    }

    /// The moves of record `i`, as a set of slots.
    #[inline]
    pub(super) fn moves(&self, i: usize) -> u8 {
        let low = (self.record(i) & ((1 << self.move_bits) - 1)) as u8;
        if self.single() { 1 << low } else { low }
    }

    /// In records `range`, the number of runs starting at or before column `col`.
    ///
    /// A plain binary search. Measured slower (medians of 15 alternating rounds on saved
    /// tables): the same search without branches, by conditional moves (brc202d path steps
    /// 15.6 → 24 ns: the branchy search's speculation runs ahead), and every 16th run's column
    /// copied in front of long rows to search first (Berlin octile 82 → 96 ns a step).
    #[inline]
    pub(super) fn starting_by(&self, range: core::ops::Range<usize>, col: u32) -> usize {
        let key = (col << self.move_bits) | ((1 << self.move_bits) - 1);
        let (mut lo, mut hi) = (range.start, range.end);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.record(mid) <= key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo - range.start
    }

    pub(super) fn memory_bytes(&self) -> usize {
        self.bytes.len()
    }
}

/// Bits of a run's first column.
pub(super) const START_BITS: u32 = 24;

/// One value below 2^24 per node (the columns) in three bytes, read as one unaligned
/// little-endian `u32` and masked (one byte of padding at the end).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct U24s {
    pub(super) bytes: Buf<u8>,
}

impl U24s {
    pub(super) fn new(values: &[u32]) -> U24s {
        let mut bytes = Vec::with_capacity(3 * values.len() + 1);
        for &v in values {
            debug_assert!(v < 1 << START_BITS);
            bytes.extend_from_slice(&v.to_le_bytes()[..3]);
        }
        bytes.push(0);
        U24s { bytes: bytes.into() }
    }

    pub(super) fn len(&self) -> usize {
        (self.bytes.len() - 1) / 3
    }

    #[inline]
    pub(super) fn get(&self, i: usize) -> u32 {
        let at = 3 * i;
        u32::from_le_bytes(self.bytes[at..at + 4].try_into().expect("padded")) & 0x00FF_FFFF
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

/// Where each row's runs start: a `u32` per block of 16 rows and a `u16` per row counted
/// from its block's start, 2.25 bytes a row instead of 4. Blocks shrink (down to one row,
/// 6 bytes a row) when a block's rows hold more than 65,535 runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct RowStarts {
    pub(super) shift: u32,
    pub(super) base: Buf<u32>,
    pub(super) offset: Buf<u16>,
}

impl RowStarts {
    /// From the non-decreasing `starts` of each row and the end of the last.
    pub(super) fn new(starts: &[u32]) -> RowStarts {
        (0..=4)
            .rev()
            .find_map(|shift| {
                let base: Vec<u32> = starts.iter().step_by(1 << shift).copied().collect();
                let offset = starts
                    .iter()
                    .enumerate()
                    .map(|(i, &s)| u16::try_from(s - base[i >> shift]).ok())
                    .collect::<Option<Vec<u16>>>()?;
                Some(RowStarts { shift, base: base.into(), offset: offset.into() })
            })
            .expect("blocks of one row start at offset 0")
    }

    #[inline]
    pub(super) fn start(&self, i: usize) -> usize {
        // Saturating: a crafted file's sums could pass `usize` on 32-bit targets.
        (self.base[i >> self.shift] as usize).saturating_add(usize::from(self.offset[i]))
    }

    /// Asks for the cache lines [`RowStarts::row`] reads for row `v`.
    #[inline]
    pub(super) fn prefetch(&self, v: usize) {
        crate::prefetch::prefetch(&self.base[v >> self.shift]);
        crate::prefetch::prefetch(&self.offset[v]);
    }

    /// The runs of row `v`.
    #[inline]
    pub(super) fn row(&self, v: usize) -> core::ops::Range<usize> {
        self.start(v)..self.start(v + 1)
    }

    #[cfg(test)]
    pub(super) fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.offset.len()).map(|i| self.start(i) as u32)
    }

    pub(super) fn memory_bytes(&self) -> usize {
        self.base.len() * 4 + self.offset.len() * 2
    }
}

/// One node's row while it is being built: closed runs and the open one.
///
/// Runs are cut greedily (the fewest runs: a run grows while its moves' intersection stays
/// non-empty), or, for a shard of a build ([`RowBuilder::exact`]), wherever the entry
/// changes: exact runs, which fold greedily into the same runs as their entries one by one,
/// so that shards built apart join into the table one build would make.
#[derive(Debug, Clone, Default)]
pub(super) struct RowBuilder {
    runs: Vec<(u32, u8)>,
    start: u32,
    moves: u8,
    exact: bool,
}

impl RowBuilder {
    /// A row of exact runs: a run ends wherever the next non-empty entry differs.
    pub(super) fn exact() -> RowBuilder {
        RowBuilder { exact: true, ..RowBuilder::default() }
    }

    /// Adds the entry `mask` of the next target, column `col` (or, alike, an exact run of
    /// such entries starting there).
    #[inline]
    pub(super) fn push(&mut self, col: u32, mask: u8) {
        if mask == 0 {
            return; // no move: fits any run
        }
        if self.exact {
            if mask != self.moves {
                if self.moves != 0 {
                    self.runs.push((self.start, self.moves));
                }
                self.start = col;
                self.moves = mask;
            }
            return;
        }
        if self.moves & mask == 0 {
            if self.moves != 0 {
                self.runs.push((self.start, self.moves));
                self.start = col;
            }
            self.moves = mask;
        } else {
            self.moves &= mask;
        }
    }

    /// Adds the entries of columns `first..first + len`, given as one bitmap per move: bit `p`
    /// of `masks[i * words..(i + 1) * words]` (`words = len.div_ceil(64)`) set when move `i`
    /// (of `moves`) is optimal toward column `first + p`; bits from `len` on are zero. Folds
    /// exactly as [`RowBuilder::push`] entry by entry, but only looks at the entries where
    /// the open run changes: those holding no move are skipped, and those holding every move
    /// of the open run only keep it, so a word of 64 entries is one test per move of the run.
    pub(super) fn push_masks(&mut self, first: u32, len: usize, masks: &[u64], moves: usize) {
        let words = len.div_ceil(64);
        debug_assert!(masks.len() >= moves * words);
        let mut pos = 0;
        while pos < len {
            // The next entry at or after `pos` that changes the open run.
            let mut x = pos / 64;
            let mut low = !0u64 << (pos % 64);
            let q = loop {
                if x == words {
                    return;
                }
                let any = (0..moves).fold(0, |u, i| u | masks[i * words + x]);
                let changes = if self.exact {
                    // Non-empty entries that differ from the open run's moves in some move.
                    let open = |i: usize| if self.moves >> i & 1 == 1 { !0 } else { 0 };
                    any & (0..moves).fold(0, |d, i| d | (masks[i * words + x] ^ open(i)))
                } else if self.moves == 0 {
                    any
                } else {
                    (0..moves)
                        .filter(|&i| self.moves >> i & 1 == 1)
                        .fold(0, |c, i| c | (any & !masks[i * words + x]))
                };
                let changes = changes & low;
                if changes != 0 {
                    break x * 64 + changes.trailing_zeros() as usize;
                }
                x += 1;
                low = !0;
            };
            let entry =
                (0..moves).fold(0u8, |e, i| e | (((masks[i * words + q / 64] >> (q % 64)) & 1) as u8) << i);
            self.push(first + q as u32, entry);
            pos = q + 1;
        }
    }

    pub(super) fn finish(mut self) -> Vec<(u32, u8)> {
        if self.moves != 0 {
            self.runs.push((self.start, self.moves));
        }
        self.runs
    }
}

#[cfg(test)]
mod tests {
    use super::RowBuilder;

    #[test]
    fn move_bitmaps_fold_like_entries_one_by_one() {
        let mut rng = crate::generate::SplitMix64::new(11);
        for round in 0..3000 {
            // Entries drawn from few masks, many empty, so that runs continue often; lengths
            // that end mid-word and rows folded in several calls.
            let len = 1 + (rng.next_u64() % 300) as usize;
            let moves = 1 + round % 4;
            let choices: &[u8] = &[0, 1, 3, 2, 6, 4, 5, 15, 8, 12];
            let entries: Vec<u8> = (0..len)
                .map(|_| choices[(rng.next_u64() % choices.len() as u64) as usize] & ((1 << moves) - 1))
                .collect();
            let split = (rng.next_u64() % (len as u64 + 1)) as usize;
            let mut built = Vec::new();
            for row in [RowBuilder::default(), RowBuilder::exact()] {
                let (mut fast, mut slow) = (row.clone(), row);
                for (first, part) in [(0, &entries[..split]), (split, &entries[split..])] {
                    let words = part.len().div_ceil(64);
                    let mut masks = vec![0u64; moves * words];
                    for (p, &e) in part.iter().enumerate() {
                        for i in 0..moves {
                            masks[i * words + p / 64] |= u64::from(e >> i & 1) << (p % 64);
                        }
                    }
                    fast.push_masks(first as u32, part.len(), &masks, moves);
                }
                for (i, &e) in entries.iter().enumerate() {
                    slow.push(i as u32, e);
                }
                let runs = fast.finish();
                assert_eq!(runs, slow.finish(), "entries {entries:?}");
                built.push(runs);
            }
            // Exact runs: every entry of a run equal (or empty), and folded greedily they
            // give the greedy runs of the entries.
            let exact = &built[1];
            for (k, &(start, moves)) in exact.iter().enumerate() {
                let end = exact.get(k + 1).map_or(len, |&(next, _)| next as usize);
                assert!(entries[start as usize..end].iter().all(|&e| e == 0 || e == moves));
            }
            let mut folded = RowBuilder::default();
            for &(start, moves) in exact {
                folded.push(start, moves);
            }
            assert_eq!(folded.finish(), built[0], "entries {entries:?}");
        }
    }

    #[test]
    fn row_starts_and_columns_read_back_what_was_packed() {
        // Rows of 0..40 runs (blocks of 16), then one row of 70,000 (blocks shrink).
        for huge in [false, true] {
            let mut starts = vec![0u32];
            for i in 0..100u32 {
                let len = if huge && i == 37 { 70_000 } else { i % 41 };
                starts.push(starts.last().unwrap() + len);
            }
            let packed = super::RowStarts::new(&starts);
            assert_eq!(packed.shift < 4, huge);
            assert_eq!(packed.iter().collect::<Vec<_>>(), starts);
        }
        let columns: Vec<u32> = (0..1000u32).map(|i| i.wrapping_mul(2_654_435_761) >> 8).collect();
        let packed = super::U24s::new(&columns);
        assert_eq!(packed.len(), 1000);
        assert_eq!(packed.iter().collect::<Vec<_>>(), columns);
    }
}
