#!/usr/bin/env bash
# End-to-end test of farm/slurm on a single-node Slurm that this script starts and stops:
# den312d's octile table built as an array job of 3 shards and merged by the dependent job,
# compared byte for byte with one `signposts build`. Needs root and Debian's slurmctld, slurmd
# and munge (.ci/run installs them); prints a cargo-style `test result:` line, or SKIPPED.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
signposts=$root/target/debug/signposts
map=$root/maps/den312d.map
for need in slurmctld slurmd munged sbatch squeue; do
    command -v "$need" >/dev/null || { echo "SKIPPED: $need is not installed"; exit 0; }
done
[ "$(id -u)" = 0 ] || { echo "SKIPPED: a single-node Slurm needs root here"; exit 0; }
# Never touch a Slurm this machine already runs: the test's daemons would meet it.
if pgrep -x -r R,S,D slurmctld >/dev/null || pgrep -x -r R,S,D slurmd >/dev/null; then
    echo "SKIPPED: a Slurm already runs on this machine"
    exit 0
fi
[ -x "$signposts" ] && [ -f "$map" ] || { echo "missing $signposts or $map" >&2; exit 1; }

work=$(mktemp -d /tmp/signposts-slurm-XXXXXX)
chmod 755 "$work"
host=$(hostname -s)
cpus=$(nproc)
memory=$(awk '/MemTotal/ { print int($2 / 1024) - 512 }' /proc/meminfo)
export SLURM_CONF=$work/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=signposts-test
SlurmctldHost=$host
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
mkdir -p "$work/state" "$work/spool" /run/munge /var/lib/munge /var/log/munge /etc/munge
if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
fi
chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge
chmod 400 /etc/munge/munge.key
munge_pid=""
if ! pgrep -x -r R,S,D munged >/dev/null; then
    runuser -u munge -- munged --pid-file=/run/munge/signposts-test.pid
    munge_pid=$(cat /run/munge/signposts-test.pid)
fi
stop() {
    # Only the daemons this test started, by their pid files.
    for pidfile in "$work/slurmd.pid" "$work/slurmctld.pid"; do
        [ -s "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
    done
    [ -n "$munge_pid" ] && kill "$munge_pid" 2>/dev/null || true
    sleep 1
    rm -rf "$work"
}
trap stop EXIT
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
    sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed)' && break
    sleep 1
done
sinfo -h -o %T | grep -qE '^(idle|mixed)' || { echo "the node did not come up:"; tail -20 "$work/slurmctld.log" "$work/slurmd.log"; exit 1; }

"$signposts" build "$map" --diagonal --compressed -o "$work/whole.sp" >/dev/null
cd "$work"
SIGNPOSTS=$signposts SBATCH_OPTIONS="--cpus-per-task=1 --mem=512M" \
    "$root/farm/slurm/submit.sh" "$map" 3 "$work/parts" "$work/table.sp" --diagonal
for _ in $(seq 600); do
    [ -z "$(squeue -h 2>/dev/null)" ] && break
    sleep 1
done
if ! cmp -s "$work/whole.sp" "$work/table.sp"; then
    echo "the Slurm build's table differs from one build (or is missing); logs:"
    tail -n 20 "$work"/signposts-*.log 2>/dev/null || true
    exit 1
fi
echo "3 shards as a Slurm array job and the dependent merge: identical to one build ($(stat -c %s "$work/table.sp") bytes)"
echo "test result: ok. 1 passed; 0 failed (farm/test_slurm.sh)"
