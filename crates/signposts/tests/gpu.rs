//! GPU builds (feature `gpu`) against the CPU build, byte for byte.
#![cfg(feature = "gpu")]

use signposts::generate::{Connectivity, grid};
use signposts::gpu::GpuContext;

#[test]
fn smoke() {
    let gpu = GpuContext::new().expect("adapter");
    eprintln!("{:?}", gpu);
    let b = grid(10, 10, Connectivity::Four);
    let g = b.build_gpu(&gpu, |_| {}).expect("gpu");
    assert!(g == b.build());
    let c = b.build_compressed_gpu(&gpu, |_| {}).expect("gpu");
    let mut x = Vec::new();
    c.save(&mut x).unwrap();
    let mut y = Vec::new();
    b.build_compressed().unwrap().save(&mut y).unwrap();
    assert!(x == y);
}
