//! [`GpuContext`]: the device the builds run on, its limits, and its errors as [`Error`]s.

use core::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use crate::Error;

/// Targets a chunk searches at most, unless [`GpuContext::with_chunk_targets`] says otherwise.
const DEFAULT_CHUNK_TARGETS: usize = 2048;

/// A GPU device and queue for table builds, with the limits the builds size their chunks by.
///
/// Made once and reused: the first build compiles the kernels (a few milliseconds on a GPU,
/// longer on a software one) and keeps them. `Send + Sync`; builds on one context from several
/// threads queue on its device.
///
/// ```no_run
/// use signposts::gpu::GpuContext;
/// let gpu = GpuContext::new()?;
/// println!("building on {}", gpu.adapter_name());
/// # Ok::<(), signposts::Error>(())
/// ```
pub struct GpuContext {
    device: wgpu::Device,
    queue: wgpu::Queue,
    info: wgpu::AdapterInfo,
    /// Bytes one storage binding may take.
    binding_limit: u64,
    /// Bytes one buffer may take.
    buffer_limit: u64,
    /// Bytes a build may take on the device, all buffers together.
    memory_limit: Option<u64>,
    /// Targets a chunk searches at most.
    chunk_targets: usize,
    /// Errors the context's own device reported outside a build's error scopes.
    errors: Arc<Mutex<Vec<String>>>,
    /// Each engine's kernels, compiled on first use: `[unit, octile]`.
    pub(super) kernels: [OnceLock<super::engine::Kernels>; 2],
    /// Work counted for [`GpuContext::stats`].
    pub(super) counted: Counters,
}

/// What the builds on a [`GpuContext`] did, counted since it was made: for benchmarks and
/// diagnostics ([`GpuContext::stats`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct GpuStats {
    /// Chunks of targets searched.
    pub chunks: u64,
    /// Levels that ran (a level after the end of a chunk's search returns at once and is not
    /// counted).
    pub levels: u64,
    /// The floor of the searches' memory traffic: every invocation of a level that ran reads
    /// its node's state and writes it (16 bytes toward a lane of 32 targets in the unit
    /// engine, 8 toward one target in the octile engine). Neighbours' states are read too,
    /// most of them from cache, and are not counted.
    pub state_bytes: u64,
    /// Bytes of output copied back to the host.
    pub bytes_back: u64,
    /// Nanoseconds the host spent taking chunks in (copying a dense table's words into
    /// place, folding a compressed table's runs), on a thread of its own while the device
    /// searched the next chunk: a build whose host time is near its whole time waits on the
    /// host, not the device.
    pub host_nanos: u64,
}

impl GpuStats {
    /// The work done between `earlier` (an earlier [`GpuContext::stats`]) and these.
    #[must_use]
    pub fn since(self, earlier: GpuStats) -> GpuStats {
        GpuStats {
            chunks: self.chunks - earlier.chunks,
            levels: self.levels - earlier.levels,
            state_bytes: self.state_bytes - earlier.state_bytes,
            bytes_back: self.bytes_back - earlier.bytes_back,
            host_nanos: self.host_nanos - earlier.host_nanos,
        }
    }
}

#[derive(Debug, Default)]
pub(super) struct Counters {
    chunks: AtomicU64,
    levels: AtomicU64,
    state_bytes: AtomicU64,
    bytes_back: AtomicU64,
    host_nanos: AtomicU64,
}

impl Counters {
    pub(super) fn chunk(&self, levels: u64, state_bytes: u64, bytes_back: u64) {
        self.chunks.fetch_add(1, Ordering::Relaxed);
        self.levels.fetch_add(levels, Ordering::Relaxed);
        self.state_bytes.fetch_add(state_bytes, Ordering::Relaxed);
        self.bytes_back.fetch_add(bytes_back, Ordering::Relaxed);
    }

    pub(super) fn host(&self, nanos: u64) {
        self.host_nanos.fetch_add(nanos, Ordering::Relaxed);
    }
}

impl core::fmt::Debug for GpuContext {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GpuContext")
            .field("adapter", &self.info.name)
            .field("backend", &self.info.backend)
            .field("binding_limit", &self.binding_limit)
            .field("buffer_limit", &self.buffer_limit)
            .field("memory_limit", &self.memory_limit)
            .finish_non_exhaustive()
    }
}

impl GpuContext {
    /// The highest-performance adapter wgpu finds (a discrete GPU before an integrated one,
    /// a software one such as Mesa's lavapipe last), with the adapter's own limits.
    ///
    /// wgpu's environment variables choose another: `WGPU_BACKEND` (`vulkan`, `metal`,
    /// `dx12`), `WGPU_ADAPTER_NAME` (part of the name), `WGPU_POWER_PREF` (`low`, `high`).
    ///
    /// # Errors
    /// [`Error::Gpu`] when no adapter can be made (no GPU, no driver, or on Linux no Vulkan
    /// loader: `libvulkan1`) or the device cannot be opened.
    pub fn new() -> Result<GpuContext, Error> {
        GpuContext::with_backends(wgpu::Backends::all())
    }

    /// As [`GpuContext::new`], looking only at adapters of `backends` (say
    /// `wgpu::Backends::VULKAN`); `WGPU_BACKEND` still overrides.
    ///
    /// # Errors
    /// As [`GpuContext::new`].
    ///
    /// ```
    /// use signposts::gpu::{GpuContext, wgpu};
    /// let none = GpuContext::with_backends(wgpu::Backends::empty());
    /// assert!(matches!(none, Err(signposts::Error::Gpu { .. })));
    /// ```
    pub fn with_backends(backends: wgpu::Backends) -> Result<GpuContext, Error> {
        let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle();
        descriptor.backends = backends;
        let instance = wgpu::Instance::new(descriptor.with_env());
        let adapter = pollster::block_on(wgpu::util::initialize_adapter_from_env_or_default(&instance, None))
            .map_err(|e| Error::Gpu {
                message: format!(
                    "no GPU adapter ({e}); on Linux install a Vulkan driver and its loader \
                     (Debian: libvulkan1 with mesa-vulkan-drivers or the vendor's driver)"
                ),
            })?;
        let info = adapter.get_info();
        let limits = adapter.limits();
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("signposts"),
            required_features: wgpu::Features::empty(),
            required_limits: limits,
            experimental_features: wgpu::ExperimentalFeatures::disabled(),
            memory_hints: wgpu::MemoryHints::Performance,
            trace: wgpu::Trace::Off,
        }))
        .map_err(|e| Error::Gpu { message: format!("could not open {}: {e}", info.name) })?;
        let gpu = GpuContext::from_device(device, queue, info);
        // The device is the context's own: errors outside a build's scopes (none are expected)
        // are kept for the next build to return, where wgpu's default handler would panic.
        let kept = Arc::clone(&gpu.errors);
        gpu.device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            kept.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(e.to_string());
        }));
        Ok(gpu)
    }

    /// A context on a device the caller opened (a game's render device, so that the build
    /// shares it): the builds size their chunks by `device.limits()`.
    ///
    /// A build catches its own errors (wgpu's error scopes, on the thread that runs it) and
    /// returns them; the device's other errors stay with the caller's handler.
    #[must_use]
    pub fn from_device(device: wgpu::Device, queue: wgpu::Queue, info: wgpu::AdapterInfo) -> GpuContext {
        let limits = device.limits();
        GpuContext {
            device,
            queue,
            info,
            binding_limit: limits.max_storage_buffer_binding_size.min(limits.max_buffer_size),
            buffer_limit: limits.max_buffer_size,
            memory_limit: None,
            chunk_targets: DEFAULT_CHUNK_TARGETS,
            errors: Arc::default(),
            kernels: [OnceLock::new(), OnceLock::new()],
            counted: Counters::default(),
        }
    }

    /// Holds every buffer to at most `bytes` (at least 4 KiB): below the device's own limit,
    /// builds take smaller chunks of targets (WebGPU's default is 128 MiB; tests use small
    /// limits to build in many chunks).
    #[must_use]
    pub fn with_binding_limit(mut self, bytes: u64) -> GpuContext {
        let bytes = bytes.max(4096);
        self.binding_limit = self.binding_limit.min(bytes);
        self.buffer_limit = self.buffer_limit.min(bytes);
        self
    }

    /// Holds a build's buffers on the device to `bytes` in all (1 GiB by default): chunks of
    /// targets are made smaller to fit, and a build whose smallest chunk does not fit returns
    /// [`Error::GpuMemory`] before allocating. A device that refuses an allocation within the
    /// limit gives [`Error::GpuMemory`] too.
    #[must_use]
    pub fn with_memory_limit(mut self, bytes: u64) -> GpuContext {
        self.memory_limit = Some(bytes);
        self
    }

    /// Searches at most `targets` targets a chunk (at least one block of 256 columns in a
    /// dense build, 64 in a compressed one; 2,048 by default).
    ///
    /// A chunk's levels look only at the nodes near its ball of targets (a window as wide as
    /// the ball), so smaller chunks do less work in all, and larger ones fewer dispatches: a
    /// setting to measure on the device at hand (`signposts-bench --bin gpu`).
    #[must_use]
    pub fn with_chunk_targets(mut self, targets: usize) -> GpuContext {
        self.chunk_targets = targets.max(1);
        self
    }

    /// The adapter's name, as its driver reports it ("NVIDIA H100", "llvmpipe (LLVM 15.0.6,
    /// 256 bits)").
    #[must_use]
    pub fn adapter_name(&self) -> &str {
        &self.info.name
    }

    /// The adapter: name, vendor, device type, backend and driver.
    #[must_use]
    pub fn adapter_info(&self) -> &wgpu::AdapterInfo {
        &self.info
    }

    /// The device the builds run on.
    #[must_use]
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// The work the builds on this context did since it was made.
    #[must_use]
    pub fn stats(&self) -> GpuStats {
        let c = &self.counted;
        GpuStats {
            chunks: c.chunks.load(Ordering::Relaxed),
            levels: c.levels.load(Ordering::Relaxed),
            state_bytes: c.state_bytes.load(Ordering::Relaxed),
            bytes_back: c.bytes_back.load(Ordering::Relaxed),
            host_nanos: c.host_nanos.load(Ordering::Relaxed),
        }
    }

    /// Whether the adapter is a software one (lavapipe, WARP): correct, and slower than the
    /// CPU build.
    #[must_use]
    pub fn is_software(&self) -> bool {
        self.info.device_type == wgpu::DeviceType::Cpu
    }

    pub(super) fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    pub(super) fn binding_limit(&self) -> u64 {
        self.binding_limit
    }

    pub(super) fn buffer_limit(&self) -> u64 {
        self.buffer_limit
    }

    pub(super) fn memory_limit(&self) -> Option<u64> {
        self.memory_limit
    }

    pub(super) fn chunk_targets(&self) -> usize {
        self.chunk_targets
    }

    /// An error the device reported since the last look, as [`Error::Gpu`].
    pub(super) fn take_error(&self) -> Result<(), Error> {
        let mut errors = self.errors.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if errors.is_empty() {
            return Ok(());
        }
        let message = errors.join("; ");
        errors.clear();
        Err(Error::Gpu { message: format!("the device reported: {message}") })
    }
}
