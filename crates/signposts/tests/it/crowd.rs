//! The same generic chase ([`Crowd`] over any [`NextHop`]) on a dense and a compressed table
//! of a Moving AI map: identical path lengths toward a fixed target, and every step optimal
//! toward a moving one.

use crate::common;

use signposts::generate::SplitMix64;
use signposts::grid::{Connectivity, GridOracle, parse_map};
use signposts::{Cost, Crowd, NextHop, NodeId};

/// Walks every entity home to `target`, one batched step a tick; returns the cost each walked.
fn walk_home(table: &impl NextHop, starts: &[NodeId], target: NodeId) -> Vec<Cost> {
    let mut crowd = Crowd::new(starts.to_vec());
    let mut walked = vec![Cost::ZERO; starts.len()];
    for _ in 0..table.nodes_len() {
        let before = crowd.positions().to_vec();
        let step = crowd.step_toward(table, target).expect("ids in range");
        for ((walked, &from), &to) in walked.iter_mut().zip(&before).zip(crowd.positions()) {
            *walked = *walked + table.cost(from, to).expect("a step is an edge");
        }
        if step.moved == 0 {
            assert_eq!(step.arrived + step.stranded, starts.len());
            return walked;
        }
    }
    panic!("a crowd still walking after as many ticks as nodes");
}

/// Chases a player along `route`, checking at every tick that each entity's step shortens its
/// exact cost to the player by exactly the step's cost. Returns the catches.
fn chase_route(table: &impl NextHop, starts: &[NodeId], route: &[NodeId]) -> usize {
    let mut crowd = Crowd::new(starts.to_vec());
    let mut caught = 0;
    for &player in route {
        let before = crowd.positions().to_vec();
        crowd.step_toward(table, player).expect("ids in range");
        for (&from, &to) in before.iter().zip(crowd.positions()) {
            match (table.cost(from, player), table.cost(to, player)) {
                (Some(a), Some(b)) if from != to => {
                    let step = table.cost(from, to).expect("an edge");
                    assert_eq!(b + step, a, "{from} → {to} toward {player}");
                }
                (a, _) => assert!(from == player || a.is_none(), "{from} stood still toward {player}"),
            }
            caught += usize::from(to == player);
        }
    }
    caught
}

#[test]
fn dense_and_compressed_tables_walk_the_same_lengths_on_a_moving_ai_map() {
    let grid = parse_map(&std::fs::read(common::maps_dir().join("arena.map")).unwrap()).unwrap();
    for connectivity in [Connectivity::Four, Connectivity::Eight] {
        let dense = GridOracle::build(&grid, connectivity).unwrap();
        let compressed = GridOracle::build_compressed(&grid, connectivity).unwrap();
        let (a, b) = (dense.table(), compressed.table());
        let n = a.nodes_len() as u64;
        let mut rng = SplitMix64::new(7);
        let starts: Vec<NodeId> = (0..500).map(|_| rng.below(n) as NodeId).collect();
        let target = rng.below(n) as NodeId;

        let (walked_dense, walked_compressed) =
            (walk_home(&a, &starts, target), walk_home(&b, &starts, target));
        assert_eq!(walked_dense, walked_compressed, "{connectivity:?}");
        for (&start, &walked) in starts.iter().zip(&walked_dense) {
            // The exact shortest cost (or nothing walked where the target is out of reach).
            assert_eq!(walked, a.cost(start, target).unwrap_or(Cost::ZERO), "{connectivity:?} from {start}");
        }

        // A player walking a route of shortest paths between random nodes.
        let mut route = vec![target];
        while route.len() < 300 {
            let goal = rng.below(n) as NodeId;
            route.extend(a.path_to(*route.last().unwrap(), goal).skip(1));
        }
        assert!(chase_route(&a, &starts, &route) > 0 && chase_route(&b, &starts, &route) > 0);
    }
}
