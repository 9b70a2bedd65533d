#!/usr/bin/env bash
# lab-identity.sh: the simulator's predictions, lab by lab, for comparing two
# commits byte for byte (a change for speed must not move one of them).
#
#   scripts/lab-identity.sh DIR [SPEC]   build cmd/warplab from the working
#       tree and write DIR/NAME.json, every lab's `warplab lab NAME --device
#       SPEC --json` output (SPEC defaults to sim:h200) less its wall-time
#       fields (elapsed_seconds, report.seconds,
#       report.wall_time), and DIR/NAME.cpu, the
#       run's CPU seconds (user + system).
#   scripts/lab-identity.sh --diff DIR1 DIR2   compare two such folders:
#       exit 0 when every lab's JSON is the same, 1 otherwise.
#
# WARPLAB_IDENTITY_JOBS runs that many labs at once (default 1: CPU seconds
# are measured either way; on a shared machine keep it low).
set -euo pipefail

if [[ ${1:-} == --diff ]]; then
	[[ $# -eq 3 ]] || { echo "usage: $0 --diff DIR1 DIR2" >&2; exit 2; }
	rc=0
	for f in "$2"/*.json; do
		n=$(basename "$f")
		if [[ ! -f $3/$n ]]; then
			echo "lab-identity: $n: missing from $3" >&2; rc=1
		elif ! cmp -s "$f" "$3/$n"; then
			echo "lab-identity: $n differs:" >&2
			diff "$f" "$3/$n" | head -20 >&2; rc=1
		fi
	done
	[[ $rc -eq 0 ]] && echo "lab-identity: $(ls "$2"/*.json | wc -l) labs identical"
	exit $rc
fi

[[ $# -ge 1 && $# -le 2 ]] || { echo "usage: $0 DIR [SPEC] | --diff DIR1 DIR2" >&2; exit 2; }
out=$1
spec=${2:-sim:h200}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
(cd "$root" && go build -o "$bin/warplab" ./cmd/warplab)
labs=$("$bin/warplab" lab list --json | jq -r '.[].name')

one() {
	local n=$1 t
	t=$(mktemp)
	/usr/bin/time -f '%U %S' -o "$t.time" "$bin/warplab" lab "$n" --device "$spec" --json >"$t"
	jq -S 'del(.elapsed_seconds, .report.seconds, .report.wall_time)' "$t" >"$out/$n.json"
	awk '{printf "%.2f\n", $1 + $2}' "$t.time" >"$out/$n.cpu"
	rm -f "$t" "$t.time"
	echo "$n $(cat "$out/$n.cpu") CPU s"
}
export -f one
export bin out spec
printf '%s\n' $labs | xargs -P "${WARPLAB_IDENTITY_JOBS:-1}" -I{} bash -c 'one {}'
