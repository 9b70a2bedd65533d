#!/usr/bin/env bash
# ncu-l2.sh measures the L2's hit rate and per-slice load with Nsight
# Compute, for gpusim's L2 residency and slice models (issue 9's profile
# view). It builds calibration/microbench/l2probe.cu with nvcc
# and profiles each of its launches once, cold (ncu flushes the caches before
# every launch: --cache-control all), in several ncu runs, one group of
# metrics each, so that a metric name this ncu does not know costs only its
# own group:
#
#   core   lts__t_sectors (.sum .avg .max .min: instances = sum / avg, the
#          busiest slice = max), lts__t_requests, lts__t_sector_hit_rate,
#          dram bytes read and written
#   ops    L2 sectors by operation (read, write, atom, red) and source unit,
#          with their busiest slice
#   lookup L2 lookups that hit and miss, L1 hit rate and global load sectors
#   fabric L2 sectors from the other partition (Hopper's two L2 halves)
#   inst   lts__t_sectors and lts__t_sectors_op_red with
#          --print-metric-instances values (one value per slice, where this
#          ncu gives them)
#
# usage, from the repository root on the GPU machine (nvcc and ncu on PATH or
# in /usr/local/cuda/bin; no Go needed):
#
#   calibration/scripts/ncu-l2.sh OUTDIR
#
# It writes OUTDIR/l2probe.csv (the launches, numbered as ncu's IDs),
# OUTDIR/ncu-GROUP.csv (ncu --csv --page raw), OUTDIR/ncu-inst.txt,
# OUTDIR/ncu-metrics-lts.txt (the lts__ and dram__ metrics this ncu
# offers), OUTDIR/ncu-l2.log (commands, times, exit codes). Expected time on
# an H200: about 20 s of build, about 1-2 minutes of profiling.
set -u

. "$(dirname "${BASH_SOURCE[0]}")/ncu-common.sh" "$@"
prog=/tmp/ncu-l2-probe
ncu_header "ncu-l2: L2 hit rate and per-slice load of l2probe.cu's launches"

nvcc_build l2probe "$prog" ||
	{ echo "ncu-l2: build failed, see $out/build.log" >&2; exit 1; }

# Without ncu: the launch list (and a check that the program runs).
run "$prog" >"$out/l2probe.csv" 2>"$out/l2probe.stderr" || echo "ncu-l2: l2probe failed alone" >&2

core=lts__t_sectors.sum,lts__t_sectors.avg,lts__t_sectors.max,lts__t_sectors.min,lts__t_requests.sum,lts__t_requests.max,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
ops=lts__t_sectors_op_read.sum,lts__t_sectors_op_read.max,lts__t_sectors_op_write.sum,lts__t_sectors_op_write.max,lts__t_sectors_op_atom.sum,lts__t_sectors_op_atom.max,lts__t_sectors_op_red.sum,lts__t_sectors_op_red.max,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_tex.max
lookup=lts__t_sectors_lookup_hit.sum,lts__t_sectors_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
fabric=lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_ltcfabric.max

for g in core ops lookup fabric; do
	run "$NCU" --cache-control all --csv --page raw --metrics "${!g}" --log-file "$out/ncu-$g.csv" \
		"$prog" >"$out/l2probe-$g.stdout" 2>&1 || echo "ncu-l2: ncu group $g failed (rc in $log)" >&2
done
run "$NCU" --cache-control all --print-metric-instances values --metrics lts__t_sectors.sum,lts__t_sectors_op_red.sum \
	--log-file "$out/ncu-inst.txt" "$prog" >"$out/l2probe-inst.stdout" 2>&1 || echo "ncu-l2: ncu instances failed" >&2
run "$NCU" --query-metrics --chip gh100 >"$out/ncu-metrics-all.txt" 2>&1 ||
	run "$NCU" --query-metrics >"$out/ncu-metrics-all.txt" 2>&1
grep -E '^(lts__|dram__|ltc__)' "$out/ncu-metrics-all.txt" >"$out/ncu-metrics-lts.txt"
gzip -f "$out/ncu-metrics-all.txt"
echo "done: $(date -u '+%H:%M:%S UTC')" >>"$log"
cat "$log"
