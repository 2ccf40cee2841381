#!/bin/sh
# `ushader sweep --emit-jobs` on a real Slurm cluster (issue 19 item 3):
# the test starts a one-node cluster on localhost in a temporary directory
# -- munged with its own key and socket, slurmctld and slurmd with their
# own slurm.conf, state, spool, log and pid files, free ports -- waits
# for the node to be idle, runs the sweep's job array with sbatch --wait,
# merges the points and compares the set with a local run's byte for
# byte, then stops every daemon (on exit, failure included).  A daemon
# that does not start is a failure, with its log's tail; never a pass.
set -u
BUILD=${BUILD:-build}
U=$(cd "$(dirname "$BUILD/ushader")" && pwd)/ushader
T=$(mktemp -d)
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# Stop what this test started, by the pid files it gave the daemons.
stop() {
    for d in slurmd slurmctld munged; do
        f=$T/run/$d.pid
        [ -s "$f" ] || continue
        pid=$(cat "$f")
        kill "$pid" 2> /dev/null || continue
        i=0
        while kill -0 "$pid" 2> /dev/null && [ $i -lt 50 ]; do
            sleep 0.1
            i=$((i + 1))
        done
        kill -9 "$pid" 2> /dev/null
    done
    rm -rf "$T"
}
trap stop EXIT
trap 'exit 1' INT TERM HUP

finish() {
    echo "sweep_slurm: $pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
}

# die WHY LOG: the cluster could not be set up -- a failure, never a skip
die() {
    bad "$1"
    [ -n "${2:-}" ] && [ -f "$2" ] && { echo "--- tail of $2:"; tail -n 15 "$2"; }
    finish
}

for t in munged slurmctld slurmd sbatch sinfo; do
    command -v $t > /dev/null ||
        die "$t is not installed (Debian: slurm-wlm, munge; make deps)"
done

# munged checks that every directory above its socket is searchable
chmod 711 "$T"
mkdir -p "$T/run" "$T/log" "$T/state" "$T/spool" || die "cannot make $T's dirs"

# two free TCP ports
used=$(ss -Htan 2> /dev/null | awk '{ print $4 }' | sed 's/.*://')
port() {
    p=$1
    while echo "$used" | grep -qx "$p" || [ "$p" = "${P1:-}" ]; do p=$((p + 1)); done
    echo "$p"
}
base=$((20000 + $$ % 20000))
P1=$(port $base)
P2=$(port $((P1 + 1)))

# ---- munge ----------------------------------------------------------------
dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 2> /dev/null &&
    chmod 600 "$T/munge.key" || die "cannot write a munge key"
munged --socket="$T/run/munge.sock" --key-file="$T/munge.key" \
    --pid-file="$T/run/munged.pid" --log-file="$T/log/munged.log" \
    --seed-file="$T/run/munged.seed" > "$T/log/munged.out" 2>&1 ||
    die "munged did not start: $(cat "$T/log/munged.out")" "$T/log/munged.log"

# ---- slurm.conf -----------------------------------------------------------
node=$(slurmd -C 2> /dev/null | head -n 1 | sed 's/^NodeName=[^ ]*//')
[ -n "$node" ] || die "slurmd -C printed no node line"
cat > "$T/slurm.conf" << EOF
ClusterName=ushadertest
SlurmctldHost=localhost
SlurmctldPort=$P1
SlurmdPort=$P2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/run/munge.sock
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/run/slurmctld.pid
SlurmdPidFile=$T/run/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
NodeName=localhost NodeAddr=127.0.0.1$node State=UNKNOWN
PartitionName=sweep Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$T/slurm.conf"

# started: a pid file whose process is alive, within 10 s
started() {
    i=0
    while [ $i -lt 100 ]; do
        [ -s "$T/run/$1.pid" ] && kill -0 "$(cat "$T/run/$1.pid")" 2> /dev/null &&
            return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
slurmctld -f "$SLURM_CONF" > "$T/log/slurmctld.out" 2>&1 && started slurmctld ||
    die "slurmctld did not start: $(cat "$T/log/slurmctld.out")" "$T/log/slurmctld.log"
slurmd -f "$SLURM_CONF" -N localhost > "$T/log/slurmd.out" 2>&1 && started slurmd ||
    die "slurmd did not start: $(cat "$T/log/slurmd.out")" "$T/log/slurmd.log"
ok
i=0
until [ "$(sinfo -h -N -o %t 2> /dev/null)" = idle ]; do
    i=$((i + 1))
    [ $i -lt 60 ] || die "the node is not idle after 30 s: $(sinfo -N 2>&1)" "$T/log/slurmd.log"
    sleep 0.5
done
ok

# ---- the sweep: local, then as a job array --------------------------------
SPEC="--set lut_banks=1,2 --set lookahead=0,1"
SUB="--only phong.fp,blinn_phong_2 --arch scalar --threads 64"
"$U" sweep $SPEC $SUB --out "$T/local" > /dev/null 2> "$T/local.err" ||
    die "the local sweep failed: $(cat "$T/local.err")"
"$U" sweep $SPEC $SUB --emit-jobs "$T/jobs" 2> "$T/emit.err" ||
    die "--emit-jobs failed: $(cat "$T/emit.err")"
timeout 100 sbatch --wait --array=0-3 "$T/jobs/sweep.sbatch" > "$T/sbatch.out" 2>&1
rc=$?
[ $rc -eq 0 ] && ok || {
    bad "sbatch --wait: exit $rc: $(cat "$T/sbatch.out")"
    cat "$T"/jobs/logs/*.out 2> /dev/null | tail -n 10
    tail -n 10 "$T/log/slurmctld.log"
}
n=$(ls "$T"/jobs/points/*/point.json 2> /dev/null | wc -l)
[ "$n" -eq 4 ] && ok || bad "$n of 4 points written by the array"
"$U" sweep --merge "$T/jobs" > /dev/null 2> "$T/merge.err" || bad "--merge: $(cat "$T/merge.err")"
for f in results.json results.csv report.md plots.gp sweep_cycles_lut_banks.dat; do
    cmp -s "$T/local/$f" "$T/jobs/$f" && ok || bad "Slurm's merged $f differs from the local run's"
done
(cd "$T" && md5sum local/results.json jobs/results.json local/results.csv jobs/results.csv)
finish
