//! `signposts merge`: the parts of a sharded build (`build --shard I/K`) joined into the
//! table one build would save, byte for byte.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use serde_json::json;
use signposts::BuildOptions;
use signposts::grid::GridShardFile;

use crate::input::{FileKind, expect_kind};

/// Arguments of `signposts merge`.
#[derive(Args)]
pub(crate) struct MergeArgs {
    /// The part files (from `signposts build --shard I/K`).
    #[arg(required = true)]
    parts: Vec<PathBuf>,
    /// Where to save the joined oracle, for `query` and `scen --oracle`.
    #[arg(short, long)]
    output: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// `merge PART... -o TABLE`: the parts joined, each refusal naming its file. Each part is
/// checked when opened, one at a time; the merge then reads them a batch of rows at a time and
/// writes the table as it goes, so it never holds every part.
pub(crate) fn run(args: &MergeArgs) -> Result<()> {
    let output = &args.output;
    let start = Instant::now();
    let mut parts: Vec<GridShardFile> = Vec::with_capacity(args.parts.len());
    let mut seen: std::collections::HashMap<(u32, u32), &PathBuf> = std::collections::HashMap::new();
    for path in &args.parts {
        expect_kind(path, &[FileKind::Shard], "a part of a sharded build")?;
        let part = GridShardFile::open(path).with_context(|| format!("loading {}", path.display()))?;
        if let Some(first) = parts.first()
            && part.fingerprint() != first.fingerprint()
        {
            bail!(
                "{} is a shard of another map or other options than {}",
                path.display(),
                args.parts[0].display()
            );
        }
        if let Some(twin) = seen.insert(part.index(), path) {
            let (i, k) = part.index();
            bail!("{} and {} are both shard {i} of {k}", twin.display(), path.display());
        }
        parts.push(part);
    }
    let merged = BuildOptions::new().merge_grid_shards_to(&parts, output).with_context(|| {
        let names: Vec<String> = args.parts.iter().map(|p| p.display().to_string()).collect();
        format!("merging {} into {}", names.join(", "), output.display())
    })?;
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        out!(
            "{}",
            json!({
                "parts": args.parts.len(),
                "output": output.display().to_string(),
                "nodes": merged.nodes,
                "bytes": merged.memory_bytes,
                "file_bytes": merged.file_bytes,
                "seconds": seconds,
            })
        );
    } else {
        out!(
            "merged {} parts in {seconds:.2} s: {} nodes, {} bytes, saved to {}",
            args.parts.len(),
            merged.nodes,
            merged.memory_bytes,
            output.display()
        );
    }
    Ok(())
}
