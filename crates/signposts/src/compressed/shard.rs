//! Compressed builds in shards: each shard searches the targets of one span of the core's
//! columns, on any machine, and the shards merge into the table one build would make, byte
//! for byte.
//!
//! A shard keeps every source's *exact* runs over its span (a run ends wherever the entry
//! changes, so no information is lost; about twice the runs of the greedy cut). The merge
//! folds each row's exact runs, span after span, greedily: the same runs as folding the
//! entries one by one, which is what one build does. The spans follow from the node count of
//! the core and the shard count alone, so shards agree without talking; each carries the
//! graph's fingerprint and its column order's, so the merge refuses shards of another map,
//! other options or another version's order.

use super::CompressedGraph;
use super::build::Plan;
use super::format::RowBuilder;
use crate::build::{self, Progress};
use crate::format::{Reader, Source, Writer};
use crate::{BuildOptions, Error, GraphBuilder};

/// One shard of a compressed build: the exact runs of every row over one span of columns.
/// Built by [`BuildOptions::build_shard`], saved and loaded with
/// [`CompressedShard::save`] and [`CompressedShard::load`], joined by
/// [`GraphBuilder::merge_compressed`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompressedShard {
    /// [`GraphBuilder::fingerprint`] of the graph.
    fingerprint: u64,
    /// A fingerprint of the column order and the core.
    order: u64,
    nodes: u32,
    core_len: u32,
    index: u32,
    count: u32,
    /// Row `v`'s runs: `starts[rows[v]..rows[v + 1]]`, `moves` alike.
    rows: Vec<u32>,
    /// First column of each run (counted from column 0, not from the span).
    starts: Vec<u32>,
    moves: Vec<u8>,
}

/// The span of core columns shard `index` of `count` searches: `core_len · index / count` up
/// to the next shard's.
///
/// # Panics
/// If `index` is not below `count`.
#[must_use]
pub fn shard_columns(core_len: usize, index: u32, count: u32) -> core::ops::Range<usize> {
    assert!(index < count, "shard {index} of {count}: the index must be below the count");
    let at = |i: u32| (core_len as u64 * u64::from(i) / u64::from(count)) as usize;
    at(index)..at(index + 1)
}

/// What a shard says of itself, beside its runs: what the merge checks the shards agree on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ShardHead {
    pub(super) fingerprint: u64,
    pub(super) order: u64,
    pub(super) nodes: u32,
    pub(super) core_len: u32,
    pub(super) index: u32,
    pub(super) count: u32,
}

impl CompressedShard {
    /// The fields the merge checks.
    pub(super) fn head(&self) -> ShardHead {
        let CompressedShard { fingerprint, order, nodes, core_len, index, count, .. } = *self;
        ShardHead { fingerprint, order, nodes, core_len, index, count }
    }

    /// Which shard this is, of how many.
    #[must_use]
    pub fn index(&self) -> (u32, u32) {
        (self.index, self.count)
    }

    /// The graph's fingerprint ([`GraphBuilder::fingerprint`]).
    #[must_use]
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// The columns of the core (the nodes searched as targets; peeled trees answer without).
    #[must_use]
    pub fn core_len(&self) -> usize {
        self.core_len as usize
    }

    /// The core columns this shard searched.
    #[must_use]
    pub fn columns(&self) -> core::ops::Range<usize> {
        shard_columns(self.core_len as usize, self.index, self.count)
    }

    /// Exact runs kept, over every row.
    #[must_use]
    pub fn runs_len(&self) -> usize {
        self.starts.len()
    }

    /// Bytes held.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.rows.len() * 4 + self.starts.len() * 5
    }

    /// Writes the shard (the saved format's header, kind "compressed shard", then the body;
    /// see the [`io`](crate::format) module).
    ///
    /// # Errors
    /// [`Error::Io`] when writing fails.
    pub fn save(&self, sink: impl std::io::Write) -> Result<(), Error> {
        let mut w = Writer::new(sink);
        w.header(crate::format::KIND_SHARD)?;
        self.write_body(&mut w)?;
        w.finish()
    }

    pub(crate) fn write_body<W: std::io::Write>(&self, w: &mut Writer<W>) -> Result<(), Error> {
        w.u64(self.fingerprint)?;
        w.u64(self.order)?;
        w.u32(self.nodes)?;
        w.u32(self.core_len)?;
        w.u32(self.index)?;
        w.u32(self.count)?;
        w.u64(self.starts.len() as u64)?;
        w.u32s(self.rows.iter().copied())?;
        w.u32s(self.starts.iter().copied())?;
        w.array(&self.moves)
    }

    /// Reads a shard written by [`CompressedShard::save`], checking its structure: rows
    /// that cover the runs, runs inside the shard's span and increasing, moves not empty.
    ///
    /// # Errors
    /// As [`Graph::load`](crate::Graph::load).
    pub fn load(source: impl std::io::Read) -> Result<CompressedShard, Error> {
        CompressedShard::read(source)
    }

    /// [`CompressedShard::save`] to a file, atomically.
    ///
    /// # Errors
    /// As [`CompressedShard::save`].
    pub fn save_to(&self, path: impl AsRef<std::path::Path>) -> Result<(), Error> {
        crate::format::write_atomically(path, |file| self.save(file))
    }

    /// [`CompressedShard::load`] from a file.
    ///
    /// # Errors
    /// As [`CompressedShard::load`].
    pub fn load_from(path: impl AsRef<std::path::Path>) -> Result<CompressedShard, Error> {
        CompressedShard::load(std::io::BufReader::new(std::fs::File::open(path)?))
    }

    fn read(source: impl std::io::Read) -> Result<CompressedShard, Error> {
        let mut r = Reader::open(source, crate::format::KIND_SHARD)?;
        let shard = CompressedShard::read_body(&mut r)?;
        r.finish()?;
        Ok(shard)
    }

    pub(crate) fn read_body(r: &mut impl Source) -> Result<CompressedShard, Error> {
        use crate::format::corrupt;
        let fingerprint = r.u64()?;
        let order = r.u64()?;
        let nodes = r.u32()?;
        let core_len = r.u32()?;
        let index = r.u32()?;
        let count = r.u32()?;
        let runs = r.u64()?;
        if core_len > nodes || count == 0 || index >= count || runs > u64::from(u32::MAX) {
            return Err(corrupt("a shard's counts are out of range"));
        }
        let rows = r.array::<u32>(u64::from(nodes) + 1)?.into_vec();
        let starts = r.array::<u32>(runs)?.into_vec();
        let moves = r.array::<u8>(runs)?.into_vec();
        let shard =
            CompressedShard { fingerprint, order, nodes, core_len, index, count, rows, starts, moves };
        let span = shard.columns();
        if shard.rows.first() != Some(&0)
            || shard.rows.last().map(|&r| u64::from(r)) != Some(runs)
            || shard.rows.windows(2).any(|p| p[0] > p[1])
        {
            return Err(corrupt("a shard's rows do not cover its runs"));
        }
        for v in 0..nodes as usize {
            let row = &shard.starts[shard.rows[v] as usize..shard.rows[v + 1] as usize];
            if row.windows(2).any(|p| p[0] >= p[1]) || row.iter().any(|&c| !span.contains(&(c as usize))) {
                return Err(corrupt("a shard's runs are out of order or outside its span"));
            }
        }
        if shard.moves.contains(&0) {
            return Err(corrupt("a shard's run has no move"));
        }
        Ok(shard)
    }
}

/// A fingerprint of what the shards must agree on beyond the graph: the column order and
/// the core.
fn order_fingerprint(plan: &Plan) -> u64 {
    let mut sum = crate::format::Checksum::new();
    sum.update(&(plan.core_len as u64).to_le_bytes());
    for chunk in plan.order.chunks(1024) {
        let bytes: Vec<u8> = chunk.iter().flat_map(|v| v.to_le_bytes()).collect();
        sum.update(&bytes);
    }
    sum.finish()
}

impl GraphBuilder {
    /// Builds shard `index` of `count` of the compressed table as `options` say (see
    /// [`BuildOptions::build_shard`]): the searches toward the targets of one span of columns
    /// ([`shard_columns`]). Every machine that builds a shard of the same graph agrees on the
    /// spans; [`GraphBuilder::merge_compressed`] joins the `count` shards into exactly the
    /// table [`GraphBuilder::build_compressed`] builds.
    ///
    /// A shard's memory is its span's share of the searches' output (its exact runs, about
    /// twice the runs the span's part of the table keeps) beside the graph and one wave of
    /// searches, so `count` shards of a map too large for one machine each fit one.
    pub(crate) fn build_shard_by(
        &self,
        index: u32,
        count: u32,
        options: &BuildOptions<'_>,
    ) -> Result<CompressedShard, Error> {
        if options.gpu_context().is_some() {
            return Err(Error::Unsupported { what: "shards built on the GPU (build shards on the CPU)" });
        }
        let engines = (build::Avx2::detect(), build::Vbmi::detect());
        let shard =
            self.build_compressed_shard_using(index, count, options.progress_fn(), engines, options.halt())?;
        options.check_size(shard.memory_bytes())?;
        Ok(shard)
    }

    pub(crate) fn build_compressed_shard_using(
        &self,
        index: u32,
        count: u32,
        progress: &(dyn Fn(Progress) + Sync),
        engines: (Option<build::Avx2>, Option<build::Vbmi>),
        halt: Option<&core::sync::atomic::AtomicBool>,
    ) -> Result<CompressedShard, Error> {
        if count == 0 || index >= count {
            return Err(Error::Unsupported { what: "a shard index not below the shard count" });
        }
        let plan = self.compressed_plan()?;
        let span = shard_columns(plan.core_len, index, count);
        let found =
            self.search_rows(&plan, span.clone(), true, progress, engines, super::build::WAVE_BYTES, halt);
        if build::stopped(halt) {
            return Err(Error::Cancelled);
        }
        let (mut rows, mut starts, mut moves) = (Vec::with_capacity(found.len() + 1), Vec::new(), Vec::new());
        let too_many = || Error::Unsupported { what: "more than 2^32 runs in one shard" };
        rows.push(0);
        for row in found {
            for (start, mask) in row.finish() {
                starts.push(start + span.start as u32);
                moves.push(mask);
            }
            rows.push(u32::try_from(starts.len()).map_err(|_| too_many())?);
        }
        Ok(CompressedShard {
            fingerprint: self.fingerprint(),
            order: order_fingerprint(&plan),
            nodes: self.nodes_len() as u32,
            core_len: plan.core_len as u32,
            index,
            count,
            rows,
            starts,
            moves,
        })
    }

    /// Joins the shards `0..k` of one shard count `k`, in any order, into the compressed
    /// table: byte for byte the table [`GraphBuilder::build_compressed`] builds. The result
    /// is checked as a loaded table is.
    ///
    /// # Errors
    /// [`Error::ShardMismatch`] for a shard of another graph (fingerprint), another column
    /// order (another signposts version) or another shard count, or a span missing or given
    /// twice; as [`GraphBuilder::build_compressed`].
    pub fn merge_compressed(&self, shards: &[CompressedShard]) -> Result<CompressedGraph, Error> {
        self.merge_shards(&shards.iter().collect::<Vec<_>>())
    }

    /// [`GraphBuilder::merge_compressed`] of borrowed shards.
    pub(crate) fn merge_shards(&self, shards: &[&CompressedShard]) -> Result<CompressedGraph, Error> {
        let plan = self.compressed_plan()?;
        let ordered = self.shards_in_order(&plan, shards, |s| s.head())?;
        let n = self.nodes_len();
        let rows: Vec<RowBuilder> = (0..n)
            .map(|v| {
                let mut row = RowBuilder::default();
                for shard in &ordered {
                    let runs = shard.rows[v] as usize..shard.rows[v + 1] as usize;
                    for (&start, &mask) in shard.starts[runs.clone()].iter().zip(&shard.moves[runs]) {
                        row.push(start, mask);
                    }
                }
                row
            })
            .collect();
        let graph = self.finish_compressed(plan, rows)?;
        graph.check()?;
        Ok(graph)
    }
}

impl GraphBuilder {
    /// `shards` in index order, once each checked to be shards of this graph, of the column
    /// order of `plan`, of one count, none missing or given twice (`head` says each one's).
    pub(super) fn shards_in_order<'s, T>(
        &self,
        plan: &Plan,
        shards: &'s [T],
        head: impl Fn(&T) -> ShardHead,
    ) -> Result<Vec<&'s T>, Error> {
        let mismatch = |message: String| Error::ShardMismatch { message };
        let (fingerprint, order) = (self.fingerprint(), order_fingerprint(plan));
        let count = shards.first().map_or(1, |s| head(s).count);
        for shard in shards {
            let shard = head(shard);
            let (i, k) = (shard.index, shard.count);
            if k != count {
                return Err(mismatch(format!("shards of {k} and of {count} shards")));
            }
            if shard.nodes as usize != self.nodes_len() {
                return Err(mismatch(format!(
                    "shard {i} of {k} is of a graph of {} nodes, not {}",
                    shard.nodes,
                    self.nodes_len()
                )));
            }
            if shard.fingerprint != fingerprint {
                return Err(mismatch(format!("shard {i} of {k} is of another graph")));
            }
            if shard.order != order || shard.core_len as usize != plan.core_len {
                return Err(mismatch(format!(
                    "shard {i} of {k} has another column order (built by another signposts version?)"
                )));
            }
        }
        // In index order; each index once, none missing (nothing allocated by the count).
        let mut ordered: Vec<&T> = shards.iter().collect();
        ordered.sort_by_key(|s| head(s).index);
        let index = |s: &&T| head(s).index;
        if let Some(twin) = ordered.windows(2).find(|p| index(&p[0]) == index(&p[1])).map(|p| index(&p[0])) {
            return Err(mismatch(format!("shard {twin} of {count} is given twice")));
        }
        if let Some(missing) = (0..count).zip(&ordered).find(|&(i, s)| index(s) != i).map(|(i, _)| i) {
            return Err(mismatch(format!("shard {missing} of {count} is missing")));
        }
        if ordered.len() < count as usize {
            return Err(mismatch(format!("shard {} of {count} is missing", ordered.len())));
        }
        Ok(ordered)
    }
}

#[cfg(test)]
mod tests {
    use crate::build::{Avx2, Vbmi};
    use crate::grid::{Connectivity, Grid, GridOracle};

    /// A farm's machines differ: shards searched by the SIMD engines and by the portable ones
    /// merge into the same bytes as one build.
    #[test]
    fn shards_of_different_engines_merge_into_one_build() {
        let grid = Grid::from_fn(26, 17, |c| (c.x * 5 + c.y * 11) % 7 != 0 || c.y == 3);
        for connectivity in [Connectivity::Four, Connectivity::Eight] {
            let builder = GridOracle::graph_builder(&grid, connectivity);
            let mut whole = Vec::new();
            builder.build_compressed().unwrap().save(&mut whole).unwrap();
            let simd = (Avx2::detect(), Vbmi::detect());
            let shards: Vec<_> = (0..3)
                .map(|i| {
                    let engines = if i == 1 { (None, None) } else { simd };
                    builder.build_compressed_shard_using(i, 3, &|_| {}, engines, None).unwrap()
                })
                .collect();
            let mut merged = Vec::new();
            builder.merge_compressed(&shards).unwrap().save(&mut merged).unwrap();
            assert!(merged == whole, "{connectivity:?}");
        }
    }
}
