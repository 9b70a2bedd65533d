// mp.cu: message passing between blocks, the ordering lab's kernels.
//
// Pair p is blocks 2p (the producer) and 2p+1 (the consumer), thread 0 of
// each; a pair's payload, flag and acknowledgement sit on their own 128-byte
// lines of base. Trial t: the producer writes payload = t, then flag = t, and
// waits for ack = t; the consumer spins on the flag until it reads t, then
// reads the payload, counts a stale read when it is not t, and writes ack = t.
// Spins are bounded: a spin that gives up counts a timeout, never a hang.
// counts[2p] are pair p's stale reads, counts[2p+1] its timeouts.
//
// The variants differ only in how they order the two writes and the two
// reads:
//   mpPlain       plain payload store and load, volatile flag: no order
//   mpVolatile    volatile payload too: still no order between the accesses
//   mpBlockFence  __threadfence_block() between them: block scope, too narrow
//   mpFence       __threadfence() between them: device scope, correct
//   mpRelAcq      plain payload; the flag through a device-scope
//                 cuda::atomic_ref, stored with memory_order_release and
//                 loaded with memory_order_acquire: correct, no fence
//   mpRelaxedRef  the same atomic_ref flag with memory_order_relaxed on
//                 both sides: atomic, but it orders nothing else

#include <cuda/atomic>

#define STRIDE 32
#define SPIN_LIMIT 100000

template <int V>
__device__ void messagePassing(int* base, int trials, int* counts) {
    if (threadIdx.x != 0) return;
    int pair = blockIdx.x >> 1;
    int* payload = base + pair * 4 * STRIDE;
    int* flag = payload + STRIDE;
    int* ack = flag + STRIDE;
    for (int t = 1; t <= trials; ++t) {
        if ((blockIdx.x & 1) == 0) {
            if (V == 0 || V >= 4) *payload = t;
            else *(volatile int*)payload = t;
            if (V == 2) __threadfence_block();
            if (V == 3) __threadfence();
            if (V == 4) cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).store(t, cuda::memory_order_release);
            else if (V == 5) cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).store(t, cuda::memory_order_relaxed);
            else *(volatile int*)flag = t;
            int spins = 0;
            while (*(volatile int*)ack != t && ++spins < SPIN_LIMIT) {}
        } else {
            int spins = 0;
            if (V == 4) {
                cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
                while (f.load(cuda::memory_order_acquire) != t && ++spins < SPIN_LIMIT) {}
            } else if (V == 5) {
                cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
                while (f.load(cuda::memory_order_relaxed) != t && ++spins < SPIN_LIMIT) {}
            } else {
                while (*(volatile int*)flag != t && ++spins < SPIN_LIMIT) {}
            }
            if (V == 2) __threadfence_block();
            if (V == 3) __threadfence();
            int got = V == 0 || V >= 4 ? *payload : *(volatile int*)payload;
            if (spins >= SPIN_LIMIT) counts[2 * pair + 1] += 1;
            else if (got != t) counts[2 * pair] += 1;
            *(volatile int*)ack = t;
        }
    }
}

__global__ void mpPlain(int* base, int trials, int* counts) { messagePassing<0>(base, trials, counts); }
__global__ void mpVolatile(int* base, int trials, int* counts) { messagePassing<1>(base, trials, counts); }
__global__ void mpBlockFence(int* base, int trials, int* counts) { messagePassing<2>(base, trials, counts); }
__global__ void mpFence(int* base, int trials, int* counts) { messagePassing<3>(base, trials, counts); }
__global__ void mpRelAcq(int* base, int trials, int* counts) { messagePassing<4>(base, trials, counts); }
__global__ void mpRelaxedRef(int* base, int trials, int* counts) { messagePassing<5>(base, trials, counts); }
