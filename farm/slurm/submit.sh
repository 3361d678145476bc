#!/usr/bin/env bash
# Submits a sharded build to Slurm: an array job of K shards, then the merge, which runs only
# when every shard succeeded.
#
#   farm/slurm/submit.sh MAP K PARTS_DIR TABLE [--diagonal]
#
# PARTS_DIR must be a path every node mounts; SIGNPOSTS (default: signposts on the PATH) the
# binary at the same path on every node. A failed shard cancels the merge
# (--kill-on-invalid-dep). K is at most the cluster's MaxArraySize less one (1,000 by default). Extra sbatch options (a partition, an account) go in
# SBATCH_OPTIONS, e.g. SBATCH_OPTIONS="--partition=long".
set -euo pipefail
if [ $# -lt 4 ]; then
    echo "usage: $0 MAP K PARTS_DIR TABLE [--diagonal]" >&2
    exit 2
fi
map=$(realpath "$1") shards=$2 parts=$(realpath -m "$3") table=$(realpath -m "$4")
diagonal=""
[ "${5:-}" = "--diagonal" ] && diagonal=1
mkdir -p "$parts"
here=$(dirname "$(realpath "$0")")
export SIGNPOSTS="${SIGNPOSTS:-signposts}" MAP="$map" SHARDS="$shards" PARTS="$parts" TABLE="$table" DIAGONAL="$diagonal"
# shellcheck disable=SC2086 # SBATCH_OPTIONS is a list of options
array=$(sbatch --parsable ${SBATCH_OPTIONS:-} --array="0-$((shards - 1))" --export=ALL "$here/shard.sbatch")
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTIONS:-} --dependency="afterok:${array%%;*}" --kill-on-invalid-dep=yes --export=ALL "$here/merge.sbatch")
echo "shards: job ${array%%;*} (array 0-$((shards - 1))), merge: job $merge (after every shard)"
