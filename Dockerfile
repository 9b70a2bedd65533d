# warplab's images. Targets:
#
#   student (default)  the labs on the simulator, in the classic Jupyter
#                      Notebook on the GoNB kernel:
#                        docker build -t warplab .
#                        docker run -p 8888:8888 warplab
#   cuda               the same on an NVIDIA CUDA runtime base (NVRTC is in
#                      it), so the labs run on the GPU:
#                        docker build --target cuda -t warplab:cuda .
#                        docker run --gpus all -p 8888:8888 warplab:cuda
#   grader             warplab and the instructor keys, for warplab grade:
#                        docker build --target grader -t warplab:grader .
#
# The student and cuda images follow the jupyter/docker-stacks conventions
# that JupyterHub expects: user jovyan (UID 1000, GID 100), port 8888,
# WORKDIR /home/jovyan, nothing needed in $HOME (tools in /usr/local, the
# kernel spec in /usr/local/share/jupyter), a start script that runs
# jupyterhub-singleuser under a hub; any UID works with GID 100. The Go
# module cache is filled at build time and GOPROXY=off: a running container
# needs no network. deploy/jupyterhub/values.yaml serves them on Kubernetes.
#
# Every base is a build argument, so a builder with no registry can
# substitute local images (scripts/image-test.sh does, with podman).

ARG BASE_IMAGE=debian:bookworm
ARG CUDA_IMAGE=nvidia/cuda:13.0.1-runtime-ubuntu24.04
# The Go toolchain is copied from this image's /usr/local/go.
ARG GO_IMAGE=golang:1.26-bookworm
# npm fetches the chart library in a stage of this image.
ARG NODE_IMAGE=node:22-bookworm-slim
ARG ECHARTS_VERSION=5.6.0
# A builder behind a TLS-intercepting proxy names here a PEM bundle, mounted
# into the build, that npm and Go must trust for their downloads (the images
# do not keep it). Empty: the bases' own trust.
ARG BUILD_CA_FILE=

FROM ${GO_IMAGE} AS go

# --- the chart library, fetched with npm (nothing third-party is committed)
FROM ${NODE_IMAGE} AS echarts
ARG ECHARTS_VERSION
ARG BUILD_CA_FILE
RUN if [ -n "$BUILD_CA_FILE" ]; then export NODE_EXTRA_CA_CERTS="$BUILD_CA_FILE"; fi \
 && mkdir /tmp/pack && cd /tmp/pack \
 && npm pack --loglevel=error "echarts@${ECHARTS_VERSION}" \
 && tar -xzf "echarts-${ECHARTS_VERSION}.tgz" package/dist/echarts.min.js \
 && mkdir -p /out \
 && mv package/dist/echarts.min.js "/out/echarts-${ECHARTS_VERSION}.min.js" \
 && rm -rf /tmp/pack /root/.npm

# --- Go tools, the module cache, warplab --------------------------------------
FROM ${BASE_IMAGE} AS build
ARG GOPLS_VERSION=v0.23.0
# The Go module proxy, when the builder must use another one (passed
# through; Go's default otherwise).
ARG GOPROXY=
ARG BUILD_CA_FILE
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ca-certificates gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
COPY --from=go /usr/local/go /usr/local/go
ENV PATH=/usr/local/go/bin:$PATH \
    GOTOOLCHAIN=local \
    GOFLAGS=-buildvcs=false \
    GOPATH=/usr/local/share/go \
    GOCACHE=/root/.cache/go-build
WORKDIR /src
# gopls does not build against the x/tools that go.mod pins: it is built on
# its own, with a module cache the image does not keep, before go.mod is
# copied so that a change to warplab's dependencies does not rebuild it.
RUN if [ -n "$BUILD_CA_FILE" ]; then export SSL_CERT_FILE="$BUILD_CA_FILE"; fi \
 && cd / && GOMODCACHE=/tmp/gopls-mod GOBIN=/usr/local/bin \
      go install "golang.org/x/tools/gopls@${GOPLS_VERSION}" \
 && chmod -R u+w /tmp/gopls-mod && rm -rf /tmp/gopls-mod /root/.cache/go-build
# The module cache the image ships: every module of warplab's build list
# (GoNB and goimports among them, pinned as tools in go.mod). Extracted
# sources are enough to build offline; the zips are dropped.
COPY go.mod go.sum ./
RUN if [ -n "$BUILD_CA_FILE" ]; then export SSL_CERT_FILE="$BUILD_CA_FILE"; fi \
 && go mod download \
 && GOBIN=/usr/local/bin go install tool \
 && find "$(go env GOMODCACHE)/cache/download" -name '*.zip' -delete \
 && rm -rf /root/.cache/go-build
COPY . .
# warplab itself (with cgo: it finds a GPU through dlopen), a static one for
# the grader (CGO_ENABLED=0: it never runs a GPU; the same binary goes into
# Gradescope's autograder zip), and the source tree the notebooks link to,
# without instructor keys and without tests and testdata, which hold the
# exercises' right answers (solution kernels, graded classes).
RUN go build -o /usr/local/bin/warplab ./cmd/warplab \
 && mkdir -p /out && CGO_ENABLED=0 go build -o /out/warplab-static ./cmd/warplab \
 && rm -rf /root/.cache/go-build \
 && mkdir -p /out/src /out/keys \
 && cp -a . /out/src/warplab \
 && find /out/src/warplab \( -type d -name keys -o -name '*key*.toml' -o -name '*key*.yaml' -o -name '*key*.yml' -o -type d -name testdata -o -name '*_test.go' \) -prune -exec rm -rf {} + \
 && for d in grade/keys keys; do if [ -d "$d" ]; then cp -a "$d/." /out/keys/; fi; done

# --- the grader: warplab and the keys, no Jupyter ---------------------------------
FROM ${BASE_IMAGE} AS grader
RUN useradd --no-log-init --uid 1000 --gid 100 --create-home --shell /bin/sh grader
COPY --from=build /out/warplab-static /usr/local/bin/warplab
COPY --from=build /out/keys/ /usr/local/share/warplab/keys/
ENV WARPLAB_KEYS=/usr/local/share/warplab/keys
USER 1000:100
WORKDIR /home/grader
ENTRYPOINT ["warplab", "grade"]

# --- the notebook image: the student target, and the base of the cuda one -------
FROM ${BASE_IMAGE} AS notebook
ARG ECHARTS_VERSION
# Jupyter from Debian's packages: the classic Notebook, nbclient for headless
# runs, jupyterhub-singleuser for a hub; tini reaps the kernels' children.
# jovyan joins the existing group users (GID 100); the home is group-writable
# with the setgid bit so that any UID in that group can use it. No sudo.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ca-certificates jupyter-notebook jupyter-nbconvert jupyter-client \
      python3-nbclient jupyterhub tini \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --no-log-init --uid 1000 --gid 100 --no-create-home --shell /bin/bash jovyan \
 && install -d -o 1000 -g 100 -m 2775 /home/jovyan
COPY --from=go /usr/local/go /usr/local/go
COPY --from=build /usr/local/share/go /usr/local/share/go
COPY --from=build /usr/local/bin/gonb /usr/local/bin/goimports /usr/local/bin/gopls /usr/local/bin/
# The chart library, where the notebook server serves it
# (BASE_URL/nbextensions/warplab/...): the charts load it from there.
COPY --from=echarts /out/ /usr/local/share/jupyter/nbextensions/warplab/
COPY --from=build /out/src/ /usr/local/src/
COPY --from=build /usr/local/bin/warplab /usr/local/bin/
COPY deploy/image/warplab-start /usr/local/bin/warplab-start
ENV HOME=/home/jovyan \
    USER=jovyan \
    PATH=/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    GOTOOLCHAIN=local \
    GOPATH=/usr/local/share/go \
    GOPROXY=off \
    GOSUMDB=off \
    CGO_ENABLED=0 \
    WARPLAB_MODULE_DIR=/usr/local/src/warplab \
    WARPLAB_ECHARTS_JS=/usr/local/share/jupyter/nbextensions/warplab/echarts-${ECHARTS_VERSION}.min.js \
    JUPYTER_PORT=8888 \
    GOMEMLIMIT=1600MiB
# GOMEMLIMIT: the Go runtime's soft limit for each Go process (the GoNB
# kernel, a cell's program), sized for the 2G pods of
# deploy/jupyterhub/values.yaml (which sets it too); override it with
# docker run -e GOMEMLIMIT=... on a larger machine. The simulator refuses
# device memory beyond the smallest of it, the cgroup's limit and the host's.
# The GoNB kernel spec goes to a system Jupyter path, not the home. Its
# -go_work starts every notebook with a go.work that uses warplab's source
# tree, so a notebook's first cell imports its lab, offline, at the
# versions warplab's go.mod pins (in workspace mode Go refuses
# GOFLAGS=-mod=mod, so GOFLAGS is left unset).
RUN chmod 0755 /usr/local/bin/warplab-start \
 && JUPYTER_DATA_DIR=/usr/local/share/jupyter gonb --install --go_work="$WARPLAB_MODULE_DIR" \
 && test -f /usr/local/share/jupyter/kernels/gonb/kernel.json \
 && grep -q -- "-go_work=$WARPLAB_MODULE_DIR\"" /usr/local/share/jupyter/kernels/gonb/kernel.json \
 && test -s "$WARPLAB_ECHARTS_JS" \
 && rm -rf /root/.cache /root/.config /tmp/*
USER 1000:100
WORKDIR /home/jovyan
EXPOSE 8888
ENTRYPOINT ["tini", "-g", "--", "warplab-start"]

# --- cuda: the notebook image with NVRTC, for a GPU -----------------------------
# NVRTC comes from NVIDIA's CUDA runtime image; the driver (libcuda.so.1) is
# mounted by the NVIDIA container toolkit at run time (docker run --gpus all,
# or the Kubernetes device plugin).
FROM ${CUDA_IMAGE} AS cuda-libs
RUN mkdir /out && cp -a /usr/local/cuda/lib64/libnvrtc.so.* /usr/local/cuda/lib64/libnvrtc-builtins.so.* /out/

FROM notebook AS cuda
USER root
# cgo is on in this image, so that notebook cells build cudarun for real.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
COPY --from=cuda-libs /out/ /usr/local/cuda/lib64/
ENV CGO_ENABLED=1 \
    NVIDIA_VISIBLE_DEVICES=all \
    NVIDIA_DRIVER_CAPABILITIES=compute,utility
USER 1000:100

# --- student, the default target (the last stage) ------------------------------
FROM notebook AS student
