// What both engines' kernels share: the bindings but the states (whose type is the engine's),
// the chunk's shape, the level's window, and the two output kernels, which read an engine's
// final states through its `slot_mask`. The host prepends this file to each engine's.

struct Shape {
    // Nodes of the graph.
    nodes: u32,
    // Lanes of 32 targets in this chunk (the output kernels' y dimension).
    lanes: u32,
    // Targets in this chunk.
    targets: u32,
    // Dense tables: the chunk's first table lane (of 64 columns), a multiple of 4.
    first_lane: u32,
    // Dense tables: table lanes in all (`⌈n / 64⌉`).
    table_lanes: u32,
    // Dense tables: `Σ width(v)`, words of 64 bits per table lane. Masks: moves kept per node.
    lane_words: u32,
    // Node blocks of 256 per row of workgroups (the x dimension of an output dispatch).
    blocks_x: u32,
    // The octile engine: `frac(√2)` in 29 bits, in bits 1 to 29.
    sqrt2: u32,
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
// CSR out-arcs: `heads[offsets[v]..offsets[v + 1]]`, in table slot order (the octile engine
// marks √2 arcs by bit 31).
@group(0) @binding(2) var<storage, read> offsets: array<u32>;
@group(0) @binding(3) var<storage, read> heads: array<u32>;
// Per node: bit 31 set when the search must not enter it (a peeled tree); bits 0-30 the
// node's chunk offset in a table lane (dense tables). Then log2 of its entry width.
@group(0) @binding(4) var<storage, read> node_info: array<vec2<u32>>;
// Bindings 5 and 6: the states of level `L - 1` (`state_in`) and `L` (`state_out`).
// Word 0: the last level that reached a node (0 before the first); then the chunk's targets.
@group(0) @binding(7) var<storage, read_write> control: array<atomic<u32>>;
@group(0) @binding(8) var<storage, read_write> out: array<u32>;
// The chunk's nodes by their least distance from its targets (see `gpu/window.rs`).
@group(0) @binding(9) var<storage, read> perm: array<u32>;

const SKIP: u32 = 0x80000000u;

var<workgroup> gained: atomic<u32>;
var<workgroup> last_gain: u32;

// The node an output invocation serves: workgroups of 256 nodes, `blocks_x` of them a row,
// lanes along y (a dispatch has at most 65,535 workgroups a dimension).
fn node_of(wg: vec3<u32>, local: u32) -> u32 {
    return (wg.z * shape.blocks_x + wg.x) * 256u + local;
}

// The node a level invocation serves from the level's window, or `0xffffffff` past its end.
fn window_node(wg: vec3<u32>, local: u32) -> u32 {
    let i = (wg.z * step.blocks_x + wg.x) * 256u + local;
    if i < step.count {
        return perm[step.first + i];
    }
    return 0xffffffffu;
}

// Whether the search was over before this level: `quiet` levels in a row reached nothing.
// Read once a workgroup, so that the whole workgroup returns or none of it does.
fn search_over(local: u32, quiet: u32) -> bool {
    if local == 0u {
        last_gain = atomicLoad(&control[0]);
    }
    return workgroupUniformLoad(&last_gain) + quiet < step.level;
}

// Records that this workgroup reached a node: one atomic on the device a workgroup.
fn record_gains(local: u32) {
    workgroupBarrier();
    if local == 0u && atomicLoad(&gained) != 0u {
        atomicMax(&control[0], step.level);
    }
}

// Per move: `out[(v * lane_words + s) * lanes + lane]`, the targets of the lane toward which
// the move is optimal.
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
    let first = offsets[v];
    for (var s = 0u; s < offsets[v + 1u] - first; s += 1u) {
        out[(v * shape.lane_words + s) * shape.lanes + lane] = slot_mask(v, lane, first + s);
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

    let first = offsets[v];
    let deg = offsets[v + 1u] - first;
    if bits <= 32u {
        // `32 / bits` entries a word; entry `e`'s slot `s` is bit `(e % per) * bits + s`.
        var masks: array<u32, 32>;
        for (var s = 0u; s < deg; s += 1u) {
            masks[s] = slot_mask(v, lane, first + s);
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
                word |= ((slot_mask(v, lane, first + s) >> e) & 1u) << (s - lo);
            }
            out[at + k] = word;
        }
    }
}
