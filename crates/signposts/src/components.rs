//! Connected components (weak, for directed graphs): the O(1) answer to "can `u` reach `t` at
//! all?" on undirected graphs, and a label games use to group entities.

use crate::NodeId;
use crate::dense::table::NodeRow;

/// Labels every node with its component, numbered `0..count` in order of each component's
/// lowest node id. Returns the labels and the count.
pub(crate) fn label(rows: &[NodeRow], neighbors: &[NodeId]) -> (Vec<u32>, u32) {
    label_by(rows.len(), |u, visit| neighbors[rows[u].slots()].iter().for_each(|&v| visit(v as usize)))
}

/// Weakly connected components of a directed graph given by out-arcs and in-arcs (ignoring
/// directions), numbered as [`label`] does.
pub(crate) fn label_weak(
    offsets: &[u32],
    heads: &[NodeId],
    in_offsets: &[u32],
    in_arcs: &[u32],
    tails: &[NodeId],
) -> (Vec<u32>, u32) {
    label_by(offsets.len() - 1, |u, visit| {
        heads[offsets[u] as usize..offsets[u + 1] as usize].iter().for_each(|&v| visit(v as usize));
        in_arcs[in_offsets[u] as usize..in_offsets[u + 1] as usize]
            .iter()
            .for_each(|&a| visit(tails[a as usize] as usize));
    })
}

/// Components of `n` nodes whose neighbours `adjacent(u, visit)` hands to `visit`.
pub(crate) fn label_by(n: usize, adjacent: impl Fn(usize, &mut dyn FnMut(usize))) -> (Vec<u32>, u32) {
    let mut label = vec![u32::MAX; n];
    let mut stack = Vec::new();
    let mut count = 0u32;
    for root in 0..n {
        if label[root] != u32::MAX {
            continue;
        }
        label[root] = count;
        stack.push(root);
        while let Some(u) = stack.pop() {
            adjacent(u, &mut |v| {
                if label[v] == u32::MAX {
                    label[v] = count;
                    stack.push(v);
                }
            });
        }
        count += 1;
    }
    (label, count)
}
