// mergeburst.cu: when a privatised histogram's merge reaches the L2, and
// how long the L2 takes to drain it after the blocks have issued it (issue
// 11, the histogram lab's resident grid at 4096 bins; issue 14).
//
// What it separates (calibration/evidence/2026-11-30-h200-microbench-sharedq):
// the resident grid's merge adds 12.4 us to the walk at 4096 bins and 5.7
// at 256, and 19.1 us when the blocks merge without a walk; how much of
// the L2's work overlaps the walk depends on when each block's walk ends.
//
// Kernel burst<WALK, MERGE>: every block zeroes `bins` shared counters and
// passes the barrier (thread 0 reads %globaltimer: t0); WALK 1 walks the
// input as the histogram lab's histResident does (a grid-stride loop of
// shared atomicAdd), WALK 2 as its histContig does, WALK 0 walks nothing;
// the barrier (t1); MERGE 1 adds
// local[b] + fill to hist[b] with one global atomicAdd when that is not
// zero (the lab's merge; with WALK 0 and fill 1, one atomic per bin per
// block), MERGE 0 sums local[] into sink instead; the barrier (t2: the
// block's merge is issued, not necessarily served). rec gets t0, t1, t2 per
// block.
// Part "drain": WALK 0, fill 1, merge 0 and 1, bins 256, 1024 and 4096,
//   grids SMs x 1, 2, 4, 8 and 16 (the last two waves at 8 an SM).
// Part "walk": WALK 1, fill 0, merge 0 and 1, uniform input (bins 256,
//   1024, 4096) and hot input (90% in bin 0; 4096 bins), n = 16M, grids
//   SMs x 8 (the lab's resident grid) and SMs x 4; and WALK 2, the lab's
//   histContig walk (each thread its own contiguous chunk), at SMs x 8,
//   256 and 4096 bins: on the H200 its merge adds 2 to 3 us, the
//   interleaved walk's 6 to 12 (sharedq.csv).
// Columns: the event-timed launch (gated; 3 warm-ups, 10 timed), and from
// the last timed launch's records, in us after the first block's t0: the
// spread of t0, quantiles (0, 10, 50, 90, 100%) of t1 (walk ends) and of
// t2 (merges issued), and the smallest step seen between two blocks' t1
// (a bound on the timer's resolution). The launch's time less t2's
// maximum and the launch overhead (empty kernel row) is the L2's drain
// after the last block issued its merge. Every histogram is checked.
// An argument (drain or walk) runs that part alone.
#include "common.cuh"

namespace {

constexpr int kBlock = 256;

template <int WALK, int MERGE>
__global__ void burst(const int* bin, int n, unsigned* hist, int bins, unsigned fill, unsigned* sink,
                      unsigned long long* rec) {
    extern __shared__ unsigned local[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    unsigned long long t0 = 0, t1 = 0;
    if (threadIdx.x == 0) t0 = mb::gtimer_ordered();
    if (WALK == 1) {
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
            atomicAdd(&local[bin[i]], 1u);
    } else if (WALK == 2) {
        const int t = blockIdx.x * blockDim.x + threadIdx.x;
        const int threads = gridDim.x * blockDim.x;
        const int chunk = (n + threads - 1) / threads;
        const int lo = t * chunk;
        const int hi = min(n, lo + chunk);
        for (int i = lo; i < hi; i++) atomicAdd(&local[bin[i]], 1u);
    }
    __syncthreads();
    if (threadIdx.x == 0) t1 = mb::gtimer_ordered();
    if (MERGE) {
        for (int b = threadIdx.x; b < bins; b += blockDim.x) {
            const unsigned v = local[b] + fill;
            if (v != 0) atomicAdd(&hist[b], v);
        }
    } else {
        unsigned c = 0;
        for (int b = threadIdx.x; b < bins; b += blockDim.x) c += local[b];
        sink[blockIdx.x * blockDim.x + threadIdx.x] = c;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        rec[3 * blockIdx.x] = t0;
        rec[3 * blockIdx.x + 1] = t1;
        rec[3 * blockIdx.x + 2] = mb::gtimer_ordered();
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

// q returns the p-quantile of sorted v.
double q(const std::vector<double>& v, double p) {
    if (v.empty()) return 0;
    size_t i = static_cast<size_t>(p * (v.size() - 1) + 0.5);
    return v[std::min(i, v.size() - 1)];
}

// Timeline is one launch's block records, in us after the first t0.
struct Timeline {
    double start_spread = 0, res_ns = 0;
    std::vector<double> t1, t2;
};

Timeline timeline(const std::vector<unsigned long long>& rec, int grid) {
    Timeline tl;
    unsigned long long lo = rec[0], hi0 = rec[0];
    for (int b = 0; b < grid; ++b) {
        lo = std::min(lo, rec[3 * b]);
        hi0 = std::max(hi0, rec[3 * b]);
    }
    tl.start_spread = (hi0 - lo) * 1e-3;
    std::vector<unsigned long long> raw1;
    for (int b = 0; b < grid; ++b) {
        tl.t1.push_back((rec[3 * b + 1] - lo) * 1e-3);
        tl.t2.push_back((rec[3 * b + 2] - lo) * 1e-3);
        raw1.push_back(rec[3 * b + 1]);
    }
    std::sort(tl.t1.begin(), tl.t1.end());
    std::sort(tl.t2.begin(), tl.t2.end());
    std::sort(raw1.begin(), raw1.end());
    unsigned long long step = 0;
    for (size_t i = 1; i < raw1.size(); ++i) {
        const unsigned long long d = raw1[i] - raw1[i - 1];
        if (d > 0 && (step == 0 || d < step)) step = d;
    }
    tl.res_ns = static_cast<double>(step);
    return tl;
}

}  // namespace

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "mergeburst", "privatised histogram merge: when it reaches the L2 and how long the L2 drains it", argc, argv);
    mb::Budget budget(60.0);
    const mb::Parts part(argc, argv);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;

    const int n = 1 << 24;
    const int max_grid = 16 * dev.sms;
    const unsigned max_bins = 4096;
    int* d_bin = nullptr;
    unsigned *d_hist = nullptr, *d_sink = nullptr;
    unsigned long long* d_rec = nullptr;
    CK(cudaMalloc(&d_bin, (size_t)n * sizeof(int)));
    CK(cudaMalloc(&d_hist, (size_t)max_bins * sizeof(unsigned)));
    CK(cudaMalloc(&d_sink, (size_t)max_grid * kBlock * sizeof(unsigned)));
    CK(cudaMalloc(&d_rec, (size_t)max_grid * 3 * sizeof(unsigned long long)));

    std::printf("part,input,grid,block,bins,walk,merge,fill,blocks_per_sm,warm,reps,median_ms,mean_ms,min_ms,max_ms,stdev_ms,"
                "start_spread_us,walk_end_p0_us,walk_end_p10_us,walk_end_p50_us,walk_end_p90_us,walk_end_p100_us,"
                "issued_p0_us,issued_p50_us,issued_p100_us,timer_step_ns,check\n");
    {
        const mb::Stats s = mb::stats_of(mb::time_runs(tm, 3, 10, [](int) {}, [&](int) { empty<<<8 * dev.sms, kBlock>>>(d_hist); }));
        std::printf("empty,,%d,%d,,,,,,3,10,%.5f,%.5f,%.5f,%.5f,%.5f,,,,,,,,,,,PASS\n", 8 * dev.sms, kBlock, s.median, s.mean,
                    s.min, s.max, s.stdev);
        std::fflush(stdout);
    }

    // row launches burst<walk, merge> and prints its row; want is the
    // expected histogram when it merges.
    auto row = [&](const char* what, const char* input, int grid, unsigned bins, int walk, int merge, unsigned fill,
                   const std::vector<unsigned>& want) {
        const size_t smem = bins * sizeof(unsigned);
        int per_sm = 0;
        auto launch = [&](int) {
            const int code = walk * 2 + merge;
            switch (code) {
            case 0: burst<0, 0><<<grid, kBlock, smem>>>(d_bin, n, d_hist, (int)bins, fill, d_sink, d_rec); break;
            case 1: burst<0, 1><<<grid, kBlock, smem>>>(d_bin, n, d_hist, (int)bins, fill, d_sink, d_rec); break;
            case 2: burst<1, 0><<<grid, kBlock, smem>>>(d_bin, n, d_hist, (int)bins, fill, d_sink, d_rec); break;
            case 3: burst<1, 1><<<grid, kBlock, smem>>>(d_bin, n, d_hist, (int)bins, fill, d_sink, d_rec); break;
            case 4: burst<2, 0><<<grid, kBlock, smem>>>(d_bin, n, d_hist, (int)bins, fill, d_sink, d_rec); break;
            default: burst<2, 1><<<grid, kBlock, smem>>>(d_bin, n, d_hist, (int)bins, fill, d_sink, d_rec); break;
            }
        };
        if (walk == 2) CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, burst<2, 1>, kBlock, smem));
        else if (walk) CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, burst<1, 1>, kBlock, smem));
        else CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, burst<0, 1>, kBlock, smem));
        auto setup = [&](int) { CK(cudaMemsetAsync(d_hist, 0, smem)); };
        const mb::Stats s = mb::stats_of(mb::time_runs(tm, 3, 10, setup, launch));
        std::vector<unsigned long long> rec((size_t)grid * 3);
        CK(cudaMemcpy(rec.data(), d_rec, rec.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
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
            ok = sum == (walk ? static_cast<unsigned long long>(n) : 0ull);
        }
        const Timeline tl = timeline(rec, grid);
        std::printf("%s,%s,%d,%d,%u,%d,%d,%u,%d,3,10,%.5f,%.5f,%.5f,%.5f,%.5f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.0f,%s\n",
                    what, input, grid, kBlock, bins, walk, merge, fill, per_sm, s.median, s.mean, s.min, s.max, s.stdev,
                    tl.start_spread, q(tl.t1, 0), q(tl.t1, 0.1), q(tl.t1, 0.5), q(tl.t1, 0.9), q(tl.t1, 1), q(tl.t2, 0),
                    q(tl.t2, 0.5), q(tl.t2, 1), tl.res_ns, mb::note_check(ok));
        std::fflush(stdout);
    };

    // ------------------------------------------------------------ drain
    for (unsigned bins : {256u, 1024u, 4096u}) {
        if (!part("drain")) break;
        for (int per : {1, 2, 4, 8, 16}) {
            const int grid = per * dev.sms;
            const std::vector<unsigned> want(bins, (unsigned)grid);
            for (int merge = 0; merge < 2; ++merge) {
                if (budget.over("drain")) break;
                row("drain", "", grid, bins, 0, merge, 1, want);
            }
        }
    }

    // ------------------------------------------------------------ walk
    std::vector<int> h_bin(n);
    const char* input_names[3] = {"uniform", "runs", "hot"};
    for (int input : {0, 2}) {
        if (!part("walk")) break;
        for (unsigned bins : {256u, 1024u, 4096u}) {
            if (input == 2 && bins != 4096u) continue;
            if (budget.over("walk")) break;
            std::vector<unsigned> want(bins, 0);
            for (int i = 0; i < n; ++i) {
                h_bin[i] = static_cast<int>(bin_of(static_cast<uint32_t>(i), bins, input));
                ++want[h_bin[i]];
            }
            CK(cudaMemcpy(d_bin, h_bin.data(), (size_t)n * sizeof(int), cudaMemcpyHostToDevice));
            for (int per : {8, 4}) {
                for (int merge = 0; merge < 2; ++merge) {
                    if (budget.over("walk")) break;
                    row("walk", input_names[input], per * dev.sms, bins, 1, merge, 0, want);
                }
            }
            for (int merge = 0; merge < 2 && bins != 1024u; ++merge) {
                if (budget.over("walk")) break;
                row("walk", input_names[input], 8 * dev.sms, bins, 2, merge, 0, want);
            }
        }
    }

    CK(cudaFree(d_rec));
    CK(cudaFree(d_sink));
    CK(cudaFree(d_hist));
    CK(cudaFree(d_bin));
    return mb::finish("mergeburst", budget);
}
