#!/usr/bin/env bash
# setup.sh installs everything warplab's notebooks and their tests need:
#
#   - Debian packages: Jupyter (nbconvert, nbclient, the classic notebook UI),
#     Chromium and fonts (for the notebook screenshot tests), podman,
#     mmdebstrap and uidmap (for the image test, scripts/image-test.sh);
#   - GoNB and goimports at the versions pinned in go.mod ("go install tool"),
#     gopls (installed on its own: it does not build against our x/tools pin),
#     and the GoNB Jupyter kernel ("gonb --install --go_work=CHECKOUT": every
#     notebook starts with a go.work that uses this checkout, so a notebook's
#     first cell imports its lab, with no module set-up of its own);
#   - the echarts JavaScript library, fetched with "npm pack" into a cache
#     outside git (nothing third-party is committed), and installed as a
#     notebook extension file (JUPYTER_DATA_DIR/nbextensions/warplab/), which
#     the notebook server serves, offline, to the charts that load it;
#   - in a git checkout, scripts/commit-msg as the commit-msg hook, unless one
#     is installed already.
#
# It is safe to run twice and fast when everything is already there. Run it as
# root, or as a user with sudo for the Debian packages.
#
# Environment:
#   WARPLAB_ECHARTS_JS  where the echarts library goes (default
#                       ${XDG_CACHE_HOME:-$HOME/.cache}/warplab/echarts-5.6.0.min.js)
#   JUPYTER_DATA_DIR    where the kernel specs go (Jupyter's default otherwise)
set -euo pipefail

readonly GOPLS_VERSION=v0.23.0
readonly ECHARTS_VERSION=5.6.0
readonly APT_PACKAGES=(
	jupyter-nbconvert jupyter-client python3-nbclient jupyter-notebook
	chromium fonts-liberation fonts-dejavu-core
	podman mmdebstrap uidmap
)

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }
trap 'die "command failed (line $LINENO): $BASH_COMMAND"' ERR

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

command -v go >/dev/null || die "go is not on PATH (install Go 1.26 first)"
gobin=$(go env GOBIN)
[ -n "$gobin" ] || gobin="$(go env GOPATH)/bin"
export PATH="$gobin:$PATH"

# --- Debian packages -------------------------------------------------------
missing=()
for p in "${APT_PACKAGES[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	if [ "$status" != "install ok installed" ]; then
		missing+=("$p")
	fi
done
if [ ${#missing[@]} -gt 0 ]; then
	sudo=()
	if [ "$(id -u)" -ne 0 ]; then
		command -v sudo >/dev/null || die "not root and no sudo: install ${missing[*]} by hand"
		sudo=(sudo)
	fi
	say "installing Debian packages: ${missing[*]}"
	"${sudo[@]}" apt-get update -qq
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
	say "Debian packages: already installed"
fi
[ -x /usr/bin/jupyter ] || die "/usr/bin/jupyter missing after installing Debian packages"

# --- GoNB, goimports, gopls ------------------------------------------------
# "go install tool" is quick when nothing changed (the build cache has it all).
say "installing the tools pinned in go.mod (gonb, goimports) into $gobin"
go install tool

if gopls version 2>/dev/null | grep -q "golang.org/x/tools/gopls $GOPLS_VERSION"; then
	say "gopls $GOPLS_VERSION: already installed"
else
	say "installing gopls $GOPLS_VERSION"
	# Outside the module: gopls does not build against the x/tools that go.mod pins.
	(cd / && GOFLAGS='' go install "golang.org/x/tools/gopls@$GOPLS_VERSION")
fi

# gonb --install writes the kernel spec; it is cheap, so always refresh it
# (it records the path of the gonb binary and of this checkout, which may
# have moved). --go_work starts every notebook's Go module with a go.work
# that uses this checkout: cells import warplab's packages directly, at the
# versions this go.mod pins.
say "registering the GoNB Jupyter kernel, linked to $root"
if ! out=$(gonb --install --go_work="$root" 2>&1); then
	printf '%s\n' "$out" >&2
	die "gonb --install failed"
fi
jdata="${JUPYTER_DATA_DIR:-$HOME/.local/share/jupyter}"
kdir="$jdata/kernels/gonb"
[ -f "$kdir/kernel.json" ] || die "gonb --install did not write $kdir/kernel.json"
grep -q -- "-go_work=$root\"" "$kdir/kernel.json" || die "$kdir/kernel.json does not link $root (-go_work)"

# --- echarts ---------------------------------------------------------------
echarts="${WARPLAB_ECHARTS_JS:-${XDG_CACHE_HOME:-$HOME/.cache}/warplab/echarts-$ECHARTS_VERSION.min.js}"
if [ -s "$echarts" ]; then
	say "echarts $ECHARTS_VERSION: already at $echarts"
else
	command -v npm >/dev/null || die "npm is not on PATH (apt-get install npm)"
	say "fetching echarts $ECHARTS_VERSION with npm pack"
	tmp=$(mktemp -d)
	(cd "$tmp" && npm pack --silent "echarts@$ECHARTS_VERSION" >/dev/null)
	tar -xzf "$tmp/echarts-$ECHARTS_VERSION.tgz" -C "$tmp" package/dist/echarts.min.js
	mkdir -p "$(dirname "$echarts")"
	mv "$tmp/package/dist/echarts.min.js" "$echarts.tmp"
	mv "$echarts.tmp" "$echarts"
	rm -rf "$tmp"
	say "echarts $ECHARTS_VERSION: installed at $echarts"
fi

# The notebook server serves nbextensions/ of every Jupyter data folder at
# BASE_URL/nbextensions/: the charts load the library from there.
ext="$jdata/nbextensions/warplab/echarts-$ECHARTS_VERSION.min.js"
if ! cmp -s "$echarts" "$ext"; then
	mkdir -p "$(dirname "$ext")"
	cp "$echarts" "$ext.tmp"
	mv "$ext.tmp" "$ext"
	say "echarts $ECHARTS_VERSION: served by the notebook server from $ext"
fi

# --- the commit-msg hook ---------------------------------------------------
# Subjects of 72 characters or fewer (scripts/commit-msg); a hook already
# there is left alone. Skipped outside a git checkout.
if hooks=$(git rev-parse --git-path hooks 2>/dev/null); then
	hooks=$(cd "$hooks" 2>/dev/null && pwd || echo "$hooks")
	if [ -e "$hooks/commit-msg" ]; then
		say "commit-msg hook: one is already installed in $hooks, left as it is"
	else
		mkdir -p "$hooks"
		install -m 0755 scripts/commit-msg "$hooks/commit-msg"
		say "commit-msg hook: installed in $hooks (subjects of 72 characters or fewer)"
	fi
fi

say "done. Put $gobin on PATH to run gonb yourself; scripts/notebook.sh does it for you."
