#!/usr/bin/env python3
"""Checks farm/kubernetes/ without a cluster: both manifests parse as YAML and are Jobs of the
shape the recipe needs (an Indexed Job of K completions, K the pods' SHARDS; the merge's SHARDS
the same K; both on one claim), and each pod's command, run here with /data a temporary
directory and the map den312d, builds the parts and merges them into the bytes of one build.
Needs PyYAML (the Ray virtual environment has it); prints a cargo-style `test result:` line.
"""

import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIGNPOSTS = os.path.join(ROOT, "target", "debug", "signposts")
MAP = os.path.join(ROOT, "maps", "den312d.map")


def env_of(container):
    return {e["name"]: e["value"] for e in container.get("env", [])}


def main():
    try:
        import yaml
    except ImportError:
        print("SKIPPED: PyYAML is not installed for this Python")
        return
    with open(os.path.join(ROOT, "farm", "kubernetes", "shards.yaml")) as f:
        shards = yaml.safe_load(f)
    with open(os.path.join(ROOT, "farm", "kubernetes", "merge.yaml")) as f:
        merge = yaml.safe_load(f)
    for job in (shards, merge):
        assert job["apiVersion"] == "batch/v1" and job["kind"] == "Job", job["metadata"]
        assert job["spec"]["template"]["spec"]["restartPolicy"] == "Never"
    spec = shards["spec"]
    shard_pod = spec["template"]["spec"]["containers"][0]
    merge_pod = merge["spec"]["template"]["spec"]["containers"][0]
    k = int(env_of(shard_pod)["SHARDS"])
    assert spec["completionMode"] == "Indexed", "the shards must be an Indexed Job"
    assert spec["completions"] == k and spec["parallelism"] <= k, "completions must be SHARDS"
    assert int(env_of(merge_pod)["SHARDS"]) == k, "the merge must join the same K"
    claims = [
        {v["persistentVolumeClaim"]["claimName"] for v in job["spec"]["template"]["spec"]["volumes"]}
        for job in (shards, merge)
    ]
    assert claims[0] == claims[1], f"the jobs mount different claims: {claims}"
    print(f"manifests: an Indexed Job of {k} shards and its merge, on claim {claims[0].pop()}")

    # The pods' commands, run here: /data a temporary directory, signposts on the PATH, 3 shards.
    with tempfile.TemporaryDirectory(prefix="signposts-k8s-test-") as work:
        data = os.path.join(work, "data")
        os.makedirs(os.path.join(data, "maps"))
        shutil.copy(MAP, os.path.join(data, "maps", "den312d.map"))
        bin_dir = os.path.join(work, "bin")
        os.makedirs(bin_dir)
        os.symlink(SIGNPOSTS, os.path.join(bin_dir, "signposts"))
        path = bin_dir + os.pathsep + os.environ["PATH"]
        local = lambda command: command.replace("/data", data)  # noqa: E731
        count = 3
        for index in range(count):
            env = dict(os.environ, PATH=path, **env_of(shard_pod))
            env.update(MAP="den312d.map", SHARDS=str(count), OPTIONS="--diagonal", JOB_COMPLETION_INDEX=str(index))
            subprocess.run(["sh", "-c", local(shard_pod["args"][0])], env=env, check=True, capture_output=True)
        env = dict(os.environ, PATH=path, **env_of(merge_pod))
        env.update(SHARDS=str(count), TABLE="den312d.sp")
        subprocess.run(["sh", "-c", local(merge_pod["args"][0])], env=env, check=True, capture_output=True)
        whole = os.path.join(work, "whole.sp")
        subprocess.run([SIGNPOSTS, "build", MAP, "--diagonal", "--compressed", "-o", whole], check=True, capture_output=True)
        with open(whole, "rb") as a, open(os.path.join(data, "den312d.sp"), "rb") as b:
            if a.read() != b.read():
                sys.exit("the pods' commands made another table than one build")
    print(f"the pods' commands, run here for {count} shards: merged table identical to one build")
    print("test result: ok. 1 passed; 0 failed (farm/test_kubernetes.py)")


if __name__ == "__main__":
    main()
