#!/bin/bash
# Runs the CUDA subset's GPU evidence (issue 10) on a machine with an
# NVIDIA GPU: the conformance suite through cudarun (the cases of every
# feature run on the simulator in CI run here on the GPU) and the kernel
# corpus. Build on any Linux machine with cgo, from the repository root:
#   CGO_ENABLED=1 go test -c -o bin/gpu/cudarun.test ./cudarun
#   CGO_ENABLED=1 go test -c -o bin/gpu/corpus.test ./internal/corpus
# then on the GPU machine, from the repository root:
#   bash scripts/gpu-cuda-subset.sh [OUTPUT_FILE]
set -u
out=${1:-gpu-cuda-subset.txt}
step() { echo; echo "\$ $*"; "$@" 2>&1; echo "(exit $?)"; }
{
echo "== date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "== machine: $(uname -srm); $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
echo "== commit: $(git rev-parse HEAD 2>/dev/null || cat bin/gpu/commit 2>/dev/null)"
echo "== cooperative groups headers: $(ls /usr/local/cuda/include/cooperative_groups.h 2>&1)"
cd cudarun
step timeout 500 ../bin/gpu/cudarun.test -test.v -test.count=1 -test.run '^TestConformance$'
cd ..
if [ -x bin/gpu/corpus.test ]; then
  cd internal/corpus
  WARPLAB_DEVICE=cuda step timeout 300 ../../bin/gpu/corpus.test -test.v -test.count=1 -test.run '^TestCorpusGPU$'
  cd ../..
fi
} 2>&1 | tee "$out"
