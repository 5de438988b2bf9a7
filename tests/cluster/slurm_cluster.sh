#!/usr/bin/env bash
# A throwaway Slurm cluster of five nodes on this one host, for the cluster tests: munged,
# slurmctld and five slurmd (`slurmd -N n1` to `-N n5`; a fleet screen needs a median of more
# than two, a screen of the ring's pairs five for one bad node), all run as root without
# systemd from a temporary folder, on ports found free, each with its own spool, pid and log
# files.
# Usage: slurm_cluster.sh start STATE_DIR | stop STATE_DIR
# start writes STATE_DIR/conf (the slurm.conf the clients need as SLURM_CONF), or, where the
# daemons are not installed or cannot run here, STATE_DIR/missing with the reason; the tests
# read them and skip with that reason. stop ends the daemons by the pids start recorded.
set -euo pipefail
action=${1:?start or stop}
state=${2:?state folder}
nodes=(n1 n2 n3 n4 n5)
# The node whose slurmd sees a folder of its own (below).
private_node=n3

say() { echo "slurm_cluster: $*"; }

missing() {
  echo "$*" >"$state/missing"
  say "$*"
  exit 0
}

# Ends recorded daemons together (each takes a second or two to go): TERM, then KILL for any
# that will not. Only pids this script wrote.
stop_pids() {
  local file pid pids=()
  for file in "$@"; do
    [ -f "$file" ] || continue
    pid=$(cat "$file" 2>/dev/null || true)
    rm -f "$file"
    [[ $pid =~ ^[0-9]+$ ]] && kill -TERM "$pid" 2>/dev/null && pids+=("$pid")
  done
  for _ in $(seq 100); do
    for pid in "${pids[@]}"; do
      kill -0 "$pid" 2>/dev/null && break
      pid=""
    done
    [ -z "${pid:-}" ] && return 0
    sleep 0.1
  done
  for pid in "${pids[@]}"; do
    kill -KILL "$pid" 2>/dev/null || true
  done
}

stop() {
  [ -f "$state/dir" ] || return 0
  local dir n
  dir=$(cat "$state/dir")
  # Jobs first, so that no slurmstepd outlives its slurmd.
  if [ -f "$dir/slurm.conf" ] && [ -f "$dir/slurmctld.pid" ]; then
    SLURM_CONF="$dir/slurm.conf" timeout 10 scancel --full --quiet --user=root >/dev/null 2>&1 || true
  fi
  local daemons=("$dir/slurmctld.pid" "$dir/munged.pid")
  for n in "${nodes[@]}"; do
    daemons+=("$dir/slurmd-$n.pid")
  done
  stop_pids "${daemons[@]}"
  case $dir in
  /tmp/rigor-slurm.*) rm -rf "$dir" ;;
  esac
  rm -f "$state/dir" "$state/conf"
}

# A port nobody listens on, from a range a test run is unlikely to share.
used_ports=""
free_port() {
  local p
  [ -n "$used_ports" ] || used_ports=$(ss -Htan 2>/dev/null | awk '{print $4}' | sed 's/.*://' | sort -u)
  while :; do
    p=$((20000 + RANDOM % 20000))
    grep -qx "$p" <<<"$used_ports" && continue
    used_ports+=$'\n'"$p"
    echo "$p"
    return
  done
}

# Waits for a pid file to name a live process.
wait_pid() {
  local file=$1 what=$2 log=$3
  for _ in $(seq 100); do
    if [ -s "$file" ] && kill -0 "$(cat "$file")" 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  say "$what did not start; its log:" >&2
  tail -n 20 "$log" >&2 2>/dev/null || true
  return 1
}

start() {
  mkdir -p "$state"
  stop
  rm -f "$state/missing"
  local tool
  for tool in munged slurmctld slurmd sinfo srun sbatch scancel scontrol ss; do
    command -v "$tool" >/dev/null 2>&1 ||
      missing "Slurm is not installed ($tool is missing): install Debian's slurmctld, slurmd," \
        "slurm-client and munge (scripts/install-deps.sh --test)"
  done
  [ "$(id -u)" -eq 0 ] || missing "the test cluster's daemons run as root, and this is uid $(id -u)"

  local dir host
  dir=$(mktemp -d /tmp/rigor-slurm.XXXXXX)
  echo "$dir" >"$state/dir"
  chmod 700 "$dir"
  host=$(hostname -s)
  mkdir -p "$dir/state" "$dir/munge"
  chmod 700 "$dir/munge"

  # munged insists on a key only its user may read, in folders nobody else may write.
  head -c 1024 /dev/urandom >"$dir/munge/munge.key"
  chmod 400 "$dir/munge/munge.key"
  munged --force --socket="$dir/munge/munge.sock" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/seed" \
    >"$dir/munged.out" 2>&1 || {
    cat "$dir/munged.out" "$dir/munged.log" >&2 2>/dev/null || true
    exit 1
  }
  wait_pid "$dir/munged.pid" munged "$dir/munged.log"

  local ctld_port
  ctld_port=$(free_port)
  cat >"$dir/slurm.conf" <<EOF
ClusterName=rigortest
# By address too: in a container the host's name need not resolve.
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.sock
StateSaveLocation=$dir/state
SlurmctldPidFile=$dir/slurmctld.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdSpoolDir=$dir/spool-%n
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmdLogFile=$dir/slurmd-%n.log
# Per node (%n): several slurmd on one host must not share PMIx's client folders.
TmpFS=$dir/tmp-%n
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=60
InactiveLimit=0
MinJobAge=600
KillWait=5
Waittime=0
SchedulerType=sched/builtin
EOF
  local n
  for n in "${nodes[@]}"; do
    echo "NodeName=$n NodeHostname=$host NodeAddr=127.0.0.1 Port=$(free_port) CPUs=2 State=UNKNOWN" \
      >>"$dir/slurm.conf"
    mkdir -p "$dir/spool-$n" "$dir/tmp-$n"
  done
  echo "PartitionName=debug Nodes=$(IFS=,; echo "${nodes[*]}") Default=YES MaxTime=INFINITE State=UP" \
    >>"$dir/slurm.conf"

  export SLURM_CONF="$dir/slurm.conf"
  slurmctld -f "$SLURM_CONF" -i >"$dir/slurmctld.out" 2>&1 || {
    cat "$dir/slurmctld.out" "$dir/slurmctld.log" >&2 2>/dev/null || true
    exit 1
  }
  wait_pid "$dir/slurmctld.pid" slurmctld "$dir/slurmctld.log"
  # One node sees a folder of its own at $dir/private (a tmpfs in a mount namespace of its
  # slurmd, which its steps inherit): what the other nodes write there it cannot read, as on a
  # cluster whose nodes share no file system. Where namespaces cannot be made, no such folder.
  mkdir -p "$dir/private"
  rm -f "$state/private"
  for n in "${nodes[@]}"; do
    if [ "$n" = "$private_node" ] &&
      unshare -m --propagation private sh -c \
        'mount -t tmpfs -o size=64m,mode=1777 rigor-private "$1" && exec slurmd -f "$2" -N "$3"' \
        sh "$dir/private" "$SLURM_CONF" "$n" >"$dir/slurmd-$n.out" 2>&1; then
      echo "$dir/private" >"$state/private"
    else
      slurmd -f "$SLURM_CONF" -N "$n" >"$dir/slurmd-$n.out" 2>&1 || {
        cat "$dir/slurmd-$n.out" "$dir/slurmd-$n.log" >&2 2>/dev/null || true
        exit 1
      }
    fi
    wait_pid "$dir/slurmd-$n.pid" "slurmd -N $n" "$dir/slurmd-$n.log"
  done

  local idle="" want
  want=$(printf '%s ' "${nodes[@]}")
  for _ in $(seq 120); do
    idle=$(sinfo -h -N -t idle -o %N 2>/dev/null | sort -u | tr '\n' ' ')
    [ "$idle" = "$want" ] && break
    sleep 0.5
  done
  if [ "$idle" != "$want" ]; then
    say "the nodes did not become idle:" >&2
    sinfo -N >&2 || true
    tail -n 20 "$dir/slurmctld.log" >&2 || true
    exit 1
  fi
  echo "$SLURM_CONF" >"$state/conf"
  say "Slurm $(sinfo -V | awk '{print $2}') on $dir: nodes ${want% } idle (slurmctld port $ctld_port)"
}

case "$action" in
start)
  # Whatever fails half way stops what did start.
  # shellcheck disable=SC2154 # rc is the trap's own
  trap 'rc=$?; [ $rc -eq 0 ] || stop; exit $rc' EXIT
  start
  ;;
stop)
  stop
  ;;
*)
  echo "usage: $0 start|stop STATE_DIR" >&2
  exit 2
  ;;
esac
