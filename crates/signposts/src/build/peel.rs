//! Peeling: trees hanging off a graph need no search.
//!
//! Repeatedly removing nodes of degree at most 1 leaves the *core* (the 2-core); every removed
//! node lies in a tree that hangs from one core node, its *anchor* (or, in a component that is
//! a tree, from the node removed last, its *root*). A tree is a dead end: no shortest path
//! between two nodes outside it enters it. So, with `p(u)` the neighbour of `u` toward its
//! anchor:
//!
//! - a tree node `u` moves to the child whose subtree contains `t`, and to `p(u)` for every
//!   other target of its component;
//! - a core node `u` moves toward a tree node `t` exactly as it moves toward `t`'s anchor
//!   (or, if `u` is that anchor, into the hanging subtree containing `t`);
//! - between core nodes, only core nodes matter: the search runs on the core alone.
//!
//! Columns are ordered core first (in the search's batch order), then each anchor's trees in
//! depth-first preorder, so every subtree is one contiguous column range and tree rows and
//! columns are filled with runs at memory speed. A perfect maze is one tree: no search at all.

use core::sync::atomic::{AtomicU64, Ordering};

use crate::NodeId;
use crate::dense::table::{BLOCK, Layout, NodeRow};

/// Marks "no node".
pub(crate) const NONE: u32 = u32::MAX;

/// The result of peeling a graph.
#[derive(Debug)]
pub(crate) struct Peel {
    /// Whether each node was peeled (lies in a hanging tree).
    pub peeled: Vec<bool>,
    /// Per peeled node: the neighbour toward its anchor (`NONE` for a tree's root).
    pub parent: Vec<u32>,
    /// Core nodes with hanging trees, and tree roots, each with the first column of its block
    /// (in increasing column order, set by [`Peel::order_trees`]).
    pub anchors: Vec<(u32, u32)>,
    /// Per node: number of nodes in its hanging subtree, itself included (peeled nodes), or
    /// in all trees hanging from it (anchors).
    pub size: Vec<u32>,
    /// Number of core nodes.
    pub core_len: usize,
}

/// Peels every node of degree at most 1, repeatedly.
pub(crate) fn peel(rows: &[NodeRow], neighbors: &[NodeId]) -> Peel {
    let n = rows.len();
    let mut degree: Vec<u32> = rows.iter().map(|r| r.deg).collect();
    let mut peeled = vec![false; n];
    let mut parent = vec![NONE; n];
    let mut stack: Vec<u32> = (0..n).filter(|&v| degree[v] <= 1).map(|v| v as u32).collect();
    while let Some(v) = stack.pop() {
        let v = v as usize;
        if peeled[v] {
            continue;
        }
        peeled[v] = true;
        // The one neighbour still present, if any, becomes the parent.
        for &w in &neighbors[rows[v].slots()] {
            if !peeled[w as usize] {
                parent[v] = w;
                degree[w as usize] -= 1;
                if degree[w as usize] == 1 {
                    stack.push(w);
                }
            }
        }
    }
    let core_len = peeled.iter().filter(|&&p| !p).count();
    Peel { peeled, parent, anchors: Vec::new(), size: vec![0; n], core_len }
}

impl Peel {
    /// Whether nothing was peeled.
    pub fn is_trivial(&self) -> bool {
        self.core_len == self.peeled.len()
    }

    /// Appends the tree nodes to `order` (which holds the core nodes in column order): each
    /// core node's hanging trees in depth-first preorder, then every all-tree component from
    /// its root. Records subtree sizes.
    pub fn order_trees(&mut self, rows: &[NodeRow], neighbors: &[NodeId], order: &mut Vec<NodeId>) {
        let n = rows.len();
        let mut stack: Vec<(u32, bool)> = Vec::new();
        let roots: Vec<u32> =
            (0..n as u32).filter(|&v| self.peeled[v as usize] && self.parent[v as usize] == NONE).collect();
        let core: Vec<u32> = order.clone();
        for anchor in core.into_iter().chain(roots) {
            let start = order.len();
            let is_root = self.peeled[anchor as usize];
            // Iterative DFS; sizes are summed on the way back up.
            if is_root {
                stack.push((anchor, false));
            } else {
                for ch in self.children(anchor, rows, neighbors) {
                    stack.push((ch, false));
                }
            }
            while let Some((v, done)) = stack.pop() {
                if done {
                    let size =
                        1 + self.children(v, rows, neighbors).map(|c| self.size[c as usize]).sum::<u32>();
                    self.size[v as usize] = size;
                    continue;
                }
                order.push(v);
                stack.push((v, true));
                // Push children in reverse so they come out in increasing slot order.
                let children: Vec<u32> = self.children(v, rows, neighbors).collect();
                stack.extend(children.into_iter().rev().map(|c| (c, false)));
            }
            if order.len() > start {
                self.size[anchor as usize] = u32::try_from(order.len() - start).expect("fits u32");
                self.anchors.push((anchor, u32::try_from(start).expect("fits u32")));
            }
        }
    }

    /// Peeled neighbours of `v` that hang from it.
    fn children<'a>(
        &'a self,
        v: u32,
        rows: &[NodeRow],
        neighbors: &'a [NodeId],
    ) -> impl Iterator<Item = u32> + 'a {
        let slots = rows[v as usize].slots();
        neighbors[slots]
            .iter()
            .copied()
            .filter(move |&w| self.peeled[w as usize] && self.parent[w as usize] == v)
    }

    /// Fills every table entry that involves a tree node: the rows of tree nodes, and the
    /// columns of tree nodes in core rows. Core-to-core entries must already be in place.
    pub fn fill(
        &self,
        rows: &[NodeRow],
        layout: Layout,
        neighbors: &[NodeId],
        column: &[u32],
        component: &[u32],
        words: &[AtomicU64],
    ) {
        let n = rows.len();
        // Column runs of each component, for the "everything in my component" fills.
        let mut runs: Vec<Vec<(u32, u32)>> = Vec::new();
        let mut order_comp: Vec<u32> = vec![0; n];
        for v in 0..n {
            order_comp[column[v] as usize] = component[v];
        }
        let mut c = 0;
        while c < n {
            let comp = order_comp[c] as usize;
            let start = c;
            while c < n && order_comp[c] as usize == comp {
                c += 1;
            }
            if runs.len() <= comp {
                runs.resize(comp + 1, Vec::new());
            }
            runs[comp].push((start as u32, c as u32));
        }

        let tree_row = |u: usize| {
            let row = Row { words, layout, node: rows[u], bits: rows[u].width_bits() };
            let slots = &neighbors[rows[u].slots()];
            let p = self.parent[u];
            if p != NONE {
                let slot = slots.binary_search(&p).expect("parent is a neighbour");
                for &(s, e) in &runs[component[u] as usize] {
                    row.fill_slot(s, e, slot);
                }
            }
            self.fill_children(u as u32, &row, slots, column, rows, neighbors);
            row.clear(column[u]);
        };
        let core_row = |u: usize| {
            let row = Row { words, layout, node: rows[u], bits: rows[u].width_bits() };
            let slots = &neighbors[rows[u].slots()];
            for &(a, block) in &self.anchors {
                if self.peeled[a as usize] || component[a as usize] != component[u] {
                    continue;
                }
                if a as usize == u {
                    self.fill_children(a, &row, slots, column, rows, neighbors);
                } else {
                    // Toward any node hanging from `a`, move as toward `a`.
                    row.copy(column[a as usize], block, block + self.size[a as usize]);
                }
            }
        };
        let each = |u: usize| if self.peeled[u] { tree_row(u) } else { core_row(u) };
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            (0..n).into_par_iter().for_each(each);
        }
        #[cfg(not(feature = "parallel"))]
        (0..n).for_each(each);
    }

    /// Sets, in `u`'s row, every column of each hanging child's subtree to that child's slot.
    fn fill_children(
        &self,
        u: u32,
        row: &Row<'_>,
        slots: &[NodeId],
        column: &[u32],
        rows: &[NodeRow],
        neighbors: &[NodeId],
    ) {
        for ch in self.children(u, rows, neighbors) {
            let slot = slots.binary_search(&ch).expect("child is a neighbour");
            let start = column[ch as usize];
            row.fill_slot(start, start + self.size[ch as usize], slot);
        }
    }
}

/// One row of the table, for run fills. A row is split over the table's blocks; each block
/// holds a contiguous chunk of it.
struct Row<'a> {
    words: &'a [AtomicU64],
    layout: Layout,
    node: NodeRow,
    bits: u32,
}

impl Row<'_> {
    /// Calls `f(chunk_start_word, first, end)` for each block's part of columns `[s, e)`, with
    /// `first..end` the entries' positions inside that block's chunk.
    fn segments(&self, s: u32, e: u32, mut f: impl FnMut(usize, usize, usize)) {
        let (mut c, e) = (s as usize, e as usize);
        while c < e {
            let block = c / BLOCK;
            let end = e.min((block + 1) * BLOCK);
            let (start, _) = self.layout.chunk(self.node, block);
            f(start, c - block * BLOCK, end - block * BLOCK);
            c = end;
        }
    }

    /// Sets entries `[s, e)` to "only slot `slot`".
    fn fill_slot(&self, s: u32, e: u32, slot: usize) {
        self.with_value(|value| value[slot / 64] = 1 << (slot % 64), |value| self.fill_value(s, e, value));
    }

    /// Clears entry `c`.
    fn clear(&self, c: u32) {
        self.with_value(|_| {}, |value| self.fill_value(c, c + 1, value));
    }

    /// Sets entries `[s, e)` to a copy of entry `from`.
    fn copy(&self, from: u32, s: u32, e: u32) {
        let bits = self.bits as usize;
        let read = |value: &mut [u64]| {
            self.segments(from, from + 1, |start, j, _| {
                let bit = j * bits;
                if bits <= 64 {
                    let mask = u64::MAX >> (64 - bits);
                    value[0] = (self.words[start + bit / 64].load(Ordering::Relaxed) >> (bit % 64)) & mask;
                } else {
                    for (k, v) in value.iter_mut().enumerate() {
                        *v = self.words[start + bit / 64 + k].load(Ordering::Relaxed);
                    }
                }
            });
        };
        self.with_value(read, |value| self.fill_value(s, e, value));
    }

    /// Runs `use_value` on an entry value (zeroed, then set by `set`): one word on the stack for
    /// entries of at most 64 bits, `bits / 64` words otherwise.
    fn with_value(&self, set: impl FnOnce(&mut [u64]), use_value: impl FnOnce(&[u64])) {
        if self.bits <= 64 {
            let mut value = [0u64; 1];
            set(&mut value);
            use_value(&value);
        } else {
            let mut value = vec![0u64; self.bits as usize / 64];
            set(&mut value);
            use_value(&value);
        }
    }

    /// Sets entries `[s, e)` to `value` (one word for entries of at most 64 bits, else
    /// `bits / 64` words).
    fn fill_value(&self, s: u32, e: u32, value: &[u64]) {
        let bits = self.bits as usize;
        self.segments(s, e, |start, first, end| {
            if bits > 64 {
                let per = bits / 64;
                for j in first..end {
                    for (k, &v) in value.iter().enumerate() {
                        self.words[start + j * per + k].store(v, Ordering::Relaxed);
                    }
                }
                return;
            }
            let mut pattern = 0u64;
            for k in 0..64 / bits {
                pattern |= value[0] << (k * bits);
            }
            let (s, e) = (first * bits, end * bits); // bit range inside the chunk
            let (w0, w1) = (s / 64, (e - 1) / 64);
            let put = |w: usize, mask: u64| {
                let cell = &self.words[start + w];
                let old = cell.load(Ordering::Relaxed);
                cell.store((old & !mask) | (pattern & mask), Ordering::Relaxed);
            };
            let from = |lo: usize| u64::MAX << lo;
            let to = |hi: usize| if hi == 64 { u64::MAX } else { (1u64 << hi) - 1 };
            if w0 == w1 {
                put(w0, from(s % 64) & to(e - w1 * 64));
                return;
            }
            put(w0, from(s % 64));
            for w in w0 + 1..w1 {
                self.words[start + w].store(pattern, Ordering::Relaxed);
            }
            put(w1, to(e - w1 * 64));
        });
    }
}
