// sharedq.cu: a block's shared float atomicAdd queue against the blocks
// around it, and a privatised histogram's shared bins (zero, count, merge)
// against the bin count: the softmax and histogram labs' shared-memory
// misses on the H200 (issues 9 and 14).
//
// What is not explained (calibration/evidence/2026-11-30-h200-microbench-gated,
// softmax_small.csv; the labs' gated runs): the softmax lab's denomShared
// takes 8.7 us in one block and 14.1 us in 2 to 64 blocks, while
// softmax_small's shared_cas (the same ATOMS.CAST.SPIN loop, adding 1.0f
// right after the barrier) takes 13.4 us in one block as in 264; with
// about 8 blocks to an SM (n = 262144, 1024 blocks) the lab's kernel takes
// 0.019 ms; the histogram lab's resident grid at 4096 bins takes 0.044 ms
// on uniform input and 0.035 on runs.
//
// Part "queue": 256 threads add into one __shared__ float; thread 0 reads
//   clock64 after the barrier before the adds and after the barrier after
//   them, and records the cycles between, its SM (%smid) and the SM's clock
//   at the start, so that the blocks an SM ran side by side are known.
//   kernel const adds 1.0f (softmax_small's shared_cas); kernel lab adds
//   expf(x[i]), i = (block + off) * 256 + thread (the lab's denomShared:
//   a global load and expf before the add; off picks another block's
//   data). Grids 1 to 4224; dynamic shared memory (pad) limits the blocks
//   an SM holds (116 KB: one, 50 KB: four). Columns: the event-timed
//   launch, and over the last launch's blocks the queue's cycles (min,
//   median, max), the most blocks one SM ran, and the median over SMs of
//   the SM's span (its first block's start to its last block's end).
// Part "lab": the lab's denomShared itself, verbatim, event-timed at
//   n = 256 (one block), 512 (two), and n = 256 on the second block's data;
//   softmax_small's shared_cas at grids 1 and 2.
// Part "bins": every block zeroes `bins` shared counters, passes the
//   barrier, and merges them: bin b adds local[b] + fill to hist[(block mod
//   copies) * bins + b] with one global atomicAdd when that is not zero
//   (fill 0: no atomics, the zeroing and the pass alone; fill 1: one atomic
//   per bin per block, as a uniform input's merge; copies 8 spreads the
//   same atomics over 8 histograms). Grids SMs (one block an SM) and SMs x 8.
// Part "walk": the histogram lab's histResident (interleaved) and
//   histContig (contiguous) with their parts switched off one at a time:
//   atom 0 sums the bins in a register instead of the shared atomicAdd;
//   merge 0 skips the merge. atom 1 merge 1 is the lab's kernel. Inputs
//   uniform and hot (90% in bin 0), 256 and 4096 bins, n = 16M, grid SMs x 8.
// 5 warm-ups + 30 timed launches per row ("walk", "bins": 3 + 10), gated;
// every sum and histogram is checked. An argument (queue, lab, bins or
// walk) runs that part alone, e.g. under ncu with MB_GATE=0.
#include "common.cuh"

namespace {

constexpr int kBlock = 256;

// queue_timed: MODE 0 adds 1.0f, MODE 1 adds expf of the block's element.
// rec gets 3 words per block: SM, queue cycles, SM clock at the start.
template <int MODE>
__global__ void queue_timed(const float* x, int off, float* out, long long* rec) {
    __shared__ float s;
    if (threadIdx.x == 0) s = 0.0f;
    __syncthreads();
    const long long c0 = clock64();
    float v = 1.0f;
    if (MODE == 1) v = expf(x[(blockIdx.x + off) * blockDim.x + threadIdx.x]);
    atomicAdd(&s, v);
    __syncthreads();
    const long long c1 = clock64();
    if (threadIdx.x == 0) {
        out[blockIdx.x] = s;
        rec[3 * blockIdx.x + 0] = mb::smid();
        rec[3 * blockIdx.x + 1] = c1 - c0;
        rec[3 * blockIdx.x + 2] = c0;
    }
}

// The softmax lab's shared kernel, the same source the lab runs.
#include "../../../../labs/softmax/kernels/shared.cu"

// softmax_small.cu's shared_cas, verbatim.
__global__ void shared_cas(float* out) {
    __shared__ float s;
    if (threadIdx.x == 0) s = 0.0f;
    __syncthreads();
    atomicAdd(&s, 1.0f);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}

__global__ void zero_merge(unsigned* hist, unsigned bins, unsigned fill, unsigned copies) {
    extern __shared__ unsigned local[];
    for (unsigned b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    unsigned* h = hist + (blockIdx.x % copies) * bins;
    for (unsigned b = threadIdx.x; b < bins; b += blockDim.x) {
        const unsigned v = local[b] + fill;
        if (v != 0) atomicAdd(&h[b], v);
    }
}

// The histogram lab's histResident (CONTIG 0) and histContig (CONTIG 1)
// (labs/histogram/kernels/histogram.cu), int-typed as there; ATOM 0 sums
// the bins in a register (stored to sink) instead of counting them in
// shared memory; MERGE 0 stores one counter a thread to sink instead of
// merging.
template <int CONTIG, int ATOM, int MERGE>
__global__ void walk(const int* bin, int n, unsigned* hist, int bins, unsigned* sink) {
    extern __shared__ unsigned local[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int threads = gridDim.x * blockDim.x;
    unsigned acc = 0;
    if (CONTIG) {
        int chunk = (n + threads - 1) / threads;
        int lo = t * chunk;
        int hi = min(n, lo + chunk);
        for (int i = lo; i < hi; i++) {
            if (ATOM) atomicAdd(&local[bin[i]], 1u);
            else acc += bin[i];
        }
    } else {
        for (int i = t; i < n; i += threads) {
            if (ATOM) atomicAdd(&local[bin[i]], 1u);
            else acc += bin[i];
        }
    }
    __syncthreads();
    if (!ATOM) {
        sink[t] = acc;
    } else if (MERGE) {
        for (int b = threadIdx.x; b < bins; b += blockDim.x)
            if (local[b] != 0) atomicAdd(&hist[b], local[b]);
    } else {
        unsigned c = 0;
        for (int b = threadIdx.x; b < bins; b += blockDim.x) c += local[b];
        sink[t] = c;
    }
}

__global__ void empty(unsigned* out) {
    if (out == nullptr) out[threadIdx.x] = 0;  // never: keeps the parameter
}

// The lab's inputs (labs/histogram/inputs.go at seed 0, histshape.cu's
// bin_of): 0 uniform, 2 hot.
unsigned bin_of(uint32_t i, unsigned bins, int input) {
    if (input == 2) {
        const uint32_t h = mb::hash32(i ^ 0x2545f491u);
        return (h % 10u) != 0 ? 0u : mb::hash32(h) % bins;
    }
    return mb::hash32(i ^ 0x9e3779b9u) % bins;
}

// Per-block records of one queue launch, summarised.
struct QueueBlocks {
    long long cyc_min = 0, cyc_med = 0, cyc_max = 0;
    int sm_blocks_max = 0;
    long long sm_span_med = 0;
};

QueueBlocks summarise(const std::vector<long long>& rec, int grid) {
    QueueBlocks q;
    std::vector<long long> cyc(grid);
    for (int b = 0; b < grid; ++b) cyc[b] = rec[3 * b + 1];
    std::sort(cyc.begin(), cyc.end());
    q.cyc_min = cyc.front();
    q.cyc_med = cyc[grid / 2];
    q.cyc_max = cyc.back();
    // Per SM: how many blocks, and the first start to the last end.
    struct Span {
        int blocks = 0;
        long long lo = 0, hi = 0;
    };
    std::vector<Span> sm(1024);
    for (int b = 0; b < grid; ++b) {
        const long long id = rec[3 * b], start = rec[3 * b + 2], end = start + rec[3 * b + 1];
        if (id < 0 || id >= 1024) continue;
        Span& s = sm[id];
        if (s.blocks == 0) {
            s.lo = start;
            s.hi = end;
        } else {
            s.lo = std::min(s.lo, start);
            s.hi = std::max(s.hi, end);
        }
        ++s.blocks;
    }
    std::vector<long long> spans;
    for (const Span& s : sm) {
        if (s.blocks == 0) continue;
        q.sm_blocks_max = std::max(q.sm_blocks_max, s.blocks);
        spans.push_back(s.hi - s.lo);
    }
    std::sort(spans.begin(), spans.end());
    q.sm_span_med = spans.empty() ? 0 : spans[spans.size() / 2];
    return q;
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "sharedq", "shared float atomic queue vs blocks per SM; shared bins zero/count/merge vs bins", argc, argv);
    mb::Budget budget(60.0);
    const mb::Parts part(argc, argv);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;

    // ------------------------------------------------------------ queue
    const int max_grid = 4224;
    const int nx = (max_grid + 4) * kBlock;
    std::vector<float> h_x(nx);
    mb::Lcg rng(2024);
    for (int i = 0; i < nx; ++i) h_x[i] = rng.uniform(-1.0f, 1.0f);
    float *d_x = nullptr, *d_out = nullptr;
    long long* d_rec = nullptr;
    CK(cudaMalloc(&d_x, (size_t)nx * sizeof(float)));
    CK(cudaMalloc(&d_out, (size_t)max_grid * sizeof(float)));
    CK(cudaMalloc(&d_rec, (size_t)max_grid * 3 * sizeof(long long)));
    CK(cudaMemcpy(d_x, h_x.data(), (size_t)nx * sizeof(float), cudaMemcpyHostToDevice));
    const int pad_one = 116 << 10, pad_four = 50 << 10;
    CK(cudaFuncSetAttribute(queue_timed<0>, cudaFuncAttributeMaxDynamicSharedMemorySize, pad_one));
    CK(cudaFuncSetAttribute(queue_timed<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, pad_one));

    std::printf("part,kernel,grid,block,pad_bytes,blocks_per_sm,off,bins,fill,copies,input,atom,merge,warm,reps,"
                "median_ms,mean_ms,min_ms,max_ms,stdev_ms,cyc_min,cyc_med,cyc_max,sm_blocks_max,sm_span_med,check\n");
    std::fflush(stdout);

    auto queue_row = [&](int mode, int grid, int pad, int off) {
        int per_sm = 0;
        if (mode == 0) CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, queue_timed<0>, kBlock, pad));
        else CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, queue_timed<1>, kBlock, pad));
        auto setup = [](int) {};
        auto launch = [&](int) {
            if (mode == 0) queue_timed<0><<<grid, kBlock, pad>>>(d_x, off, d_out, d_rec);
            else queue_timed<1><<<grid, kBlock, pad>>>(d_x, off, d_out, d_rec);
        };
        const mb::Stats s = mb::stats_of(mb::time_runs(tm, 5, 30, setup, launch));
        std::vector<float> got(grid);
        std::vector<long long> rec((size_t)grid * 3);
        CK(cudaMemcpy(got.data(), d_out, (size_t)grid * sizeof(float), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(rec.data(), d_rec, rec.size() * sizeof(long long), cudaMemcpyDeviceToHost));
        bool ok = true;
        for (int b = 0; b < grid && ok; ++b) {
            if (mode == 0) {
                ok = got[b] == static_cast<float>(kBlock);
                continue;
            }
            double ref = 0;
            for (int t = 0; t < kBlock; ++t) ref += std::exp(static_cast<double>(h_x[(size_t)(b + off) * kBlock + t]));
            ok = std::fabs(got[b] - ref) <= 1e-4 * ref;
        }
        const QueueBlocks q = summarise(rec, grid);
        std::printf("queue,%s,%d,%d,%d,%d,%d,,,,,,,5,30,%.5f,%.5f,%.5f,%.5f,%.5f,%lld,%lld,%lld,%d,%lld,%s\n",
                    mode == 0 ? "const" : "lab", grid, kBlock, pad, per_sm, off, s.median, s.mean, s.min, s.max,
                    s.stdev, q.cyc_min, q.cyc_med, q.cyc_max, q.sm_blocks_max, q.sm_span_med, mb::note_check(ok));
        std::fflush(stdout);
        if (grid <= 4) {
            for (int b = 0; b < grid; ++b)
                std::printf("# block kernel=%s grid=%d off=%d block=%d sm=%lld cycles=%lld start=%lld\n",
                            mode == 0 ? "const" : "lab", grid, off, b, rec[3 * b], rec[3 * b + 1], rec[3 * b + 2]);
        }
        return q;
    };

    // One block on the lab's data of blocks 0 to 3, then the grids.
    for (int off = 0; off < 4 && part("queue"); ++off) queue_row(1, 1, 0, off);
    for (int mode = 0; mode < 2 && part("queue"); ++mode) {
        for (int grid : {1, 2, 4, dev.sms, 2 * dev.sms, 4 * dev.sms, 8 * dev.sms, 1024, 4096}) {
            if (budget.over("queue")) break;
            queue_row(mode, grid, 0, 0);
        }
        for (int grid : {2 * dev.sms, 8 * dev.sms}) {
            if (budget.over("queue")) break;
            queue_row(mode, grid, pad_one, 0);
            queue_row(mode, grid, pad_four, 0);
        }
    }
    for (int k = 0; k < 3 && part("queue"); ++k) {
        if (budget.over("queue summary")) break;
        const QueueBlocks a = queue_row(k == 2 ? 0 : 1, 1, 0, 0);
        const QueueBlocks b = queue_row(k == 2 ? 0 : 1, 8 * dev.sms, k == 1 ? pad_one : 0, 0);
        std::printf("# S %s queue of 256 lanes: one block %lld cycles (%.1f ns a lane at %d MHz); %d x SMs blocks, %d an SM: median %lld cycles a block, SM span %lld\n",
                    k == 2 ? "const" : "lab", a.cyc_med, a.cyc_med / (dev.sm_clock_khz * 1e-6) / kBlock,
                    dev.sm_clock_khz / 1000, 8, b.sm_blocks_max, b.cyc_med, b.sm_span_med);
    }

    // ------------------------------------------------------------ lab
    float* d_acc = nullptr;
    CK(cudaMalloc(&d_acc, sizeof(float)));
    for (int k = 0; k < 5 && part("lab"); ++k) {
        if (budget.over("lab")) break;
        if (k >= 3) {
            const int grid = k - 2;
            auto launch = [&](int) { shared_cas<<<grid, kBlock>>>(d_out); };
            const mb::Stats s = mb::stats_of(mb::time_runs(tm, 5, 30, [](int) {}, launch));
            std::vector<float> got(grid);
            CK(cudaMemcpy(got.data(), d_out, grid * sizeof(float), cudaMemcpyDeviceToHost));
            bool ok = true;
            for (float g : got) ok = ok && g == static_cast<float>(kBlock);
            std::printf("lab,shared_cas,%d,%d,0,,0,,,,,,,5,30,%.5f,%.5f,%.5f,%.5f,%.5f,,,,,,%s\n", grid, kBlock, s.median,
                        s.mean, s.min, s.max, s.stdev, mb::note_check(ok));
            std::fflush(stdout);
            continue;
        }
        const int n = k == 1 ? 512 : 256;
        const float* x = k == 2 ? d_x + kBlock : d_x;
        auto setup = [&](int) { CK(cudaMemsetAsync(d_acc, 0, sizeof(float))); };
        auto launch = [&](int) { denomShared<<<(n + kBlock - 1) / kBlock, kBlock>>>(x, d_acc, n); };
        const mb::Stats s = mb::stats_of(mb::time_runs(tm, 5, 30, setup, launch));
        float got = 0;
        CK(cudaMemcpy(&got, d_acc, sizeof(float), cudaMemcpyDeviceToHost));
        double ref = 0;
        for (int i = 0; i < n; ++i) ref += std::exp(static_cast<double>(h_x[(k == 2 ? kBlock : 0) + i]));
        std::printf("lab,denomShared,%d,%d,0,,%d,,,,,,,5,30,%.5f,%.5f,%.5f,%.5f,%.5f,,,,,,%s\n", (n + kBlock - 1) / kBlock,
                    kBlock, k == 2 ? 1 : 0, s.median, s.mean, s.min, s.max, s.stdev,
                    mb::note_check(std::fabs(got - ref) <= 1e-4 * ref));
        std::fflush(stdout);
    }
    CK(cudaFree(d_acc));
    CK(cudaFree(d_rec));
    CK(cudaFree(d_out));
    CK(cudaFree(d_x));

    // ------------------------------------------------------------ bins
    const unsigned max_bins = 8192, max_copies = 8;
    unsigned* d_hist = nullptr;
    CK(cudaMalloc(&d_hist, (size_t)max_bins * max_copies * sizeof(unsigned)));
    if (part("bins")) {
        const mb::Stats s = mb::stats_of(mb::time_runs(tm, 3, 10, [](int) {}, [&](int) { empty<<<8 * dev.sms, kBlock>>>(d_hist); }));
        std::printf("bins,empty,%d,%d,0,,,,,,,,,3,10,%.5f,%.5f,%.5f,%.5f,%.5f,,,,,,PASS\n", 8 * dev.sms, kBlock, s.median,
                    s.mean, s.min, s.max, s.stdev);
    }
    for (unsigned bins : {256u, 1024u, 4096u, 8192u}) {
        if (!part("bins")) break;
        for (int grid : {dev.sms, 8 * dev.sms}) {
            for (int v = 0; v < 3; ++v) {
                if (budget.over("bins")) break;
                const unsigned fill = v == 0 ? 0u : 1u, copies = v == 2 ? max_copies : 1u;
                const size_t smem = bins * sizeof(unsigned);
                int per_sm = 0;
                CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, zero_merge, kBlock, smem));
                auto setup = [&](int) { CK(cudaMemsetAsync(d_hist, 0, (size_t)bins * copies * sizeof(unsigned))); };
                auto launch = [&](int) { zero_merge<<<grid, kBlock, smem>>>(d_hist, bins, fill, copies); };
                const mb::Stats s = mb::stats_of(mb::time_runs(tm, 3, 10, setup, launch));
                std::vector<unsigned> got((size_t)bins * copies);
                CK(cudaMemcpy(got.data(), d_hist, got.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
                bool ok = true;
                for (unsigned c = 0; c < copies; ++c) {
                    unsigned blocks = 0;
                    for (int b = 0; b < grid; ++b) blocks += (unsigned)b % copies == c;
                    for (unsigned b = 0; b < bins; ++b) ok = ok && got[(size_t)c * bins + b] == blocks * fill;
                }
                std::printf("bins,zero_merge,%d,%d,%zu,%d,,%u,%u,%u,,,,3,10,%.5f,%.5f,%.5f,%.5f,%.5f,,,,,,%s\n", grid, kBlock,
                            smem, per_sm, bins, fill, copies, s.median, s.mean, s.min, s.max, s.stdev, mb::note_check(ok));
                std::fflush(stdout);
            }
        }
    }

    // ------------------------------------------------------------ walk
    const int n = 1 << 24;
    const int grid = 8 * dev.sms;
    int* d_bin = nullptr;
    unsigned* d_sink = nullptr;
    CK(cudaMalloc(&d_bin, (size_t)n * sizeof(int)));
    CK(cudaMalloc(&d_sink, (size_t)grid * kBlock * sizeof(unsigned)));
    std::vector<int> h_bin(n);
    const char* input_names[3] = {"uniform", "runs", "hot"};
    for (int input : {0, 2}) {
        if (!part("walk")) break;
        for (unsigned bins : {256u, 4096u}) {
            if (budget.over("walk")) break;
            std::vector<unsigned> want(bins, 0);
            unsigned long long want_sum = 0;
            for (int i = 0; i < n; ++i) {
                h_bin[i] = static_cast<int>(bin_of(static_cast<uint32_t>(i), bins, input));
                ++want[h_bin[i]];
                want_sum += static_cast<unsigned>(h_bin[i]);
            }
            CK(cudaMemcpy(d_bin, h_bin.data(), (size_t)n * sizeof(int), cudaMemcpyHostToDevice));
            const size_t smem = bins * sizeof(unsigned);
            for (int contig = 0; contig < 2; ++contig) {
                for (int v = 0; v < 3; ++v) {
                    if (budget.over("walk")) break;
                    const int atom = v == 0 ? 0 : 1, merge = v == 2 ? 1 : 0;
                    auto setup = [&](int) { CK(cudaMemsetAsync(d_hist, 0, smem)); };
                    auto launch = [&](int) {
                        const int code = contig * 4 + atom * 2 + merge;
                        switch (code) {
                        case 0: walk<0, 0, 0><<<grid, kBlock, smem>>>(d_bin, n, d_hist, (int)bins, d_sink); break;
                        case 2: walk<0, 1, 0><<<grid, kBlock, smem>>>(d_bin, n, d_hist, (int)bins, d_sink); break;
                        case 3: walk<0, 1, 1><<<grid, kBlock, smem>>>(d_bin, n, d_hist, (int)bins, d_sink); break;
                        case 4: walk<1, 0, 0><<<grid, kBlock, smem>>>(d_bin, n, d_hist, (int)bins, d_sink); break;
                        case 6: walk<1, 1, 0><<<grid, kBlock, smem>>>(d_bin, n, d_hist, (int)bins, d_sink); break;
                        default: walk<1, 1, 1><<<grid, kBlock, smem>>>(d_bin, n, d_hist, (int)bins, d_sink); break;
                        }
                    };
                    const mb::Stats s = mb::stats_of(mb::time_runs(tm, 3, 10, setup, launch));
                    bool ok = true;
                    if (merge) {
                        std::vector<unsigned> got(bins);
                        CK(cudaMemcpy(got.data(), d_hist, smem, cudaMemcpyDeviceToHost));
                        ok = got == want;
                    } else {
                        std::vector<unsigned> got((size_t)grid * kBlock);
                        CK(cudaMemcpy(got.data(), d_sink, got.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
                        unsigned long long sum = 0;
                        for (unsigned g : got) sum += g;
                        ok = sum == (atom ? static_cast<unsigned long long>(n) : want_sum);
                    }
                    std::printf("walk,%s,%d,%d,%zu,,,%u,,,%s,%d,%d,3,10,%.5f,%.5f,%.5f,%.5f,%.5f,,,,,,%s\n",
                                contig ? "histContig" : "histResident", grid, kBlock, smem, bins, input_names[input],
                                atom, merge, s.median, s.mean, s.min, s.max, s.stdev, mb::note_check(ok));
                    std::fflush(stdout);
                }
            }
        }
    }
    CK(cudaFree(d_sink));
    CK(cudaFree(d_bin));
    CK(cudaFree(d_hist));
    return mb::finish("sharedq", budget);
}
