// litmus.cu: store buffering and load buffering between blocks.
//
// Pair p is blocks 2p and 2p+1, thread 0 of each; x and y are the pair's
// two variables, each on its own 128-byte line, zero before the launch.
// out[2p] and out[2p+1] are what the two threads read.
//
//   store buffering (sb): each thread writes its variable, then reads the
//     other's. Both reading 0 means each store became visible to the other
//     thread only after that thread's load.
//   load buffering (lb): each thread reads the other's variable, then
//     writes its own. Both reading 1 means each load was satisfied after
//     the other thread's store, which came after that thread's own load.
//
// The Fence kernels put __threadfence() between the two accesses, which
// forbids both outcomes. The other load-buffering kernels vary what
// orders the load before the store: __threadfence_block() on both sides
// (block scope does not reach the other block: allowed), __threadfence()
// on one side only (the other side's load is still free: allowed),
// atomicAdd(other, 0) as the loads (a relaxed read-modify-write is a
// load like any other: allowed; with __threadfence(), forbidden), and a
// store of the value read (a data dependency: 1 would come out of thin
// air, forbidden).

#define STRIDE 32

// The pair's variables: this thread's and the other thread's.
__device__ int* mineOf(int* base) {
    int* x = base + (blockIdx.x >> 1) * 2 * STRIDE;
    return (blockIdx.x & 1) == 0 ? x : x + STRIDE;
}
__device__ int* otherOf(int* base) {
    int* x = base + (blockIdx.x >> 1) * 2 * STRIDE;
    return (blockIdx.x & 1) == 0 ? x + STRIDE : x;
}

__global__ void sb(int* base, int* out) {
    if (threadIdx.x != 0) return;
    int* mine = mineOf(base);
    int* other = otherOf(base);
    *(volatile int*)mine = 1;
    out[blockIdx.x] = *(volatile int*)other;
}

__global__ void sbFence(int* base, int* out) {
    if (threadIdx.x != 0) return;
    int* mine = mineOf(base);
    int* other = otherOf(base);
    *(volatile int*)mine = 1;
    __threadfence();
    out[blockIdx.x] = *(volatile int*)other;
}

// The load's value is used only after the store: nothing makes the store
// wait for it.
__global__ void lb(int* base, int* out) {
    if (threadIdx.x != 0) return;
    int* mine = mineOf(base);
    int* other = otherOf(base);
    int r = *(volatile int*)other;
    *(volatile int*)mine = 1;
    out[blockIdx.x] = r;
}

__global__ void lbFence(int* base, int* out) {
    if (threadIdx.x != 0) return;
    int* mine = mineOf(base);
    int* other = otherOf(base);
    int r = *(volatile int*)other;
    __threadfence();
    *(volatile int*)mine = 1;
    out[blockIdx.x] = r;
}

// A block-scope fence orders the two accesses for the threads of this
// block only.
__global__ void lbBlockFence(int* base, int* out) {
    if (threadIdx.x != 0) return;
    int* mine = mineOf(base);
    int* other = otherOf(base);
    int r = *(volatile int*)other;
    __threadfence_block();
    *(volatile int*)mine = 1;
    out[blockIdx.x] = r;
}

// The fence on the odd block's side only; the branch comes before the
// accesses, so nothing stands between the even side's load and store.
__global__ void lbOneFence(int* base, int* out) {
    if (threadIdx.x != 0) return;
    int* mine = mineOf(base);
    int* other = otherOf(base);
    if ((blockIdx.x & 1) == 0) {
        int r = *(volatile int*)other;
        *(volatile int*)mine = 1;
        out[blockIdx.x] = r;
    } else {
        int r = *(volatile int*)other;
        __threadfence();
        *(volatile int*)mine = 1;
        out[blockIdx.x] = r;
    }
}

__global__ void lbAtomic(int* base, int* out) {
    if (threadIdx.x != 0) return;
    int* mine = mineOf(base);
    int* other = otherOf(base);
    int r = atomicAdd(other, 0);
    *(volatile int*)mine = 1;
    out[blockIdx.x] = r;
}

__global__ void lbAtomicFence(int* base, int* out) {
    if (threadIdx.x != 0) return;
    int* mine = mineOf(base);
    int* other = otherOf(base);
    int r = atomicAdd(other, 0);
    __threadfence();
    *(volatile int*)mine = 1;
    out[blockIdx.x] = r;
}

// The store writes the value read: each thread's store waits for its
// load.
__global__ void lbDependent(int* base, int* out) {
    if (threadIdx.x != 0) return;
    int* mine = mineOf(base);
    int* other = otherOf(base);
    int r = *(volatile int*)other;
    *(volatile int*)mine = r;
    out[blockIdx.x] = r;
}
