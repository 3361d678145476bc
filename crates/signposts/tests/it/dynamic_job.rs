//! Repairs spread over calls (`RepairJob`, `GridRepairJob`): stepped with random budgets, one
//! unit included, and units of random numbers of steps (one step included: weighted columns'
//! repairs paused after each), each ends with the table of a one-shot repair and a fresh build's answers; the old
//! table answers as before while a job runs.

use crate::common;
use crate::dynamic::{change, grids::same_grid_answers, mirror, same_answers, to_change};

use common::any_case;
use proptest::prelude::*;
use signposts::dynamic::{Budget, Change, RepairJob};
use signposts::generate::{Connectivity, walled_grid};
use signposts::grid::{Cell, Grid, GridOracle, GridRepairJob};
use signposts::{Graph, GraphBuilder};

/// Runs `job` to its end with the budgets in turn (cycled), checking that progress only
/// grows (with units of one step, by at most the budget: each part takes a step at least)
/// and ends at `done == total`.
fn run(mut job: RepairJob, budgets: &[usize], single: bool) -> (Graph, signposts::dynamic::Update) {
    let mut last = job.progress().done;
    let mut steps = 0;
    while !job.is_done() {
        let budget = budgets[steps % budgets.len()];
        let p = job.step(Budget::Work(budget));
        assert!(p.done > last, "{p:?} after {last}, budget {budget}");
        assert!(!single || p.done - last <= budget.max(1), "{p:?} after {last}, budget {budget}");
        assert!(p.done <= p.total, "{p:?}");
        last = p.done;
        steps += 1;
    }
    let p = job.progress();
    assert_eq!(p.done, p.total);
    job.finish().unwrap()
}

/// A job for `batch` on `graph`, with units of `unit` steps (0: the default).
fn job(graph: &Graph, batch: &[Change], unit: usize) -> RepairJob {
    let job = graph.repair_job(batch).unwrap();
    if unit == 0 { job } else { job.with_unit(unit) }
}

/// Edits one at a time three ways: one-shot, job, fresh build. A chain of jobs and a chain of
/// one-shot repairs answer as the fresh build after each edit; and jobs started from the
/// one-shot chain's graph (with `budgets` and `unit`, and with the smallest budget: one step a
/// step) end with its table (bytes) where neither rebuilds (a
/// rebuild orders the columns anew; a job never gives way to one on cost).
fn three_ways(builder: &GraphBuilder, batches: &[Vec<Change>], budgets: &[usize], unit: usize) {
    let mut reference = builder.clone();
    let mut once = reference.build();
    let mut stepped = once.clone();
    for (step, batch) in batches.iter().enumerate() {
        let before = stepped.clone();
        let started = job(&stepped, batch, unit);
        assert_eq!(stepped, before, "step {step}: the job changed the old graph");
        stepped = run(started, budgets, unit == 1).0;
        let (beside, by_job) = run(job(&once, batch, unit), budgets, unit == 1);
        let (smallest, by_smallest) = run(job(&once, batch, 1), &[1], true);
        let by_once = once.apply(batch).unwrap();
        for &c in batch {
            mirror(&mut reference, c);
        }
        if !by_job.rebuilt && !by_once.rebuilt {
            assert_eq!(beside, once, "step {step}: {batch:?}, job {by_job:?}, one-shot {by_once:?}");
        }
        if !by_smallest.rebuilt && !by_once.rebuilt {
            assert_eq!(smallest, once, "step {step}: {batch:?}, smallest steps {by_smallest:?}");
        }
        let fresh = reference.build();
        same_answers(&stepped, &fresh, step);
        same_answers(&beside, &fresh, step);
        same_answers(&smallest, &fresh, step);
        same_answers(&once, &fresh, step);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn stepped_repairs_match_one_shot_repairs_and_fresh_builds(
        case in any_case(),
        changes in proptest::collection::vec(change(6), 1..8),
        budgets in proptest::collection::vec(1usize..6, 1..6),
        batched in any::<bool>(),
        unit in 0usize..5,
    ) {
        let n = case.builder.nodes_len();
        prop_assume!(n > 0 && n <= 60);
        let changes: Vec<Change> = changes.into_iter().map(|c| to_change(n, c)).collect();
        let batches: Vec<Vec<Change>> =
            if batched { vec![changes] } else { changes.into_iter().map(|c| vec![c]).collect() };
        three_ways(&case.builder, &batches, &budgets, unit);
    }

    #[test]
    fn stepped_weighted_repairs_match_one_shot_repairs_and_fresh_builds(
        n in 2usize..40,
        edges in proptest::collection::vec((any::<usize>(), any::<usize>(), 1u32..6), 0..90),
        changes in proptest::collection::vec(change(4), 1..10),
        budgets in proptest::collection::vec(1usize..4, 1..4),
        unit in 0usize..9,
    ) {
        let mut builder = GraphBuilder::new(n);
        for (a, b, w) in edges {
            builder.connect_weighted((a % n) as u32, (b % n) as u32, w);
        }
        let batches: Vec<Vec<Change>> = changes.into_iter().map(|c| vec![to_change(n, c)]).collect();
        three_ways(&builder, &batches, &budgets, unit);
    }

    /// Cells toggled on random grids (4- and 8-connected), by jobs with random budgets and
    /// units: the oracle after each equals `set_blocked`'s (saved bytes) and answers as a
    /// fresh build.
    #[test]
    fn stepped_cell_toggles_match_set_blocked_and_fresh_builds(
        w in 1u32..9, h in 1u32..9, walls in proptest::collection::vec(any::<bool>(), 64),
        eight in any::<bool>(), toggles in proptest::collection::vec((any::<u32>(), any::<u32>()), 1..8),
        budgets in proptest::collection::vec(1usize..8, 1..5),
        unit in 1usize..6,
    ) {
        let connectivity = if eight { signposts::grid::Connectivity::Eight } else { signposts::grid::Connectivity::Four };
        let grid = Grid::from_fn(w, h, |c| !walls[(c.y * 8 + c.x) as usize % 64] || (c.x + c.y) % 3 == 0);
        let mut once = GridOracle::build(&grid, connectivity).unwrap();
        let mut stepped = once.clone();
        for (step, (x, y)) in toggles.into_iter().enumerate() {
            let cell = Cell::new(x % w, y % h);
            let blocked = stepped.grid().is_passable(cell);
            // From the one-shot's oracle too: the same bytes where neither rebuilds.
            let (beside, by_job) = once.set_blocked_job(cell, blocked).unwrap().finish().unwrap();
            let mut job = stepped.set_blocked_job(cell, blocked).unwrap().with_unit(unit);
            prop_assert_eq!(job.grid().is_passable(cell), !blocked);
            let mut k = 0;
            while !job.is_done() {
                job.step(Budget::Work(budgets[k % budgets.len()]));
                k += 1;
            }
            stepped = job.finish().unwrap().0;
            let by_once = once.set_blocked(cell, blocked).unwrap();
            let (mut a, mut b) = (Vec::new(), Vec::new());
            beside.save(&mut a).unwrap();
            once.save(&mut b).unwrap();
            if !by_job.rebuilt && !by_once.rebuilt {
                prop_assert!(a == b, "step {}: saved bytes differ", step);
            }
            same_grid_answers(&stepped, &GridOracle::build(stepped.grid(), connectivity).unwrap(), step);
        }
    }
}

/// Doors toggled on a walled grid with several blocks of columns, stepped one unit at a time
/// and by a time budget: local repairs (with replays) spread over many steps.
#[test]
fn door_toggles_stepped_one_unit_at_a_time() {
    let builder = walled_grid(26, 26, 0.2, 5, Connectivity::Four);
    let mut once = builder.build();
    let mut reference = builder.clone();
    let mut steps_seen = 0;
    let mut rng = signposts::generate::SplitMix64::new(3);
    for step in 0..12 {
        let a = rng.below(builder.nodes_len() as u64) as u32;
        let Some(&b) = reference.neighbors(a).first() else { continue };
        // A door closed (both its cells' edge) and opened again.
        for change in [Change::Disconnect(a, b), Change::Connect(a, b)] {
            // From the one-shot chain's graph: the same table where neither rebuilds.
            let mut job = once.repair_job(&[change]).unwrap();
            let mut steps = 0;
            let budget =
                if step % 2 == 0 { Budget::Work(1) } else { Budget::Time(core::time::Duration::ZERO) };
            while !job.is_done() {
                job.step(budget);
                steps += 1;
            }
            steps_seen = steps_seen.max(steps);
            let (repaired, by_job) = job.finish().unwrap();
            let by_once = once.apply(&[change]).unwrap();
            mirror(&mut reference, change);
            if !by_once.rebuilt && !by_job.rebuilt {
                assert_eq!(repaired, once, "step {step}: {change:?}");
            }
            same_answers(&repaired, &reference.build(), step);
        }
    }
    assert!(steps_seen > 10, "the repairs took at most {steps_seen} steps");
}

/// Units of work `job` takes one a step, and its oracle.
fn steps_of(mut job: GridRepairJob) -> (usize, GridOracle) {
    let mut steps = 0;
    while !job.is_done() {
        job.step(Budget::Work(1));
        steps += 1;
    }
    (steps, job.finish().unwrap().0)
}

/// The saved bytes of `oracle`.
fn bytes(oracle: &GridOracle) -> Vec<u8> {
    let mut out = Vec::new();
    oracle.save(&mut out).unwrap();
    out
}

/// A wall of the web page's maze (octile, the weighted local repair) closed by a job of one
/// unit a step: the old oracle answers unchanged until the swap, and the result is the
/// one-shot's. Its largest columns' repairs (half the maze behind the wall) take several
/// steps: pausing them, where a step's budget runs out or after every node, changes no byte.
#[test]
fn a_maze_wall_closed_by_a_job() {
    let grid = signposts::generate::maze_grid(20, 14, 8, 42);
    let mut oracle = GridOracle::build(&grid, signposts::grid::Connectivity::Eight).unwrap();
    let open: Vec<Cell> = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
        .filter(|&c| grid.is_passable(c))
        .collect();
    let cell = open[open.len() / 3];
    let (a, b) = (open[0], open[open.len() - 1]);
    let before = oracle.distance(a, b);
    let mut job = oracle.set_blocked_job(cell, true).unwrap();
    let mut steps = 0;
    while !job.is_done() {
        job.step(Budget::Work(1));
        assert_eq!(oracle.distance(a, b), before);
        steps += 1;
    }
    let (stepped, update) = job.finish().unwrap();
    assert!(steps > 10 && update.repaired > 0, "{steps} steps, {update:?}");
    let mut once = oracle.clone();
    if !once.set_blocked(cell, true).unwrap().rebuilt {
        assert!(bytes(&stepped) == bytes(&once), "the job's table differs from the one-shot repair's");
    }
    // A budget that never runs out (one step, no column paused), the default unit, units of
    // one step (every weighted column paused after each): the same table.
    let (whole, by_whole) = steps_of(oracle.set_blocked_job(cell, true).unwrap().with_unit(usize::MAX));
    let (single, by_single) = steps_of(oracle.set_blocked_job(cell, true).unwrap().with_unit(1));
    assert!(
        whole == 1 && steps < single,
        "steps: {whole} unbounded, {steps} of a unit, {single} of one step"
    );
    assert!(bytes(&by_whole) == bytes(&stepped), "the job's table differs from one step's");
    assert!(bytes(&by_single) == bytes(&stepped), "the job's table differs from one of single steps");
    same_grid_answers(
        &stepped,
        &GridOracle::build(stepped.grid(), signposts::grid::Connectivity::Eight).unwrap(),
        0,
    );
    oracle = stepped;
    assert!(!oracle.grid().is_passable(cell));
}

#[test]
fn bad_edits_make_no_job() {
    let mut b = GraphBuilder::new(3);
    b.connect(0, 1);
    let g = b.build();
    assert!(g.repair_job(&[Change::Connect(0, 9)]).is_err());
    assert!(g.repair_job(&[Change::ConnectWeighted(1, 2, 0)]).is_err());
    let job = g.repair_job(&[Change::Connect(0, 1)]).unwrap();
    assert!(job.is_done(), "an edit that changes nothing is done at once");
    let oracle = GridOracle::build(&Grid::new(3, 3), signposts::grid::Connectivity::Four).unwrap();
    assert!(oracle.set_blocked_job(Cell::new(3, 0), true).is_err());
}
