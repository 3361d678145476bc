//! Regions, doors and build time of the mesh of every map given (default: the shared maps).
//!
//! ```text
//! cargo run --release -p signposts-bench --bin mesh_stats -- maps/arena.map
//! ```

use std::time::Instant;

use signposts::grid::parse_map;
use signposts_rooms::NavMesh;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../maps");
        paths = std::fs::read_dir(dir)?
            .filter_map(|e| e.ok().map(|e| e.path().display().to_string()))
            .filter(|p| std::path::Path::new(p).extension().is_some_and(|e| e == "map"))
            .collect();
        paths.sort();
    }
    println!("{:<24} {:>8} {:>8} {:>8} {:>7} {:>9}", "map", "open", "regions", "doors", "ratio", "build ms");
    for path in paths {
        let grid = parse_map(&std::fs::read(&path)?)?;
        let start = Instant::now();
        let mesh = NavMesh::from_grid(&grid)?;
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let name = std::path::Path::new(&path).file_name().unwrap_or_default().to_string_lossy().into_owned();
        println!(
            "{name:<24} {:>8} {:>8} {:>8} {:>6.1}× {ms:>9.1}",
            grid.passable_len(),
            mesh.regions_len(),
            mesh.doors_len(),
            grid.passable_len() as f64 / mesh.regions_len() as f64
        );
    }
    Ok(())
}
