// The octile engine of `build::levels`, as compute kernels: graphs whose arcs cost 1 or √2
// (8-connected grids), one invocation per node and target, one dispatch per level.
//
// A node's cost toward a target is one `u32`: the level `L` (the integer part of the cost)
// modulo 4 in the top two bits, the fraction in 29 fixed-point bits, all ones for "not
// reached". Adding a unit arc adds `2^30`, a √2 arc `2^30` plus `frac(√2)` in 29 bits: the
// carry moves into the level by itself. Every sum is exact for the rational stand-in of √2,
// and orders and ties paths as √2 does below level 19,000 (see `build::levels`; the host
// stops a search that gets there). The buffers hold the complement of the cost, so that a
// cleared buffer is "not reached".
//
// Costs in band `L` come from bands `L - 1` (a unit arc, or a √2 arc without carry) and
// `L - 2` (a √2 arc with carry): level `L` gives every node not yet reached the least sum,
// over its arcs, that lands in band `L`. A search is over after two levels that reached
// nothing. Level `L` reads the costs of `L - 1` from one buffer and writes those of `L` to
// the other (ping-pong, as the unit engine does).
//
// Slot `s` of node `v` (neighbour `w`) is optimal toward a target when both are reached and
// `cost(w) + arc(s) = cost(v)` (levels modulo 4 agree only when equal: neighbours' costs
// differ by at most √2).

// Complemented costs `[target * nodes + v]`; `state_in` is level `L - 1`.
@group(0) @binding(5) var<storage, read> state_in: array<u32>;
@group(0) @binding(6) var<storage, read_write> state_out: array<u32>;

const DIAGONAL: u32 = 0x80000000u;
const UNREACHED: u32 = 0xffffffffu;
const LEVEL: u32 = 0x40000000u;
const IN_BAND: u32 = 0x3fffffffu;

fn arc_cost(head: u32) -> u32 {
    return select(LEVEL, LEVEL + shape.sqrt2, (head & DIAGONAL) != 0u);
}

// Level 0: target `j` costs 0 toward itself (stored complemented).
@compute @workgroup_size(256)
fn init(@builtin(global_invocation_id) gid: vec3<u32>) {
    let j = gid.x;
    if j < shape.targets {
        let t = atomicLoad(&control[1u + j]);
        state_out[j * shape.nodes + t] = ~0u;
    }
}

// Level `step.level` toward target `wg.y`. As in the unit engine, a level after the search's
// end returns at once, and the two levels after its last gain copy every cost, so both buffers
// hold the final costs.
@compute @workgroup_size(256)
fn level(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    if search_over(local, 2u) {
        return;
    }
    let v = window_node(wg, local);
    if v != 0xffffffffu {
        let base = wg.y * shape.nodes;
        var own = ~state_in[base + v];
        if own == UNREACHED {
            let band = step.level << 30u;
            var best = UNREACHED;
            for (var a = offsets[v]; a < offsets[v + 1u]; a += 1u) {
                let head = heads[a];
                let w = ~state_in[base + (head & ~DIAGONAL)];
                // An unreached neighbour behind a unit arc never lands in band; behind a √2
                // arc it can, so it is left out.
                let rel = w + arc_cost(head) - band;
                if w != UNREACHED && rel < IN_BAND {
                    best = min(best, rel);
                }
            }
            if best != UNREACHED {
                own = best + band;
                atomicOr(&gained, 1u);
            }
        }
        state_out[base + v] = ~own;
    }
    record_gains(local);
}

// Targets of lane `lane` (32 of them) toward which arc `a` of `v` is optimal.
fn slot_mask(v: u32, lane: u32, a: u32) -> u32 {
    let head = heads[a];
    let w = head & ~DIAGONAL;
    let arc = arc_cost(head);
    var mask = 0u;
    for (var j = 0u; j < 32u; j += 1u) {
        let base = (lane * 32u + j) * shape.nodes;
        let own = ~state_in[base + v];
        let there = ~state_in[base + w];
        if own != UNREACHED && there != UNREACHED && there + arc == own {
            mask |= 1u << j;
        }
    }
    return mask;
}
