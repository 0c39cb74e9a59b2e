#!/bin/bash
# stop_cluster.sh DIR
#
# Stops the private cluster started by start_cluster.sh DIR: cancels any jobs
# still in it, then stops slurmd, slurmctld and munged via their pid files
# (SIGTERM, then SIGKILL after a grace period), and finally kills any leftover
# slurmstepd/daemon of *this* cluster (recognised by an open file under DIR).
# Leaves DIR (logs, state) in place.  Exit status 0 if nothing is left running.
set -uo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 DIR" >&2
    exit 2
fi
DIR=$(realpath -m "$1")
GRACE=${GPUSIM_SLURM_STOP_GRACE:-15}     # seconds per daemon before SIGKILL

log() { echo "stop_cluster: [$(date +%T.%2N)] $*" >&2; }

alive() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null && [ "$(ps -o stat= -p "$1" 2>/dev/null | cut -c1)" != Z ]; }

pid_of() {  # $1 = daemon name; prints the pid from its pid file if it is alive
    local f="$DIR/run/$1.pid" p
    [ -s "$f" ] || return 1
    p=$(tr -dc 0-9 < "$f")
    alive "$p" || return 1
    # guard against a recycled pid: the process must be the expected program
    case "$(cat /proc/"$p"/comm 2>/dev/null)" in
        "$1"*) echo "$p" ;;
        *) return 1 ;;
    esac
}

stop_pid() {  # $1 = name, $2 = pid
    local n=$1 p=$2 i
    kill -TERM "$p" 2>/dev/null || return 0
    for i in $(seq 1 $((GRACE * 10))); do
        alive "$p" || { log "$n (pid $p) stopped"; return 0; }
        sleep 0.1
    done
    log "$n (pid $p) ignored SIGTERM for ${GRACE}s, sending SIGKILL"
    kill -KILL "$p" 2>/dev/null
    sleep 0.2
}

# 1. cancel jobs still in the cluster, so that slurmstepd and job processes go away
CONF="$DIR/etc/slurm.conf"
if [ -f "$CONF" ] && pid_of slurmctld >/dev/null; then
    export SLURM_CONF="$CONF"
    jobs=$(squeue -h -o '%A' 2>/dev/null | sort -u | tr '\n' ' ')
    if [ -n "${jobs// }" ]; then
        log "cancelling jobs: $jobs"
        # shellcheck disable=SC2086
        scancel $jobs 2>/dev/null
        for _ in $(seq 1 100); do   # up to 20 s
            [ -z "$(squeue -h -o '%A' 2>/dev/null)" ] && break
            sleep 0.2
        done
    fi
fi

# 2. daemons, in reverse start order
for d in slurmd slurmctld munged; do
    if p=$(pid_of "$d"); then
        stop_pid "$d" "$p"
    fi
done

# 3. sweep: munged/slurm* processes of *this* cluster that are still alive.
#    They are recognised by an open file under DIR/log/ (every daemon keeps its
#    log open, slurmstepd keeps the slurmd log open and has its cwd there).
#    Job output files are deliberately not used: a job of another cluster may
#    write its output under DIR.  Descendants of such a slurmstepd are the job's
#    processes and are killed with it (slurmstepd ignores SIGTERM).
leftovers() {
    local pd p comm
    for pd in /proc/[0-9]*; do
        p=${pd#/proc/}
        { read -r comm < "$pd/comm"; } 2>/dev/null || continue
        case "$comm" in munged|slurmctld|slurmd|slurmstepd) ;; *) continue ;; esac
        if ls -l "$pd/fd" 2>/dev/null | grep -qF -- "-> $DIR/log/" ||
           [ "$(readlink "$pd/cwd" 2>/dev/null)" = "$DIR/log" ]; then
            alive "$p" && echo "$p"
        fi
    done
}
descendants() {  # pids of all descendants of the given pids
    ps -eo pid=,ppid= 2>/dev/null | awk -v roots="$*" '
        { par[$1] = $2 }
        END {
            n = split(roots, r, " "); for (i = 1; i <= n; i++) mark[r[i]] = 1
            do { changed = 0
                 for (p in par) if (!(p in mark) && (par[p] in mark)) { mark[p] = 1; out[p] = 1; changed = 1 }
            } while (changed)
            for (p in out) printf "%s ", p
        }'
}
left=$(leftovers | tr '\n' ' ')
if [ -n "${left// }" ]; then
    kids=$(descendants $left)
    log "leftover processes of this cluster: $left(job processes: ${kids:-none}) -> SIGTERM"
    # shellcheck disable=SC2086
    kill -TERM $left $kids 2>/dev/null
    sleep 1
    left=$(leftovers | tr '\n' ' ')
    kids=$(for p in $kids; do alive "$p" && echo "$p"; done | tr '\n' ' ')
    if [ -n "${left// }${kids// }" ]; then
        log "still alive: $left$kids-> SIGKILL"
        # shellcheck disable=SC2086
        kill -KILL $left $kids 2>/dev/null
        sleep 0.5
        left=$(leftovers | tr '\n' ' ')
    fi
fi
left=${left// }

rm -f "$DIR/munge/munge.sock" "$DIR/munge/munge.sock.lock"
if [ -n "$left" ]; then
    log "ERROR: could not stop: $left"
    exit 1
fi
log "all daemons of $DIR stopped"
exit 0
