// The batched bit-parallel BFS of `build::bfs`, as compute kernels: one invocation per node and
// lane of 32 targets (one `u32`, WGSL has no 64-bit integers), one dispatch per level.
//
// A node's state toward a lane's targets is two bit planes, a 2-bit code per target: `00` not
// reached, `01` / `10` / `11` reached at a distance ≡ 0 / 1 / 2 (mod 3). Level `L` reads the
// states of level `L - 1` from one buffer and writes those of `L` to the other (ping-pong): a
// node's two planes are two words, so a neighbour read while they are written could see one
// new word and one old, which in place could match the code of `L - 1`.
//
// After the search, slot `s` of node `v` (neighbour `w`) is optimal toward target `t` exactly
// when `d(w, t) ≡ d(v, t) - 1 (mod 3)` and both are reached: the engine's masks, which
// `dense_out` packs into the table's words and `masks_out` writes out per move.

struct Shape {
    // Nodes of the graph.
    nodes: u32,
    // Lanes of 32 targets in this chunk.
    lanes: u32,
    // Targets in this chunk.
    targets: u32,
    // Dense tables: the chunk's first table lane (of 64 columns), a multiple of 4.
    first_lane: u32,
    // Dense tables: table lanes in all (`⌈n / 64⌉`).
    table_lanes: u32,
    // Dense tables: `Σ width(v)`, words of 64 bits per table lane. Masks: moves kept per node.
    lane_words: u32,
    // Node blocks of 256 per row of workgroups (the x dimension of a dispatch).
    blocks_x: u32,
    _pad: u32,
}

struct Level {
    // The level searched: 1, 2, ...
    level: u32,
    // The nodes that can change at this level: `perm[first..first + count]`.
    first: u32,
    count: u32,
    // Workgroups a row of this level's dispatch.
    blocks_x: u32,
}

@group(0) @binding(0) var<uniform> shape: Shape;
@group(0) @binding(1) var<uniform> step: Level;
// CSR out-arcs: `heads[offsets[v]..offsets[v + 1]]`, in table slot order.
@group(0) @binding(2) var<storage, read> offsets: array<u32>;
@group(0) @binding(3) var<storage, read> heads: array<u32>;
// Per node: bit 31 set when the search must not enter it (a peeled tree); bits 0-30 the
// node's chunk offset in a table lane (dense tables). Per node too: log2 of its entry width.
@group(0) @binding(4) var<storage, read> node_info: array<vec2<u32>>;
// States `[lane * nodes + v]`: (high plane, low plane). `state_in` is level `L - 1`.
@group(0) @binding(5) var<storage, read> state_in: array<vec2<u32>>;
@group(0) @binding(6) var<storage, read_write> state_out: array<vec2<u32>>;
// Word 0: the last level that reached a node (0 before the first); then the chunk's targets.
@group(0) @binding(7) var<storage, read_write> control: array<atomic<u32>>;

const SKIP: u32 = 0x80000000u;

// The node an invocation serves: workgroups of 256 nodes, `blocks_x` of them a row, lanes
// along y (a dispatch has at most 65,535 workgroups a dimension).
fn node_of(wg: vec3<u32>, local: u32) -> u32 {
    return (wg.z * shape.blocks_x + wg.x) * 256u + local;
}

// The planes of the code of distances ≡ r (mod 3), as all-zero or all-one words.
fn code(r: u32) -> vec2<u32> {
    switch r % 3u {
        case 0u: { return vec2<u32>(0u, 0xffffffffu); }
        case 1u: { return vec2<u32>(0xffffffffu, 0u); }
        default: { return vec2<u32>(0xffffffffu, 0xffffffffu); }
    }
}

// Level 0: target `j` of the chunk is reached by itself, at distance 0 (code `01`). The
// states were cleared.
@compute @workgroup_size(256)
fn init(@builtin(global_invocation_id) gid: vec3<u32>) {
    let j = gid.x;
    if j < shape.targets {
        let t = atomicLoad(&control[1u + j]);
        let i = (j / 32u) * shape.nodes + t;
        state_out[i] = vec2<u32>(0u, state_out[i].y | (1u << (j % 32u)));
    }
}

var<workgroup> gained: atomic<u32>;
var<workgroup> last_gain: u32;

// Level `step.level`: every node that can change at this level (the host's window, never a
// peeled one) gains the targets that reached a neighbour at the level before and had not
// reached it.
//
// The host queues levels in groups and reads `control[0]` between groups. A level after one
// that gained nothing returns at once: the search is over, and the states of the last level
// that ran (which gained nothing, so copied every state) equal those of the level before, so
// both buffers hold the final states.
@compute @workgroup_size(256)
fn level(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    if local == 0u {
        last_gain = atomicLoad(&control[0]);
    }
    if workgroupUniformLoad(&last_gain) + 1u < step.level {
        return;
    }
    let i = (wg.z * step.blocks_x + wg.x) * 256u + local;
    let lane = wg.y;
    if i < step.count {
        let v = perm[step.first + i];
        let before_code = code(step.level + 2u);
        let flip = ~before_code;
        let now = code(step.level);
        let base = lane * shape.nodes;
        var reach = 0u;
        for (var a = offsets[v]; a < offsets[v + 1u]; a += 1u) {
            let w = state_in[base + heads[a]];
            reach |= (w.x ^ flip.x) & (w.y ^ flip.y);
        }
        let own = state_in[base + v];
        let gain = reach & ~(own.x | own.y);
        state_out[base + v] = vec2<u32>(own.x | (gain & now.x), own.y | (gain & now.y));
        if gain != 0u {
            atomicOr(&gained, 1u);
        }
    }
    workgroupBarrier();
    if local == 0u && atomicLoad(&gained) != 0u {
        atomicMax(&control[0], step.level);
    }
}

// Targets of the lane toward which the move from `own` to the neighbour in state `w` is
// optimal: both reached, and `d(w) ≡ d(v) - 1 (mod 3)`.
fn optimal(own: vec2<u32>, w: vec2<u32>) -> u32 {
    let a1 = own.x & ~own.y;
    let a2 = own.x & own.y;
    let b1 = w.x & ~w.y;
    let b2 = w.x & w.y;
    let both = (own.x | own.y) & (w.x | w.y);
    return both & ((~b1 & ~b2 & a1) | (b1 & a2) | (b2 & ~a1 & ~a2));
}

// The final states written out per move: `out[(v * lane_words + s) * lanes + lane]`.
@group(0) @binding(8) var<storage, read_write> out: array<u32>;
// The chunk's nodes by their least distance from its targets (see `engine::Window`).
@group(0) @binding(9) var<storage, read> perm: array<u32>;

@compute @workgroup_size(256)
fn masks_out(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let v = node_of(wg, local);
    let lane = wg.y;
    if v >= shape.nodes {
        return;
    }
    let base = lane * shape.nodes;
    let own = state_in[base + v];
    let first = offsets[v];
    for (var a = first; a < offsets[v + 1u]; a += 1u) {
        let s = a - first;
        out[(v * shape.lane_words + s) * shape.lanes + lane] = optimal(own, state_in[base + heads[a]]);
    }
}

// The chunk's words of the dense table, laid out as `table::Layout` lays them: blocks of four
// table lanes of 64 columns, node after node inside a block, `width(v)` words of 64 bits per
// node and table lane. Invocation (v, lane) writes the `width(v)` words of 32 bits that hold
// its 32 columns: the low half of the table lane's words for even lanes, the high half for odd.
@compute @workgroup_size(256)
fn dense_out(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let v = node_of(wg, local);
    let lane = wg.y;
    if v >= shape.nodes {
        return;
    }
    let info = node_info[v];
    let bits = 1u << info.y;
    let table_lane = shape.first_lane + lane / 2u;
    let in_block = table_lane % 4u;
    let block_start = table_lane - in_block;
    let block_lanes = min(4u, shape.table_lanes - block_start);
    let word64 = (block_start - shape.first_lane) * shape.lane_words
        + block_lanes * (info.x & ~SKIP) + in_block * bits;
    let at = 2u * word64 + (lane % 2u) * bits;

    let base = lane * shape.nodes;
    let own = state_in[base + v];
    let first = offsets[v];
    let deg = offsets[v + 1u] - first;
    if bits <= 32u {
        // `32 / bits` entries a word; entry `e`'s slot `s` is bit `(e % per) * bits + s`.
        var masks: array<u32, 32>;
        for (var s = 0u; s < deg; s += 1u) {
            masks[s] = optimal(own, state_in[base + heads[first + s]]);
        }
        let per = 32u / bits;
        for (var k = 0u; k < bits; k += 1u) {
            var word = 0u;
            for (var s = 0u; s < deg; s += 1u) {
                let m = masks[s] >> (k * per);
                for (var e = 0u; e < per; e += 1u) {
                    word |= ((m >> e) & 1u) << (e * bits + s);
                }
            }
            out[at + k] = word;
        }
    } else {
        // Entries of `bits / 32` words: word `k` holds slots `32 · (k % per)` and up of entry
        // `k / per`.
        let per = bits / 32u;
        for (var k = 0u; k < bits; k += 1u) {
            let e = k / per;
            let lo = (k % per) * 32u;
            var word = 0u;
            for (var s = lo; s < min(lo + 32u, deg); s += 1u) {
                let m = optimal(own, state_in[base + heads[first + s]]);
                word |= ((m >> e) & 1u) << (s - lo);
            }
            out[at + k] = word;
        }
    }
}
