// ordering.cu: message passing between blocks, with and without ordering (the
// ordering lab). Counts stale reads: a consumer that saw the flag but read the
// payload from before it was written.
//
// P pairs per launch (P = SMs x 4, one producer block and one consumer block
// of 32 threads each; the grid is small enough to be resident at once), each
// pair on its own lines (payload and flag 4 KiB apart). Trial t of a pair:
// the producer writes payload = t, then flag = t; the consumer spins on the
// flag until it reads t (bounded: a timeout is counted, never a hang), then
// reads the payload and counts it stale if it is not t. Variants:
//   relaxed   plain payload store, volatile flag store / load, plain payload load
//             (the course notes' bug: no order at all)
//   volatile  volatile payload and flag accesses, no fence
//   fence     __threadfence() between the two stores and between the two loads
//   relacq    cuda::atomic_ref flag: store(release) / load(acquire)
// Each launch runs 64 trials per pair in a loop; 50 launches per variant.
#include "common.cuh"

#include <cuda/atomic>

namespace {

constexpr int TRIALS = 64;
constexpr int STRIDE = 1024;  // floats between a pair's payload and flag
constexpr long SPIN_LIMIT = 1L << 20;

template <int V>
__global__ void mp(int* base, int pairs, int epoch, unsigned long long* stale, unsigned long long* timeouts) {
    const int pair = blockIdx.x >> 1;
    const bool producer = (blockIdx.x & 1) == 0;
    int* payload = base + (size_t)pair * 2 * STRIDE;
    int* flag = payload + STRIDE;
    if (threadIdx.x != 0) return;
    for (int t = 1; t <= TRIALS; ++t) {
        const int v = epoch * TRIALS + t;
        if (producer) {
            if (V == 0) { *payload = v; *(volatile int*)flag = v; }
            else if (V == 1) { *(volatile int*)payload = v; *(volatile int*)flag = v; }
            else if (V == 2) { *(volatile int*)payload = v; __threadfence(); *(volatile int*)flag = v; }
            else {
                *payload = v;
                cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
                f.store(v, cuda::memory_order_release);
            }
            // Wait for the consumer to take this trial before the next one.
            long spins = 0;
            while (*(volatile int*)(flag + 1) != v && ++spins < SPIN_LIMIT) {}
        } else {
            long spins = 0;
            int got = 0;
            if (V == 3) {
                cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
                while (f.load(cuda::memory_order_acquire) != v && ++spins < SPIN_LIMIT) {}
                got = *payload;
            } else {
                while (*(volatile int*)flag != v && ++spins < SPIN_LIMIT) {}
                if (V == 2) __threadfence();
                got = (V == 0) ? *payload : *(volatile int*)payload;
            }
            if (spins >= SPIN_LIMIT) atomicAdd(timeouts, 1ull);
            else if (got != v) atomicAdd(stale, 1ull);
            *(volatile int*)(flag + 1) = v;
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header("ordering", "message passing litmus: stale reads with and without order", argc, argv);
    mb::Budget budget(60.0);
    const int pairs = dev.sms * 4, launches = 50;
    int* base;
    unsigned long long* counts;
    CK(cudaMalloc(&base, (size_t)pairs * 2 * STRIDE * 4));
    CK(cudaMalloc(&counts, 16));
    const char* names[4] = {"relaxed", "volatile", "fence", "relacq"};
    std::printf("variant,pairs,launches,trials,stale,timeouts,ms_per_launch\n");
    for (int V = 0; V < 4; ++V) {
        if (budget.over("ordering")) break;
        CK(cudaMemset(base, 0, (size_t)pairs * 2 * STRIDE * 4));
        CK(cudaMemset(counts, 0, 16));
        auto t0 = std::chrono::steady_clock::now();
        for (int e = 0; e < launches; ++e) {
            switch (V) {
            case 0: mp<0><<<2 * pairs, 32>>>(base, pairs, e, counts, counts + 1); break;
            case 1: mp<1><<<2 * pairs, 32>>>(base, pairs, e, counts, counts + 1); break;
            case 2: mp<2><<<2 * pairs, 32>>>(base, pairs, e, counts, counts + 1); break;
            default: mp<3><<<2 * pairs, 32>>>(base, pairs, e, counts, counts + 1); break;
            }
            CK_LAUNCH();
        }
        CK(cudaDeviceSynchronize());
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        unsigned long long h[2];
        CK(cudaMemcpy(h, counts, 16, cudaMemcpyDeviceToHost));
        std::printf("%s,%d,%d,%d,%llu,%llu,%.3f\n", names[V], pairs, launches, pairs * launches * TRIALS, h[0], h[1],
                    ms / launches);
        mb::note_check(h[1] == 0);
    }
    CK(cudaFree(base));
    CK(cudaFree(counts));
    return mb::finish("ordering", budget);
}
