# ncu-common.sh: what the Nsight Compute scripts (scripts/ncu-*.sh) share,
# sourced after they cd to the repository root and set out (the output
# folder) and log (their log file in it):
#   M       the microbenchmarks' folder
#   NVCC    nvcc (env NVCC, else on PATH or in /usr/local/cuda/bin)
#   NCU     ncu (env NCU, likewise)
#   ncu_header TITLE   starts the log: TITLE, date, commit, GPU, nvcc, ncu
#   run CMD...         runs CMD, logging it, its exit code and seconds
M=gpusim/profiles/testdata/microbench
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
}

run() {
	local t0=$SECONDS
	echo "+ $*" >>"$log"
	"$@"
	local rc=$?
	echo "  rc=$rc in $((SECONDS - t0)) s" >>"$log"
	return $rc
}
