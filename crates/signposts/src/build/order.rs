//! Target order: which targets share a 64-wide batch.
//!
//! A batch costs time proportional to how many BFS levels each node stays on some target's
//! frontier, which is about the batch's diameter. This order packs targets into compact balls:
//! each batch grows a BFS ball of up to `batch` not-yet-ordered nodes around a seed, seeds taken in
//! the order of one BFS over the whole graph so that balls tile it from one side. On a
//! 4-connected grid a ball of 128 cells has diameter about 16, against 127 for a row of 128 ids.

use crate::NodeId;
use crate::table::NodeRow;

/// Returns the column order of the nodes not `skip`ped: `order[c]` is the node of column `c`.
/// `skip` is empty or has one flag per node; skipped nodes are neither ordered nor crossed.
pub(crate) fn ball_order(rows: &[NodeRow], neighbors: &[NodeId], skip: &[bool], batch: usize) -> Vec<NodeId> {
    let n = rows.len();
    let mut placed = if skip.is_empty() { vec![false; n] } else { skip.to_vec() };
    let wanted = placed.iter().filter(|&&p| !p).count();
    let sweep = bfs_sweep(rows, neighbors, &placed);
    let mut order = Vec::with_capacity(wanted);
    let mut queue = Vec::with_capacity(batch * 8);
    let mut queued = vec![0u32; n];
    let mut generation = 0u32;
    let mut seeds = sweep.iter();
    while order.len() < wanted {
        let Some(&seed) = seeds.find(|&&s| !placed[s as usize]) else { break };
        let want = batch - order.len() % batch;
        generation += 1;
        queue.clear();
        queue.push(seed);
        queued[seed as usize] = generation;
        let mut head = 0;
        let mut taken = 0;
        while head < queue.len() && taken < want {
            let u = queue[head];
            head += 1;
            placed[u as usize] = true;
            order.push(u);
            taken += 1;
            for &v in &neighbors[rows[u as usize].slots()] {
                if !placed[v as usize] && queued[v as usize] != generation {
                    queued[v as usize] = generation;
                    queue.push(v);
                }
            }
        }
    }
    debug_assert_eq!(order.len(), wanted);
    order
}

/// One BFS order over every node not yet `seen`, component after component (lowest id first).
fn bfs_sweep(rows: &[NodeRow], neighbors: &[NodeId], seen: &[bool]) -> Vec<NodeId> {
    let n = rows.len();
    let mut seen = seen.to_vec();
    let mut out = Vec::with_capacity(n);
    for root in 0..n {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        let start = out.len();
        out.push(root as NodeId);
        let mut head = start;
        while head < out.len() {
            let u = out[head] as usize;
            head += 1;
            for &v in &neighbors[rows[u].slots()] {
                if !seen[v as usize] {
                    seen[v as usize] = true;
                    out.push(v);
                }
            }
        }
    }
    out
}
