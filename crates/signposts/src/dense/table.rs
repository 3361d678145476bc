//! The dense first-move table: storage and entry access, no algorithms.
//!
//! Node `u` has `deg(u)` neighbour slots in CSR order (neighbours sorted by id). For every
//! target column `c`, the entry `(u, c)` is a bitmask over `u`'s slots: bit `i` is set exactly
//! when the `i`-th neighbour lies on a shortest path to the target of column `c`.
//!
//! Entry width is [`entry_bits`]: `deg` rounded up to a power of two (1, 2, 4, …), so an entry
//! of at most 64 bits never straddles two words; nodes of degree above 64 use whole words per
//! entry. A row may be wider than its degree needs (after edges were removed in place); its
//! width is stored with it.
//!
//! ## Tiles
//!
//! Columns are grouped in blocks of [`BLOCK`] (256) consecutive columns. A block stores, node
//! after node, each node's *chunk*: its entries toward the block's columns, back to back (256
//! entries of `width(u)` bits = `4 · width(u)` words). So a query is one load and a mask; the
//! entries of every node toward one target lie in one contiguous block (a crowd chasing one
//! player reads one region), and a build batch writes within one contiguous block.
//! The last block holds only the lanes of 64 columns it needs, so padding is under 64 columns.

use crate::NodeId;

/// Where a node's row and neighbour list live. Packed so that one cache line serves a query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct NodeRow {
    /// Low 56 bits: `Σ width(v)` over the nodes `v` before this one, the word offset of this
    /// node's chunk in a block per lane of 64 columns (see [`Layout::chunk`]). High 8 bits:
    /// `log2(width)`. Set by [`Layout::assign_widths`]; packed so that a query reads one 16-byte
    /// record.
    pub word: u64,
    /// Index of this node's first neighbour slot in [`Table::neighbors`].
    pub first: u32,
    /// Number of neighbour slots.
    pub deg: u32,
}

impl NodeRow {
    /// The chunk offset part of [`NodeRow::word`].
    #[inline]
    pub fn offset(self) -> u64 {
        self.word & ((1 << 56) - 1)
    }

    /// `log2` of the entry width, or `None` for entries wider than 64 bits.
    #[inline]
    pub fn width_log2(self) -> Option<u32> {
        let code = self.word >> 56;
        (code <= 6).then_some(code as u32)
    }

    /// The entry width in bits.
    #[inline]
    pub fn width_bits(self) -> u32 {
        1 << (self.word >> 56)
    }

    /// The node's neighbour slots as a range into [`Table::neighbors`].
    #[inline]
    pub fn slots(self) -> core::ops::Range<usize> {
        self.first as usize..self.first as usize + self.deg as usize
    }
}

/// The largest degree a row's entry width can serve: widths are powers of two of at most
/// 2^31 bits (stored as their `log2` and counted in `u32`).
pub(crate) const MAX_ENTRY_DEGREE: u32 = 1 << 31;

/// Bits per entry for a node of degree `deg`: the next power of two (at least 1).
///
/// # Panics
/// Above [`MAX_ENTRY_DEGREE`]; builds refuse such degrees first ([`checked_entry_bits`]).
#[inline]
pub(crate) const fn entry_bits(deg: u32) -> u32 {
    match checked_entry_bits(deg) {
        Some(bits) => bits,
        None => panic!("a degree above 2^31 has no entry width"),
    }
}

/// [`entry_bits`], or `None` above [`MAX_ENTRY_DEGREE`].
#[inline]
pub(crate) const fn checked_entry_bits(deg: u32) -> Option<u32> {
    if deg <= 1 { Some(1) } else { deg.checked_next_power_of_two() }
}

/// Columns per block (tile) of the table, and targets per build batch.
pub(crate) const BLOCK: usize = 256;

/// Lanes of 64 columns per block.
const BLOCK_LANES: u64 = (BLOCK / 64) as u64;

/// How the table's words are laid out: blocks of [`BLOCK`] columns, node-major inside.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Layout {
    /// `Σ_u width(u)`: the words that one lane of 64 columns takes over all nodes.
    pub lane_words: u64,
    /// Lanes of 64 columns: `⌈n / 64⌉`.
    pub lanes: u64,
}

impl Layout {
    /// Lays out a table with the entry width `bits(row)` (a power of two, at least
    /// [`entry_bits`] of the degree) for each row.
    pub fn assign_widths(rows: &mut [NodeRow], mut bits: impl FnMut(NodeRow) -> u32) -> Layout {
        let mut prefix = 0u64;
        for row in rows.iter_mut() {
            let width = bits(*row);
            debug_assert!(width.is_power_of_two() && width >= entry_bits(row.deg));
            row.word = prefix | u64::from(width.trailing_zeros()) << 56;
            prefix += u64::from(width);
        }
        Layout { lane_words: prefix, lanes: (rows.len() as u64).div_ceil(64) }
    }

    /// The layout's word count for nodes of the given degrees, without assigning rows; `None`
    /// when a degree is above [`MAX_ENTRY_DEGREE`] or the count overflows `u64`.
    pub fn words_for(degrees: impl Iterator<Item = u32>, nodes: usize) -> Option<u64> {
        let mut lane_words = 0u64;
        for deg in degrees {
            lane_words = lane_words.checked_add(u64::from(checked_entry_bits(deg)?))?;
        }
        lane_words.checked_mul((nodes as u64).div_ceil(64))
    }

    /// Words in all.
    pub fn words(&self) -> u64 {
        self.lane_words * self.lanes
    }

    /// Start word of `row`'s chunk in block `block`, and how many lanes of 64 columns the
    /// block has (4, fewer in the last block).
    #[inline]
    #[expect(clippy::cast_possible_truncation, reason = "word indices fit: the table is in memory")]
    pub fn chunk(&self, row: NodeRow, block: usize) -> (usize, usize) {
        let first_lane = block as u64 * BLOCK_LANES;
        let lanes = (self.lanes - first_lane).min(BLOCK_LANES);
        ((first_lane * self.lane_words + lanes * row.offset()) as usize, lanes as usize)
    }
}

/// One entry of the table: the optimal-move bitmask over a node's slots.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Entry<'a> {
    /// Up to 64 slots.
    Narrow(u64),
    /// More than 64 slots: little-endian words.
    Wide(&'a [u64]),
}

impl Entry<'_> {
    /// Index of the lowest set slot.
    #[inline]
    pub fn first(self) -> Option<usize> {
        match self {
            Entry::Narrow(0) => None,
            Entry::Narrow(mask) => Some(mask.trailing_zeros() as usize),
            Entry::Wide(words) => {
                words.iter().position(|&w| w != 0).map(|i| i * 64 + words[i].trailing_zeros() as usize)
            }
        }
    }

    /// Whether no slot is set.
    #[inline]
    pub fn is_empty(self) -> bool {
        match self {
            Entry::Narrow(mask) => mask == 0,
            Entry::Wide(words) => words.iter().all(|&w| w == 0),
        }
    }

    /// Whether slot `slot` is set.
    #[inline]
    pub fn contains(self, slot: usize) -> bool {
        match self {
            Entry::Narrow(mask) => slot < 64 && mask >> slot & 1 == 1,
            Entry::Wide(words) => words.get(slot / 64).is_some_and(|w| w >> (slot % 64) & 1 == 1),
        }
    }
}

/// Iterator over the set slots of an entry, lowest first.
#[derive(Debug, Clone)]
pub(crate) struct Slots<'a> {
    current: u64,
    base: usize,
    rest: &'a [u64],
}

impl<'a> Slots<'a> {
    #[inline]
    pub fn new(entry: Entry<'a>) -> Self {
        match entry {
            Entry::Narrow(mask) => Slots { current: mask, base: 0, rest: &[] },
            Entry::Wide(words) => match words.split_first() {
                Some((&first, rest)) => Slots { current: first, base: 0, rest },
                None => Slots { current: 0, base: 0, rest: &[] },
            },
        }
    }

    /// How many slots remain.
    pub fn count_remaining(&self) -> usize {
        self.current.count_ones() as usize + self.rest.iter().map(|w| w.count_ones() as usize).sum::<usize>()
    }
}

impl Iterator for Slots<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.current == 0 {
            let (&next, rest) = self.rest.split_first()?;
            self.current = next;
            self.rest = rest;
            self.base += 64;
        }
        let slot = self.base + self.current.trailing_zeros() as usize;
        self.current &= self.current - 1;
        Some(slot)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count_remaining();
        (n, Some(n))
    }
}

impl ExactSizeIterator for Slots<'_> {}

/// The built table with the graph structure it indexes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Table {
    /// Per node: row offset and neighbour range.
    pub rows: Vec<NodeRow>,
    /// Neighbour ids, sorted within each node's range.
    pub neighbors: Vec<NodeId>,
    /// Node id to column index.
    pub column: Vec<u32>,
    /// Column index to node id (the target order the build used).
    pub order: Vec<NodeId>,
    /// The entries (read in place from a saved file when opened so).
    pub words: crate::buf::Buf<u64>,
    /// Where each entry lives in `words`.
    pub layout: Layout,
}

impl Table {
    /// Where the entry of node `u` toward column `col` lives, for entries of at most 64 bits:
    /// the word index, the shift and the mask. `None` for wide entries.
    #[inline]
    pub fn locate(&self, u: usize, col: usize) -> Option<(usize, u32, u64)> {
        let row = self.rows[u];
        let log = row.width_log2()?;
        let (start, _) = self.layout.chunk(row, col / BLOCK);
        let bit = (col % BLOCK) << log;
        Some((start + bit / 64, (bit % 64) as u32, u64::MAX >> (64 - (1u32 << log))))
    }

    /// Calls `f(col, entry)` for every nonzero entry of node `u`, in column order, reading the
    /// row a word at a time. Returns `false` (calling nothing) for rows of wide entries.
    pub fn for_each_narrow(&self, u: usize, mut f: impl FnMut(usize, u64)) -> bool {
        let row = self.rows[u];
        let Some(log) = row.width_log2() else { return false };
        let per_word = 64 >> log;
        let field = u64::MAX >> (64 - (1u32 << log));
        let n = self.order.len();
        for block in 0..n.div_ceil(BLOCK) {
            let (start, lanes) = self.layout.chunk(row, block);
            let words = &self.words[start..start + (lanes << log)];
            for (i, &word) in words.iter().enumerate() {
                let mut rest = word;
                while rest != 0 {
                    let at = rest.trailing_zeros() >> log;
                    let col = block * BLOCK + i * per_word + at as usize;
                    f(col, (word >> (at << log)) & field);
                    rest &= !(field << (at << log));
                }
            }
        }
        true
    }

    /// The entry of node `u` toward column `col`, for rows of at most 64 bits (`None` for wide
    /// rows): the hot path of the local repairs.
    #[inline]
    pub fn narrow_entry(&self, u: usize, col: usize) -> Option<u64> {
        let (word, shift, mask) = self.locate(u, col)?;
        Some((self.words[word] >> shift) & mask)
    }

    /// Starts loading the word that holds the entry of node `u` toward column `col`.
    #[inline]
    pub fn prefetch_entry(&self, u: usize, col: usize) {
        let row = self.rows[u];
        let bits = row.width_bits() as usize;
        let (start, _) = self.layout.chunk(row, col / BLOCK);
        if let Some(word) = self.words.get(start + (col % BLOCK) * bits / 64) {
            crate::prefetch::prefetch(word);
        }
    }

    /// The entry of node `u` toward column `col`.
    #[inline]
    pub fn entry(&self, u: usize, col: usize) -> Entry<'_> {
        if let Some((word, shift, mask)) = self.locate(u, col) {
            return Entry::Narrow((self.words[word] >> shift) & mask);
        }
        let row = self.rows[u];
        let bits = row.width_bits() as usize;
        let (start, _) = self.layout.chunk(row, col / BLOCK);
        let word = start + (col % BLOCK) * bits / 64;
        Entry::Wide(&self.words[word..word + bits / 64])
    }

    /// Moves every entry of node `u` to new slots: bit `i` goes to bit `map[i]`, or is dropped
    /// when `map[i]` is `None`. Rows of entries up to 8 bits are rewritten a word at a time
    /// through a lookup table.
    pub fn remap_row(&mut self, u: usize, map: &[Option<usize>]) {
        let row = self.rows[u];
        let remap = |mask: u64| {
            Slots::new(Entry::Narrow(mask))
                .fold(0u64, |acc, i| acc | map.get(i).copied().flatten().map_or(0, |new| 1 << new))
        };
        match row.width_log2() {
            Some(log) if log <= 3 => {
                let width = 1usize << log;
                let field = (1u64 << width) - 1;
                let lut: Vec<u64> = (0..=field).map(remap).collect();
                for block in 0..self.layout.lanes.div_ceil(BLOCK_LANES) as usize {
                    let (start, lanes) = self.layout.chunk(row, block);
                    for word in &mut self.words[start..start + lanes * width] {
                        let mut out = 0;
                        for shift in (0..64).step_by(width) {
                            out |= lut[(*word >> shift & field) as usize] << shift;
                        }
                        *word = out;
                    }
                }
            }
            _ => {
                let width = row.width_bits() as usize;
                let mut value = vec![0u64; width.div_ceil(64)];
                for col in 0..self.column.len() {
                    value.fill(0);
                    for slot in Slots::new(self.entry(u, col)) {
                        if let Some(new) = map[slot] {
                            value[new / 64] |= 1 << (new % 64);
                        }
                    }
                    self.set_entry(u, col, &value);
                }
            }
        }
    }

    /// Writes entries of at most 64 bits, `(col, node, mask)`, given in groups that share no
    /// block of columns, groups in column order: the groups are written in parallel
    /// (with the `parallel` feature), each into its own blocks' words.
    pub fn write_groups(&mut self, groups: &[Vec<(usize, usize, u64)>]) {
        /// A group's words, the index of its first word, and its writes.
        type Part<'a> = (&'a mut [u64], usize, &'a [(usize, usize, u64)]);
        let block_words = BLOCK_LANES as usize * self.layout.lane_words as usize;
        let mut parts: Vec<Part<'_>> = Vec::new();
        let mut rest: &mut [u64] = &mut self.words;
        let mut base = 0;
        for group in groups {
            let (Some(first), Some(last)) =
                (group.iter().map(|w| w.0).min(), group.iter().map(|w| w.0).max())
            else {
                continue;
            };
            let start = first / BLOCK * block_words;
            let end = ((last / BLOCK + 1) * block_words).min(base + rest.len());
            debug_assert!(start >= base, "groups share no block and come in column order");
            let (_, tail) = core::mem::take(&mut rest).split_at_mut(start - base);
            let (part, tail) = tail.split_at_mut(end - start);
            parts.push((part, start, group));
            rest = tail;
            base = end;
        }
        let (rows, layout) = (&self.rows, &self.layout);
        let write = |(part, start, group): Part<'_>| {
            for &(col, u, mask) in group {
                let row = rows[u];
                let log = row.width_log2().expect("narrow entries");
                let (chunk, _) = layout.chunk(row, col / BLOCK);
                let bit = (col % BLOCK) << log;
                let field = u64::MAX >> (64 - (1u32 << log));
                let word = &mut part[chunk + bit / 64 - start];
                let shift = bit % 64;
                *word = (*word & !(field << shift)) | ((mask & field) << shift);
            }
        };
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            parts.into_par_iter().for_each(write);
        }
        #[cfg(not(feature = "parallel"))]
        parts.into_iter().for_each(write);
    }

    /// Overwrites the entry of node `u` toward column `col` with `value` (one word for entries
    /// of at most 64 bits, `width / 64` words otherwise).
    pub fn set_entry(&mut self, u: usize, col: usize, value: &[u64]) {
        if let Some((word, shift, mask)) = self.locate(u, col) {
            let cell = &mut self.words[word];
            *cell = (*cell & !(mask << shift)) | ((value[0] & mask) << shift);
            return;
        }
        let row = self.rows[u];
        let bits = row.width_bits() as usize;
        let (start, _) = self.layout.chunk(row, col / BLOCK);
        let word = start + (col % BLOCK) * bits / 64;
        self.words[word..word + bits / 64].copy_from_slice(&value[..bits / 64]);
    }

    /// Adds the move in `slot` to the entry of node `u` toward column `col`.
    #[inline]
    pub fn set_slot(&mut self, u: usize, col: usize, slot: usize) {
        if let Some((word, shift, _)) = self.locate(u, col) {
            self.words[word] |= 1 << (shift as usize + slot);
            return;
        }
        let row = self.rows[u];
        let bits = row.width_bits() as usize;
        let (start, _) = self.layout.chunk(row, col / BLOCK);
        self.words[start + (col % BLOCK) * bits / 64 + slot / 64] |= 1 << (slot % 64);
    }

    /// The entry of node `u` toward node `t`.
    #[inline]
    pub fn entry_to(&self, u: usize, t: usize) -> Entry<'_> {
        self.entry(u, self.column[t] as usize)
    }

    /// Neighbour ids of `u`.
    #[inline]
    pub fn neighbors(&self, u: usize) -> &[NodeId] {
        &self.neighbors[self.rows[u].slots()]
    }

    /// Bytes held by the table and the structure it indexes.
    pub fn memory_bytes(&self) -> usize {
        self.rows.len() * size_of::<NodeRow>()
            + self.neighbors.len() * size_of::<NodeId>()
            + self.column.len() * size_of::<u32>()
            + self.order.len() * size_of::<NodeId>()
            + self.words.len() * size_of::<u64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_bits_rounds_up_to_powers_of_two_then_words() {
        let cases = [(0, 1), (1, 1), (2, 2), (3, 4), (4, 4), (5, 8), (8, 8), (9, 16), (33, 64)];
        for (deg, bits) in cases {
            assert_eq!(entry_bits(deg), bits, "deg {deg}");
        }
        assert_eq!(entry_bits(64), 64);
        assert_eq!(entry_bits(65), 128);
        assert_eq!(entry_bits(200), 256);
        assert_eq!(entry_bits(MAX_ENTRY_DEGREE), 1 << 31);
    }

    #[test]
    fn degrees_above_2_pow_31_have_no_entry_width_instead_of_wrapping_to_zero() {
        assert_eq!(checked_entry_bits(MAX_ENTRY_DEGREE + 1), None);
        assert_eq!(checked_entry_bits(u32::MAX), None);
        assert_eq!(Layout::words_for([1, u32::MAX].into_iter(), 2), None);
        assert_eq!(Layout::words_for([3, MAX_ENTRY_DEGREE].into_iter(), 65), Some((4 + (1 << 31)) * 2));
    }

    #[test]
    fn slots_iterate_narrow_and_wide_entries() {
        assert_eq!(Slots::new(Entry::Narrow(0b1010_0001)).collect::<Vec<_>>(), [0, 5, 7]);
        let wide = [1u64 << 63, 0, 0b11];
        assert_eq!(Slots::new(Entry::Wide(&wide)).collect::<Vec<_>>(), [63, 128, 129]);
        assert_eq!(Slots::new(Entry::Wide(&wide)).len(), 3);
        assert_eq!(Entry::Wide(&wide).first(), Some(63));
        assert!(Entry::Wide(&wide).contains(129));
        assert!(!Entry::Wide(&wide).contains(64));
    }
}
