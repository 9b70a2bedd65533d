#!/usr/bin/env bash
# notebook.sh starts the classic Jupyter notebook on warplab's notebooks/,
# after scripts/setup.sh (quick when all is installed: it registers the GoNB
# kernel linked to this checkout and installs the chart library where the
# server serves it), and prints the URL to open, at the start page. It listens on 0.0.0.0, port $PORT (default 8888), and opens no
# browser. The token in the URL is $JUPYTER_TOKEN when set, else random.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"

gobin=$(go env GOBIN)
[ -n "$gobin" ] || gobin="$(go env GOPATH)/bin"
# The GoNB kernel inherits this PATH: it needs go, gonb, goimports, gopls.
export PATH="$gobin:$PATH"

port=${PORT:-8888}
token=${JUPYTER_TOKEN:-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')}
mkdir -p "$root/notebooks"
args=(notebook --no-browser --ip=0.0.0.0 --port="$port" --port-retries=0
	--notebook-dir="$root/notebooks" --NotebookApp.token="$token")
if [ "$(id -u)" -eq 0 ]; then
	args+=(--allow-root)
fi

printf '\nwarplab: notebooks at http://localhost:%s/notebooks/00-start-here.ipynb?token=%s\n' "$port" "$token"
printf 'warplab: (from another machine, use this one'"'"'s address instead of localhost)\n\n'
exec /usr/bin/jupyter "${args[@]}"
