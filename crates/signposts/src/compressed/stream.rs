//! Merges that stream: the parts of a sharded build read from their files a batch of rows at
//! a time and the merged table written as its rows are folded, so that the merge holds the
//! graph, the table's row index and one batch of rows, never every part.
//!
//! Opening a part (`GridShardFile::open`) reads and checks it whole, as loading does (the
//! checksum, every run), one part at a time, and keeps only where its arrays lie
//! ([`PartFile`]). The merge then reads, for each batch of rows, each part's runs of those
//! rows, folds them row by row as [`GraphBuilder::merge_compressed`] does, checks each merged
//! row as a loaded table's, and spills the rows' records to a file beside the output: the
//! table's header holds the run count and the row index's block size, which are known only
//! once every row is folded. Then the table is written atomically, the spilled records copied
//! in, and the spill removed. On any error neither the spill nor a temporary output is left,
//! and the target is untouched.

use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::CompressedGraph;
use super::format::{PAD, RowBuilder, RowStarts, SLOT_BITS};
use super::shard::{ShardHead, shard_columns};
use crate::build::{self, Progress};
use crate::format::{Writer, corrupt};
use crate::{BuildOptions, CompressedShard, Error, GraphBuilder};

/// Bytes of the parts' row starts and runs read for one batch of rows (the batch's merged
/// records come beside, fewer).
pub(crate) const BATCH_BYTES: u64 = 32 << 20;

/// Where a checked part file's shard lies: what a streaming merge reads it by.
#[derive(Debug, Clone)]
pub(crate) struct PartFile {
    path: PathBuf,
    head: ShardHead,
    runs: u64,
    rows_at: u64,
    starts_at: u64,
    moves_at: u64,
}

/// The output a merge writes to: the table's file, from a temporary one.
pub(crate) type Output<'f> = Writer<&'f mut BufWriter<File>>;

impl PartFile {
    /// The part at `path` whose shard, `shard`, was read from its bytes `body..end` (laid out
    /// by `CompressedShard::write_body`; the checksum follows).
    pub(crate) fn new(path: &Path, shard: &CompressedShard, body: u64, end: u64) -> Result<PartFile, Error> {
        let head = shard.head();
        let runs = shard.runs_len() as u64;
        // Fingerprints, counts and the run count: 40 bytes; each array starts at a multiple of 8.
        let rows_at = (body + 40).next_multiple_of(8);
        let starts_at = (rows_at + 4 * (u64::from(head.nodes) + 1)).next_multiple_of(8);
        let moves_at = (starts_at + 4 * runs).next_multiple_of(8);
        if moves_at + runs != end {
            return Err(corrupt("a shard's arrays are not where its counts put them"));
        }
        Ok(PartFile { path: path.to_path_buf(), head, runs, rows_at, starts_at, moves_at })
    }

    /// Which shard this is, of how many.
    pub(crate) fn index(&self) -> (u32, u32) {
        (self.head.index, self.head.count)
    }

    /// The graph's fingerprint.
    pub(crate) fn fingerprint(&self) -> u64 {
        self.head.fingerprint
    }

    /// The file.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Exact runs the shard holds.
    pub(crate) fn runs_len(&self) -> usize {
        self.runs as usize
    }

    /// Bytes of its row starts and runs in the file.
    fn bytes(&self) -> u64 {
        4 * (u64::from(self.head.nodes) + 1) + 5 * self.runs
    }

    fn changed(&self) -> Error {
        corrupt(&format!("{} changed after it was opened for the merge", self.path.display()))
    }

    /// The shard's runs of `rows`, checked as loading checks them.
    fn read(&self, rows: core::ops::Range<usize>) -> Result<Batch, Error> {
        let mut file = File::open(&self.path)?;
        let mut read = |at: u64, len: usize| -> Result<Vec<u8>, Error> {
            file.seek(SeekFrom::Start(at))?;
            let mut bytes = vec![0; len];
            file.read_exact(&mut bytes).map_err(|e| match e.kind() {
                std::io::ErrorKind::UnexpectedEof => self.changed(),
                _ => Error::from(e),
            })?;
            Ok(bytes)
        };
        let u32s = |bytes: Vec<u8>| -> Vec<u32> {
            bytes.chunks_exact(4).map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes"))).collect()
        };
        let index = u32s(read(self.rows_at + 4 * rows.start as u64, 4 * (rows.len() + 1))?);
        let (first, last) = (index[0], index[rows.len()]);
        if index.windows(2).any(|p| p[0] > p[1]) || u64::from(last) > self.runs {
            return Err(self.changed());
        }
        let len = (last - first) as usize;
        let starts = u32s(read(self.starts_at + 4 * u64::from(first), 4 * len)?);
        let moves = read(self.moves_at + u64::from(first), len)?;
        let batch = Batch { index, starts, moves };
        let span = shard_columns(self.head.core_len as usize, self.head.index, self.head.count);
        let in_order = (0..rows.len()).all(|i| {
            let row = batch.range(i);
            let starts = &batch.starts[row.clone()];
            starts.windows(2).all(|p| p[0] < p[1])
                && starts.iter().all(|&c| span.contains(&(c as usize)))
                && !batch.moves[row].contains(&0)
        });
        if !in_order {
            return Err(self.changed());
        }
        Ok(batch)
    }
}

/// One shard's runs of a batch of rows.
struct Batch {
    /// Row `i` of the batch: runs `index[i] - index[0]..index[i + 1] - index[0]`.
    index: Vec<u32>,
    starts: Vec<u32>,
    moves: Vec<u8>,
}

impl Batch {
    fn range(&self, i: usize) -> core::ops::Range<usize> {
        (self.index[i] - self.index[0]) as usize..(self.index[i + 1] - self.index[0]) as usize
    }

    /// Row `i` of the batch's runs.
    fn row(&self, i: usize) -> impl Iterator<Item = (u32, u8)> + '_ {
        let row = self.range(i);
        self.starts[row.clone()].iter().copied().zip(self.moves[row].iter().copied())
    }
}

/// A file beside the output that holds the merged records until the table's header is known;
/// removed when dropped.
struct Spill {
    path: PathBuf,
}

impl Spill {
    fn beside(target: &Path) -> Spill {
        let name = target.file_name().map_or_else(|| "table".into(), |n| n.to_string_lossy().into_owned());
        Spill { path: target.with_file_name(format!(".{name}.{}.runs.tmp", std::process::id())) }
    }

    /// Copies the `len` spilled bytes through `w`.
    fn copy_into(&self, w: &mut Output<'_>, len: u64) -> Result<(), Error> {
        let mut file = File::open(&self.path)?;
        let mut buffer = vec![0; 1 << 20];
        let mut copied = 0u64;
        loop {
            let read = file.read(&mut buffer)?;
            if read == 0 {
                break;
            }
            w.bytes(&buffer[..read])?;
            copied += read as u64;
        }
        if copied != len {
            return Err(Error::from(std::io::Error::other(format!(
                "{} holds {copied} bytes of runs, not {len}: was it changed during the merge?",
                self.path.display()
            ))));
        }
        Ok(())
    }
}

impl Drop for Spill {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// What a merge that streams holds, beside the graph: the node count and the bytes the merged
/// table would take loaded.
pub(crate) struct Streamed {
    pub(crate) nodes: usize,
    pub(crate) memory_bytes: usize,
}

impl GraphBuilder {
    /// Joins the parts of this graph's sharded build, in any order, into the compressed table
    /// saved at `path` after `prefix` (what goes before the table in the file: its header,
    /// a grid): byte for byte what saving [`GraphBuilder::merge_compressed`]'s table writes,
    /// holding about `batch_bytes` of the parts at a time. `extra_bytes` is what the caller
    /// holds beside the table, counted against `options`' memory limit.
    ///
    /// # Errors
    /// As [`GraphBuilder::merge_compressed`]; [`Error::Corrupt`] for a part changed since it
    /// was opened; [`Error::Io`]; [`Error::Cancelled`]; [`Error::OverMemoryLimit`].
    pub(crate) fn merge_parts_to(
        &self,
        parts: &[&PartFile],
        path: &Path,
        prefix: &dyn Fn(&mut Output<'_>) -> Result<(), Error>,
        (options, batch_bytes, extra_bytes): (&BuildOptions<'_>, u64, usize),
    ) -> Result<Streamed, Error> {
        let plan = self.compressed_plan()?;
        let ordered: Vec<&PartFile> =
            self.shards_in_order(&plan, parts, |p| p.head)?.into_iter().copied().collect();
        let n = self.nodes_len();
        // The table without rows: the graph, the columns and the trees, and the record layout.
        let mut table = self.finish_compressed(plan, vec![RowBuilder::default(); n])?;
        let spill = Spill::beside(path);
        let (first_moves, first_run, runs) = {
            let mut sink = BufWriter::new(File::create(&spill.path)?);
            let folded = fold(&table, &ordered, &mut sink, options, batch_bytes)?;
            sink.into_inner().map_err(std::io::IntoInnerError::into_error)?.sync_all()?;
            folded
        };
        table.first_moves = first_moves.into();
        table.first_run = RowStarts::new(&first_run);
        table.runs.len = runs;
        let memory_bytes = table.memory_bytes() + runs * table.runs.width;
        options.check_size(memory_bytes.saturating_add(extra_bytes))?;
        let spilled = (runs * table.runs.width) as u64;
        crate::format::write_atomically(path, |file| {
            let mut w = Writer::new(file);
            prefix(&mut w)?;
            table.write_body_head(&mut w)?;
            w.align()?;
            spill.copy_into(&mut w, spilled)?;
            w.bytes(&[0; PAD])?;
            w.finish()
        })?;
        Ok(Streamed { nodes: n, memory_bytes })
    }
}

/// Folds the rows of `parts` (in index order) batch by batch, checks each, and writes the
/// records of their later runs to `sink`: returns each row's first moves, the index of its
/// later runs (and the end of the last), and the number of records.
fn fold(
    table: &CompressedGraph,
    parts: &[&PartFile],
    sink: &mut impl Write,
    options: &BuildOptions<'_>,
    batch_bytes: u64,
) -> Result<(Vec<u8>, Vec<u32>, usize), Error> {
    let n = table.nodes_len();
    let total: u64 = parts.iter().map(|p| p.bytes()).sum();
    let batch = usize::try_from((n as u64).saturating_mul(batch_bytes).div_ceil(total.max(1)))
        .unwrap_or(n)
        .clamp(1, n.max(1));
    let batches = n.div_ceil(batch);
    let (progress, halt) = (options.progress_fn(), options.halt());
    let too_many = || Error::Unsupported { what: "more than 2^32 runs" };
    let (mut first_moves, mut first_run) = (Vec::with_capacity(n), Vec::with_capacity(n + 1));
    let (mut records, mut count) = (Vec::new(), 0usize);
    for (done, start) in (0..n).step_by(batch).enumerate() {
        if build::stopped(halt) {
            return Err(Error::Cancelled);
        }
        let rows = start..(start + batch).min(n);
        let read = parts.iter().map(|p| p.read(rows.clone())).collect::<Result<Vec<_>, _>>()?;
        records.clear();
        for v in rows.clone() {
            let mut row = RowBuilder::default();
            for part in &read {
                for (start, mask) in part.row(v - rows.start) {
                    row.push(start, mask);
                }
            }
            let runs = row.finish();
            check_row(table, v, &runs)?;
            first_moves.push(runs.first().map_or(0, |&(_, moves)| moves));
            first_run.push(u32::try_from(count).map_err(|_| too_many())?);
            for &(start, moves) in runs.iter().skip(1) {
                table.runs.encode(&mut records, start, moves);
                count += 1;
            }
        }
        sink.write_all(&records)?;
        progress(Progress::new(done + 1, batches));
    }
    first_run.push(u32::try_from(count).map_err(|_| too_many())?);
    Ok((first_moves, first_run, count))
}

/// Checks merged row `v` as [`CompressedGraph::check`] checks a loaded table's: later runs in
/// increasing columns, past column 0 and inside the graph, each naming only moves `v` has.
fn check_row(table: &CompressedGraph, v: usize, runs: &[(u32, u8)]) -> Result<(), Error> {
    let slots = (1u32 << (table.offsets[v + 1] - table.offsets[v])) - 1;
    // What a record keeps of the moves: one slot, or all.
    let kept = |moves: u8| {
        if table.runs.move_bits == SLOT_BITS { 1u32 << moves.trailing_zeros() } else { u32::from(moves) }
    };
    let first_ok = runs.first().is_none_or(|&(_, moves)| u32::from(moves) & !slots == 0);
    let later = &runs[runs.len().min(1)..];
    let later_ok = runs.windows(2).all(|p| p[0].0 < p[1].0)
        && later.iter().all(|&(start, moves)| {
            start > 0 && (start as usize) < table.nodes_len() && moves != 0 && kept(moves) & !slots == 0
        });
    if first_ok && later_ok {
        Ok(())
    } else {
        Err(corrupt(&format!(
            "the merged row of node {v} is out of order or names a missing move (a damaged or forged part)"
        )))
    }
}
