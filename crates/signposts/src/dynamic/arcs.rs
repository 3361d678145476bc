//! The arc lists of an edit: the new out-arcs of the nodes a batch of changes touches, and
//! putting them in place (rows remapped to the new slots; costs, flags and components
//! updated).

use std::collections::BTreeMap;

use super::Change;
use crate::builder::CostModel;
use crate::{Error, Graph, NodeId, components};

/// A node's out-arcs: sorted heads and their stored costs.
pub(super) type Arcs = (Vec<NodeId>, Vec<u32>);

impl Graph {
    /// The new out-arc lists of every node the changes touch (validated; nothing changes on
    /// an error).
    pub(super) fn edited_arcs(&self, changes: &[Change]) -> Result<BTreeMap<usize, Arcs>, Error> {
        let mut edited: BTreeMap<usize, Arcs> = BTreeMap::new();
        for &change in changes {
            let (a, b) = match change {
                Change::Connect(a, b)
                | Change::ConnectWeighted(a, b, _)
                | Change::ConnectDirected(a, b, _)
                | Change::Disconnect(a, b)
                | Change::DisconnectDirected(a, b) => (a, b),
            };
            let (ua, ub) = (self.index(a)?, self.index(b)?);
            let cost = match change {
                Change::Connect(..) => Some(1),
                Change::ConnectWeighted(_, _, c) | Change::ConnectDirected(_, _, c) => Some(c),
                _ => None,
            };
            if cost == Some(0) {
                return Err(Error::ZeroCost { from: a, to: b });
            }
            if a == b {
                continue;
            }
            let both = !matches!(change, Change::ConnectDirected(..) | Change::DisconnectDirected(..));
            for (u, v) in if both { vec![(ua, b), (ub, a)] } else { vec![(ua, b)] } {
                let arcs = edited.entry(u).or_insert_with(|| self.out_arcs(u));
                match (arcs.0.binary_search(&v), cost) {
                    (Ok(i), Some(c)) => arcs.1[i] = c,
                    (Err(i), Some(c)) => {
                        arcs.0.insert(i, v);
                        arcs.1.insert(i, c);
                    }
                    (Ok(i), None) => {
                        arcs.0.remove(i);
                        arcs.1.remove(i);
                    }
                    (Err(_), None) => {}
                }
            }
        }
        Ok(edited)
    }

    /// The out-arcs of `u` as lists.
    pub(super) fn out_arcs(&self, u: usize) -> Arcs {
        let slots = self.table.rows[u].slots();
        (self.table.neighbors[slots.clone()].to_vec(), slots.map(|a| self.arc_cost(a)).collect())
    }

    /// Replaces the neighbour lists of the edited nodes, remapping their rows' entries to the
    /// new slots, and updates costs, flags and components.
    pub(super) fn replace_structure(&mut self, edited: &BTreeMap<usize, Arcs>) {
        let n = self.nodes_len();
        let old_heads: BTreeMap<usize, Vec<NodeId>> =
            edited.keys().map(|&u| (u, self.table.neighbors(u).to_vec())).collect();
        // Remap rows first, while the old slots are still in place.
        for (&u, (heads, costs)) in edited {
            // Kept arcs move to their new slots; removed arcs, and arcs whose cost changed,
            // drop out (the column fixes add them back where they are optimal).
            let (old, old_costs) = self.out_arcs(u);
            let map: Vec<Option<usize>> = old
                .iter()
                .zip(&old_costs)
                .map(|(v, c)| heads.binary_search(v).ok().filter(|&i| costs[i] == *c))
                .collect();
            self.table.remap_row(u, &map);
        }
        let costs = self.replace_arcs(edited);
        // Flags and counts. An undirected graph can turn directed only at an arc with an
        // edited end: each such arc starts at an edited node or at an old or new neighbour of
        // one, so only those rows are checked.
        let rows = &self.table.rows;
        let arcs = &self.table.neighbors;
        let cost = |a: usize| costs.get(a).copied().unwrap_or(1);
        let reverse_cost = |u: usize, v: usize| {
            let list = &arcs[rows[v].slots()];
            list.binary_search(&(u as NodeId)).ok().map(|i| cost(rows[v].first as usize + i))
        };
        let symmetric =
            |u: usize| rows[u].slots().all(|a| reverse_cost(u, arcs[a] as usize) == Some(cost(a)));
        let directed = if self.directed {
            !(0..n).all(symmetric)
        } else {
            !edited.iter().all(|(&u, (heads, _))| {
                symmetric(u) && heads.iter().chain(&old_heads[&u]).all(|&v| symmetric(v as usize))
            })
        };
        let edges = if directed {
            (0..n)
                .map(|u| {
                    rows[u]
                        .slots()
                        .filter(|&a| u < arcs[a] as usize || reverse_cost(u, arcs[a] as usize).is_none())
                        .count()
                })
                .sum()
        } else {
            arcs.len() / 2
        };
        let weighted = self.model != CostModel::Integer || costs.iter().any(|&c| c != 1);
        let was_directed = self.directed;
        self.directed = directed;
        self.edges = edges;
        self.costs = match (directed || weighted, costs.is_empty()) {
            (true, true) => vec![1; self.table.neighbors.len()],
            (true, false) => costs,
            (false, _) => Vec::new(),
        };
        if directed {
            let offsets: Vec<u32> = rows
                .iter()
                .map(|r| r.first)
                .chain(core::iter::once(self.table.neighbors.len() as u32))
                .collect();
            let incoming = self.incoming();
            (self.component, self.components) = components::label_weak(
                &offsets,
                &self.table.neighbors,
                &incoming.0,
                &incoming.1,
                &incoming.2,
            );
        } else if was_directed || !self.components_kept(edited, &old_heads) {
            (self.component, self.components) = components::label(&self.table.rows, &self.table.neighbors);
        }
    }

    /// Puts the edited nodes' arc lists in place and returns the arcs' costs (empty while
    /// every arc costs 1), leaving `self.costs` empty.
    fn replace_arcs(&mut self, edited: &BTreeMap<usize, Arcs>) -> Vec<u32> {
        let n = self.nodes_len();
        // Unit costs stay implicit (an empty list) while every edited arc costs 1.
        let unit_costs = self.costs.is_empty() && edited.values().all(|(_, c)| c.iter().all(|&c| c == 1));
        // A few edited lists are spliced into the arc arrays in place, the last first (so the
        // earlier rows' slots stay where they are): a move of the arcs after each, and no new
        // arrays (whose fresh pages cost more than the moves). Many are copied over once.
        if edited.len() <= 16 && (unit_costs || !self.costs.is_empty()) {
            let mut costs = core::mem::take(&mut self.costs);
            for (&u, (heads, cost)) in edited.iter().rev() {
                let slots = self.table.rows[u].slots();
                if !costs.is_empty() {
                    costs.splice(slots.clone(), cost.iter().copied());
                }
                self.table.neighbors.splice(slots, heads.iter().copied());
                self.table.rows[u].deg = u32::try_from(heads.len()).expect("degree fits u32");
            }
            let mut first = 0u32;
            for row in &mut self.table.rows {
                row.first = first;
                first = first.checked_add(row.deg).expect("arcs fit u32");
            }
            costs
        } else {
            // New arc arrays: edited nodes' lists, everybody else's copied.
            let old_neighbors = core::mem::take(&mut self.table.neighbors);
            let old_costs = core::mem::take(&mut self.costs);
            let old_cost = |a: usize| old_costs.get(a).copied().unwrap_or(1);
            let mut neighbors = Vec::with_capacity(old_neighbors.len());
            let mut costs = Vec::with_capacity(if unit_costs { 0 } else { old_neighbors.len() });
            for u in 0..n {
                let slots = self.table.rows[u].slots();
                let first = neighbors.len();
                if let Some((heads, cost)) = edited.get(&u) {
                    neighbors.extend_from_slice(heads);
                    if !unit_costs {
                        costs.extend_from_slice(cost);
                    }
                } else {
                    neighbors.extend_from_slice(&old_neighbors[slots.clone()]);
                    if !unit_costs {
                        costs.extend(slots.map(old_cost));
                    }
                }
                let row = &mut self.table.rows[u];
                row.first = u32::try_from(first).expect("arcs fit u32");
                row.deg = u32::try_from(neighbors.len() - first).expect("degree fits u32");
            }
            self.table.neighbors = neighbors;
            costs
        }
    }

    /// Keeps the component labels of an undirected graph through an edit of undirected edges
    /// where that is cheap: an inserted edge between two components merges their labels
    /// (renumbered as a fresh labelling would), a removed edge whose ends stay connected
    /// changes nothing. Returns `false` when the labels must be recomputed (a removed edge
    /// whose ends are not found connected within a small search).
    fn components_kept(
        &mut self,
        edited: &BTreeMap<usize, Arcs>,
        old_heads: &BTreeMap<usize, Vec<NodeId>>,
    ) -> bool {
        let n = self.nodes_len();
        // Removed edges: their ends must still meet.
        let mut seen = std::collections::HashSet::new();
        let mut queue = std::collections::VecDeque::new();
        for (&u, (heads, _)) in edited {
            for &v in &old_heads[&u] {
                if heads.binary_search(&v).is_ok() || (v as usize) < u && edited.contains_key(&(v as usize)) {
                    continue;
                }
                // A breadth-first search from `u` for `v`, given up after a few hundred nodes.
                seen.clear();
                queue.clear();
                seen.insert(u);
                queue.push_back(u);
                let mut found = false;
                while let Some(x) = queue.pop_front() {
                    if x == v as usize {
                        found = true;
                        break;
                    }
                    if seen.len() > 512.min(n) {
                        break;
                    }
                    for &y in self.table.neighbors(x) {
                        if seen.insert(y as usize) {
                            queue.push_back(y as usize);
                        }
                    }
                }
                if !found {
                    return false;
                }
            }
        }
        // Inserted edges: merge labels, keeping the numbering of a fresh labelling (by the
        // lowest node of each component).
        for (&u, (heads, _)) in edited {
            for &v in heads {
                let (a, b) = (self.component[u], self.component[v as usize]);
                if a == b {
                    continue;
                }
                let (keep, gone) = (a.min(b), a.max(b));
                for label in &mut self.component {
                    if *label == gone {
                        *label = keep;
                    } else if *label > gone {
                        *label -= 1;
                    }
                }
                self.components -= 1;
            }
        }
        true
    }
}
