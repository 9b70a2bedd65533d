// The reproducible lab's sums (Day 68): the two atomic sums of Day 26 and
// three remedies whose bits do not depend on the order in which blocks
// finish. Every kernel runs blocks of 256 threads (B), one element per
// thread.

#define B 256

// blockTree leaves the sum of the block's v in s[0], in a fixed order:
// the halving tree of Day 26.
__device__ float blockTree(float v, float* s) {
    s[threadIdx.x] = v;
    __syncthreads();
    for (int h = B / 2; h > 0; h >>= 1) {
        if (threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
        __syncthreads();
    }
    return s[0];
}

// atomicGlobal: one float atomicAdd per element. The order the adds land
// in changes from run to run, and so do the low bits.
__global__ void atomicGlobal(const float* in, int n, float* out) {
    int i = blockIdx.x * B + threadIdx.x;
    if (i < n) atomicAdd(out, in[i]);
}

// treeAtomic: a fixed-order tree inside each block, then one float
// atomicAdd per block: fewer adds in an unknown order, still not fixed.
__global__ void treeAtomic(const float* in, int n, float* out) {
    __shared__ float s[B];
    int i = blockIdx.x * B + threadIdx.x;
    float t = blockTree(i < n ? in[i] : 0.0f, s);
    if (threadIdx.x == 0) atomicAdd(out, t);
}

// treePartials: the first pass of the two-pass sums: each block's tree
// sum goes to its own slot, partials[blockIdx.x]. No atomic at all.
__global__ void treePartials(const float* in, int n, float* partials) {
    __shared__ float s[B];
    int i = blockIdx.x * B + threadIdx.x;
    float t = blockTree(i < n ? in[i] : 0.0f, s);
    if (threadIdx.x == 0) partials[blockIdx.x] = t;
}

// reducePartials: the second pass, one block: each thread adds the
// partials j = threadIdx.x, threadIdx.x + B, ... in that order, then the
// block's tree adds the threads' sums. Every add has a fixed place.
__global__ void reducePartials(const float* partials, int m, float* out) {
    __shared__ float s[B];
    float sum = 0.0f;
    for (int j = threadIdx.x; j < m; j += B) sum += partials[j];
    float t = blockTree(sum, s);
    if (threadIdx.x == 0) *out = t;
}

// reducePartialsKahan: reducePartials with Kahan's compensation in each
// thread's loop: c carries the low bits that the add to sum dropped.
__global__ void reducePartialsKahan(const float* partials, int m, float* out) {
    __shared__ float s[B];
    float sum = 0.0f, c = 0.0f;
    for (int j = threadIdx.x; j < m; j += B) {
        float y = partials[j] - c;
        float t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
    float t = blockTree(sum, s);
    if (threadIdx.x == 0) *out = t;
}

// fixedPoint: each block's tree sum rounded to a 64-bit integer count of
// 2^-20 and added with one integer atomicAdd per block. Integer addition
// is associative, so every order gives the same bits; the host divides
// by 2^20.
__global__ void fixedPoint(const float* in, int n, unsigned long long* acc) {
    __shared__ float s[B];
    int i = blockIdx.x * B + threadIdx.x;
    float t = blockTree(i < n ? in[i] : 0.0f, s);
    if (threadIdx.x == 0) {
        long long q = (long long)rint((double)t * 1048576.0);
        atomicAdd(acc, (unsigned long long)q);
    }
}
