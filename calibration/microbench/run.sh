#!/usr/bin/env bash
# run.sh: build, run and package warplab's calibration microbenchmarks.
#
# usage: bash calibration/microbench/run.sh [OUTDIR]   (default ./out)
#
# Builds every program with nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo (in
# parallel; a failed build is logged and skipped), runs each one in turn under
# `timeout 120` with its CSV on stdout, records GPU clocks between programs,
# dumps the SASS of the programs (sm_90, plus sm_75 cubins of the atomic ones)
# and packs everything into OUTDIR:
#   summary.txt                   status of every step and each program's "# S" lines
#   microbench-results.tar.gz     everything: csv/, logs/, build/, sass/, env files
#   day26_blocksize.csv           copies of the two most-used tables
#   atomics_global.csv
#   sass_atomics.txt              the atomic, vote, popc, redux, match and CAS
#                                 instructions of every kernel, by function
#   run.log                       this script's log
# The whole run is budgeted to MB_TOTAL_BUDGET_S seconds (default 330): a
# program that would start later is skipped, and each program's own time budget
# is capped (env MB_BUDGET_S) so that it stops cleanly before its timeout;
# MB_PROG_BUDGET_S caps it further (a short check run of many programs).
# Progress goes to stderr; summary.txt is printed on stdout at the end.
set -u

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUTDIR="${1:-./out}"
mkdir -p "$OUTDIR" || { echo "cannot create $OUTDIR" >&2; exit 2; }
OUTDIR="$(cd "$OUTDIR" && pwd)"

STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/microbench.XXXXXX")"
NAME="microbench-$STAMP"
RAW="$WORK/$NAME"
mkdir -p "$RAW/build" "$RAW/csv" "$RAW/logs" "$RAW/sass" "$RAW/bin"
LOG="$RAW/run.log"
T0=$(date +%s)
TOTAL_BUDGET="${MB_TOTAL_BUDGET_S:-330}"

log() {
    local msg
    msg="[$(date -u +%H:%M:%S) +$(( $(date +%s) - T0 ))s] $*"
    echo "$msg" >&2
    echo "$msg" >>"$LOG"
}

# ---------------------------------------------------------------- tools
NVCC="${NVCC:-/usr/local/cuda/bin/nvcc}"
[ -x "$NVCC" ] || NVCC="$(command -v nvcc || true)"
CUOBJDUMP="${CUOBJDUMP:-$(dirname "${NVCC:-/usr/local/cuda/bin/nvcc}")/cuobjdump}"
[ -x "$CUOBJDUMP" ] || CUOBJDUMP="$(command -v cuobjdump || true)"
DEMANGLE=cat
if command -v c++filt >/dev/null 2>&1; then DEMANGLE=c++filt
elif [ -x "$(dirname "${NVCC:-x}")/cu++filt" ]; then DEMANGLE="$(dirname "$NVCC")/cu++filt"
fi
ARCH="${MB_ARCH:-sm_90}"
NVFLAGS=(-O3 -std=c++17 "-arch=$ARCH" -lineinfo)
# Extra nvcc flags for both builds (for trying the script elsewhere, e.g.
# MB_NVCC_EXTRA=-allow-unsupported-compiler); empty on the GPU machine.
read -r -a EXTRA <<<"${MB_NVCC_EXTRA:-}"
NVFLAGS+=("${EXTRA[@]}")

# Most important first, so that a short budget still gets them.
# MB_PROGS (space-separated) runs a subset: MB_PROGS="counters queue".
PROGS=(day26_blocksize determinism atomics_global atomics_shared softmax sliced histogram
       bandwidth launch waves counters queue histshape access cas reproducible ordering softmax_small
       queue_lab l1reuse cas_timeline sm_issue sharedq queue_sm hotlines l2sm blockq queue_loop mergeburst cas_wait l2line store_sm firstpop store_merge queue_sched prolog qk4 casrate)
SASS75=(atomics_global atomics_shared day26_blocksize sliced histogram softmax)
if [ -n "${MB_PROGS:-}" ]; then
    read -r -a PROGS <<<"$MB_PROGS"
    SASS75=()
fi

log "microbench: out=$OUTDIR work=$RAW nvcc=${NVCC:-none} arch=$ARCH budget=${TOTAL_BUDGET}s"

# ---------------------------------------------------------------- environment
{
    echo "# date_utc: $STAMP"
    echo "# host: $(uname -a)"
    echo "# script: $HERE/run.sh"
    echo "# git: $(git -C "$HERE" rev-parse HEAD 2>/dev/null || echo unknown)"
    echo "# nvcc: ${NVCC:-none}"
    echo "# flags: ${NVFLAGS[*]}"
} >"$RAW/env.txt"
if [ -n "$NVCC" ]; then "$NVCC" --version >"$RAW/nvcc-version.txt" 2>&1; fi
if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi -q 2>&1 | head -60 >"$RAW/nvidia-smi-q.txt"
    nvidia-smi >"$RAW/nvidia-smi.txt" 2>&1
else
    echo "nvidia-smi not found" >"$RAW/nvidia-smi-q.txt"
fi
CLOCKS="$RAW/logs/clocks.csv"
echo "when,timestamp,clocks.sm,clocks.mem,temperature.gpu,power.draw,utilization.gpu" >"$CLOCKS"
clocks() {
    if command -v nvidia-smi >/dev/null 2>&1; then
        echo "$1,$(nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,temperature.gpu,power.draw,utilization.gpu --format=csv,noheader 2>&1 | head -1)" >>"$CLOCKS"
    fi
}

# ---------------------------------------------------------------- build
declare -A BUILD_RC RUN_RC RUN_S
if [ -z "$NVCC" ]; then
    log "no nvcc found: nothing can be built"
else
    log "building ${#PROGS[@]} programs for $ARCH and ${#SASS75[@]} sm_75 cubins in parallel"
    for p in "${PROGS[@]}"; do
        (
            "$NVCC" "${NVFLAGS[@]}" -Xptxas -v -o "$RAW/bin/$p" "$HERE/$p.cu" \
                >"$RAW/build/$p.log" 2>&1
            echo $? >"$RAW/build/$p.rc"
        ) &
    done
    for p in "${SASS75[@]}"; do
        (
            "$NVCC" -O3 -std=c++17 -arch=sm_75 -lineinfo "${EXTRA[@]}" -cubin -o "$RAW/bin/$p.sm_75.cubin" \
                "$HERE/$p.cu" >"$RAW/build/$p.sm_75.log" 2>&1
            echo $? >"$RAW/build/$p.sm_75.rc"
        ) &
    done
    wait
fi
for p in "${PROGS[@]}"; do
    BUILD_RC[$p]="$(cat "$RAW/build/$p.rc" 2>/dev/null || echo none)"
    if [ "${BUILD_RC[$p]}" = "0" ]; then
        log "build $p: ok"
    else
        log "build $p: FAILED (rc ${BUILD_RC[$p]}); see build/$p.log"
        tail -5 "$RAW/build/$p.log" 2>/dev/null | sed 's/^/    /' >&2
    fi
done

# ---------------------------------------------------------------- run
clocks before_runs
for p in "${PROGS[@]}"; do
    RUN_RC[$p]="not_run"
    RUN_S[$p]="0"
    if [ "${BUILD_RC[$p]}" != "0" ]; then
        RUN_RC[$p]="no_binary"
        continue
    fi
    elapsed=$(( $(date +%s) - T0 ))
    left=$(( TOTAL_BUDGET - elapsed ))
    if [ "$left" -lt 25 ]; then
        RUN_RC[$p]="skipped_budget"
        log "run $p: SKIPPED, ${left}s of the total budget left"
        continue
    fi
    cap=$(( left - 15 ))
    [ "$cap" -gt 100 ] && cap=100
    [ -n "${MB_PROG_BUDGET_S:-}" ] && [ "$cap" -gt "$MB_PROG_BUDGET_S" ] && cap=$MB_PROG_BUDGET_S
    lim=$(( left ))
    [ "$lim" -gt 120 ] && lim=120
    log "run $p: start (budget cap ${cap}s, timeout ${lim}s)"
    s0=$(date +%s.%N)
    MB_BUDGET_S="$cap" timeout -k 5 "$lim" "$RAW/bin/$p" >"$RAW/csv/$p.csv" 2>"$RAW/logs/$p.stderr"
    rc=$?
    s1=$(date +%s.%N)
    RUN_RC[$p]="$rc"
    RUN_S[$p]="$(awk -v a="$s0" -v b="$s1" 'BEGIN{printf "%.1f", b-a}')"
    clocks "after_$p"
    log "run $p: rc=$rc in ${RUN_S[$p]}s, $(grep -vc '^#' "$RAW/csv/$p.csv" 2>/dev/null) csv lines, $(grep -c ',FAIL' "$RAW/csv/$p.csv" 2>/dev/null) FAIL"
    [ "$rc" = "124" ] || [ "$rc" = "137" ] && log "run $p: TIMED OUT"
done

# ---------------------------------------------------------------- SASS
SASS_SUM="$RAW/sass_atomics.txt"
: >"$SASS_SUM"
if [ -n "$CUOBJDUMP" ]; then
    log "dumping SASS with $CUOBJDUMP"
    filter_sass() {  # $1 = sass file, $2 = title
        echo "==================== $2"
        grep -E 'Function :|ATOM|RED|VOTE|POPC|REDUX|MATCH|CAS|ELECT|SHFL|BAR\.' "$1" \
            | sed -E 's@/\* 0x[0-9a-f]+ \*/@@; s/[[:space:]]+$//' | $DEMANGLE
    }
    # cuobjdump can take seconds per binary: run them side by side.
    for p in "${PROGS[@]}"; do
        [ -x "$RAW/bin/$p" ] && timeout 120 "$CUOBJDUMP" --dump-sass "$RAW/bin/$p" \
            >"$RAW/sass/$p.$ARCH.sass" 2>&1 &
    done
    for p in "${SASS75[@]}"; do
        [ -f "$RAW/bin/$p.sm_75.cubin" ] && timeout 120 "$CUOBJDUMP" --dump-sass \
            "$RAW/bin/$p.sm_75.cubin" >"$RAW/sass/$p.sm_75.sass" 2>&1 &
    done
    wait
    for p in "${PROGS[@]}"; do
        [ -f "$RAW/sass/$p.$ARCH.sass" ] && filter_sass "$RAW/sass/$p.$ARCH.sass" "$p ($ARCH)" >>"$SASS_SUM"
    done
    for p in "${SASS75[@]}"; do
        [ -f "$RAW/sass/$p.sm_75.sass" ] && filter_sass "$RAW/sass/$p.sm_75.sass" "$p (sm_75 cubin)" >>"$SASS_SUM"
    done
else
    log "no cuobjdump found: no SASS"
    echo "no cuobjdump found" >"$SASS_SUM"
fi
clocks end

# ---------------------------------------------------------------- summary
SUM="$RAW/summary.txt"
{
    echo "warplab microbench run $STAMP"
    echo "device: $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader 2>/dev/null | head -1)"
    echo "nvcc: $(grep -E 'release' "$RAW/nvcc-version.txt" 2>/dev/null | head -1)"
    echo "flags: ${NVFLAGS[*]}"
    echo "total: $(( $(date +%s) - T0 ))s of budget ${TOTAL_BUDGET}s"
    echo
    printf '%-16s %6s %14s %8s %6s %5s %s\n' program build run seconds rows FAIL notes
    for p in "${PROGS[@]}"; do
        f="$RAW/csv/$p.csv"
        rows=0; fails=0; notes=""
        if [ -f "$f" ]; then
            rows=$(( $(grep -vc '^#' "$f") - 1 ))
            [ "$rows" -lt 0 ] && rows=0
            fails=$(grep -c ',FAIL' "$f")
            grep -q '^# TRUNCATED' "$f" && notes="$notes truncated"
            grep -q '^# FATAL' "$f" && notes="$notes fatal:$(grep -m1 '^# FATAL' "$f" | cut -c10-90)"
            grep -q '^# end' "$f" || notes="$notes no_end_marker"
        fi
        printf '%-16s %6s %14s %8s %6s %5s %s\n' "$p" "${BUILD_RC[$p]}" "${RUN_RC[$p]}" \
            "${RUN_S[$p]}" "$rows" "$fails" "$notes"
    done
    for p in "${SASS75[@]}"; do
        rc="$(cat "$RAW/build/$p.sm_75.rc" 2>/dev/null || echo none)"
        [ "$rc" = "0" ] || echo "sm_75 cubin of $p: build rc $rc"
    done
    echo
    echo "GPU clocks (nvidia-smi) between programs:"
    column -s, -t <"$CLOCKS" 2>/dev/null || cat "$CLOCKS"
    for p in "${PROGS[@]}"; do
        f="$RAW/csv/$p.csv"
        [ -f "$f" ] || continue
        if grep -q '^# S ' "$f"; then
            echo
            echo "---- $p"
            grep '^# S ' "$f" | cut -c5-
        fi
    done
} >"$SUM" 2>&1

# ---------------------------------------------------------------- package
log "packing into $OUTDIR"
cp "$LOG" "$OUTDIR/run.log" 2>/dev/null
cp "$SUM" "$OUTDIR/summary.txt" 2>/dev/null
cp "$SASS_SUM" "$OUTDIR/sass_atomics.txt" 2>/dev/null
for p in day26_blocksize atomics_global; do
    [ -f "$RAW/csv/$p.csv" ] && cp "$RAW/csv/$p.csv" "$OUTDIR/$p.csv"
done
rm -f "$RAW/bin/"*  # binaries are rebuilt from source; keep the archive small
tar -C "$WORK" -czf "$OUTDIR/microbench-results.tar.gz" "$NAME" 2>>"$LOG" \
    || log "tar failed"
log "done: $(du -sh "$OUTDIR" 2>/dev/null | cut -f1) in $OUTDIR"
cp "$LOG" "$OUTDIR/run.log" 2>/dev/null
cat "$OUTDIR/summary.txt"
exit 0
