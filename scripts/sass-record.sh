#!/usr/bin/env bash
# sass-record.sh records kernels' SASS for gpusim's registry of recorded
# SASS (gpusim/sassorder), on a machine with NVRTC and cuobjdump (the CUDA
# toolkit) but perhaps no Go: build warplab with cgo first, on the
# development machine, and carry bin/warplab with the tree:
#
#   go build -o bin/warplab ./cmd/warplab                 (development machine)
#   scripts/sass-record.sh OUTDIR                         (the queue lab's popThread and popWarp)
#   scripts/sass-record.sh OUTDIR FILE:KERNEL...          (those kernels)
#   scripts/sass-record.sh OUTDIR --labs                  (every lab kernel that is not a template, in files without #include)
#
# run from the repository root. Each kernel's file goes to OUTDIR/ARCH/
# (ARCH from $SASS_ARCH, default sm_90) under the registry's name, written
# by warplab sass --record; warplab's line for it (the file, and whether a
# ULDC comes before the first global atomic's LDC) goes to
# OUTDIR/record.log. Copy the files into gpusim/sassorder/ARCH/ unedited.
# It exits 1 when any kernel failed (record.log says which) and records
# the others.
set -euo pipefail
out=${1:?usage: scripts/sass-record.sh OUTDIR [FILE:KERNEL... | --labs]}
shift
arch=${SASS_ARCH:-sm_90}
warplab=${WARPLAB:-bin/warplab}
if [ "${1:-}" = --labs ]; then
	set --
	for f in labs/*/kernels/*.cu; do
		grep -q '^[[:space:]]*#[[:space:]]*include' "$f" && continue
		for k in $(awk '/^[[:space:]]*template/ { skip = 1; next } skip { skip = 0; next } { print }' "$f" | grep -o '__global__ void [A-Za-z_][A-Za-z0-9_]*(' | sed 's/__global__ void //; s/($//'); do
			set -- "$@" "$f:$k"
		done
	done
elif [ $# -eq 0 ]; then
	set -- labs/queue/kernels/queue.cu:popThread labs/queue/kernels/queue.cu:popWarp
fi
mkdir -p "$out/$arch"
fail=0
for fk in "$@"; do
	f=${fk%%:*}
	k=${fk#*:}
	if ! "$warplab" sass "$f" --kernel "$k" --arch "$arch" --record "$out/$arch" >>"$out/record.log" 2>&1; then
		echo "FAILED: $f --kernel $k" >>"$out/record.log"
		fail=1
	fi
done
echo "$# kernels, $(find "$out/$arch" -name '*.sass' | wc -l) files in $out/$arch" >>"$out/record.log"
exit $fail
