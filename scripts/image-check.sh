#!/bin/bash
# image-check.sh runs inside warplab's student image, as the user a
# container runs as, with the image's environment and no network:
# scripts/image-test.sh copies it into a container's /tmp and runs it there.
#
#   image-check.sh jovyan     the full checks (start script, Notebook server,
#                             warplab lab day26, the Day 26 notebook)
#   image-check.sh other-uid  what an arbitrary UID in group 100 needs
set -euo pipefail

mode=${1:?usage: image-check.sh jovyan|other-uid}
say() { printf 'image-check (%s, uid %s): %s\n' "$mode" "$(id -u)" "$*" >&2; }
die() { printf 'image-check (%s, uid %s): FAIL: %s\n' "$mode" "$(id -u)" "$*" >&2; exit 1; }

[ "$(id -g)" = 100 ] || die "running as gid $(id -g), want 100"
[ "$HOME" = /home/jovyan ] || die "HOME is $HOME, want /home/jovyan (from the image's ENV)"
cd "$HOME"
nbsrc=$WARPLAB_MODULE_DIR/notebooks/day26-atomics.ipynb
nb=$HOME/warplab/day26-atomics.ipynb

# Offline: nothing but loopback, and Go may not download.
[ "$(go env GOPROXY)" = off ] || die "GOPROXY is $(go env GOPROXY), want off"
if python3 -c 'import socket; socket.create_connection(("1.1.1.1", 53), timeout=2)' 2>/dev/null; then
	die "the network is reachable: the checks must run offline"
fi

# No GPU runs in the image: calibration/ (the runs, their raw logs and the
# programs that made them) stays out of the build context (.dockerignore).
if stray=$(find "$WARPLAB_MODULE_DIR" \( -name calibration -o -name evidence \) -print -quit) && [ -n "$stray" ]; then
	die "the image ships GPU runs: $stray (calibration/ must stay in .dockerignore)"
fi

# --- the start script -----------------------------------------------------------
out=$(WARPLAB_START_DRY_RUN=1 warplab-start) || die "warplab-start failed"
case "$out" in
jupyter\ notebook\ *--ip=0.0.0.0\ --port=8888\ *) ;;
*) die "without a hub, warplab-start would run: $out" ;;
esac
cmp -s "$nbsrc" "$nb" || die "warplab-start did not copy the Day 26 notebook into $HOME/warplab"
out=$(JUPYTERHUB_API_TOKEN=test-token WARPLAB_START_DRY_RUN=1 warplab-start) || die "warplab-start failed under a hub"
case "$out" in
jupyterhub-singleuser\ *) ;;
*) die "with JUPYTERHUB_API_TOKEN set, warplab-start would run: $out (want jupyterhub-singleuser)" ;;
esac
jupyterhub-singleuser --version >/dev/null 2>&1 || die "jupyterhub-singleuser does not start"
# A student's edits survive a restart.
cp "$nb" "$HOME/nb.orig"
printf '{"edited": true}\n' >"$nb"
WARPLAB_START_DRY_RUN=1 warplab-start >/dev/null
grep -q edited "$nb" || die "warplab-start overwrote an edited notebook"
mv "$HOME/nb.orig" "$nb"
say "start script: notebooks copied, edits kept, Notebook server without a hub, jupyterhub-singleuser with one"

if [ "$mode" = other-uid ]; then
	# Build and run a program from the module cache, as a UID with no passwd entry.
	warplab devices >/dev/null || die "warplab devices failed"
	# A module like GoNB's, in a go.work that uses warplab, as the kernel's
	# -go_work sets up every notebook.
	mod=$(mktemp -d)
	(cd "$mod" && go mod init image-check >/dev/null 2>&1 &&
		go work init . "$WARPLAB_MODULE_DIR" &&
		printf 'package main\n\nimport _ "github.com/warplab/warplab/labs/nb"\n\nfunc main() {}\n' >main.go &&
		go build -o /dev/null .) || die "go cannot build warplab's packages offline in a go.work"
	rm -rf "$mod"
	say "an arbitrary UID in group 100 can use the image: the home, warplab, go"
	exit 0
fi

# --- the Notebook server on a loopback port ----------------------------------------
export JUPYTER_TOKEN=image-check
log=/tmp/image-check-server.log
warplab-start >"$log" 2>&1 &
server=$!
stop_server() { kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true; }
trap stop_server EXIT
specs=
for _ in $(seq 1 120); do
	if specs=$(python3 - 2>/dev/null <<-'EOF'
		import json, urllib.request
		r = urllib.request.urlopen("http://127.0.0.1:8888/api/kernelspecs?token=image-check", timeout=2)
		print(" ".join(sorted(json.load(r)["kernelspecs"])))
	EOF
	); then
		break
	fi
	kill -0 "$server" 2>/dev/null || { cat "$log" >&2; die "the Notebook server exited"; }
	sleep 0.5
done
[ -n "$specs" ] || { cat "$log" >&2; die "the Notebook server did not answer on 127.0.0.1:8888 within 60 s"; }
case " $specs " in
*" gonb "*) ;;
*) die "the Notebook server lists the kernels [$specs], not gonb" ;;
esac
python3 - <<-'EOF' || die "the Notebook server does not list warplab/day26-atomics.ipynb"
	import json, urllib.request
	r = urllib.request.urlopen("http://127.0.0.1:8888/api/contents/warplab?token=image-check", timeout=5)
	names = [c["name"] for c in json.load(r)["content"]]
	assert "day26-atomics.ipynb" in names, names
	assert "00-start-here.ipynb" in names, names
EOF
python3 - <<-'EOF' || die "the Notebook server does not serve the chart library at /nbextensions/warplab/"
	import os, urllib.request
	want = os.path.getsize(os.environ["WARPLAB_ECHARTS_JS"])
	r = urllib.request.urlopen("http://127.0.0.1:8888/nbextensions/warplab/" + os.path.basename(os.environ["WARPLAB_ECHARTS_JS"]) + "?token=image-check", timeout=5)
	got = len(r.read())
	assert got == want, (got, want)
EOF
stop_server
trap - EXIT
say "Notebook server: answered on 127.0.0.1:8888, kernels [$specs], the labs and the start page in ~/warplab, the chart library served"

# --- warplab lab day26 --------------------------------------------------------------
# Small sizes keep it quick (the flags differ between CLI versions).
help=$(warplab lab day26 --help 2>&1 || true)
lab_args=(lab day26)
case "$help" in
*--set*) lab_args+=(--set sizes=4096,65536 --set block-sizes=64,256 --set determinism-n=65536 --set determinism-runs=3) ;;
*-determinism-n*) lab_args+=(--sizes 4096,65536 --block-sizes 64,256 --determinism-n 65536 --determinism-runs 3) ;;
esac
out=$(warplab "${lab_args[@]}" 2>&1) || { printf '%s\n' "$out" >&2; die "warplab ${lab_args[*]} failed"; }
grep -q 'sim:t4\|T4' <<<"$out" || { printf '%s\n' "$out" >&2; die "warplab ${lab_args[*]} did not run on the simulator"; }
say "warplab ${lab_args[*]}: ran ($(wc -l <<<"$out") lines of tables)"

# --- the Day 26 notebook, through nbclient, offline -----------------------------------
executed=/tmp/day26-executed.ipynb
if ! jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=1200 \
	--ExecutePreprocessor.kernel_name=gonb --output "$executed" "$nb" >/tmp/image-check-nbconvert.log 2>&1; then
	tail -n 60 /tmp/image-check-nbconvert.log >&2
	die "the Day 26 notebook failed to execute"
fi
python3 - "$executed" <<-'EOF' || die "the executed Day 26 notebook is not what it should be"
	import json, sys
	nb = json.load(open(sys.argv[1]))
	html, errors = [], []
	for i, c in enumerate(nb["cells"]):
	    for o in c.get("outputs", []):
	        if o["output_type"] == "error":
	            errors.append("cell %d: %s: %s" % (i, o.get("ename"), o.get("evalue")))
	        text = o.get("text", "")
	        if o["output_type"] == "stream" and "warplab: no go.mod" in "".join(text):
	            errors.append("cell %d: %s" % (i, "".join(text).strip()))
	        page = o.get("data", {}).get("text/html", "")
	        html.append("".join(page))
	code = [c for c in nb["cells"] if c["cell_type"] == "code"]
	first = "".join(code[0]["source"]) if code else ""
	if not first.startswith("import") or '"github.com/warplab/warplab/labs/atomics"' not in first:
	    errors.append("the first code cell is not the lab's import: %r" % first[:200])
	size = len(open(sys.argv[1], "rb").read())
	if size >= 1000000:
	    errors.append("the executed notebook weighs %d bytes, want under 1 MB" % size)
	page = "\n".join(html)
	for want in ("One sum, three ways", "Day 26 sweep: 15/15 done", 'class="warplab-feedback"', 'class="warplab-chart"'):
	    if want not in page:
	        errors.append("no %r in the notebook's HTML outputs" % want)
	if 'src="data:image/svg+xml;base64,' not in page:
	    errors.append("the charts carry no static image")
	for e in errors:
	    print("image-check:", e, file=sys.stderr)
	sys.exit(1 if errors else 0)
EOF
say "the Day 26 notebook: executed offline, tables, charts and the exercise check present"
say "the home after the notebook: $(du -sh "$HOME" | cut -f1) ($(du -sh "$HOME/.cache/go-build" 2>/dev/null | cut -f1) of it Go's build cache)"
