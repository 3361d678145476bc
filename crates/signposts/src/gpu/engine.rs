//! The GPU engines' host side: the unit-cost BFS of `unit.wgsl` and the octile search of
//! `octile.wgsl`, which share their buffers, bindings, output kernels (`common.wgsl`) and
//! driving loop.
//!
//! A build's core targets are searched in chunks of lanes of 32 targets. For each chunk the
//! host writes the targets, clears the two state buffers, and queues the levels in groups
//! (64, doubling to 1,024), reading between groups the last level that reached a node; once
//! a group ends past it the search is over (the levels queued after the end return at once).
//! One more dispatch writes the chunk's output (the dense table's words, or each move's
//! bitmap), copied to one of two mappable buffers. A consumer thread reads each chunk's
//! output while the device searches the next one.

use core::num::NonZeroU64;
use core::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::borrow::Cow;
use std::sync::mpsc;

use super::GpuContext;
use super::window::Window;
use crate::dense::table::{BLOCK, Layout, NodeRow};
use crate::{Error, NodeId, Progress};

/// Nodes a workgroup.
const WORKGROUP: u32 = 256;
/// A dispatch's largest workgroup count in one dimension.
const MAX_GROUPS: u32 = 65_535;
/// Levels queued in the first group of a chunk, and in the largest.
const FIRST_GROUP: u32 = 64;
const LAST_GROUP: u32 = 1024;
/// Device bytes a build takes when its context sets no limit.
const DEFAULT_BUDGET: u64 = 1 << 30;
/// Bit 31 of a node's first info word: the search does not enter it.
const SKIP: u32 = 1 << 31;
/// Bit 31 of an arc's head in the octile engine: a √2 arc.
const DIAGONAL: u32 = 1 << 31;

/// The compiled kernels and their one bind group layout.
pub(crate) struct Kernels {
    layout: wgpu::BindGroupLayout,
    init: wgpu::ComputePipeline,
    level: wgpu::ComputePipeline,
    masks_out: wgpu::ComputePipeline,
    dense_out: wgpu::ComputePipeline,
}

impl Kernels {
    /// The kernels of `kind`'s engine: each engine's module has the same four entry points
    /// over the same bindings.
    fn new(device: &wgpu::Device, kind: Kind) -> Kernels {
        let source = match kind {
            Kind::Unit => concat!(include_str!("common.wgsl"), include_str!("unit.wgsl")),
            Kind::Octile => concat!(include_str!("common.wgsl"), include_str!("octile.wgsl")),
        };
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(kind.label()),
            source: wgpu::ShaderSource::Wgsl(Cow::Borrowed(source)),
        });
        let entry = |binding: u32, ty: wgpu::BufferBindingType, dynamic: bool| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer { ty, has_dynamic_offset: dynamic, min_binding_size: None },
            count: None,
        };
        let read = wgpu::BufferBindingType::Storage { read_only: true };
        let write = wgpu::BufferBindingType::Storage { read_only: false };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some(kind.label()),
            entries: &[
                entry(0, wgpu::BufferBindingType::Uniform, false),
                entry(1, wgpu::BufferBindingType::Uniform, true),
                entry(2, read, false),
                entry(3, read, false),
                entry(4, read, false),
                entry(5, read, false),
                entry(6, write, false),
                entry(7, write, false),
                entry(8, write, false),
                entry(9, read, false),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(kind.label()),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = |name: &str| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(name),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some(name),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                cache: None,
            })
        };
        Kernels {
            init: pipeline("init"),
            level: pipeline("level"),
            masks_out: pipeline("masks_out"),
            dense_out: pipeline("dense_out"),
            layout,
        }
    }
}

/// Which engine a build runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Every arc costs 1: the bit-parallel BFS, a lane of 32 targets an invocation.
    Unit,
    /// Arcs cost 1 or √2 (octile grids): one target an invocation.
    Octile,
}

impl Kind {
    fn label(self) -> &'static str {
        match self {
            Kind::Unit => "signposts unit",
            Kind::Octile => "signposts octile",
        }
    }

    /// Device bytes of one node's state toward a lane of 32 targets.
    fn state_bytes(self) -> u64 {
        match self {
            Kind::Unit => 8,
            Kind::Octile => 4 * 32,
        }
    }

    /// Bytes of its own node's state one invocation of a level reads and writes: two planes
    /// toward a lane of 32 targets (unit), one cost toward one target (octile).
    fn invocation_bytes(self) -> u64 {
        match self {
            Kind::Unit => 2 * 8,
            Kind::Octile => 2 * 4,
        }
    }

    /// Levels that reach nothing before a search is over: costs of band `L` come from bands
    /// `L - 1` and, behind a √2 arc, `L - 2`.
    pub(super) fn quiet_levels(self) -> u32 {
        match self {
            Kind::Unit => 1,
            Kind::Octile => 2,
        }
    }
}

/// The graph as the kernels read it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DeviceGraph<'a> {
    /// Out-arcs of `v`: `heads[offsets[v]..offsets[v + 1]]`, in table slot order.
    pub offsets: &'a [u32],
    pub heads: &'a [NodeId],
    /// The arcs' stored costs under the octile model (1 straight, 2 diagonal), or empty when
    /// every arc costs 1.
    pub costs: &'a [u32],
    /// Nodes the searches do not enter (peeled trees), a flag per node, or empty.
    pub skip: &'a [bool],
}

impl DeviceGraph<'_> {
    fn kind(&self) -> Kind {
        if self.costs.is_empty() { Kind::Unit } else { Kind::Octile }
    }
}

/// What a chunk writes out.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Output<'a> {
    /// The dense table's words of the chunk's blocks of columns, laid out by `layout`.
    Dense { rows: &'a [NodeRow], layout: Layout },
    /// Per node, `moves` bitmaps of the chunk's columns (one per out-arc, the rest unused).
    Masks { moves: usize },
}

/// How a build's targets are cut into chunks, and what the device holds.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Plan {
    /// Columns a chunk (a multiple of 256 for dense tables, of 64 for masks).
    pub columns: usize,
    /// Chunks in all.
    pub chunks: usize,
    /// Bytes on the device.
    pub device_bytes: u64,
}

/// The bytes of one chunk of `lanes` lanes of 32 targets: each state buffer, the output.
fn chunk_buffers(kind: Kind, n: u64, lanes: u64, output: Output<'_>) -> (u64, u64) {
    let state = n * lanes * kind.state_bytes();
    let out = match output {
        // Two lanes of 32 a table lane of 64 columns, `Σ width` words of 8 bytes each.
        Output::Dense { layout, .. } => lanes / 2 * layout.lane_words * 8,
        Output::Masks { moves } => n * moves as u64 * lanes * 4,
    };
    (state, out)
}

/// Chooses the chunk size: as many targets as fit the device's limits and the budget.
///
/// # Errors
/// [`Error::GpuMemory`] when even the smallest chunk does not fit; [`Error::Unsupported`]
/// for a dense table whose row offsets pass 31 bits.
pub(crate) fn plan(
    gpu: &GpuContext,
    g: DeviceGraph<'_>,
    targets: usize,
    output: Output<'_>,
) -> Result<Plan, Error> {
    let kind = g.kind();
    let n = g.offsets.len() as u64 - 1;
    if kind == Kind::Octile && n >= u64::from(DIAGONAL) {
        return Err(Error::Unsupported { what: "GPU builds of octile graphs of 2^31 nodes or more" });
    }
    // A dispatch's y dimension is a lane of 32 targets (unit), or one target (octile).
    let most_lanes = match kind {
        Kind::Unit => u64::from(MAX_GROUPS),
        Kind::Octile => u64::from(MAX_GROUPS) / 32,
    };
    // The graph's buffers: offsets, heads, node information, the window's order.
    let graph = [4 * (n + 1), 4 * g.heads.len() as u64, 8 * n, 4 * n];
    if let Some(&largest) = graph.iter().find(|&&b| b > gpu.binding_limit()) {
        return Err(Error::GpuMemory { needed: largest, limit: Some(gpu.binding_limit()) });
    }
    let fixed = graph.iter().sum::<u64>() + 256 * (1 + u64::from(LAST_GROUP));
    // Lanes of 32 targets a step of chunk size: a block of 256 columns for dense tables (its
    // words are contiguous in the table), 64 columns (one word a move) for masks.
    let step = match output {
        Output::Dense { layout, .. } => {
            if layout.lane_words >= u64::from(SKIP) {
                return Err(Error::Unsupported { what: "GPU builds of dense tables over 2^31 words a lane" });
            }
            if kind == Kind::Octile && layout.lane_words > 32 * n {
                return Err(Error::Unsupported {
                    what: "GPU builds of octile tables with entries wider than 32 bits (reserve_degree)",
                });
            }
            (BLOCK / 32) as u64
        }
        Output::Masks { .. } => 2,
    };
    // At most the context's chunk of targets: a chunk's searches cost in proportion to its
    // ball's diameter (see `window`), a smaller chunk more dispatches.
    let wanted = targets.min(gpu.chunk_targets()) as u64;
    let needed_lanes = wanted.div_ceil(32).next_multiple_of(step).max(step);
    let budget = gpu.memory_limit().unwrap_or(DEFAULT_BUDGET);
    let fits = |lanes: u64| {
        let (state, out) = chunk_buffers(kind, n, lanes, output);
        let control = 4 * (1 + lanes * 32);
        let total = fixed + 2 * state + 3 * out + control;
        let each = state.max(out).max(control);
        (each <= gpu.binding_limit() && out <= gpu.buffer_limit(), total)
    };
    let (smallest_fits, smallest_total) = fits(step);
    if !smallest_fits || smallest_total > budget {
        let (state, out) = chunk_buffers(kind, n, step, output);
        return Err(Error::GpuMemory {
            needed: if smallest_fits { smallest_total } else { state.max(out) },
            limit: Some(if smallest_fits { budget } else { gpu.binding_limit() }),
        });
    }
    // The largest multiple of `step` that fits, by bisection over multiples.
    let (mut lo, mut hi) = (1u64, needed_lanes / step);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        let (ok, total) = fits(mid * step);
        if ok && total <= budget && mid * step <= most_lanes {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let lanes = lo * step;
    let (state, out) = chunk_buffers(kind, n, lanes, output);
    let columns = (lanes * 32) as usize;
    Ok(Plan {
        columns,
        chunks: targets.div_ceil(columns),
        device_bytes: fixed + 2 * state + 3 * out + 4 * (1 + lanes * 32),
    })
}

/// One chunk's output, mapped: handed to the consumer, which drops it to give the buffer back.
pub(crate) struct Chunk<'a> {
    /// The chunk's first column.
    pub first: usize,
    /// Columns with a target in this chunk.
    pub columns: usize,
    /// The lanes of 32 targets the kernels ran (the output's shape).
    pub lanes: usize,
    pub bytes: &'a [u8],
}

/// Fills the dense table's columns of `targets` (its first columns) into `words`, laid out by
/// `layout` over `rows`, reporting each chunk as a step of `extra` more (the caller's).
/// Returns the steps in all, for the caller to report its own.
///
/// # Errors
/// As [`plan`] and [`run`].
#[expect(clippy::too_many_arguments, reason = "the pieces of one build, passed once")]
pub(crate) fn fill_dense(
    gpu: &GpuContext,
    g: DeviceGraph<'_>,
    rows: &[NodeRow],
    layout: Layout,
    targets: &[NodeId],
    words: &[AtomicU64],
    (progress, done, extra): (&(dyn Fn(Progress) + Sync), &AtomicUsize, usize),
    halt: Option<&AtomicBool>,
) -> Result<usize, Error> {
    let output = Output::Dense { rows, layout };
    let plan = plan(gpu, g, targets.len(), output)?;
    let total = plan.chunks + extra;
    let consume = |chunk: Chunk<'_>| {
        // The chunk's blocks of columns are one stretch of the table's words.
        let start = chunk.first / 64 * layout.lane_words as usize;
        for (word, value) in words[start..].iter().zip(self::words(chunk.bytes)) {
            word.store(value, Ordering::Relaxed);
        }
        progress(Progress { done: done.fetch_add(1, Ordering::Relaxed) + 1, total });
    };
    run(gpu, g, targets, output, plan, consume, halt)?;
    Ok(total)
}

/// Little-endian words of 64 bits from the device's bytes.
pub(crate) fn words(bytes: &[u8]) -> impl Iterator<Item = u64> + '_ {
    bytes.chunks_exact(8).map(|b| u64::from_le_bytes(b.try_into().expect("eight bytes")))
}

/// Searches `targets` (column `c` holds `targets[c]`) in the chunks of `plan`, calling
/// `consume` with each chunk's output, in column order, on a thread of its own while the
/// device searches the next chunk. No chunk starts once `halt` is set.
///
/// # Errors
/// [`Error::GpuMemory`] when the device refuses a buffer; [`Error::Gpu`] when it reports
/// another error (a lost device, a driver's validation error).
pub(crate) fn run(
    gpu: &GpuContext,
    g: DeviceGraph<'_>,
    targets: &[NodeId],
    output: Output<'_>,
    plan: Plan,
    consume: impl FnMut(Chunk<'_>) + Send,
    halt: Option<&AtomicBool>,
) -> Result<(), Error> {
    let engine = Engine::new(gpu, g, output, plan)?;
    let (n, kind) = (engine.n, engine.kind);
    // The consumer reads the mapped copies on its own thread; `free` hands each copy back.
    let (full_tx, full_rx) = mpsc::sync_channel::<(usize, usize, usize, usize)>(1);
    let (free_tx, free_rx) = mpsc::sync_channel::<usize>(2);
    free_tx.send(0).expect("open");
    free_tx.send(1).expect("open");
    std::thread::scope(|scope| {
        let (staging, counted) = (&engine.staging, &gpu.counted);
        let consumer = scope.spawn(move || {
            let mut consume = consume;
            for (copy, first, columns, lanes) in full_rx {
                {
                    let view = staging[copy].slice(..).get_mapped_range();
                    let used = chunk_buffers(kind, n as u64, lanes as u64, output).1 as usize;
                    let start = std::time::Instant::now();
                    consume(Chunk { first, columns, lanes, bytes: &view[..used] });
                    let nanos = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
                    counted.host(nanos);
                }
                staging[copy].unmap();
                if free_tx.send(copy).is_err() {
                    break;
                }
            }
        });
        let result = (|| {
            for chunk in 0..plan.chunks {
                if crate::build::stopped(halt) {
                    break;
                }
                let first = chunk * plan.columns;
                let these = &targets[first..targets.len().min(first + plan.columns)];
                let lanes = match output {
                    // Every table lane of the chunk's blocks, the last block's up to the table's end.
                    Output::Dense { layout, .. } => {
                        let first_lane = first / 64;
                        2 * ((first_lane + plan.columns / 64).min(layout.lanes as usize) - first_lane)
                    }
                    Output::Masks { .. } => 2 * these.len().div_ceil(64),
                };
                let copy = free_rx.recv().map_err(|_| consumer_gone())?;
                let ((last, invocations), used) =
                    scoped(gpu.device(), plan.device_bytes, "searching", || {
                        let searched = engine.search(first, these, lanes)?;
                        Ok((searched, engine.write_out(lanes, copy)?))
                    })?;
                // Levels 1 to `last + quiet` ran; those after returned at once.
                let ran = u64::from(last + kind.quiet_levels());
                gpu.counted.chunk(ran, invocations * kind.invocation_bytes(), used);
                full_tx.send((copy, first, these.len(), lanes)).map_err(|_| consumer_gone())?;
            }
            Ok(())
        })();
        drop(full_tx);
        if let Err(panic) = consumer.join() {
            // The caller's progress callback (or fold) panicked: as on the CPU, so does the build.
            std::panic::resume_unwind(panic);
        }
        result
    })
}

/// A build's buffers and bind groups on the device.
struct Engine<'a> {
    gpu: &'a GpuContext,
    kernels: &'a Kernels,
    kind: Kind,
    output: Output<'a>,
    n: usize,
    shape: wgpu::Buffer,
    levels: wgpu::Buffer,
    control: wgpu::Buffer,
    out: wgpu::Buffer,
    flag: wgpu::Buffer,
    /// The chunk's window order (see [`Window`]).
    perm: wgpu::Buffer,
    /// Two mappable copies of the output: the consumer reads one while the next is written.
    staging: [wgpu::Buffer; 2],
    /// Bind group `a` reads the first state buffer and writes the second; `b` the other way.
    a: wgpu::BindGroup,
    b: wgpu::BindGroup,
    states: [wgpu::Buffer; 2],
    /// Bytes between the levels' uniforms (the device's dynamic offset alignment).
    stride: u64,
    /// A dispatch over the nodes: workgroups a row, rows.
    blocks_x: u32,
    rows_z: u32,
    /// The graph, for each chunk's window.
    graph: DeviceGraph<'a>,
}

impl<'a> Engine<'a> {
    /// Allocates the buffers of `plan`'s chunks and uploads the graph.
    fn new(
        gpu: &'a GpuContext,
        g: DeviceGraph<'a>,
        output: Output<'a>,
        plan: Plan,
    ) -> Result<Engine<'a>, Error> {
        let device = gpu.device();
        let kind = g.kind();
        let kernels = scoped(device, 0, "compiling the kernels", || {
            Ok(gpu.kernels[kind as usize].get_or_init(|| Kernels::new(device, kind)))
        })?;
        gpu.take_error()?;

        scoped(device, plan.device_bytes, "the device refused the build's buffers", || {
            Ok(Engine::allocate(gpu, kernels, g, output, plan))
        })
    }

    /// [`Engine::new`]'s buffers and bind groups, and the graph uploaded.
    fn allocate(
        gpu: &'a GpuContext,
        kernels: &'a Kernels,
        g: DeviceGraph<'a>,
        output: Output<'a>,
        plan: Plan,
    ) -> Engine<'a> {
        let (device, kind, n) = (gpu.device(), g.kind(), g.offsets.len() - 1);
        let (state_bytes, out_bytes) = chunk_buffers(kind, n as u64, (plan.columns / 32) as u64, output);
        let buffer = |label: &str, size: u64, usage: wgpu::BufferUsages| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: size.max(4).next_multiple_of(4),
                usage,
                mapped_at_creation: false,
            })
        };
        let copy_in = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST;
        let offsets = buffer("offsets", 4 * g.offsets.len() as u64, copy_in);
        let heads = buffer("heads", 4 * g.heads.len() as u64, copy_in);
        let info = buffer("node info", 8 * n as u64, copy_in);
        let perm = buffer("window", 4 * n as u64, copy_in);
        let states = [buffer("states a", state_bytes, copy_in), buffer("states b", state_bytes, copy_in)];
        let control =
            buffer("control", 4 * (1 + plan.columns as u64), copy_in | wgpu::BufferUsages::COPY_SRC);
        let out = buffer("out", out_bytes, wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC);
        let mappable = wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST;
        let staging = [buffer("out copy a", out_bytes, mappable), buffer("out copy b", out_bytes, mappable)];
        let flag = buffer("level read", 4, mappable);
        let uniform = wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST;
        let shape = buffer("shape", 32, uniform);
        let stride = u64::from(device.limits().min_uniform_buffer_offset_alignment).max(16);
        let levels = buffer("levels", stride * u64::from(LAST_GROUP), uniform);
        let queue = gpu.queue();
        queue.write_buffer(&offsets, 0, &le_bytes(g.offsets.iter().copied()));
        if kind == Kind::Octile {
            let marked = g.heads.iter().zip(g.costs).map(|(&w, &c)| if c == 2 { w | DIAGONAL } else { w });
            queue.write_buffer(&heads, 0, &le_bytes(marked));
        } else {
            queue.write_buffer(&heads, 0, &le_bytes(g.heads.iter().copied()));
        }
        let node_info = (0..n).flat_map(|v| {
            let skip = if crate::build::flagged(g.skip, v) { SKIP } else { 0 };
            let (offset, log2) = match output {
                Output::Dense { rows, .. } => {
                    (rows[v].offset() as u32, rows[v].width_bits().trailing_zeros())
                }
                Output::Masks { .. } => (0, 0),
            };
            [skip | offset, log2]
        });
        queue.write_buffer(&info, 0, &le_bytes(node_info));

        let group = |from: &wgpu::Buffer, to: &wgpu::Buffer| {
            let bound = [&shape, &levels, &offsets, &heads, &info, from, to, &control, &out, &perm];
            bind_group(device, &kernels.layout, kind.label(), bound)
        };
        let (a, b) = (group(&states[0], &states[1]), group(&states[1], &states[0]));
        let node_groups = (n as u32).div_ceil(WORKGROUP).max(1);
        let blocks_x = node_groups.min(MAX_GROUPS);
        Engine {
            gpu,
            kernels,
            kind,
            output,
            n,
            shape,
            levels,
            control,
            out,
            flag,
            perm,
            staging,
            a,
            b,
            states,
            stride,
            blocks_x,
            rows_z: node_groups.div_ceil(blocks_x),
            graph: g,
        }
    }

    /// Searches one chunk: the targets `these` from column `first`, in `lanes` lanes of 32.
    /// Returns the last level that reached a node, and the node invocations of the levels
    /// that ran (one a lane of 32 targets, or a target).
    fn search(&self, first: usize, these: &[NodeId], lanes: usize) -> Result<(u32, u64), Error> {
        let (device, queue) = (self.gpu.device(), self.gpu.queue());
        let (table_lanes, lane_words) = match self.output {
            Output::Dense { layout, .. } => (layout.lanes as u32, layout.lane_words as u32),
            Output::Masks { moves } => (0, moves as u32),
        };
        let shape = [
            self.n as u32,
            lanes as u32,
            these.len() as u32,
            (first / 64) as u32,
            table_lanes,
            lane_words,
            self.blocks_x,
            crate::build::levels::SQRT_2_FRAC,
        ];
        queue.write_buffer(&self.shape, 0, &le_bytes(shape.into_iter()));
        queue.write_buffer(&self.control, 0, &le_bytes(core::iter::once(0).chain(these.iter().copied())));
        let window = Window::new(self.graph, these, self.kind.quiet_levels());
        queue.write_buffer(&self.perm, 0, &le_bytes(window.perm.iter().copied()));
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        encoder.clear_buffer(&self.states[0], 0, None);
        encoder.clear_buffer(&self.states[1], 0, None);
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            pass.set_pipeline(&self.kernels.init);
            // `b` writes the first buffer, which level 1 reads.
            pass.set_bind_group(0, &self.b, &[0]);
            pass.dispatch_workgroups((these.len() as u32).div_ceil(WORKGROUP).max(1), 1, 1);
        }
        let searches = match self.kind {
            Kind::Unit => lanes as u32,
            Kind::Octile => these.len() as u32,
        };
        let (mut level, mut size) = (1u32, FIRST_GROUP);
        loop {
            // Each level's number and window, and its dispatch: a workgroup per 256 nodes of
            // the window.
            let mut stamps = vec![0u8; (self.stride * u64::from(size)) as usize];
            let mut dispatches = Vec::with_capacity(size as usize);
            for i in 0..size {
                let nodes = window.level(level + i);
                let groups = (nodes.end - nodes.start).div_ceil(WORKGROUP);
                let x = groups.clamp(1, MAX_GROUPS);
                let stamp = [level + i, nodes.start, nodes.end - nodes.start, x];
                let at = (self.stride * u64::from(i)) as usize;
                stamps[at..at + 16].copy_from_slice(&le_bytes(stamp.into_iter()));
                dispatches.push((x, groups.div_ceil(x)));
            }
            queue.write_buffer(&self.levels, 0, &stamps);
            {
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
                pass.set_pipeline(&self.kernels.level);
                for (i, &(x, z)) in (0..size).zip(&dispatches) {
                    if z == 0 {
                        continue; // an empty window: nothing can change at this level
                    }
                    let group = if (level + i) % 2 == 1 { &self.a } else { &self.b };
                    pass.set_bind_group(0, group, &[(self.stride * u64::from(i)) as u32]);
                    pass.dispatch_workgroups(x, searches.max(1), z);
                }
            }
            encoder.copy_buffer_to_buffer(&self.control, 0, &self.flag, 0, 4);
            queue.submit([encoder.finish()]);
            let last = read_word(device, &self.flag)?;
            level += size;
            if self.kind == Kind::Octile && last >= crate::build::levels::LEVEL_LIMIT {
                // Past it, the stand-in for √2 could order two paths wrongly.
                return Err(Error::Unsupported {
                    what: "GPU builds of octile maps with paths longer than 19,000 steps (build them on the CPU)",
                });
            }
            // Past the window's last level no node can change, whatever the flag says.
            if last + self.kind.quiet_levels() < level || level > window.last_level() {
                self.gpu.take_error()?;
                let ran = 1..=last + self.kind.quiet_levels();
                let invocations = ran.map(|l| u64::from(window.level(l).len() as u32)).sum::<u64>();
                return Ok((last, invocations * u64::from(searches)));
            }
            size = (size * 2).min(LAST_GROUP);
            encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        }
    }

    /// Writes the searched chunk's output and maps it in staging buffer `copy`; returns its
    /// bytes.
    fn write_out(&self, lanes: usize, copy: usize) -> Result<u64, Error> {
        let device = self.gpu.device();
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            pass.set_pipeline(match self.output {
                Output::Dense { .. } => &self.kernels.dense_out,
                Output::Masks { .. } => &self.kernels.masks_out,
            });
            // Both state buffers hold the final states (see `level` in unit.wgsl).
            pass.set_bind_group(0, &self.a, &[0]);
            pass.dispatch_workgroups(self.blocks_x, lanes as u32, self.rows_z);
        }
        let used = chunk_buffers(self.kind, self.n as u64, lanes as u64, self.output).1;
        encoder.copy_buffer_to_buffer(&self.out, 0, &self.staging[copy], 0, used.max(4).next_multiple_of(4));
        self.gpu.queue().submit([encoder.finish()]);
        map(device, &self.staging[copy])?;
        self.gpu.take_error()?;
        Ok(used)
    }
}

/// Runs `f` with the device's errors on this thread caught (the error scopes of wgpu): a
/// refused allocation is [`Error::GpuMemory`] naming `needed`, any other error
/// [`Error::Gpu`] saying `what` failed. A shared device's other errors are left to its owner.
fn scoped<T>(
    device: &wgpu::Device,
    needed: u64,
    what: &str,
    f: impl FnOnce() -> Result<T, Error>,
) -> Result<T, Error> {
    let oom = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
    let internal = device.push_error_scope(wgpu::ErrorFilter::Internal);
    let invalid = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let result = f();
    let invalid = pollster::block_on(invalid.pop());
    let internal = pollster::block_on(internal.pop());
    if pollster::block_on(oom.pop()).is_some() {
        return Err(Error::GpuMemory { needed, limit: None });
    }
    if let Some(e) = invalid.or(internal) {
        return Err(Error::Gpu { message: format!("{what}: {e}") });
    }
    result
}

fn consumer_gone() -> Error {
    Error::Gpu { message: "the thread reading the GPU's output stopped".into() }
}

/// Waits for the device and maps `buffer` for reading.
fn map(device: &wgpu::Device, buffer: &wgpu::Buffer) -> Result<(), Error> {
    let (tx, rx) = mpsc::channel();
    buffer.slice(..).map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| Error::Gpu { message: format!("waiting for the device: {e}") })?;
    rx.recv()
        .map_err(|_| Error::Gpu { message: "the device dropped a read".into() })?
        .map_err(|e| Error::Gpu { message: format!("reading the device's output: {e}") })
}

/// The first word of `buffer`, once the device is done.
fn read_word(device: &wgpu::Device, buffer: &wgpu::Buffer) -> Result<u32, Error> {
    map(device, buffer)?;
    let word = {
        let view = buffer.slice(..).get_mapped_range();
        u32::from_le_bytes(view[..4].try_into().expect("four bytes"))
    };
    buffer.unmap();
    Ok(word)
}

/// The bind group of `buffers`, bound in order; the levels' uniform (binding 1) one entry
/// wide, at a dynamic offset.
fn bind_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    label: &str,
    buffers: [&wgpu::Buffer; 10],
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry<'_>> = buffers
        .into_iter()
        .enumerate()
        .map(|(i, b)| wgpu::BindGroupEntry {
            binding: i as u32,
            resource: binding(b, (i == 1).then_some(16)),
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some(label), layout, entries: &entries })
}

/// A whole buffer (or its first `size` bytes) as a binding.
fn binding(buffer: &wgpu::Buffer, size: Option<u64>) -> wgpu::BindingResource<'_> {
    wgpu::BindingResource::Buffer(wgpu::BufferBinding {
        buffer,
        offset: 0,
        size: size.and_then(NonZeroU64::new),
    })
}

/// Words as the device reads them.
fn le_bytes(words: impl Iterator<Item = u32>) -> Vec<u8> {
    let mut bytes: Vec<u8> = words.flat_map(u32::to_le_bytes).collect();
    if bytes.is_empty() {
        bytes.resize(4, 0);
    }
    bytes
}
