#!/usr/bin/env python3
"""Build a map's compressed table in shards on Ray, then merge them: the bytes of one build.

One Ray task per shard runs `signposts build MAP --shard I/K` (the map's bytes travel with the
task, so workers need only the signposts binary); the driver then runs `signposts merge`.
The same script runs on a laptop (a local Ray instance) and on a cluster:

    python3 farm/ray_build.py MAP --shards 8 -o table.sp                     # local Ray
    python3 farm/ray_build.py MAP --shards 64 --address auto -o table.sp     # a cluster
    python3 farm/ray_build.py MAP --shards 64 --address auto --shared /mnt/farm -o table.sp

Parts come back to the driver as bytes, or, with --shared DIR (a path every node mounts),
are written there by the workers and read by the merge. Needs the `ray` package
(`pip install ray`) and the `signposts` binary at the same path on every node (--signposts).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import ray


@ray.remote
def build_shard(signposts, map_name, map_bytes, index, count, options, shared, threads):
    """Builds shard `index` of `count` on `threads` threads; returns its report, and its bytes
    unless `shared`."""
    with tempfile.TemporaryDirectory(prefix="signposts-shard-") as work:
        map_path = os.path.join(work, map_name)
        with open(map_path, "wb") as f:
            f.write(map_bytes)
        out = os.path.join(shared or work, f"part-{index}-of-{count}.sp")
        command = [signposts, "build", map_path, *options, "--shard", f"{index}/{count}", "-o", out, "--json"]
        # The build uses every core it sees unless told: as many threads as Ray reserved.
        env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
        done = subprocess.run(command, capture_output=True, text=True, env=env)
        if done.returncode != 0:
            raise RuntimeError(f"shard {index} of {count} failed on {os.uname().nodename}: {done.stderr.strip()}")
        report = json.loads(done.stdout)
        report["node"] = os.uname().nodename
        if shared:
            return report, None
        with open(out, "rb") as f:
            return report, f.read()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("map", help="the Moving AI .map file")
    parser.add_argument("--shards", type=int, required=True, help="how many shards (K)")
    parser.add_argument("-o", "--output", required=True, help="where to save the merged table")
    parser.add_argument("--diagonal", action="store_true", help="octile moves (signposts build --diagonal)")
    parser.add_argument("--address", default=None, help="a Ray cluster's address ('auto' inside one); default: a local instance")
    parser.add_argument("--shared", default=None, help="a directory every node mounts: parts are written there, not returned")
    parser.add_argument("--signposts", default="signposts", help="the signposts binary, at this path on every node")
    parser.add_argument("--cpus-per-shard", type=float, default=2, help="CPUs Ray reserves for each shard, and the threads its build runs")
    parser.add_argument("--num-cpus", type=int, default=None, help="CPUs of a local Ray instance")
    args = parser.parse_args()
    if args.shards < 1:
        parser.error("--shards must be at least 1")
    signposts = os.path.abspath(args.signposts) if os.path.exists(args.signposts) else args.signposts
    options = ["--diagonal"] if args.diagonal else []
    shared = os.path.abspath(args.shared) if args.shared else None
    if shared:
        os.makedirs(shared, exist_ok=True)

    ray.init(address=args.address, num_cpus=args.num_cpus if args.address is None else None, include_dashboard=False)
    with open(args.map, "rb") as f:
        map_bytes = f.read()
    map_ref = ray.put(map_bytes)
    start = time.time()
    task = build_shard.options(num_cpus=args.cpus_per_shard)
    threads = max(1, int(args.cpus_per_shard))
    futures = [
        task.remote(signposts, os.path.basename(args.map), map_ref, i, args.shards, options, shared, threads)
        for i in range(args.shards)
    ]
    results = ray.get(futures)
    built = time.time() - start
    ray.shutdown()

    with tempfile.TemporaryDirectory(prefix="signposts-parts-") as local:
        parts = []
        for i, (report, data) in enumerate(results):
            print(
                f"shard {report['shard']} of {report['shards']} on {report['node']}: "
                f"{report['runs']} runs, {report['seconds']:.2f} s, peak {report['peak_bytes']} bytes",
                flush=True,
            )
            if data is None:
                parts.append(os.path.join(shared, f"part-{i}-of-{args.shards}.sp"))
            else:
                path = os.path.join(local, f"part-{i}-of-{args.shards}.sp")
                with open(path, "wb") as f:
                    f.write(data)
                parts.append(path)
        done = subprocess.run([signposts, "merge", *parts, "-o", args.output, "--json"], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"merge failed: {done.stderr.strip()}")
    merged = json.loads(done.stdout)
    print(
        f"{args.shards} shards built in {built:.1f} s, merged in {merged['seconds']:.2f} s: "
        f"{merged['nodes']} nodes, {merged['bytes']} bytes, saved to {args.output}"
    )


if __name__ == "__main__":
    main()
