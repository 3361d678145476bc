//! [`Crowd`]: many entities stepping toward a target by one batched query a tick.

use crate::{Error, NextHop, NodeId};

/// The nodes of many entities (a crowd of enemies, a herd, an army), each stepped one optimal
/// move toward a target per call by one batched query ([`NextHop::neighbor_to_each`]), with
/// the query buffers kept between calls: a tick allocates nothing once the crowd has run
/// once.
///
/// Works with every table ([`Graph`](crate::Graph), [`CompressedGraph`](crate::CompressedGraph),
/// a grid oracle's [`TableRef`](crate::TableRef), the fixed-size graphs, or `&dyn NextHop`).
///
/// # Example
/// ```
/// use signposts::Crowd;
/// use signposts::generate::{grid, Connectivity};
///
/// let table = grid(10, 10, Connectivity::Four).build(); // cell (x, y) is node y * 10 + x
/// let mut crowd = Crowd::new(vec![0, 9, 90, 55]);
/// let step = crowd.step_toward(&table, 55)?;
/// assert_eq!((step.moved, step.arrived, step.stranded), (3, 1, 0));
/// for _ in 0..9 {
///     crowd.step_toward(&table, 55)?;
/// }
/// assert!(crowd.positions().iter().all(|&p| p == 55));
/// # Ok::<(), signposts::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Crowd {
    positions: Vec<NodeId>,
    queries: Vec<(NodeId, NodeId)>,
    steps: Vec<Option<NodeId>>,
}

/// What one [`Crowd::step_toward`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CrowdStep {
    /// Entities that took a step.
    pub moved: usize,
    /// Entities already at the target (they stay).
    pub arrived: usize,
    /// Entities that cannot reach the target (they stay).
    pub stranded: usize,
}

impl Crowd {
    /// A crowd at these nodes.
    #[must_use]
    pub fn new(positions: Vec<NodeId>) -> Crowd {
        Crowd { positions, queries: Vec::new(), steps: Vec::new() }
    }

    /// The entities' nodes, in the order given.
    #[must_use]
    pub fn positions(&self) -> &[NodeId] {
        &self.positions
    }

    /// The entities' nodes, to move some by hand (respawn the ones that arrived, say).
    pub fn positions_mut(&mut self) -> &mut [NodeId] {
        &mut self.positions
    }

    /// Moves every entity one optimal step toward `target`: one batched query for the whole
    /// crowd.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first id (an entity's or the target) that `table`
    /// does not have; then nobody moves.
    ///
    /// # Complexity
    /// One [`NextHop::neighbor_to_each`] over the crowd: O(1) per entity on a dense table,
    /// O(log runs) on a compressed one. No allocation after the first call.
    pub fn step_toward<T: NextHop + ?Sized>(
        &mut self,
        table: &T,
        target: NodeId,
    ) -> Result<CrowdStep, Error> {
        self.queries.clear();
        self.queries.extend(self.positions.iter().map(|&p| (p, target)));
        table.try_neighbor_to_each(&self.queries, &mut self.steps)?;
        let mut step = CrowdStep::default();
        for (position, next) in self.positions.iter_mut().zip(&self.steps) {
            match next {
                Some(next) => {
                    *position = *next;
                    step.moved += 1;
                }
                None if *position == target => step.arrived += 1,
                None => step.stranded += 1,
            }
        }
        Ok(step)
    }
}
