#!/bin/sh
# PrairieLearn's entrypoint for the warplab grader image: grades the
# uploaded notebook (/grade/student) against the key beside this script
# (/grade/tests/key.toml, which students never see) and writes
# /grade/results/results.json. If the grader itself fails, a results.json
# says so, and the log (this script's output) is the instructor's.
# $WARPLAB_GRADE_ROOT replaces /grade, for tests.
root="${WARPLAB_GRADE_ROOT:-/grade}"
out=$(mktemp -d)
mkdir -p "$root/results"
warplab grade --key "$root/tests/key.toml" --jobs 1 --format prairielearn --out "$out" "$root/student"
status=$?
set -- "$out"/*/results.json
if [ "$status" -eq 0 ] && [ "$#" -eq 1 ] && [ -f "$1" ]; then
  cp "$1" "$root/results/results.json"
else
  echo "run.sh: warplab grade failed (exit $status); writing a results.json that says so" >&2
  cat > "$root/results/results.json" <<'FALLBACK'
{"gradable": false, "score": 0, "message": "The grader could not grade this submission: it stopped with an error. This is not your fault; your instructor can see the log.", "format_errors": ["the grader stopped with an error (not your submission's fault)"], "tests": []}
FALLBACK
fi
exit 0
