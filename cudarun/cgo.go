//go:build linux && cgo

package cudarun

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// The few CUDA driver and NVRTC entry points cudarun calls, declared here
// (no CUDA headers at build time) and resolved with dlsym. Handles are
// opaque pointers; a device pointer (CUdeviceptr) is 64 bits.
typedef int wlres;
typedef unsigned long long wlptr;

typedef struct {
	void *lib;
	wlres (*init)(unsigned int);
	wlres (*driverGetVersion)(int *);
	wlres (*deviceGetCount)(int *);
	wlres (*deviceGet)(int *, int);
	wlres (*deviceGetName)(char *, int, int);
	wlres (*deviceGetAttribute)(int *, int, int);
	wlres (*deviceTotalMem)(size_t *, int);
	wlres (*primaryCtxRetain)(void **, int);
	wlres (*ctxSetCurrent)(void *);
	wlres (*ctxSynchronize)(void);
	wlres (*moduleLoadData)(void **, const void *);
	wlres (*moduleUnload)(void *);
	wlres (*moduleGetFunction)(void **, void *, const char *);
	wlres (*funcGetAttribute)(int *, int, void *);
	wlres (*funcSetAttribute)(void *, int, int);
	wlres (*memAlloc)(wlptr *, size_t);
	wlres (*memFree)(wlptr);
	wlres (*memcpyHtoD)(wlptr, const void *, size_t);
	wlres (*memcpyDtoH)(void *, wlptr, size_t);
	wlres (*memsetD8)(wlptr, unsigned char, size_t);
	wlres (*memHostAlloc)(void **, size_t, unsigned int);
	wlres (*memHostGetDevicePointer)(wlptr *, void *, unsigned int);
	wlres (*memFreeHost)(void *);
	wlres (*launchKernel)(void *, unsigned int, unsigned int, unsigned int,
		unsigned int, unsigned int, unsigned int, unsigned int, void *, void **, void **);
	wlres (*launchCooperative)(void *, unsigned int, unsigned int, unsigned int,
		unsigned int, unsigned int, unsigned int, unsigned int, void *, void **);
	wlres (*eventCreate)(void **, unsigned int);
	wlres (*eventDestroy)(void *);
	wlres (*eventRecord)(void *, void *);
	wlres (*eventSynchronize)(void *);
	wlres (*eventElapsedTime)(float *, void *, void *);
	wlres (*getErrorName)(wlres, const char **);
	wlres (*getErrorString)(wlres, const char **);
} wl_cuda_t;

typedef struct {
	void *lib;
	int (*version)(int *, int *);
	int (*create)(void **, const char *, const char *, int, const char *const *, const char *const *);
	int (*destroy)(void **);
	int (*compile)(void *, int, const char *const *);
	int (*logSize)(void *, size_t *);
	int (*getLog)(void *, char *);
	int (*cubinSize)(void *, size_t *);
	int (*cubin)(void *, char *);
	int (*ptxSize)(void *, size_t *);
	int (*ptx)(void *, char *);
	int (*addName)(void *, const char *);
	int (*lowered)(void *, const char *, const char **);
	const char *(*errorString)(int);
	int (*numArchs)(int *);
	int (*archs)(int *);
} wl_nvrtc_t;

static wl_cuda_t wlc;
static wl_nvrtc_t wln;

// wl_sym resolves the first of up to two names; it returns 0 when neither
// is there, and then names the missing symbol in err unless optional.
static int wl_sym(void *lib, void **slot, const char *a, const char *b, int optional, char *err, size_t errlen) {
	void *p = dlsym(lib, a);
	if (!p && b) p = dlsym(lib, b);
	*slot = p;
	if (!p && !optional) {
		snprintf(err, errlen, "symbol %s not found", a);
		return 0;
	}
	return 1;
}

#define WLS(t, f, a, b, opt) if (!wl_sym(t.lib, (void **)&t.f, a, b, opt, err, errlen)) return -2

static int wl_cuda_load(const char *path, char *err, size_t errlen) {
	wlc.lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!wlc.lib) {
		const char *e = dlerror();
		snprintf(err, errlen, "%s", e ? e : "dlopen failed");
		return -1;
	}
	WLS(wlc, init, "cuInit", NULL, 0);
	WLS(wlc, driverGetVersion, "cuDriverGetVersion", NULL, 0);
	WLS(wlc, deviceGetCount, "cuDeviceGetCount", NULL, 0);
	WLS(wlc, deviceGet, "cuDeviceGet", NULL, 0);
	WLS(wlc, deviceGetName, "cuDeviceGetName", NULL, 0);
	WLS(wlc, deviceGetAttribute, "cuDeviceGetAttribute", NULL, 0);
	WLS(wlc, deviceTotalMem, "cuDeviceTotalMem_v2", NULL, 0);
	WLS(wlc, primaryCtxRetain, "cuDevicePrimaryCtxRetain", NULL, 0);
	WLS(wlc, ctxSetCurrent, "cuCtxSetCurrent", NULL, 0);
	WLS(wlc, ctxSynchronize, "cuCtxSynchronize", NULL, 0);
	WLS(wlc, moduleLoadData, "cuModuleLoadData", NULL, 0);
	WLS(wlc, moduleUnload, "cuModuleUnload", NULL, 0);
	WLS(wlc, moduleGetFunction, "cuModuleGetFunction", NULL, 0);
	WLS(wlc, funcGetAttribute, "cuFuncGetAttribute", NULL, 0);
	WLS(wlc, funcSetAttribute, "cuFuncSetAttribute", NULL, 1);
	WLS(wlc, memAlloc, "cuMemAlloc_v2", NULL, 0);
	WLS(wlc, memFree, "cuMemFree_v2", NULL, 0);
	WLS(wlc, memcpyHtoD, "cuMemcpyHtoD_v2", NULL, 0);
	WLS(wlc, memcpyDtoH, "cuMemcpyDtoH_v2", NULL, 0);
	WLS(wlc, memsetD8, "cuMemsetD8_v2", NULL, 0);
	WLS(wlc, memHostAlloc, "cuMemHostAlloc", NULL, 1);
	WLS(wlc, memHostGetDevicePointer, "cuMemHostGetDevicePointer_v2", "cuMemHostGetDevicePointer", 1);
	WLS(wlc, memFreeHost, "cuMemFreeHost", NULL, 1);
	WLS(wlc, launchKernel, "cuLaunchKernel", NULL, 0);
	WLS(wlc, launchCooperative, "cuLaunchCooperativeKernel", NULL, 1);
	WLS(wlc, eventCreate, "cuEventCreate", NULL, 0);
	WLS(wlc, eventDestroy, "cuEventDestroy_v2", "cuEventDestroy", 0);
	WLS(wlc, eventRecord, "cuEventRecord", NULL, 0);
	WLS(wlc, eventSynchronize, "cuEventSynchronize", NULL, 0);
	WLS(wlc, eventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime", 0);
	WLS(wlc, getErrorName, "cuGetErrorName", NULL, 0);
	WLS(wlc, getErrorString, "cuGetErrorString", NULL, 0);
	return 0;
}

static int wl_nvrtc_load(const char *path, char *err, size_t errlen) {
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		const char *e = dlerror();
		snprintf(err, errlen, "%s", e ? e : "dlopen failed");
		return -1;
	}
	wl_nvrtc_t t;
	memset(&t, 0, sizeof t);
	t.lib = lib;
	int ok = 1;
#define WLN(f, a, opt) if (ok && !wl_sym(t.lib, (void **)&t.f, a, NULL, opt, err, errlen)) ok = 0
	WLN(version, "nvrtcVersion", 0);
	WLN(create, "nvrtcCreateProgram", 0);
	WLN(destroy, "nvrtcDestroyProgram", 0);
	WLN(compile, "nvrtcCompileProgram", 0);
	WLN(logSize, "nvrtcGetProgramLogSize", 0);
	WLN(getLog, "nvrtcGetProgramLog", 0);
	WLN(cubinSize, "nvrtcGetCUBINSize", 1);
	WLN(cubin, "nvrtcGetCUBIN", 1);
	WLN(ptxSize, "nvrtcGetPTXSize", 0);
	WLN(ptx, "nvrtcGetPTX", 0);
	WLN(addName, "nvrtcAddNameExpression", 0);
	WLN(lowered, "nvrtcGetLoweredName", 0);
	WLN(errorString, "nvrtcGetErrorString", 0);
	WLN(numArchs, "nvrtcGetNumSupportedArchs", 1);
	WLN(archs, "nvrtcGetSupportedArchs", 1);
#undef WLN
	if (!ok) {
		dlclose(lib);
		return -1;
	}
	wln = t;
	return 0;
}

// wl_preload loads a library globally, so that a later dlopen of its soname
// finds it; it returns 0 on success.
static int wl_preload(const char *path) {
	return dlopen(path, RTLD_NOW | RTLD_GLOBAL) ? 0 : -1;
}

static wlres wl_cuInit(void) { return wlc.init(0); }
static wlres wl_cuDriverGetVersion(int *v) { return wlc.driverGetVersion(v); }
static wlres wl_cuDeviceGetCount(int *n) { return wlc.deviceGetCount(n); }
static wlres wl_cuDeviceGet(int *d, int ord) { return wlc.deviceGet(d, ord); }
static wlres wl_cuDeviceGetName(char *s, int n, int d) { return wlc.deviceGetName(s, n, d); }
static wlres wl_cuDeviceGetAttribute(int *v, int a, int d) { return wlc.deviceGetAttribute(v, a, d); }
static wlres wl_cuDeviceTotalMem(size_t *v, int d) { return wlc.deviceTotalMem(v, d); }
static wlres wl_cuDevicePrimaryCtxRetain(void **c, int d) { return wlc.primaryCtxRetain(c, d); }
static wlres wl_cuCtxSetCurrent(void *c) { return wlc.ctxSetCurrent(c); }
static wlres wl_cuCtxSynchronize(void) { return wlc.ctxSynchronize(); }
// Modules and functions travel to Go as integers (uintptr_t), so that Go
// code never turns an integer back into a pointer.
static wlres wl_cuModuleLoadData(uintptr_t *m, const void *img) {
	void *p = NULL;
	wlres r = wlc.moduleLoadData(&p, img);
	*m = (uintptr_t)p;
	return r;
}
static wlres wl_cuModuleUnload(uintptr_t m) { return wlc.moduleUnload((void *)m); }
static wlres wl_cuModuleGetFunction(uintptr_t *f, uintptr_t m, const char *name) {
	void *p = NULL;
	wlres r = wlc.moduleGetFunction(&p, (void *)m, name);
	*f = (uintptr_t)p;
	return r;
}
static wlres wl_cuFuncGetAttribute(int *v, int a, uintptr_t f) { return wlc.funcGetAttribute(v, a, (void *)f); }
static wlres wl_cuFuncSetAttribute(uintptr_t f, int a, int v) {
	return wlc.funcSetAttribute ? wlc.funcSetAttribute((void *)f, a, v) : 801; // CUDA_ERROR_NOT_SUPPORTED
}
static wlres wl_cuMemAlloc(wlptr *p, size_t n) { return wlc.memAlloc(p, n); }
static wlres wl_cuMemFree(wlptr p) { return wlc.memFree(p); }
static wlres wl_cuMemcpyHtoD(wlptr d, const void *h, size_t n) { return wlc.memcpyHtoD(d, h, n); }
static wlres wl_cuMemcpyDtoH(void *h, wlptr d, size_t n) { return wlc.memcpyDtoH(h, d, n); }
static wlres wl_cuMemsetD8(wlptr d, size_t n) { return wlc.memsetD8(d, 0, n); }
static wlres wl_cuEventCreate(void **e) { return wlc.eventCreate(e, 0); }
static wlres wl_cuEventDestroy(void *e) { return wlc.eventDestroy(e); }
static wlres wl_cuEventSynchronize(void *e) { return wlc.eventSynchronize(e); }
static wlres wl_cuEventElapsedTime(float *ms, void *a, void *b) { return wlc.eventElapsedTime(ms, a, b); }

static const char *wl_cuErrorName(wlres r) {
	const char *s = NULL;
	if (wlc.getErrorName(r, &s) != 0 || !s) return "CUDA_ERROR_UNRECOGNIZED";
	return s;
}
static const char *wl_cuErrorString(wlres r) {
	const char *s = NULL;
	if (wlc.getErrorString(r, &s) != 0 || !s) return "unrecognized error code";
	return s;
}

// wl_gate_t is the timing gate of a context: a kernel (gate, one thread)
// that spins until the host sets flag[0], or until limit_ns of the GPU's
// global timer have passed, when it sets flag[1]. flag is host memory
// mapped into the device (dflag). gate is NULL where there is none.
typedef struct {
	void *gate;
	volatile unsigned int *flag;
	wlptr dflag;
	unsigned long long limit_ns;
} wl_gate_t;

// wl_gate_alloc allocates the gate's two flags in mapped host memory.
static wlres wl_gate_alloc(wl_gate_t *g) {
	if (!wlc.memHostAlloc || !wlc.memHostGetDevicePointer || !wlc.memFreeHost) return 801; // not supported
	void *p = NULL;
	wlres r = wlc.memHostAlloc(&p, 64, 0x01 | 0x02); // CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP
	if (r) return r;
	wlptr d = 0;
	r = wlc.memHostGetDevicePointer(&d, p, 0);
	if (r) {
		wlc.memFreeHost(p);
		return r;
	}
	memset(p, 0, 64);
	g->flag = (volatile unsigned int *)p;
	g->dflag = d;
	return 0;
}

// wl_launch records start, launches f and records stop, in one call from
// Go so that nothing but the driver's own work sits between the events.
// args holds nargs 8-byte slots, each a parameter's value in its low bytes;
// they are copied here, and cuLaunchKernel copies them again before it
// returns. coop launches with cuLaunchCooperativeKernel (801, not
// supported, when the driver lacks it). *stage says which step failed: 0
// the start event, 1 the launch, 2 the stop event, 5 the gate.
//
// With a gate (g != NULL), the gate kernel is queued first and released
// only after the stop event is queued: the GPU then meets the start event,
// the launch and the stop event together, and the time between the events
// is the GPU's alone, without the host's submission of the launch (which
// the GPU, idle, would otherwise spend waiting after it had timestamped
// the start). The gate is released on every path once it is queued.
static wlres wl_launch(uintptr_t f, unsigned int gx, unsigned int gy, unsigned int gz,
		unsigned int bx, unsigned int by, unsigned int bz, unsigned int shmem,
		const unsigned long long *args, int nargs, int coop, void *start, void *stop,
		wl_gate_t *g, int *stage) {
	int n = nargs > 0 ? nargs : 1;
	unsigned long long slots[n];
	void *params[n];
	for (int i = 0; i < nargs; i++) {
		slots[i] = args[i];
		params[i] = &slots[i];
	}
	wlres r = 0;
	if (g) {
		*stage = 5;
		g->flag[0] = 0;
		g->flag[1] = 0;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		unsigned long long gslots[2] = {g->dflag, g->limit_ns};
		void *gparams[2] = {&gslots[0], &gslots[1]};
		r = wlc.launchKernel(g->gate, 1, 1, 1, 1, 1, 1, 0, NULL, gparams, NULL);
		if (r) return r;
	}
	*stage = 0;
	r = wlc.eventRecord(start, NULL);
	if (r) goto release;
	*stage = 1;
	if (coop) {
		r = wlc.launchCooperative ? wlc.launchCooperative((void *)f, gx, gy, gz, bx, by, bz, shmem, NULL, nargs > 0 ? params : NULL) : 801;
	} else {
		r = wlc.launchKernel((void *)f, gx, gy, gz, bx, by, bz, shmem, NULL, nargs > 0 ? params : NULL, NULL);
	}
	if (r) goto release;
	*stage = 2;
	r = wlc.eventRecord(stop, NULL);
release:
	if (g) __atomic_store_n(&g->flag[0], 1u, __ATOMIC_SEQ_CST);
	return r;
}

// wl_gate_set names the gate kernel and how long it waits.
static void wl_gate_set(wl_gate_t *g, uintptr_t f, unsigned long long limit_ns) {
	g->gate = (void *)f;
	g->limit_ns = limit_ns;
}

// wl_gate_expired reports whether the last gate gave up waiting.
static int wl_gate_expired(wl_gate_t *g) { return (int)__atomic_load_n(&g->flag[1], __ATOMIC_SEQ_CST); }

// wl_redirect_begin points file descriptor 1 at fd and returns a copy of
// the old descriptor 1, or -1.
static int wl_redirect_begin(int fd) {
	fflush(stdout);
	int saved = dup(1);
	if (saved < 0) return -1;
	if (dup2(fd, 1) < 0) {
		close(saved);
		return -1;
	}
	return saved;
}

// wl_redirect_end puts descriptor 1 back; it returns 0 on success.
static int wl_redirect_end(int saved) {
	fflush(stdout);
	int r = dup2(saved, 1);
	close(saved);
	return r < 0 ? -1 : 0;
}

static int wl_nvrtcVersion(int *major, int *minor) { return wln.version(major, minor); }
static const char *wl_nvrtcErrorString(int r) { return wln.errorString(r); }
static int wl_nvrtcHaveArchs(void) { return wln.numArchs != NULL && wln.archs != NULL; }
static int wl_nvrtcNumArchs(int *n) { return wln.numArchs(n); }
static int wl_nvrtcArchs(int *a) { return wln.archs(a); }
static int wl_nvrtcHaveCUBIN(void) { return wln.cubinSize != NULL && wln.cubin != NULL; }
static int wl_nvrtcCreate(void **p, const char *src, const char *name, int n, char **headers, char **names) {
	return wln.create(p, src, name, n, (const char *const *)headers, (const char *const *)names);
}
static int wl_nvrtcDestroy(void **p) { return wln.destroy(p); }
static int wl_nvrtcCompile(void *p, int n, char **opts) { return wln.compile(p, n, (const char *const *)opts); }
static int wl_nvrtcLogSize(void *p, size_t *n) { return wln.logSize(p, n); }
static int wl_nvrtcLog(void *p, char *s) { return wln.getLog(p, s); }
static int wl_nvrtcCUBINSize(void *p, size_t *n) { return wln.cubinSize(p, n); }
static int wl_nvrtcCUBIN(void *p, char *s) { return wln.cubin(p, s); }
static int wl_nvrtcPTXSize(void *p, size_t *n) { return wln.ptxSize(p, n); }
static int wl_nvrtcPTX(void *p, char *s) { return wln.ptx(p, s); }
static int wl_nvrtcAddName(void *p, const char *s) { return wln.addName(p, s); }
static int wl_nvrtcLowered(void *p, const char *s, const char **out) { return wln.lowered(p, s, out); }
*/
import "C"

import (
	"fmt"
	"os"
	"strings"
	"time"
	"unsafe"
)

// cuError is a failed driver call.
type cuError struct {
	op   string
	code int
}

func (e *cuError) Error() string {
	return fmt.Sprintf("%s: %s (%s)", e.op, cuErrorName(e.code), cuErrorString(e.code))
}

func cuErrorName(code int) string   { return C.GoString(C.wl_cuErrorName(C.wlres(code))) }
func cuErrorString(code int) string { return C.GoString(C.wl_cuErrorString(C.wlres(code))) }

// check turns a CUresult into an error.
func check(op string, r C.wlres) error {
	if r == 0 {
		return nil
	}
	return &cuError{op: op, code: int(r)}
}

// errCode returns the CUresult of a *cuError, or -1.
func errCode(err error) int {
	if e, ok := err.(*cuError); ok {
		return e.code
	}
	return -1
}

// loadCUDALib opens libcuda.so.1 and resolves its entry points.
func loadCUDALib() error {
	path := C.CString(libcudaName)
	defer C.free(unsafe.Pointer(path))
	var buf [512]C.char
	switch C.wl_cuda_load(path, &buf[0], C.size_t(len(buf))) {
	case 0:
		return nil
	case -1:
		return fmt.Errorf("%s not found (is the NVIDIA driver installed?): %s", libcudaName, C.GoString(&buf[0]))
	}
	return fmt.Errorf("driver too old: its %s lacks an entry point warplab needs: %s", libcudaName, C.GoString(&buf[0]))
}

// loadNVRTCLib opens NVRTC from the first candidate that loads; it returns
// the path used, or an error listing what it tried.
func loadNVRTCLib() (string, error) {
	cands := nvrtcCandidates()
	var why []string
	for _, p := range cands {
		if strings.Contains(p, "/") {
			if _, err := os.Stat(p); err != nil {
				continue
			}
		}
		for _, b := range nvrtcBuiltins(p) {
			cb := C.CString(b)
			C.wl_preload(cb)
			C.free(unsafe.Pointer(cb))
		}
		cp := C.CString(p)
		var buf [512]C.char
		r := C.wl_nvrtc_load(cp, &buf[0], C.size_t(len(buf)))
		C.free(unsafe.Pointer(cp))
		if r == 0 {
			return p, nil
		}
		if msg := C.GoString(&buf[0]); strings.Contains(p, "/") || !strings.Contains(msg, "No such file") {
			why = append(why, msg)
		}
	}
	msg := "libnvrtc not found (searched " + strings.Join(cands, ", ") + ")"
	if os.Getenv(EnvNVRTC) != "" {
		msg = fmt.Sprintf("libnvrtc not found at %s=%s", EnvNVRTC, os.Getenv(EnvNVRTC))
	} else {
		msg += "; set " + EnvNVRTC + " to its path"
	}
	if len(why) > 0 {
		msg += ": " + strings.Join(why, "; ")
	}
	return "", fmt.Errorf("%s", msg)
}

func nvrtcVersion() (int, int) {
	var major, minor C.int
	C.wl_nvrtcVersion(&major, &minor)
	return int(major), int(minor)
}

// nvrtcArchs returns the compute capabilities NVRTC can build cubins for
// (75, 80, ...), or nil when this NVRTC cannot say.
func nvrtcArchs() []int {
	if C.wl_nvrtcHaveArchs() == 0 {
		return nil
	}
	var n C.int
	if C.wl_nvrtcNumArchs(&n) != 0 || n <= 0 {
		return nil
	}
	a := make([]C.int, int(n))
	if C.wl_nvrtcArchs(&a[0]) != 0 {
		return nil
	}
	out := make([]int, len(a))
	for i, v := range a {
		out[i] = int(v)
	}
	return out
}

func nvrtcErr(op string, r C.int) error {
	return fmt.Errorf("%s: %s", op, C.GoString(C.wl_nvrtcErrorString(r)))
}

// nvrtcResult is what one NVRTC compilation gave.
type nvrtcResult struct {
	image   []byte
	ptx     bool
	lowered map[string]string
	log     string
	failed  bool // a compilation error: log says why
}

// runNVRTC compiles text with opts, asking for the lowered names of names.
// An error is a failure of NVRTC itself; a source error sets failed.
func runNVRTC(text string, headers []header, opts, names []string, wantPTX bool) (*nvrtcResult, error) {
	csrc := C.CString(text)
	defer C.free(unsafe.Pointer(csrc))
	// The program's own name is the prelude's: the source's lines carry
	// file's name from the #line directive on.
	cname := C.CString(preludeName)
	defer C.free(unsafe.Pointer(cname))
	// The headers, as (text, name) arrays; NULL when there are none.
	var hsrc, hname **C.char
	if n := len(headers); n > 0 {
		size := C.size_t(n) * C.size_t(unsafe.Sizeof((*C.char)(nil)))
		hsrc, hname = (**C.char)(C.malloc(size)), (**C.char)(C.malloc(size))
		defer C.free(unsafe.Pointer(hsrc))
		defer C.free(unsafe.Pointer(hname))
		srcs, hnames := unsafe.Slice(hsrc, n), unsafe.Slice(hname, n)
		for i, h := range headers {
			srcs[i], hnames[i] = C.CString(h.text), C.CString(h.name)
			defer C.free(unsafe.Pointer(srcs[i]))
			defer C.free(unsafe.Pointer(hnames[i]))
		}
	}
	var prog unsafe.Pointer
	if r := C.wl_nvrtcCreate(&prog, csrc, cname, C.int(len(headers)), hsrc, hname); r != 0 {
		return nil, nvrtcErr("nvrtcCreateProgram", r)
	}
	defer C.wl_nvrtcDestroy(&prog)

	cnames := make([]*C.char, len(names))
	for i, n := range names {
		cnames[i] = C.CString(n)
		defer C.free(unsafe.Pointer(cnames[i]))
		if r := C.wl_nvrtcAddName(prog, cnames[i]); r != 0 {
			return nil, nvrtcErr("nvrtcAddNameExpression "+n, r)
		}
	}

	copts := (**C.char)(C.malloc(C.size_t(max(len(opts), 1)) * C.size_t(unsafe.Sizeof((*C.char)(nil)))))
	defer C.free(unsafe.Pointer(copts))
	optSlice := unsafe.Slice(copts, max(len(opts), 1))
	for i, o := range opts {
		optSlice[i] = C.CString(o)
		defer C.free(unsafe.Pointer(optSlice[i]))
	}
	rc := C.wl_nvrtcCompile(prog, C.int(len(opts)), copts)

	res := &nvrtcResult{lowered: map[string]string{}}
	var logSize C.size_t
	if C.wl_nvrtcLogSize(prog, &logSize) == 0 && logSize > 1 {
		buf := make([]byte, int(logSize))
		if C.wl_nvrtcLog(prog, (*C.char)(unsafe.Pointer(&buf[0]))) == 0 {
			res.log = strings.TrimRight(string(buf), "\x00")
		}
	}
	if rc != 0 {
		if rc == 6 { // NVRTC_ERROR_COMPILATION
			res.failed = true
			return res, nil
		}
		msg := nvrtcErr("nvrtcCompileProgram", rc).Error()
		if res.log != "" {
			msg += ": " + strings.TrimSpace(res.log)
		}
		return nil, fmt.Errorf("%s", msg)
	}
	for i, n := range names {
		var lowered *C.char
		if r := C.wl_nvrtcLowered(prog, cnames[i], &lowered); r != 0 {
			return nil, nvrtcErr("nvrtcGetLoweredName "+n, r)
		}
		res.lowered[n] = C.GoString(lowered)
	}
	var size C.size_t
	if !wantPTX && C.wl_nvrtcHaveCUBIN() != 0 {
		if r := C.wl_nvrtcCUBINSize(prog, &size); r != 0 {
			return nil, nvrtcErr("nvrtcGetCUBINSize", r)
		}
		if size > 0 {
			res.image = make([]byte, int(size))
			if r := C.wl_nvrtcCUBIN(prog, (*C.char)(unsafe.Pointer(&res.image[0]))); r != 0 {
				return nil, nvrtcErr("nvrtcGetCUBIN", r)
			}
			return res, nil
		}
	}
	if r := C.wl_nvrtcPTXSize(prog, &size); r != 0 {
		return nil, nvrtcErr("nvrtcGetPTXSize", r)
	}
	res.image = make([]byte, int(size)+1) // NUL-terminated for cuModuleLoadData
	if size > 0 {
		if r := C.wl_nvrtcPTX(prog, (*C.char)(unsafe.Pointer(&res.image[0]))); r != 0 {
			return nil, nvrtcErr("nvrtcGetPTX", r)
		}
	}
	res.ptx = true
	return res, nil
}

// ---- thin wrappers over the driver ----

func cuInit() error { return check("cuInit", C.wl_cuInit()) }

func cuDriverVersion() int {
	var v C.int
	C.wl_cuDriverGetVersion(&v)
	return int(v)
}

func cuDeviceCount() (int, error) {
	var n C.int
	err := check("cuDeviceGetCount", C.wl_cuDeviceGetCount(&n))
	return int(n), err
}

// cuDev is a CUdevice.
type cuDev int32

func cuDevice(ordinal int) (cuDev, error) {
	var d C.int
	err := check("cuDeviceGet", C.wl_cuDeviceGet(&d, C.int(ordinal)))
	return cuDev(d), err
}

func cuDeviceName(d cuDev) string {
	var buf [256]C.char
	if C.wl_cuDeviceGetName(&buf[0], C.int(len(buf)), C.int(d)) != 0 {
		return "unknown GPU"
	}
	return C.GoString(&buf[0])
}

func cuAttr(d cuDev, attr int) int {
	var v C.int
	if C.wl_cuDeviceGetAttribute(&v, C.int(attr), C.int(d)) != 0 {
		return 0
	}
	return int(v)
}

func cuTotalMem(d cuDev) int64 {
	var v C.size_t
	if C.wl_cuDeviceTotalMem(&v, C.int(d)) != 0 {
		return 0
	}
	return int64(v)
}

// The device attributes cudarun reads (cuda.h's CUdevice_attribute).
const (
	attrMaxThreadsPerBlock = 1
	attrMaxSharedPerBlock  = 8
	attrWarpSize           = 10
	attrClockRate          = 13 // kHz
	attrMultiprocessors    = 16
	attrCCMajor            = 75
	attrCCMinor            = 76
	attrMaxSharedOptin     = 97
)

// The function attributes (CUfunction_attribute).
const (
	funcAttrMaxThreadsPerBlock = 0
	funcAttrSharedSize         = 1
	funcAttrNumRegs            = 4
	funcAttrMaxDynamicShared   = 8
)

type cuCtx = unsafe.Pointer

func primaryCtxRetain(d cuDev) (cuCtx, error) {
	var c unsafe.Pointer
	err := check("cuDevicePrimaryCtxRetain", C.wl_cuDevicePrimaryCtxRetain(&c, C.int(d)))
	return c, err
}

func ctxSetCurrent(c cuCtx) error { return check("cuCtxSetCurrent", C.wl_cuCtxSetCurrent(c)) }

func ctxSynchronize() error { return check("cuCtxSynchronize", C.wl_cuCtxSynchronize()) }

func moduleLoad(image []byte) (uint64, error) {
	var m C.uintptr_t
	err := check("cuModuleLoadData", C.wl_cuModuleLoadData(&m, unsafe.Pointer(&image[0])))
	return uint64(m), err
}

func moduleUnload(m uint64) error {
	return check("cuModuleUnload", C.wl_cuModuleUnload(C.uintptr_t(m)))
}

func moduleFunction(m uint64, name string) (uint64, error) {
	cn := C.CString(name)
	defer C.free(unsafe.Pointer(cn))
	var f C.uintptr_t
	err := check("cuModuleGetFunction "+name, C.wl_cuModuleGetFunction(&f, C.uintptr_t(m), cn))
	return uint64(f), err
}

func funcAttr(f uint64, attr int) (int, error) {
	var v C.int
	err := check("cuFuncGetAttribute", C.wl_cuFuncGetAttribute(&v, C.int(attr), C.uintptr_t(f)))
	return int(v), err
}

func funcSetAttr(f uint64, attr, v int) error {
	return check("cuFuncSetAttribute", C.wl_cuFuncSetAttribute(C.uintptr_t(f), C.int(attr), C.int(v)))
}

func memAlloc(n int64) (uint64, error) {
	var p C.wlptr
	err := check("cuMemAlloc", C.wl_cuMemAlloc(&p, C.size_t(n)))
	return uint64(p), err
}

func memFree(p uint64) error { return check("cuMemFree", C.wl_cuMemFree(C.wlptr(p))) }

func memZero(p uint64, n int64) error {
	return check("cuMemsetD8", C.wl_cuMemsetD8(C.wlptr(p), C.size_t(n)))
}

func memcpyHtoD(dst uint64, src []byte) error {
	return check("cuMemcpyHtoD", C.wl_cuMemcpyHtoD(C.wlptr(dst), unsafe.Pointer(&src[0]), C.size_t(len(src))))
}

func memcpyDtoH(dst []byte, src uint64) error {
	return check("cuMemcpyDtoH", C.wl_cuMemcpyDtoH(unsafe.Pointer(&dst[0]), C.wlptr(src), C.size_t(len(dst))))
}

func eventCreate() (unsafe.Pointer, error) {
	var e unsafe.Pointer
	err := check("cuEventCreate", C.wl_cuEventCreate(&e))
	return e, err
}

func eventDestroy(e unsafe.Pointer) { C.wl_cuEventDestroy(e) }

func eventSynchronize(e unsafe.Pointer) error {
	return check("cuEventSynchronize", C.wl_cuEventSynchronize(e))
}

func eventElapsed(start, stop unsafe.Pointer) (float32, error) {
	var ms C.float
	err := check("cuEventElapsedTime", C.wl_cuEventElapsedTime(&ms, start, stop))
	return float32(ms), err
}

// launchStage names the step of launchTimed that failed.
var launchStage = [...]string{0: "cuEventRecord (start)", 1: "cuLaunchKernel", 2: "cuEventRecord (stop)", 5: "cuLaunchKernel (the timing gate)"}

// launchTimed records start, launches f with args (one 8-byte slot per
// parameter), cooperatively if coop, and records stop; behind g's gate
// when g is not nil. On failure it says which step failed.
func launchTimed(f uint64, grid, block [3]uint32, shared uint32, args []uint64, coop bool, start, stop unsafe.Pointer, g *gate) (stage int, err error) {
	var p *C.ulonglong
	if len(args) > 0 {
		p = (*C.ulonglong)(unsafe.Pointer(&args[0]))
	}
	var gp *C.wl_gate_t
	if g != nil {
		gp = g.c
	}
	var st C.int
	r := C.wl_launch(C.uintptr_t(f), C.uint(grid[0]), C.uint(grid[1]), C.uint(grid[2]),
		C.uint(block[0]), C.uint(block[1]), C.uint(block[2]), C.uint(shared),
		p, C.int(len(args)), C.int(b2i(coop)), start, stop, gp, &st)
	if r != 0 {
		return int(st), check(launchStage[st], r)
	}
	return 0, nil
}

// gate is a context's timing gate (see wl_launch): the gate kernel and
// its flags in mapped host memory, allocated by C so that Go never holds
// the device's view of them.
type gate struct {
	c *C.wl_gate_t
}

// newGate makes the gate of the current context from fn, the gate
// kernel's handle; it gives up waiting after limit.
func newGate(fn uint64, limit time.Duration) (*gate, error) {
	c := (*C.wl_gate_t)(C.calloc(1, C.size_t(unsafe.Sizeof(C.wl_gate_t{}))))
	if c == nil {
		return nil, fmt.Errorf("out of memory for the timing gate")
	}
	if err := check("cuMemHostAlloc (the timing gate's flag)", C.wl_gate_alloc(c)); err != nil {
		C.free(unsafe.Pointer(c))
		return nil, err
	}
	C.wl_gate_set(c, C.uintptr_t(fn), C.ulonglong(limit.Nanoseconds()))
	return &gate{c: c}, nil
}

// expired reports whether the gate's last wait ran out before the host
// released it: that launch's time includes its submission after all.
func (g *gate) expired() bool { return C.wl_gate_expired(g.c) != 0 }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// redirectStdout points descriptor 1 at f until the returned function is
// called, which puts it back.
func redirectStdout(f *os.File) (restore func() error, err error) {
	saved := C.wl_redirect_begin(C.int(f.Fd()))
	if saved < 0 {
		return nil, fmt.Errorf("cannot redirect standard output to capture device printf")
	}
	return func() error {
		if C.wl_redirect_end(saved) != 0 {
			return fmt.Errorf("cannot restore standard output after capturing device printf")
		}
		return nil
	}, nil
}
