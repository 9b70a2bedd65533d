#!/usr/bin/env bash
# fuzz.sh runs each fuzz target for a bounded time (FUZZTIME, 8s by
# default) after its seed corpus: the front end (cudac: FuzzCompile,
# FuzzDefine), the --buf parser (cmd/warplab: FuzzParseBuf), the device
# spec parser (gpu: FuzzParseSpec), the grader's notebook reader
# (grade: FuzzAnswerCell), the simulator's generated arithmetic
# against its reference (gpusim/internal/engine: FuzzGeneratedArithmetic),
# device printf's formats (gpusim/internal/engine: FuzzFormatC) and the
# labs' --set settings (cmd/warplab: FuzzLabSettings).
# A target that finds a crash fails the script;
# go test writes the input to the package's testdata/fuzz/TARGET, where it
# is committed with the fix as a regression case (plain go test runs it).
#
# scripts/test.sh runs it after the tests. Alone: scripts/fuzz.sh, or
# FUZZTIME=5m scripts/fuzz.sh to search longer.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

fuzztime=${FUZZTIME:-8s}
targets=(
	"./cudac FuzzCompile"
	"./cudac FuzzDefine"
	"./cmd/warplab FuzzParseBuf"
	"./gpu FuzzParseSpec"
	"./grade FuzzAnswerCell"
	"./gpusim/internal/engine FuzzGeneratedArithmetic"
	"./gpusim/internal/engine FuzzFormatC"
	"./cmd/warplab FuzzLabSettings"
)
failed=()
fuzz() { go test -run '^$' -fuzz "^$2\$" -fuzztime "$fuzztime" "$1"; }
for t in "${targets[@]}"; do
	read -r pkg name <<<"$t"
	echo "fuzz: $name in $pkg for $fuzztime" >&2
	log=$(mktemp)
	if ! fuzz "$pkg" "$name" 2>&1 | tee "$log" >&2; then
		# Go's fuzzing engine can end a run at its own -fuzztime deadline
		# with "context deadline exceeded" and no failing input: the
		# engine's time ran out, not the target. Run that target once more;
		# a real failure writes its input and fails again.
		if grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"; then
			echo "fuzz: $name stopped at the engine's deadline with no failing input: once more" >&2
			fuzz "$pkg" "$name" >&2 || failed+=("$name ($pkg)")
		else
			failed+=("$name ($pkg)")
		fi
	fi
	rm -f "$log"
done
if [ ${#failed[@]} -gt 0 ]; then
	echo "fuzz: ${#failed[@]} target(s) failed (the crashing inputs are under the packages' testdata/fuzz):" >&2
	printf '  %s\n' "${failed[@]}" >&2
	exit 1
fi
echo "fuzz: all targets passed" >&2
