#!/usr/bin/env bash
# image-test.sh builds warplab's images from the unmodified Dockerfile with
# podman and tests the student image from the inside, on a machine with no
# Docker engine and no container registry.
#
#   1. Base images are made locally and tagged with the names the
#      Dockerfile's FROM lines use by default: Debian bookworm from Debian's
#      packages (mmdebstrap), and a stand-in for the Go image holding this
#      machine's Go toolchain (the Dockerfile copies only /usr/local/go from
#      it), and one for the Node image holding this machine's node and npm
#      (which fetch the chart library). The cuda target's NVIDIA base is replaced, through its build
#      argument, by Debian with placeholder NVRTC files: the cuda image is
#      built here, not run.
#   2. podman builds the student (default), grader and cuda targets, with
#      its layer cache: a second run rebuilds only what changed.
#   3. In a writable container made from the student image (podman create
#      and mount; podman run does not work in this sandbox), as jovyan
#      (1000:100) through chroot and setpriv, with the image's environment
#      and no network (unshare --net, loopback only):
#        - the start script copies the notebooks into the home, keeps a
#          student's edits, and chooses jupyterhub-singleuser when
#          JUPYTERHUB_API_TOKEN is set, the Notebook server otherwise;
#        - the Notebook server answers on a loopback port and lists the
#          GoNB kernel;
#        - warplab lab day26 runs;
#        - the Day 26 notebook executes through nbclient (GOPROXY=off, the
#          module cache of the image only);
#        - an arbitrary UID in group 100 can use the home;
#      then podman diff shows nothing written outside $HOME and /tmp.
#   4. Static checks: the docker-stacks conventions in the image's config,
#      no sudo, no grading key in the student image.
# It prints each image's size and each build's time.
#
# It needs root, podman, mmdebstrap, setpriv, unshare and ip (scripts/setup.sh
# installs podman, mmdebstrap and uidmap). Without podman it skips with a
# message; with WARPLAB_REQUIRE_IMAGE=1 a missing tool is a failure instead.
#
# Environment:
#   WARPLAB_REQUIRE_IMAGE=1   fail, rather than skip, when podman is missing
#   WARPLAB_IMAGE_CACHE       where the base tarball is kept (default
#                             ${XDG_CACHE_HOME:-$HOME/.cache}/warplab/image)
#   WARPLAB_IMAGE_REFRESH=1   make the local base images again
#   WARPLAB_IMAGE_REPORT      also write the measurements to this file
set -euo pipefail

say() { printf 'image-test: %s\n' "$*" >&2; }
die() { printf 'image-test: FAIL: %s\n' "$*" >&2; exit 1; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

skip_or_die() {
	if [ "${WARPLAB_REQUIRE_IMAGE:-}" = 1 ]; then
		die "$* (WARPLAB_REQUIRE_IMAGE=1)"
	fi
	say "skipped: $* (scripts/setup.sh installs podman, mmdebstrap and uidmap; WARPLAB_REQUIRE_IMAGE=1 makes this a failure)"
	exit 0
}
command -v podman >/dev/null || skip_or_die "podman is not installed"
[ "$(id -u)" -eq 0 ] || skip_or_die "the image test needs root (podman build --isolation chroot, chroot, mounts)"
for tool in mmdebstrap setpriv unshare ip chroot mount; do
	command -v "$tool" >/dev/null || die "$tool is not installed (scripts/setup.sh installs it)"
done
command -v go >/dev/null || die "go is not on PATH (the Go image's stand-in is made from it)"

readonly prefix=localhost/warplab-test
readonly student=$prefix/student grader=$prefix/grader cuda=$prefix/cuda
readonly cuda_base=$prefix/cuda-standin:latest
cache=${WARPLAB_IMAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/warplab/image}
mkdir -p "$cache"
podman_build=(podman build --isolation chroot --cgroup-manager cgroupfs --pull=never --layers)
if [ -n "${GOPROXY:-}" ]; then
	podman_build+=(--build-arg "GOPROXY=$GOPROXY")
fi
# This machine's trusted certificates, for the build's downloads (npm, Go),
# in case its network intercepts TLS; mounted, not copied into any image.
ca_file=${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}
if [ -s "$ca_file" ]; then
	podman_build+=(--volume "$ca_file:/run/warplab-build-ca.crt:ro" --build-arg BUILD_CA_FILE=/run/warplab-build-ca.crt)
fi

# --- cleanup ---------------------------------------------------------------
ctr= rootfs= sampler= mounted_images=() report=()
cleanup() {
	local rc=$?
	set +e
	[ -n "$sampler" ] && kill "$sampler" 2>/dev/null
	if [ -n "$rootfs" ]; then
		for m in proc dev; do
			mountpoint -q "$rootfs/$m" && umount -R "$rootfs/$m"
		done
	fi
	if [ -n "$ctr" ]; then
		podman umount "$ctr" >/dev/null 2>&1
		podman rm -f "$ctr" >/dev/null 2>&1
	fi
	for img in "${mounted_images[@]}"; do
		podman image umount "$img" >/dev/null 2>&1
	done
	[ -n "${work:-}" ] && rm -rf "$work"
	if [ $rc -ne 0 ]; then
		say "FAILED (exit $rc)"
	fi
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM
work=$(mktemp -d)

# dockerfile_default NAME prints the default of the Dockerfile's ARG NAME.
dockerfile_default() {
	local v
	v=$(sed -n "s/^ARG $1=//p" Dockerfile | head -n1)
	[ -n "$v" ] || die "Dockerfile: no default for ARG $1"
	printf '%s' "$v"
}
# qualify NAME prints the name podman resolves a short name to.
qualify() {
	case "$1" in
	*/*/*) printf '%s' "$1" ;;
	*/*) printf 'docker.io/%s' "$1" ;;
	*) printf 'docker.io/library/%s' "$1" ;;
	esac
}
# sample_rss ROOT FILE writes to FILE, every second, the largest total
# resident memory (kB) seen so far of the processes whose root is ROOT:
# what a container of the image needs at its peak.
sample_rss() {
	local max=0 total
	while :; do
		total=$(find /proc -mindepth 2 -maxdepth 2 -name root -lname "$1" -printf '%h/status\n' 2>/dev/null |
			xargs -r cat 2>/dev/null | awk '/^VmRSS:/ { s += $2 } END { print s + 0 }') || true
		if [ "${total:-0}" -gt "$max" ]; then
			max=$total
			echo "$max" >"$2"
		fi
		sleep 1
	done
}
# elapsed prints the seconds since $1.
elapsed() { echo $(($(date +%s) - $1)); }

# --- 1. local base images ----------------------------------------------------
base_image=$(qualify "$(dockerfile_default BASE_IMAGE)")
go_image=$(qualify "$(dockerfile_default GO_IMAGE)")
[ "$base_image" = docker.io/library/debian:bookworm ] ||
	die "the Dockerfile's BASE_IMAGE is $base_image: this test only knows how to make debian:bookworm"

if [ "${WARPLAB_IMAGE_REFRESH:-}" = 1 ]; then
	rm -f "$cache/debian-bookworm.tar"
	podman rmi -f "$base_image" "$go_image" "$(qualify "$(dockerfile_default NODE_IMAGE)")" "$cuda_base" >/dev/null 2>&1 || true
fi
if ! podman image exists "$base_image"; then
	if [ ! -s "$cache/debian-bookworm.tar" ]; then
		say "making the Debian bookworm base with mmdebstrap (about a minute)"
		mmdebstrap --quiet --variant=minbase --format=tar bookworm "$cache/debian-bookworm.tar.part" ||
			die "mmdebstrap failed: Debian's package mirror must be reachable"
		mv "$cache/debian-bookworm.tar.part" "$cache/debian-bookworm.tar"
	fi
	say "importing the base as $base_image"
	podman import --quiet "$cache/debian-bookworm.tar" "$base_image" >/dev/null
fi

goroot=$(go env GOROOT)
goversion=$(go env GOVERSION)
have=$(podman image inspect --format '{{index .Config.Labels "warplab.go-version"}}' "$go_image" 2>/dev/null || true)
if [ "$have" != "$goversion" ]; then
	say "making $go_image: a stand-in holding this machine's $goversion ($goroot) as /usr/local/go"
	tar -C "$goroot" --transform 's,^\.,usr/local/go,' --numeric-owner -cf - . |
		podman import --quiet --change "LABEL warplab.go-version=$goversion" - "$go_image" >/dev/null
fi

node_image=$(qualify "$(dockerfile_default NODE_IMAGE)")
node=$(command -v node || true)
npm_dir="$(npm root -g 2>/dev/null || true)/npm"
[ -n "$node" ] && [ -f "$npm_dir/bin/npm-cli.js" ] || die "node and npm are not installed (the Node image's stand-in is made from them)"
nodeversion=$("$node" --version)
have=$(podman image inspect --format '{{index .Config.Labels "warplab.node-version"}}' "$node_image" 2>/dev/null || true)
if [ "$have" != "$nodeversion" ]; then
	say "making $node_image: a stand-in holding this machine's node $nodeversion and npm on the Debian base"
	mkdir -p "$work/node"
	cp "$node" "$work/node/node"
	cp -a "$npm_dir" "$work/node/npm"
	cat >"$work/node/Containerfile" <<-EOF
		FROM $base_image
		COPY node /usr/local/bin/node
		COPY npm /usr/local/lib/node_modules/npm
		RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm && node --version && npm --version
		LABEL warplab.node-version=$nodeversion
	EOF
	"${podman_build[@]}" --quiet -t "$node_image" "$work/node" >/dev/null ||
		die "could not make the Node image's stand-in"
fi

if ! podman image exists "$cuda_base"; then
	say "making $cuda_base: Debian with placeholder NVRTC files, in place of the NVIDIA CUDA base"
	mkdir -p "$work/cuda"
	cat >"$work/cuda/Containerfile" <<-EOF
		FROM $base_image
		RUN mkdir -p /usr/local/cuda/lib64 \\
		 && echo 'placeholder made by scripts/image-test.sh' > /usr/local/cuda/lib64/libnvrtc.so.13 \\
		 && echo 'placeholder made by scripts/image-test.sh' > /usr/local/cuda/lib64/libnvrtc-builtins.so.13
	EOF
	"${podman_build[@]}" --quiet -t "$cuda_base" "$work/cuda" >/dev/null
fi

# --- 2. builds -----------------------------------------------------------------
# build NAME TAG [ARGS...] builds one target and records its time.
build() {
	local name=$1 tag=$2 start log
	shift 2
	log="$work/build-$name.log"
	say "building the $name image ($tag)"
	start=$(date +%s)
	if ! "${podman_build[@]}" -t "$tag" "$@" . >"$log" 2>&1; then
		tail -n 40 "$log" >&2
		die "podman build of the $name image failed (the last 40 lines of its log are above)"
	fi
	report+=("build $name: $(elapsed "$start") s")
}
build student "$student" --target student
build grader "$grader" --target grader
build cuda "$cuda" --target cuda --build-arg "CUDA_IMAGE=$cuda_base"
# The default target is the student image.
default_id=$("${podman_build[@]}" --quiet . 2>/dev/null | tail -n1)
student_id=$(podman image inspect --format '{{.Id}}' "$student")
[ -n "$default_id" ] && [ "${student_id#"$default_id"}" != "$student_id" ] ||
	die "the Dockerfile's default target is not the student image"
for img in "$student" "$cuda" "$grader"; do
	size=$(podman image inspect --format '{{.Size}}' "$img")
	report+=("size ${img##*/}: $((size / 1000000)) MB")
done

# --- 4. static checks of the student image -----------------------------------
say "checking the student image's configuration and files"
config=$(podman image inspect --format 'user={{.Config.User}} workdir={{.Config.WorkingDir}} entrypoint={{join .Config.Entrypoint " "}} ports={{range $p, $_ := .Config.ExposedPorts}}{{$p}} {{end}}' "$student")
for want in "user=1000:100" "workdir=/home/jovyan" "entrypoint=tini -g -- warplab-start" "ports=8888/tcp"; do
	case " $config " in
	*" $want "*) ;;
	*) die "student image config: want $want, have: $config" ;;
	esac
done
img_root=$(podman image mount "$student")
mounted_images+=("$student")
grep -q '^jovyan:x:1000:100:' "$img_root/etc/passwd" || die "no user jovyan 1000:100 in /etc/passwd"
[ "$(stat -c '%u:%g %a' "$img_root/home/jovyan")" = "1000:100 2775" ] ||
	die "/home/jovyan is $(stat -c '%u:%g %a' "$img_root/home/jovyan"), want 1000:100 2775 (group-writable, setgid)"
[ -z "$(ls -A "$img_root/home/jovyan")" ] || die "the image's home is not empty: $(ls -A "$img_root/home/jovyan")"
for f in usr/bin/sudo usr/bin/su-to-root; do
	[ ! -e "$img_root/$f" ] || die "the student image has /$f"
done
grep -Eq '^sudo:.*jovyan' "$img_root/etc/group" && die "jovyan is in the sudo group"
[ -f "$img_root/usr/local/share/jupyter/kernels/gonb/kernel.json" ] ||
	die "no GoNB kernel spec under /usr/local/share/jupyter"
grep -q -- '-go_work=/usr/local/src/warplab"' "$img_root/usr/local/share/jupyter/kernels/gonb/kernel.json" ||
	die "the GoNB kernel spec does not link /usr/local/src/warplab (-go_work): $(cat "$img_root/usr/local/share/jupyter/kernels/gonb/kernel.json")"
echarts_version=$(sed -n 's/^readonly ECHARTS_VERSION=//p' scripts/setup.sh)
[ "$(dockerfile_default ECHARTS_VERSION)" = "$echarts_version" ] ||
	die "the Dockerfile's ECHARTS_VERSION is not scripts/setup.sh's $echarts_version"
gopls_version=$(sed -n 's/^readonly GOPLS_VERSION=//p' scripts/setup.sh)
[ "$(sed -n 's/^ARG GOPLS_VERSION=//p' Dockerfile)" = "$gopls_version" ] ||
	die "the Dockerfile's GOPLS_VERSION is not scripts/setup.sh's $gopls_version"
[ -s "$img_root/usr/local/share/jupyter/nbextensions/warplab/echarts-$echarts_version.min.js" ] ||
	die "no echarts $echarts_version where the notebook server serves it (/usr/local/share/jupyter/nbextensions/warplab/)"
# No grading key: no keys directory and no key file anywhere outside the Go
# toolchain and module cache (third-party code, not warplab's).
keys=$(cd "$img_root" && find . \( -path ./proc -o -path ./sys -o -path ./usr/local/go -o -path ./usr/local/share/go \) -prune -o \
	\( -type d -name keys -o -type f \( -name '*key*.toml' -o -name '*.key.yaml' -o -name '*key*.yaml' -o -name '*key*.yml' \) \) -print)
[ -z "$keys" ] || die "the student image holds grading keys: $keys"
# No solution: warplab's source in the image has no tests or testdata (the
# exercises' right answers live there).
solutions=$(cd "$img_root/usr/local/src" && find . \( -name '*_test.go' -o -type d -name testdata \) -print | head -5)
[ -z "$solutions" ] || die "the student image holds tests or testdata with solutions: $solutions"
# No GPU runs: calibration/ (the runs' raw logs, the microbenchmarks) is
# left out of the build context by .dockerignore (scripts/check.sh checks
# that statically).
runs=$(cd "$img_root/usr/local/src" && find . \( -type d -name calibration -o -type d -name evidence \) -print | head -5)
[ -z "$runs" ] || die "the student image holds GPU runs: $runs"
podman image umount "$student" >/dev/null
mounted_images=()

# --- 3. the student image from the inside -------------------------------------
# The image's own environment, as docker run would set it.
mapfile -t image_env < <(podman image inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$student" | sed '/^$/d')

# open_container makes a fresh writable container of the student image,
# mounts it at $rootfs with /dev and /proc, and puts image-check.sh in its /tmp.
open_container() {
	ctr=$(podman create --name "warplab-image-test-$$-$1" "$student")
	rootfs=$(podman mount "$ctr")
	mount --rbind /dev "$rootfs/dev"
	mount --make-rslave "$rootfs/dev"
	mount -t proc proc "$rootfs/proc" 2>/dev/null || mount --rbind /proc "$rootfs/proc"
	cp scripts/image-check.sh "$rootfs/tmp/warplab-image-check.sh"
	chmod 0755 "$rootfs/tmp/warplab-image-check.sh"
}

# close_container unmounts it and fails if anything was written outside
# $HOME and /tmp, then removes it.
close_container() {
	local outside
	for m in proc dev; do umount -R "$rootfs/$m"; done
	rm -f "$rootfs/tmp/warplab-image-check.sh"
	podman umount "$ctr" >/dev/null
	rootfs=
	outside=$(podman diff "$ctr" | awk '{print $2}' | grep -Ev '^(/home/jovyan(/.*)?|/tmp(/.*)?|/dev|/proc|/home)$' || true)
	[ -z "$outside" ] || die "the student image wrote outside \$HOME and /tmp: $(printf '%s ' $outside)"
	podman rm -f "$ctr" >/dev/null
	ctr=
}

# in_image UID:GID CMD... runs CMD in the container's root as UID:GID with
# the image's environment, in a new network namespace with only loopback up.
in_image() {
	local ids=$1
	shift
	unshare --net -- sh -c 'ip link set lo up && exec "$@"' sh \
		chroot "$rootfs" setpriv --reuid "${ids%:*}" --regid "${ids#*:}" --clear-groups \
		env -i "${image_env[@]}" "$@"
}

say "checks as jovyan (1000:100), network off: start script, Notebook server, warplab lab, the Day 26 notebook"
open_container jovyan
start=$(date +%s)
sample_rss "$rootfs" "$work/peak-kb" &
sampler=$!
in_image 1000:100 /tmp/warplab-image-check.sh jovyan || die "the checks inside the student image failed (see above)"
kill "$sampler" 2>/dev/null || true
wait "$sampler" 2>/dev/null || true
sampler=
report+=("checks as jovyan: $(elapsed "$start") s")
[ -s "$work/peak-kb" ] && report+=("peak memory of the checks (all processes of the container): $(($(cat "$work/peak-kb") / 1024)) MB")
close_container

say "checks as an arbitrary UID (4242:100) in a fresh container"
open_container other-uid
in_image 4242:100 /tmp/warplab-image-check.sh other-uid || die "the checks as an arbitrary UID (4242:100) failed (see above)"
close_container

say "PASS"
printf '%s\n' "${report[@]}" | sed 's/^/image-test: /' >&2
if [ -n "${WARPLAB_IMAGE_REPORT:-}" ]; then
	printf '%s\n' "${report[@]}" >"$WARPLAB_IMAGE_REPORT"
fi
