//! Opening and closing a door in place.
//!
//! A door's state changes what is seen only through the door: a corner whose visibility
//! polygon does not reach the door's segment sweeps the same whichever its state (and neither
//! sees nor is seen by the door's ends, the only vertices whose kind it can change). So a
//! toggle sweeps again the corners whose polygon reaches the door (a test of each polygon
//! against the segment, leaning to yes), keeps every other corner's polygon, edges and cells
//! as they were (renumbered when the door's ends become corners or stop being ones), and then
//! repairs the tier over the new graph:
//!
//! - the graph tier has nothing more to repair;
//! - the labels tiers build their labels again (one pruned search per corner, on one thread);
//!   [`Tier::Labels`] repairs its first steps row by row: a row's lengths are read back off
//!   its tree (each corner's is its next corner's plus the edge, the sum the search made),
//!   the corners whose path lost an edge are searched again from their neighbours that kept
//!   theirs, shorter paths over new edges and corners spread, and each corner near a change
//!   picks its first step again as the search picks it (the shortest, then the neighbour
//!   settled first). `O(c)` a row for `c` corners, plus what changed;
//! - the table tiers repair their first steps the same way and their lengths with them (a
//!   length kept where the row's repair left it), merge the regions' candidate lists as the
//!   cells' are, and take every region's bounds again over them (a table read from a
//!   format 2 file kept no candidates: it is built again).
//!
//! Whatever the route, the index ends identical to a fresh build with the new states (the
//! same tier asked for, the same budget and links): the property tests compare the saved
//! bytes. When the new index would not fit the budget in its tier, or the corners' numbers
//! would change order (a door end that moves the corners' bounding box), the whole index is
//! built again.

use core::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

use rayon::prelude::*;

use super::builder::region_bounds;
use super::builder::{Corner, SweepBufs, corner_share, ordered_corners};
use super::cells::CellList;
use super::labels;
use super::links::Links;
use super::table::{BOUND, Graph, Lengths, NARROW_PAIR, Table, WIDE_PAIR, filled, search};
use super::topology::Topology;
use super::view::Views;
use super::{CornerGeo, ExactRooms, FULL, INDEX, TAUT, Tier};
use crate::mesh::NONE;
use crate::{DoorId, DoorState, Error};

impl ExactRooms {
    /// Opens or closes door `d`, repairing the index in place: the corners that see the door
    /// are swept again, the rest kept, and the tier repaired over the new visibility graph (the
    /// [module docs](super) and the `doors` module's source say what each tier redoes). The
    /// index ends identical to a fresh build with the new door states, the same tier asked
    /// for, budget and links: the tier is kept when it still fits the budget, else the next
    /// smaller that does, as a build falls back. A door already in the state asked changes
    /// nothing. The repair holds the old index and the new one for a moment (about twice the
    /// index's memory).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a door not of the mesh; the build's errors when the index is
    /// built again (then the index is unchanged).
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{DoorId, ExactRooms, NavMesh, Point};
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n.@.\n...")?)?;
    /// let mut exact = ExactRooms::build(&mesh)?;
    /// let (a, b) = (Point::new(0.5, 1.5), Point::new(2.5, 1.5));
    /// for d in 0..mesh.doors_len() as u32 {
    ///     exact.set_door_open(DoorId(d), false)?;
    /// }
    /// assert_eq!(exact.distance(a, b), None); // every region walled in
    /// exact.set_door_open(DoorId(0), true)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_door_open(&mut self, d: DoorId, open: bool) -> Result<(), Error> {
        if self.door_state(d)? != if open { DoorState::Open } else { DoorState::Closed } {
            *self = self.with_door_open(d, open)?;
        }
        Ok(())
    }

    /// The index with door `d` opened or closed, this one left as it is (answering meanwhile,
    /// as a game's other threads may need): what [`ExactRooms::set_door_open`] makes, without
    /// holding a third copy when the old index must stay.
    ///
    /// # Errors
    /// As [`ExactRooms::set_door_open`].
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{DoorId, ExactRooms, NavMesh, Point};
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("..@..\n.....\n..@..")?)?;
    /// let exact = ExactRooms::build(&mesh)?;
    /// let (a, b) = (Point::new(0.5, 1.5), Point::new(4.5, 1.5));
    /// let door = mesh.doors().iter().position(|d| d.ends.iter().all(|p| p.x == 2.0)).unwrap();
    /// let closed = exact.with_door_open(DoorId(door as u32), false)?;
    /// assert_eq!(exact.distance(a, b), Some(4.0)); // still open here
    /// assert!(closed.distance(a, b).is_none_or(|d| d > 4.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_door_open(&self, d: DoorId, open: bool) -> Result<ExactRooms, Error> {
        let state = if open { DoorState::Open } else { DoorState::Closed };
        if self.door_state(d)? == state {
            return Ok(self.clone());
        }
        let mut states = self.states.clone();
        states[d.0 as usize] = state;
        if let Some(exact) = self.repaired(d, &states)? {
            return Ok(exact);
        }
        let mut builder =
            ExactRooms::builder(&self.mesh).door_states(states).memory_budget(self.budget).tier(self.tier);
        builder.links = self.links.specs();
        builder.build()
    }

    /// The index with door `d` in its state of `states` (the others as they are), repaired
    /// from this one; `None` when it must be built whole.
    fn repaired(&self, d: DoorId, states: &[DoorState]) -> Result<Option<ExactRooms>, Error> {
        let topo = Topology::new(&self.mesh, states);
        let (corners, corner_of) = ordered_corners(&topo);
        let n = corners.len();
        // Old corner numbers to new (`NONE`: no longer a corner), and back.
        let to_new: Vec<u32> = self.corners.iter().map(|&v| corner_of[v as usize]).collect();
        let from_old: Vec<u32> = corners.iter().map(|&v| self.corner_of[v as usize]).collect();
        let kept: Vec<u32> = to_new.iter().copied().filter(|&x| x != NONE).collect();
        if kept.windows(2).any(|w| w[0] >= w[1]) {
            return Ok(None); // renumbered out of order: searches would break ties otherwise
        }
        let dirty = self.dirty(d, &topo, &corners, &from_old);
        let list: Vec<usize> = (0..n).filter(|&i| dirty[i]).collect();
        let swept: Vec<Corner> = list
            .par_iter()
            .map_init(SweepBufs::default, |bufs, &i| {
                corner_share(&topo, &corner_of, &self.grid, corners[i], bufs)
            })
            .collect();
        // The kept corners' polygons and edges (renumbered), the swept ones' new.
        let mut views = Views::default();
        let pieces = swept.iter().map(|c| c.pieces.len() + 1).sum::<usize>() + self.views.pieces.len();
        let spikes = swept.iter().map(|c| c.spikes.len()).sum::<usize>() + self.views.spikes.len();
        views.reserve(n, pieces, spikes);
        let mut graph =
            Graph { start: Vec::with_capacity(n + 1), edges: Vec::with_capacity(self.graph.edges.len()) };
        graph.start.push(0);
        let mut fresh = swept.iter();
        for i in 0..n {
            if dirty[i] {
                let corner = fresh.next().expect("one sweep per dirty corner");
                views.append(&topo, corners[i], &corner.pieces, &corner.spikes);
                graph.edges.extend_from_slice(&corner.neighbours);
            } else {
                let old = from_old[i];
                views.append_from(&self.views, old as usize);
                graph.edges.extend(self.graph.of(old).iter().map(|&(u, w)| (to_new[u as usize], w)));
            }
            graph.start.push(graph.edges.len() as u32);
        }
        if graph.edges.iter().any(|&(u, _)| u == NONE) {
            // A kept corner with an edge to a corner gone: it saw the door's end, which the
            // test of its polygon should have found. Never met; built whole, to be safe.
            return Ok(None);
        }
        views.shrink_to_fit();
        graph.edges.shrink_to_fit();
        let (cell_start, cell_list) = merged(
            self.grid.len(),
            |k| self.cell_list.entries(self.cell_start[k] as usize..self.cell_start[k + 1] as usize),
            self.cell_list.len(),
            &to_new,
            &dirty,
            &list,
            &swept,
            |corner| &corner.cells,
        );
        // The regions' candidates, for a table's bounds (kept unless read from a format 2 file).
        let cands = self.table.as_ref().filter(|t| !t.cand_start.is_empty()).map(|t| {
            merged(
                self.mesh.regions_len(),
                |r| t.cand[t.cand_start[r] as usize..t.cand_start[r + 1] as usize].iter().copied(),
                t.cand.len(),
                &to_new,
                &dirty,
                &list,
                &swept,
                |corner| &corner.regions,
            )
        });
        drop(swept);
        let geo = corners.iter().map(|&v| CornerGeo::new(&topo, v)).collect();
        let mut exact = ExactRooms {
            mesh: Arc::clone(&self.mesh),
            states: states.to_vec(),
            budget: self.budget,
            topo,
            corners,
            corner_of,
            geo,
            views,
            grid: self.grid,
            cell_start: cell_start.into(),
            cell_list: CellList::new(cell_list, n),
            graph,
            table: None,
            labels: None,
            tier: Tier::Graph,
            file: super::io::Origin::default(),
            links: Links::default(),
        };
        let base = exact.base_bytes() as u64;
        if base > self.budget {
            return Ok(None);
        }
        let numbers = Numbers { to_new: &to_new, from_old: &from_old, dirty: &dirty };
        if !self.repair_tier(&mut exact, &numbers, cands, self.budget - base)? {
            return Ok(None);
        }
        exact.links = Links::build(&exact, &self.links.specs(), &|| false)?;
        Ok(Some(exact))
    }

    /// Repairs this index's tier into `exact` (its views, graph and cells already repaired),
    /// within `left` bytes; `false` when it must be built whole.
    fn repair_tier(
        &self,
        exact: &mut ExactRooms,
        numbers: &Numbers<'_>,
        cands: Option<(Vec<u32>, Vec<u32>)>,
        left: u64,
    ) -> Result<bool, Error> {
        let n = numbers.from_old.len();
        let pairs = (n as u64) * (n as u64);
        match self.tier {
            Tier::Labels | Tier::CompactLabels => {
                let hops = if self.tier == Tier::Labels { pairs * 2 } else { 0 };
                if (self.tier == Tier::Labels && n >= 1 << 16) || hops > left {
                    return Ok(false);
                }
                let Some(mut labels) = labels::build(&exact.graph, n, left - hops, &|| false, &|| {}) else {
                    return Ok(false);
                };
                if self.tier == Tier::Labels {
                    // Not allocated: built whole, which says how many bytes it lacked.
                    let Some(hop) = self.repaired_hops(&exact.graph, numbers) else { return Ok(false) };
                    labels.hop = Some(hop.into());
                }
                exact.labels = Some(labels);
            }
            Tier::Table | Tier::CompactTable => {
                let Some((cand_start, cand)) = cands else { return Ok(false) };
                let pair = if self.tier == Tier::Table { WIDE_PAIR } else { NARROW_PAIR };
                let bounds = n as u64 * self.mesh.regions_len() as u64 * BOUND;
                let held = (cand_start.len() + cand.len()) as u64 * 4;
                if n >= 1 << 16 || pairs * pair + bounds + held > left {
                    return Ok(false);
                }
                let Some(mut table) = self.repaired_table(&exact.graph, numbers) else { return Ok(false) };
                table.bounds = region_bounds(exact, &table, &cand_start, &cand)?.into();
                (table.cand_start, table.cand) = (cand_start.into(), cand.into());
                exact.table = Some(table);
            }
            Tier::Graph => {}
        }
        exact.tier = self.tier;
        Ok(true)
    }

    /// Per new corner, whether its sweep may change with door `d`'s state (`topo` the new
    /// topology): a corner new, at one of the door's ends, of another kind or wedge, or whose
    /// view may reach the door.
    fn dirty(&self, d: DoorId, topo: &Topology, corners: &[u32], from_old: &[u32]) -> Vec<bool> {
        let ends = self.mesh.door(d).ends;
        (0..corners.len())
            .into_par_iter()
            .map(|i| {
                let v = corners[i] as usize;
                let old = from_old[i];
                old == NONE
                    || ends.contains(&topo.points[v])
                    || topo.kinds[v] != self.topo.kinds[v]
                    || topo.wedge[v] != self.topo.wedge[v]
                    || self.views.may_touch(&self.topo, old as usize, topo.points[v], ends)
            })
            .collect()
    }

    /// What the toggle changed in the graph (`graph` the new one): the edges lost and gained
    /// between corners kept (new numbers, as `(from, to)`: the graph need not be symmetric, a
    /// corner made by a closed door being one on its own side only; only a swept corner's
    /// edges change), and each corner's edges in.
    fn changes(&self, graph: &Graph, numbers: &Numbers<'_>) -> Changes {
        let Numbers { to_new, from_old, dirty } = *numbers;
        let n = from_old.len();
        let (mut lost, mut gained) = (Vec::new(), Vec::new());
        for (i, &o) in from_old.iter().enumerate() {
            if o == NONE || !dirty[i] {
                continue;
            }
            let (before, now) = (self.graph.of(o), graph.of(i as u32));
            for &(u, _) in before {
                let un = to_new[u as usize];
                if un != NONE && now.binary_search_by_key(&un, |e| e.0).is_err() {
                    lost.push((i as u32, un));
                }
            }
            for &(u, w) in now {
                let uo = from_old[u as usize];
                if uo != NONE && before.binary_search_by_key(&uo, |e| e.0).is_err() {
                    gained.push((i as u32, u, w));
                }
            }
        }
        // `(from, length)`, the length as `from` has it.
        let mut into = Graph { start: vec![0; n + 1], edges: vec![(0, 0.0); graph.edges.len()] };
        for &(v, _) in &graph.edges {
            into.start[v as usize + 1] += 1;
        }
        for v in 0..n {
            into.start[v + 1] += into.start[v];
        }
        let mut next = into.start.clone();
        for u in 0..n as u32 {
            for &(v, w) in graph.of(u) {
                into.edges[next[v as usize] as usize] = (u, w);
                next[v as usize] += 1;
            }
        }
        Changes { into, lost, gained, new_corners: from_old.contains(&NONE) }
    }

    /// The first steps over the new `graph`, row by row from this index's (see
    /// [`RowRepair`]); `None` when they cannot be allocated.
    fn repaired_hops(&self, graph: &Graph, numbers: &Numbers<'_>) -> Option<Vec<u16>> {
        let (n, old_n) = (numbers.from_old.len(), numbers.to_new.len());
        let old_hop = self.labels.as_ref().and_then(|l| l.hop.as_ref()).expect("the first steps");
        let changes = self.changes(graph, numbers);
        let mut hop = filled(n * n, 0u16)?;
        hop.par_chunks_mut(n.max(1)).enumerate().for_each_init(RowRepair::default, |work, (b, row)| {
            let ob = numbers.from_old[b];
            let old_row = (ob != NONE).then(|| &old_hop[ob as usize * old_n..(ob as usize + 1) * old_n]);
            let repaired =
                old_row.is_some_and(|old_row| work.repair(graph, numbers, old_row, b as u32, &changes, row));
            if !repaired {
                work.lengths.resize(n, 0.0);
                search(graph, b as u32, &mut work.lengths, row, &mut work.heap);
            }
        });
        Some(hop)
    }

    /// The table over the new `graph` (its bounds and candidates left to the caller), row by
    /// row from this index's as the first steps are ([`RowRepair`]): a length kept where the
    /// row's repair left it, the new one where it changed; `None` when it cannot be allocated.
    fn repaired_table(&self, graph: &Graph, numbers: &Numbers<'_>) -> Option<Table> {
        let old = self.table.as_ref().expect("a table tier");
        let n = numbers.from_old.len();
        let changes = self.changes(graph, numbers);
        let mut hop = filled(n * n, 0u16)?;
        let lengths = match &old.lengths {
            Lengths::Wide(before) => {
                Lengths::Wide(repaired_rows(graph, numbers, old, &changes, &mut hop, before, |l| l)?.into())
            }
            Lengths::Narrow(before) => Lengths::Narrow(
                repaired_rows(graph, numbers, old, &changes, &mut hop, before, |l| l as f32)?.into(),
            ),
        };
        Some(Table::new(n, hop, lengths))
    }
}

/// The old and new corner numbers, and which new corners were swept again.
#[derive(Clone, Copy)]
struct Numbers<'a> {
    to_new: &'a [u32],
    from_old: &'a [u32],
    dirty: &'a [bool],
}

/// The table's rows repaired into `hop` and the returned lengths (`before` the old lengths,
/// `narrow` a length as stored).
fn repaired_rows<T: Copy + Default + Send + Sync>(
    graph: &Graph,
    numbers: &Numbers<'_>,
    old: &Table,
    changes: &Changes,
    hop: &mut [u16],
    before: &[T],
    narrow: impl Fn(f64) -> T + Sync,
) -> Option<Vec<T>> {
    let (n, old_n) = (numbers.from_old.len(), numbers.to_new.len());
    let mut lengths = filled(n * n, T::default())?;
    hop.par_chunks_mut(n.max(1)).zip(lengths.par_chunks_mut(n.max(1))).enumerate().for_each_init(
        RowRepair::default,
        |work, (b, (row, out))| {
            let ob = numbers.from_old[b];
            let at = if ob == NONE { 0 } else { ob as usize * old_n };
            let repaired =
                ob != NONE && work.repair(graph, numbers, &old.hop[at..at + old_n], b as u32, changes, row);
            if repaired {
                for (i, x) in out.iter_mut().enumerate() {
                    *x = match work.lengths.get(i).filter(|l| !l.is_nan()) {
                        Some(&l) => narrow(l),
                        None => before[at + numbers.from_old[i] as usize],
                    };
                }
            } else {
                work.lengths.resize(n, 0.0);
                search(graph, b as u32, &mut work.lengths, row, &mut work.heap);
                for (x, &l) in out.iter_mut().zip(&work.lengths) {
                    *x = narrow(l);
                }
            }
        },
    );
    Some(lengths)
}

/// What a toggle changed in the graph, in the new numbers.
struct Changes {
    /// The new graph's edges in, per corner: `(from, length)`, the length as `from` has it.
    into: Graph,
    /// Edges `(from, to)` lost and gained between corners kept.
    lost: Vec<(u32, u32)>,
    gained: Vec<(u32, u32, f64)>,
    /// Whether some corner is new.
    new_corners: bool,
}

/// A thread's buffers for repairing rows of first steps.
#[derive(Default)]
struct RowRepair {
    /// Per corner (new numbers) the length of its old path, read back off the old tree when
    /// first asked (`NaN`: not yet), and its new length where it changed (`NaN`: the old).
    old: Vec<f64>,
    lengths: Vec<f64>,
    /// Per corner: 0 not looked at, 1 its path kept, 2 its path lost.
    state: Vec<u8>,
    chain: Vec<u32>,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
    /// Corners whose first step is picked again (`picked` marks them listed).
    again: Vec<u32>,
    picked: Vec<bool>,
}

/// The length of the edge from `x` to `u` as `x`'s sweep measured it.
#[inline]
fn edge(graph: &Graph, x: u32, u: u32) -> f64 {
    let edges = graph.of(x);
    edges.binary_search_by_key(&u, |e| e.0).map_or(f64::INFINITY, |k| edges[k].1)
}

impl RowRepair {
    /// The old length of corner `x`, whose path was kept: its next corner's plus the edge, as
    /// the search summed it, read up the tree (`row` holds the old first steps there).
    fn old_length(&mut self, graph: &Graph, row: &[u16], x: u32) -> f64 {
        let mut y = x;
        self.chain.clear();
        while self.old[y as usize].is_nan() {
            self.chain.push(y);
            y = u32::from(row[y as usize]);
        }
        for &z in self.chain.iter().rev() {
            let next = u32::from(row[z as usize]);
            self.old[z as usize] = self.old[next as usize] + edge(graph, next, z);
        }
        self.old[x as usize]
    }

    /// Corner `x`'s length now.
    #[inline]
    fn length(&mut self, graph: &Graph, row: &[u16], x: u32) -> f64 {
        let now = self.lengths[x as usize];
        if now.is_nan() { self.old_length(graph, row, x) } else { now }
    }

    fn pick(&mut self, x: u32) {
        if !self.picked[x as usize] {
            self.picked[x as usize] = true;
            self.again.push(x);
        }
    }

    /// Repairs row `b` (old row `old_row`) into `row`; `false` when the old row is not a
    /// tree (a damaged file), to be searched whole.
    fn repair(
        &mut self,
        graph: &Graph,
        numbers: &Numbers<'_>,
        old_row: &[u16],
        b: u32,
        changes: &Changes,
        row: &mut [u16],
    ) -> bool {
        let Some(lost) = self.renumber((numbers.to_new, numbers.from_old), old_row, b, &changes.lost, row)
        else {
            return false;
        };
        if !lost && changes.lost.is_empty() && changes.gained.is_empty() && !changes.new_corners {
            self.lengths.clear(); // no length changed
            return true; // the old tree as it was, renumbered
        }
        self.spread(graph, row, b, changes);
        self.pick_steps(graph, &changes.into, row, b)
    }

    /// Fills `row` with the old row renumbered and marks each corner's path kept (1) or lost
    /// (2): a corner whose next one is gone, or whose edge to it is lost, has lost its path,
    /// and so has every corner whose path runs through it. Whether any path was lost; `None`
    /// for an old row that is not a tree.
    fn renumber(
        &mut self,
        (to_new, from_old): (&[u32], &[u32]),
        old_row: &[u16],
        b: u32,
        lost: &[(u32, u32)],
        row: &mut [u16],
    ) -> Option<bool> {
        let n = from_old.len();
        self.state.clear();
        self.state.resize(n, 0);
        for ((i, &o), step) in from_old.iter().enumerate().zip(row.iter_mut()) {
            let next =
                old_row.get(o as usize).and_then(|&x| to_new.get(usize::from(x))).copied().unwrap_or(NONE);
            if next == NONE {
                *step = i as u16;
                self.state[i] = 2;
            } else {
                *step = next as u16;
            }
        }
        for &(from, to) in lost {
            if u32::from(row[to as usize]) == from {
                self.state[to as usize] = 2;
            }
        }
        self.state[b as usize] = 1;
        let mut any = false;
        for a in 0..n as u32 {
            let mut x = a;
            self.chain.clear();
            while self.state[x as usize] == 0 {
                let next = u32::from(row[x as usize]);
                if next == x {
                    self.state[x as usize] = 1; // out of reach: kept (a new edge may reach it)
                    break;
                }
                if self.chain.len() > n {
                    return None; // a cycle: not a tree
                }
                self.chain.push(x);
                x = next;
            }
            let state = self.state[x as usize];
            any |= state == 2;
            for &y in &self.chain {
                self.state[y as usize] = state;
            }
        }
        Some(any)
    }

    /// The new lengths where they changed: the corners that lost their path searched again
    /// from their neighbours that kept theirs, shorter paths over new edges spread as the
    /// search spreads them; every corner near a change listed to pick its first step again.
    fn spread(&mut self, graph: &Graph, row: &[u16], b: u32, changes: &Changes) {
        let n = row.len();
        self.old.clear();
        self.old.resize(n, f64::NAN);
        self.lengths.clear();
        self.lengths.resize(n, f64::NAN);
        self.old[b as usize] = 0.0;
        for (x, &step) in row.iter().enumerate() {
            if self.state[x] == 2 {
                self.lengths[x] = f64::INFINITY;
            } else if step as usize == x && x != b as usize {
                self.old[x] = f64::INFINITY;
            }
        }
        self.picked.clear();
        self.picked.resize(n, false);
        self.again.clear();
        self.heap.clear();
        for x in 0..n as u32 {
            if self.state[x as usize] != 2 {
                continue;
            }
            self.pick(x);
            let mut best = f64::INFINITY;
            for &(u, w) in changes.into.of(x) {
                if self.state[u as usize] != 2 {
                    best = best.min(self.length(graph, row, u) + w);
                }
            }
            if best < f64::INFINITY {
                self.lengths[x as usize] = best;
                self.heap.push(Reverse((best.to_bits(), x)));
            }
        }
        for &(from, to, w) in &changes.gained {
            self.pick(to);
            let through = self.length(graph, row, from) + w;
            if through < self.length(graph, row, to) {
                self.lengths[to as usize] = through;
                self.heap.push(Reverse((through.to_bits(), to)));
            }
        }
        for &(_, to) in &changes.lost {
            self.pick(to);
        }
        while let Some(Reverse((key, x))) = self.heap.pop() {
            let d = f64::from_bits(key);
            if d > self.lengths[x as usize] {
                continue;
            }
            self.pick(x);
            for &(v, w) in graph.of(x) {
                self.pick(v);
                let through = d + w;
                if through < self.length(graph, row, v) {
                    self.lengths[v as usize] = through;
                    self.heap.push(Reverse((through.to_bits(), v)));
                }
            }
        }
    }

    /// Picks the listed corners' first steps again as the search picks them (the shortest,
    /// then the neighbour settled first), on the lengths alone (the old tree is read off
    /// `row` meanwhile), then writes them; `false` when a corner has no neighbour giving its
    /// length (a damaged file).
    #[expect(clippy::float_cmp, reason = "the sum the search made, bit for bit")]
    fn pick_steps(&mut self, graph: &Graph, into: &Graph, row: &mut [u16], b: u32) -> bool {
        let mut steps = core::mem::take(&mut self.chain);
        steps.clear();
        for k in 0..self.again.len() {
            let x = self.again[k];
            let length = self.length(graph, row, x);
            if x == b || length == f64::INFINITY {
                steps.push(x);
                continue;
            }
            let mut best = (u64::MAX, u32::MAX);
            for &(u, w) in into.of(x) {
                let lu = self.length(graph, row, u);
                if lu + w == length && (lu.to_bits(), u) < best {
                    best = (lu.to_bits(), u);
                }
            }
            if best.1 == u32::MAX {
                self.chain = steps;
                return false;
            }
            steps.push(best.1);
        }
        for (&x, &step) in self.again.iter().zip(&steps) {
            row[x as usize] = step as u16;
        }
        self.chain = steps;
        true
    }
}

/// Lists per key (cells, regions) of corner entries ([`FULL`] and [`TAUT`] marks kept), with
/// the swept corners' entries replaced by their new ones: `old(k)` the old entries of key `k`
/// (old numbers), `fresh(corner)` a swept corner's keys (`swept[j]` is corner `list[j]`'s);
/// every list in corner order as a build makes it.
#[expect(clippy::too_many_arguments, reason = "the old lists, both numberings, the new lists")]
fn merged<I: Iterator<Item = u32>>(
    keys: usize,
    old: impl Fn(usize) -> I,
    len: usize,
    to_new: &[u32],
    dirty: &[bool],
    list: &[usize],
    swept: &[Corner],
    fresh: impl Fn(&Corner) -> &[u32],
) -> (Vec<u32>, Vec<u32>) {
    let key = |k: u32| (k & !(FULL | TAUT)) as usize;
    let mut add_start = vec![0u32; keys + 1];
    for corner in swept {
        for &k in fresh(corner) {
            add_start[key(k) + 1] += 1;
        }
    }
    for k in 1..add_start.len() {
        add_start[k] += add_start[k - 1];
    }
    let mut next = add_start.clone();
    let mut add = vec![0u32; add_start[keys] as usize];
    for (corner, &i) in swept.iter().zip(list) {
        for &k in fresh(corner) {
            let slot = &mut next[key(k)];
            add[*slot as usize] = i as u32 | (k & (FULL | TAUT));
            *slot += 1;
        }
    }
    let mut start = Vec::with_capacity(keys + 1);
    let mut out = Vec::with_capacity(len + add.len());
    start.push(0u32);
    for k in 0..keys {
        let kept = old(k).filter_map(|e| {
            let i = to_new[(e & INDEX) as usize];
            (i != NONE && !dirty[i as usize]).then_some(i | (e & !INDEX))
        });
        let mut new = add[add_start[k] as usize..add_start[k + 1] as usize].iter().copied().peekable();
        for e in kept {
            while let Some(&x) = new.peek().filter(|&&x| x & INDEX < e & INDEX) {
                out.push(x);
                new.next();
            }
            out.push(e);
        }
        out.extend(new);
        start.push(out.len() as u32);
    }
    (start, out)
}
