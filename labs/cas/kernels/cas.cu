// The CAS lab's kernels. Thread i folds v[i] into m[i / C], the maximum of
// its group of C threads; every m[g] starts at -infinity.

// maxCAS: the correct compare-and-swap loop. It compares as floats and
// leaves as soon as the stored value is not smaller than v, so a NaN v
// (every comparison false) is never stored. A thread that reads a larger
// value leaves without any atomic at all.
__device__ float atomicMaxFloat(float* addr, float v) {
    int* ai = (int*)addr;
    int old = *ai;
    while (__int_as_float(old) < v) {
        int assumed = old;
        old = atomicCAS(ai, assumed, __float_as_int(v));
        if (old == assumed) break;
    }
    return __int_as_float(old);
}

__global__ void maxCAS(const float* v, int n, int C, float* m) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicMaxFloat(&m[i / C], v[i]);
}

// maxIntTrick: one hardware atomicMax on the float's bits read as an int.
// The int order is the float order only for non-negative floats: a
// negative float's bits are a negative int that grows as the float shrinks.
__global__ void maxIntTrick(const float* v, int n, int C, float* m) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicMax((int*)&m[i / C], __float_as_int(v[i]));
}

// maxSignAware: the sign-aware integer trick. For a float with its sign
// bit clear, the int order is the float order: atomicMax on the int bits.
// For one with its sign bit set, the unsigned order is the reverse of the
// float order: atomicMin on the unsigned bits. A positive stored value is
// an unsigned below every negative one, so atomicMin keeps it.
__global__ void maxSignAware(const float* v, int n, int C, float* m) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = v[i];
    if (!signbit(x))
        atomicMax((int*)&m[i / C], __float_as_int(x));
    else
        atomicMin((unsigned*)&m[i / C], __float_as_uint(x));
}

// maxDocLoop: the shape of the course notes' loop: it stops when the
// stored value compares >= v as floats, else proposes v. Comparing as
// floats makes it right for negatives too; unlike maxCAS it stores a NaN
// v, since NaN >= anything is false, and the next value then replaces the
// NaN, so a NaN's fate depends on the order the threads come in.
__global__ void maxDocLoop(const float* v, int n, int C, float* m) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int* ai = (int*)&m[i / C];
    float x = v[i];
    for (int seen = *ai;;) {
        if (__int_as_float(seen) >= x) break;
        int now = atomicCAS(ai, seen, __float_as_int(x));
        if (now == seen) break;
        seen = now;
    }
}
