# ncu-common.sh: what the Nsight Compute scripts (calibration/scripts/ncu-*.sh) share.
# A script sources it first, with its own arguments:
#   . "$(dirname "${BASH_SOURCE[0]}")/ncu-common.sh" "$@"
# and then has:
#   out     the output folder (the script's first argument, made and
#           made absolute; usage error without it)
#   root    the repository root, the current directory from here on
#   log     its log file, OUTDIR/SCRIPT.log (ncu-l2.sh: ncu-l2.log)
#   M       the microbenchmarks' folder
#   NVCC    nvcc (env NVCC, else on PATH or in /usr/local/cuda/bin)
#   NCU     ncu (env NCU, likewise)
#   ncu_header TITLE   starts the log: TITLE, date, commit, GPU, nvcc, ncu;
#                      and an empty OUTDIR/build.log
#   run CMD...         runs CMD, logging it, its exit code and seconds
#   nvcc_build PROG BIN  builds $M/PROG.cu into BIN with the
#                      microbenchmarks' nvcc flags (run.sh's, for sm_90),
#                      its output appended to OUTDIR/build.log; nvcc's
#                      exit code
out=${1:?usage: $0 OUTDIR}
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd) || exit 2
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 2
log=$out/$(basename "$0" .sh).log
M=calibration/microbench
PATH=$PATH:/usr/local/cuda/bin
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}

ncu_header() {
	{
		echo "$1"
		echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
		echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
		echo "machine: $(nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap --format=csv,noheader 2>/dev/null | head -1)"
		echo "nvcc: $("$NVCC" --version 2>/dev/null | grep -o 'V[0-9][0-9.]*' | head -1)"
		echo "ncu: $("$NCU" --version 2>/dev/null | tail -1)"
	} >"$log"
	: >"$out/build.log"
}

run() {
	local t0=$SECONDS
	echo "+ $*" >>"$log"
	"$@"
	local rc=$?
	echo "  rc=$rc in $((SECONDS - t0)) s" >>"$log"
	return $rc
}

nvcc_build() {
	run "$NVCC" -O3 -std=c++17 -arch=sm_90 -lineinfo -o "$2" "$M/$1.cu" >>"$out/build.log" 2>&1
}
