//! The scratch both local repairs share: per-node stamps, old and new distances and cached
//! entries, reset in O(1) per column; and what both do with it: read entries once per column
//! and record the repaired ones.

use crate::{Graph, NodeId};

/// One node's record. A stamp equal to the workspace's generation means "set while repairing
/// this column"; bumping the generation resets every record at once. With `u32` distances a
/// record is 32 bytes, aligned so that it never straddles two cache lines.
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(32))]
struct Node<D> {
    /// In the region whose distance changes.
    region: u32,
    /// `old` holds the node's distance before the edit.
    known: u32,
    /// Examined (removal repairs).
    seen: u32,
    /// `mask` holds the node's entry toward the column.
    cached: u32,
    /// Entry patched (boundary nodes).
    patched: u32,
    mask: u32,
    old: D,
    new: D,
}

/// Scratch for the local repairs of one worker: records of distances of type `D` (`u32` for
/// unit costs, [`Cost`](crate::Cost) otherwise) and the repair's own queues `Q`.
pub(super) struct Workspace<D, Q> {
    generation: u32,
    nodes: Vec<Node<D>>,
    /// The region's nodes, in the order they joined.
    pub(super) members: Vec<usize>,
    /// The repaired column's new entries, `(node, mask)`, for the caller to write.
    pub(super) writes: Vec<(usize, u64)>,
    /// Nodes placed in regions (or walked) so far.
    pub(super) work: usize,
    /// Columns repaired by replaying the last one, so far.
    pub(super) replayed: usize,
    /// Entries read in this column, `(node, mask)`, in the order first read.
    pub(super) reads: Vec<(u32, u32)>,
    /// Whether this column's repair met its target beside the region.
    pub(super) met_target: bool,
    /// The key of the last column repaired, when another column with the same key and the
    /// same entries would be repaired the same way (see [`Graph::replay`]).
    pub(super) replay: Option<super::plan::ReplayKey>,
    pub(super) queue: Q,
}

impl<D: Copy + Default, Q> Workspace<D, Q> {
    pub(super) fn with_queue(n: usize, queue: Q) -> Self {
        Workspace {
            generation: 0,
            nodes: vec![Node::default(); n],
            members: Vec::new(),
            writes: Vec::new(),
            work: 0,
            replayed: 0,
            reads: Vec::new(),
            met_target: false,
            replay: None,
            queue,
        }
    }

    /// Nodes of the graph this scratch serves.
    pub(super) fn nodes_len(&self) -> usize {
        self.nodes.len()
    }

    /// Starts a column: every record reads as unset (the queue is the caller's).
    pub(super) fn start(&mut self) {
        if self.generation == u32::MAX {
            // Stamps are about to repeat: clear them (once per 4 billion columns).
            self.nodes.fill(Node::default());
            self.generation = 0;
        }
        self.generation += 1;
        self.members.clear();
        self.writes.clear();
        self.reads.clear();
        self.met_target = false;
        self.replay = None;
    }

    /// Whether this column's repair read the entry of `v`, knew its distance or placed it in
    /// the region.
    #[inline]
    pub(super) fn touched(&self, v: usize) -> bool {
        let node = &self.nodes[v];
        node.cached == self.generation || node.known == self.generation || node.region == self.generation
    }

    #[inline]
    pub(super) fn in_region(&self, v: usize) -> bool {
        self.nodes[v].region == self.generation
    }

    #[inline]
    pub(super) fn is_known(&self, v: usize) -> bool {
        self.nodes[v].known == self.generation
    }

    /// Whether `v` has been examined in this column.
    #[inline]
    pub(super) fn is_seen(&self, v: usize) -> bool {
        self.nodes[v].seen == self.generation
    }

    #[inline]
    pub(super) fn old(&self, v: usize) -> D {
        self.nodes[v].old
    }

    #[inline]
    pub(super) fn new_distance(&self, v: usize) -> D {
        self.nodes[v].new
    }

    #[inline]
    pub(super) fn set_old(&mut self, v: usize, d: D) {
        let generation = self.generation;
        let node = &mut self.nodes[v];
        node.known = generation;
        node.old = d;
    }

    #[inline]
    pub(super) fn set_new(&mut self, v: usize, d: D) {
        self.nodes[v].new = d;
    }

    /// Marks `v` seen; returns whether it was seen before.
    #[inline]
    pub(super) fn saw(&mut self, v: usize) -> bool {
        core::mem::replace(&mut self.nodes[v].seen, self.generation) == self.generation
    }

    /// Marks `v` patched; returns whether it was patched before.
    #[inline]
    pub(super) fn patch(&mut self, v: usize) -> bool {
        core::mem::replace(&mut self.nodes[v].patched, self.generation) == self.generation
    }

    /// Starts loading the record of `v`.
    #[inline]
    pub(super) fn prefetch(&self, v: usize) {
        crate::prefetch::prefetch(&self.nodes[v]);
    }

    #[inline]
    pub(super) fn join(&mut self, v: usize) {
        if !self.in_region(v) {
            self.nodes[v].region = self.generation;
            self.members.push(v);
            self.work += 1;
        }
    }

    /// The distance of `z` after the repair: new inside the region, old outside.
    #[inline]
    pub(super) fn distance(&self, z: usize) -> D {
        let node = &self.nodes[z];
        if node.region == self.generation { node.new } else { node.old }
    }

    /// The entry of `u` toward the column, read by `read` once per column.
    #[inline]
    pub(super) fn mask(&mut self, u: usize, read: impl FnOnce() -> u32) -> u32 {
        let generation = self.generation;
        let node = &mut self.nodes[u];
        if node.cached != generation {
            node.cached = generation;
            node.mask = read();
            self.reads.push((u as u32, node.mask));
        }
        node.mask
    }

    /// Records `mask` as the new entry of `u` (written by the caller), keeping the cache in
    /// step; an unchanged entry needs no write.
    #[inline]
    pub(super) fn store(&mut self, u: usize, mask: u32) {
        let generation = self.generation;
        let node = &mut self.nodes[u];
        if node.cached == generation && node.mask == mask {
            return;
        }
        node.cached = generation;
        node.mask = mask;
        self.writes.push((u, u64::from(mask)));
    }
}

/// Where recording a region's entries is ([`Graph::record_region_from`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Record {
    /// In the second pass (the region's outside neighbours), else the first (its members).
    around: bool,
    /// The member to go on from.
    next: usize,
}

impl Graph {
    /// The entry of `u` toward column `col`, read from the table once per column.
    pub(super) fn cached_moves<D: Copy + Default, Q>(
        &self,
        local: &mut Workspace<D, Q>,
        u: usize,
        col: usize,
    ) -> u32 {
        local.mask(u, || {
            self.table.narrow_entry(u, col).expect("local repairs run on narrow tables only") as u32
        })
    }

    /// Records the repaired entries of column `col` (target `t`): the region's from its new
    /// distances; in the entries of its outside neighbours, the bits toward region nodes
    /// follow the new distances (their other bits do not change); inserted arcs as good as the
    /// old paths between two nodes outside the region are set. `optimal(d_from, d_to, from,
    /// slot)` says whether the move in `slot` of `from`, toward a node of distance `d_to`, is
    /// optimal for a node of distance `d_from`.
    pub(super) fn record_region<D: Copy + Default, Q>(
        &self,
        col: usize,
        t: usize,
        add: &[(u32, u32, NodeId)],
        local: &mut Workspace<D, Q>,
        optimal: impl Fn(D, D, usize, usize) -> bool,
    ) {
        let mut fuel = usize::MAX;
        self.record_region_from(col, t, add, local, &mut Record::default(), &mut fuel, optimal);
    }

    /// [`Graph::record_region`] from `record` on, for at most `fuel` steps (a member of the
    /// region handled, each of its two passes): returns whether it is done, else leaves in
    /// `record` where to go on.
    #[expect(clippy::too_many_arguments, reason = "record_region's, and where it is")]
    pub(super) fn record_region_from<D: Copy + Default, Q>(
        &self,
        col: usize,
        t: usize,
        add: &[(u32, u32, NodeId)],
        local: &mut Workspace<D, Q>,
        record: &mut Record,
        fuel: &mut usize,
        optimal: impl Fn(D, D, usize, usize) -> bool,
    ) -> bool {
        let members = core::mem::take(&mut local.members);
        let mut out = || {
            let out = *fuel == 0;
            *fuel = fuel.saturating_sub(1);
            out
        };
        let done = 'passes: {
            if !record.around {
                for (at, &y) in members.iter().enumerate().skip(record.next) {
                    if out() {
                        record.next = at;
                        break 'passes false;
                    }
                    let dy = local.new_distance(y);
                    let mut mask = 0;
                    for (slot, &z) in self.table.neighbors(y).iter().enumerate() {
                        if optimal(dy, local.distance(z as usize), y, slot) {
                            mask |= 1 << slot;
                        }
                    }
                    local.store(y, mask);
                }
                *record = Record { around: true, next: 0 };
            }
            for (at, &x) in members.iter().enumerate().skip(record.next) {
                if out() {
                    record.next = at;
                    break 'passes false;
                }
                for i in 0..self.table.neighbors(x).len() {
                    let w = self.table.neighbors(x)[i] as usize;
                    if w == t {
                        local.met_target = true;
                    }
                    if local.in_region(w) || w == t || local.patch(w) {
                        continue;
                    }
                    let dw = local.old(w);
                    let mut mask = self.cached_moves(local, w, col);
                    for (slot, &z) in self.table.neighbors(w).iter().enumerate() {
                        if local.in_region(z as usize) {
                            let bit = optimal(dw, local.new_distance(z as usize), w, slot);
                            mask = mask & !(1 << slot) | u32::from(bit) << slot;
                        }
                    }
                    local.store(w, mask);
                }
            }
            true
        };
        if done {
            for &(_, u, v) in add {
                let u = u as usize;
                if !local.in_region(u)
                    && !local.in_region(v as usize)
                    && let Ok(slot) = self.table.neighbors(u).binary_search(&v)
                {
                    let mask = self.cached_moves(local, u, col) | 1 << slot;
                    local.store(u, mask);
                }
            }
        }
        local.members = members;
        done
    }
}
