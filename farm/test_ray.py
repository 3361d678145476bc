#!/usr/bin/env python3
"""End-to-end test of farm/ray_build.py on a local Ray instance: den312d's octile table built
in 3 shards (parts returned as bytes) and in 2 (parts on a shared path), each merged table
byte for byte the table of one `signposts build`. Run with a Python that has `ray`
(.ci/run makes target/ray-venv); prints a cargo-style `test result:` line.
"""

import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIGNPOSTS = os.path.join(ROOT, "target", "debug", "signposts")
MAP = os.path.join(ROOT, "maps", "den312d.map")


def main():
    try:
        import ray  # noqa: F401
    except ImportError:
        print("SKIPPED: the ray package is not installed for this Python")
        return
    for need in (SIGNPOSTS, MAP):
        if not os.path.exists(need):
            sys.exit(f"missing {need} (build the workspace first)")
    passed = 0
    with tempfile.TemporaryDirectory(prefix="signposts-ray-test-") as work:
        whole = os.path.join(work, "whole.sp")
        subprocess.run([SIGNPOSTS, "build", MAP, "--diagonal", "--compressed", "-o", whole], check=True, capture_output=True)
        with open(whole, "rb") as f:
            expected = f.read()
        for shards, shared in ((3, None), (2, os.path.join(work, "shared"))):
            merged = os.path.join(work, f"merged-{shards}.sp")
            command = [sys.executable, os.path.join(ROOT, "farm", "ray_build.py"), MAP, "--diagonal", "--shards", str(shards),
                       "-o", merged, "--signposts", SIGNPOSTS, "--num-cpus", "2", "--cpus-per-shard", "1"]
            if shared:
                command += ["--shared", shared]
            done = subprocess.run(command, capture_output=True, text=True)
            print(done.stdout.strip())
            if done.returncode != 0:
                print(done.stderr[-3000:])
                sys.exit(f"the Ray build of {shards} shards failed")
            with open(merged, "rb") as f:
                if f.read() != expected:
                    sys.exit(f"the Ray build of {shards} shards differs from one build")
            where = f"parts on {shared}" if shared else "parts returned as bytes"
            print(f"{shards} shards on Ray ({where}): merged table identical to one build ({len(expected)} bytes)")
            passed += 1
    print(f"test result: ok. {passed} passed; 0 failed (farm/test_ray.py)")


if __name__ == "__main__":
    main()
