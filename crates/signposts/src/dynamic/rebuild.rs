//! The rebuild decision: when an edit rebuilds the table instead of repairing it, and the
//! rebuild itself. (The local repairs' work budget, what a rebuild costs in their units, is in
//! `driver.rs`.)

use std::collections::BTreeMap;

use super::Update;
use super::arcs::Arcs;
use crate::dense::table::entry_bits;
use crate::{Error, Graph, GraphBuilder};

impl Graph {
    /// Whether an edit rebuilds the table at once, before anything is repaired: a node
    /// outgrows its entry width, or the graph is a forest (with at most one cycle).
    pub(super) fn rebuilds_at_once(&self, edited: &BTreeMap<usize, Arcs>) -> bool {
        // A node that outgrows its entry width: rebuild.
        if edited.iter().any(|(&u, arcs)| entry_bits(arcs.0.len() as u32) > self.table.rows[u].width_bits()) {
            return true;
        }

        // A forest is built by peeling alone, in about the time one repair takes to start, and
        // a forest with one more edge (one cycle) mostly so: edits of those (a perfect maze
        // with a wall opened or closed) rebuild at once.
        self.costs.is_empty()
            && !self.directed
            && self.edges + self.components as usize <= self.nodes_len() + 1
    }

    /// Whether `searches` searches from targets, left after the local repairs, cost more than
    /// a rebuild (`unit`: of a graph the unit repair handles, which builds bit-parallel).
    pub(super) fn searches_cost_more(&self, unit: bool, searches: usize) -> bool {
        // A search costs about what the bit-parallel build spends on 32 targets, or one
        // target's share of a weighted build.
        if unit {
            searches * 32 > 64 && searches * 32 > self.core_len()
        } else {
            searches > (self.nodes_len() / 2).max(8)
        }
    }

    /// The size of the 2-core: the bit-parallel build's cost grows with its square (trees
    /// hanging off it are filled by runs).
    pub(super) fn core_len(&self) -> usize {
        crate::build::peel::peel(&self.table.rows, &self.table.neighbors).core_len
    }

    /// Sets how long the graph's build took, the measure its repairs are weighed against
    /// (`None`: not measured, the work model decides). For tests of that choice.
    #[cfg(feature = "test-support")]
    #[doc(hidden)]
    pub fn set_build_time(&mut self, took: Option<core::time::Duration>) {
        self.build_time = super::clock::BuildTime(took);
    }

    /// How long the graph's build took, when it was built in this process on a target with a
    /// clock: what its repairs are weighed against. For tests of that choice.
    #[cfg(feature = "test-support")]
    #[doc(hidden)]
    #[must_use]
    pub fn build_time(&self) -> Option<core::time::Duration> {
        self.build_time.0
    }

    /// Rebuilds the table of the edited graph.
    pub(super) fn rebuild(&mut self, edited: &BTreeMap<usize, Arcs>) -> Result<Update, Error> {
        let mut builder = self.clone_builder();
        for (u, arcs) in edited {
            builder.replace_arcs(*u, arcs.clone());
        }
        *self = builder.try_build()?;
        Ok(Update::rebuilt(self.nodes_len()))
    }

    /// A builder holding this graph's arcs.
    fn clone_builder(&self) -> GraphBuilder {
        let n = self.nodes_len();
        let (heads, costs) = (0..n).map(|u| self.out_arcs(u)).unzip();
        let mut builder = GraphBuilder::from_parts(heads, costs, self.model);
        builder.reserve_degree(self.reserve);
        builder
    }
}
