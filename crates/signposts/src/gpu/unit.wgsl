// The batched bit-parallel BFS of `build::bfs`, as compute kernels (after `common.wgsl`): one
// invocation per node and lane of 32 targets (one `u32`, WGSL has no 64-bit integers), one
// dispatch per level.
//
// A node's state toward a lane's targets is two bit planes, a 2-bit code per target: `00` not
// reached, `01` / `10` / `11` reached at a distance ≡ 0 / 1 / 2 (mod 3). Level `L` reads the
// states of level `L - 1` from one buffer and writes those of `L` to the other (ping-pong): a
// node's two planes are two words, so a neighbour read while they are written could see one
// new word and one old, which in place could match the code of `L - 1`.
//
// After the search, slot `s` of node `v` (neighbour `w`) is optimal toward target `t` exactly
// when `d(w, t) ≡ d(v, t) - 1 (mod 3)` and both are reached.

// States `[lane * nodes + v]`: (high plane, low plane). `state_in` is level `L - 1`.
@group(0) @binding(5) var<storage, read> state_in: array<vec2<u32>>;
@group(0) @binding(6) var<storage, read_write> state_out: array<vec2<u32>>;

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

// Level `step.level`: every node of the level's window (never a peeled one) gains the targets
// that reached a neighbour at the level before and had not reached it. A level after the
// search's end returns at once; the level after its last gain copies every state of the
// window, so both buffers hold the final states.
@compute @workgroup_size(256)
fn level(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    if search_over(local, 1u) {
        return;
    }
    let v = window_node(wg, local);
    let lane = wg.y;
    if v != 0xffffffffu {
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
    record_gains(local);
}

// Targets of lane `lane` toward which arc `a` of `v` is optimal: both reached, and
// `d(w) ≡ d(v) - 1 (mod 3)`.
fn slot_mask(v: u32, lane: u32, a: u32) -> u32 {
    let base = lane * shape.nodes;
    let own = state_in[base + v];
    let w = state_in[base + heads[a]];
    let a1 = own.x & ~own.y;
    let a2 = own.x & own.y;
    let b1 = w.x & ~w.y;
    let b2 = w.x & w.y;
    let both = (own.x | own.y) & (w.x | w.y);
    return both & ((~b1 & ~b2 & a1) | (b1 & a2) | (b2 & ~a1 & ~a2));
}
