package cudarun

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// EnvNVRTC names NVRTC's library explicitly, overriding the search.
const EnvNVRTC = "WARPLAB_NVRTC"

// libcudaName is the driver library: the NVIDIA driver installs it on the
// loader path.
const libcudaName = "libcuda.so.1"

// nvrtcNames are NVRTC's names, newest first: the development link, then
// the sonames of CUDA 13, 12 and 11.2 and later.
var nvrtcNames = []string{"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"}

// nvrtcCandidates returns where to look for NVRTC, in order: WARPLAB_NVRTC
// alone if it is set; else each name on the loader path, then in
// $CUDA_HOME/lib64, $CUDA_PATH/lib64, /usr/local/cuda/lib64 and the
// versioned /usr/local/cuda-*/lib64, newest first.
func nvrtcCandidates() []string {
	if p := os.Getenv(EnvNVRTC); p != "" {
		return []string{p}
	}
	out := slices.Clone(nvrtcNames)
	var dirs []string
	for _, env := range []string{"CUDA_HOME", "CUDA_PATH"} {
		if d := os.Getenv(env); d != "" {
			dirs = append(dirs, filepath.Join(d, "lib64"))
		}
	}
	dirs = append(dirs, "/usr/local/cuda/lib64")
	versioned, _ := filepath.Glob("/usr/local/cuda-*/lib64")
	slices.SortFunc(versioned, func(a, b string) int { return -compareVersionedPath(a, b) })
	dirs = append(dirs, versioned...)
	for _, d := range dirs {
		for _, n := range nvrtcNames {
			p := filepath.Join(d, n)
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// compareVersionedPath orders /usr/local/cuda-12.4/lib64 before
// /usr/local/cuda-12.10/lib64 by their numbers.
func compareVersionedPath(a, b string) int {
	va, vb := pathVersion(a), pathVersion(b)
	for i := 0; i < len(va) && i < len(vb); i++ {
		if va[i] != vb[i] {
			return va[i] - vb[i]
		}
	}
	return len(va) - len(vb)
}

func pathVersion(p string) []int {
	_, v, _ := strings.Cut(filepath.Base(filepath.Dir(p)), "cuda-")
	var out []int
	for _, f := range strings.Split(v, ".") {
		n := 0
		for _, c := range f {
			if c < '0' || c > '9' {
				break
			}
			n = n*10 + int(c-'0')
		}
		out = append(out, n)
	}
	return out
}

// nvrtcBuiltins returns the libnvrtc-builtins libraries beside an NVRTC
// found by path: NVRTC loads them by soname, which fails when their folder
// is not on the loader path, unless they are already loaded.
func nvrtcBuiltins(nvrtcPath string) []string {
	if !strings.Contains(nvrtcPath, "/") {
		return nil
	}
	dir := filepath.Dir(nvrtcPath)
	if real, err := filepath.EvalSymlinks(nvrtcPath); err == nil {
		dir = filepath.Dir(real)
	}
	m, _ := filepath.Glob(filepath.Join(dir, "libnvrtc-builtins.so*"))
	slices.Sort(m)
	return m
}
