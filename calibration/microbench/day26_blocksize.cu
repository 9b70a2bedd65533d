// day26_blocksize.cu: the Day 26 sums (global atomic, shared atomic, shared
// tree + one atomic per block, warp shuffle + one atomic per block) at block
// sizes 64..1024 and n = 4096..16777216.
//
// Method, as in docs/measurements.md (the Day 26 course page's): input
// 0,1,2,3 repeating (in[i] = i % 4), one element per thread, ceil(n / B)
// blocks; for each (B, n, kernel): 3 warm-up launches then 10 timed launches,
// CUDA events around each launch (synchronised after it), a fresh accumulator
// slot per launch (zeroed before the sequence, outside the timed region), and
// every slot, warm-ups included, compared with == against the reference (the
// exact sum, also computed by Kahan summation in double). Reported: mean and
// median ms, and more. The whole sweep runs three times (column 'pass') to
// show run-to-run spread.
//
// Exactness: every partial sum is an integer; it is exact in float while below
// 2^24. The global-atomic kernel's running total reaches 1.5 n, so for
// n = 16777216 it passes 2^24 and the float result may differ from the exact
// sum (exact_required = 0, check INEXACT when it does, FAIL if off by more
// than 1e-3 relative). The block-level kernels only ever add multiples of 1.5 B
// to the total, which stay exact.
#include "common.cuh"
#include "day26_kernels.cuh"

int main(int argc, char** argv) {
    const mb::DevInfo dev = mb::print_header(
        "day26_blocksize", "Day 26 sums (global/shared/tree/shuffle) vs block size and n", argc,
        argv);
    mb::Budget budget(60.0);

    const int blocks[] = {64, 128, 256, 512, 1024};
    const size_t ns[] = {4096, 65536, 262144, 1048576, 4194304, 16777216};
    const int warm = 3, reps = 10, passes = 3;
    const size_t max_n = 16777216;

    std::vector<float> h_in(max_n);
    for (size_t i = 0; i < max_n; ++i) h_in[i] = static_cast<float>(i % 4);
    float* d_in = nullptr;
    float* d_acc = nullptr;
    CK(cudaMalloc(&d_in, max_n * sizeof(float)));
    CK(cudaMalloc(&d_acc, (warm + reps) * sizeof(float)));
    CK(cudaMemcpy(d_in, h_in.data(), max_n * sizeof(float), cudaMemcpyHostToDevice));

    double refs[6];
    for (int ni = 0; ni < 6; ++ni) refs[ni] = mb::kahan_sum(h_in.data(), ns[ni]);

    std::printf("# input: in[i] = i %% 4 (0,1,2,3 repeating); warm: %d reps: %d passes: %d\n",
                warm, reps, passes);
    mb::warm_gpu(dev, 0.3);
    mb::EvTimer tm;

    std::printf("pass,block,n,kernel,grid,global_atomics,warm,reps,mean_ms,median_ms,min_ms,"
                "max_ms,stdev_ms,gbps_mean,sum,reference,slots_distinct,exact_required,check\n");
    std::fflush(stdout);

    // mean ms by [pass][block index][n index][kind], for the summary
    double mean_ms[3][5][6][day26::NUM_KINDS] = {};
    bool stop = false;
    for (int pass = 0; pass < passes && !stop; ++pass) {
        for (int bi = 0; bi < 5 && !stop; ++bi) {
            const int B = blocks[bi];
            for (int ni = 0; ni < 6 && !stop; ++ni) {
                const size_t n = ns[ni];
                const double ref = refs[ni];
                const unsigned grid = static_cast<unsigned>((n + B - 1) / B);
                for (int kind = 0; kind < day26::NUM_KINDS; ++kind) {
                    if (budget.over("day26 config")) {
                        stop = true;
                        break;
                    }
                    const day26::SumKernel fn = day26::pick_kernel(B, kind);
                    CK(cudaMemset(d_acc, 0, (warm + reps) * sizeof(float)));
                    auto setup = [](int) {};
                    auto launch = [&](int slot) { fn<<<grid, B>>>(d_in, d_acc + slot, n); };
                    const mb::Stats s =
                        mb::stats_of(mb::time_runs(tm, warm, reps, setup, launch));

                    std::vector<float> got(warm + reps);
                    CK(cudaMemcpy(got.data(), d_acc, got.size() * sizeof(float),
                                  cudaMemcpyDeviceToHost));
                    const bool exact_required = (kind != day26::GLOBAL) || (1.5 * n <= 16777216.0);
                    bool all_exact = true, all_close = true;
                    std::vector<float> distinct;
                    for (float g : got) {
                        if (static_cast<double>(g) != ref) all_exact = false;
                        if (std::fabs(static_cast<double>(g) - ref) > 1e-3 * ref) all_close = false;
                        if (std::find(distinct.begin(), distinct.end(), g) == distinct.end())
                            distinct.push_back(g);
                    }
                    const char* check;
                    if (all_exact) check = mb::note_check(true);
                    else if (!exact_required && all_close) check = "INEXACT";
                    else check = mb::note_check(false);

                    const size_t atomics = (kind == day26::GLOBAL) ? n : grid;
                    mean_ms[pass][bi][ni][kind] = s.mean;
                    std::printf("%d,%d,%zu,%s,%u,%zu,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f,%.9g,%.9g,"
                                "%zu,%d,%s\n",
                                pass + 1, B, n, day26::kind_name(kind), grid, atomics, warm, reps,
                                s.mean, s.median, s.min, s.max, s.stdev,
                                4.0 * n / (s.mean * 1e6), static_cast<double>(got.back()), ref,
                                distinct.size(), exact_required ? 1 : 0, check);
                    std::fflush(stdout);
                }
            }
            std::fprintf(stderr, "[day26_blocksize] pass %d block %d done (%.1f s)\n", pass + 1, B,
                         budget.elapsed());
        }
    }

    // Human summary: one table per block size (the average over passes of each
    // pass's mean), the per-pass means at B = 256, and the exercise's ratios
    // at the two largest n against B = 256.
    double avg[5][6][day26::NUM_KINDS] = {};
    for (int bi = 0; bi < 5; ++bi)
        for (int ni = 0; ni < 6; ++ni)
            for (int k = 0; k < day26::NUM_KINDS; ++k) {
                double sum = 0;
                int cnt = 0;
                for (int p = 0; p < passes; ++p)
                    if (mean_ms[p][bi][ni][k] > 0) {
                        sum += mean_ms[p][bi][ni][k];
                        ++cnt;
                    }
                avg[bi][ni][k] = cnt ? sum / cnt : 0.0;
            }
    for (int bi = 0; bi < 5; ++bi) {
        std::printf("# S block %d: mean ms (average of the passes)\n", blocks[bi]);
        std::printf("# S %10s %10s %10s %10s %10s\n", "n", "global", "shared", "tree", "shuffle");
        for (int ni = 0; ni < 6; ++ni)
            std::printf("# S %10zu %10.4f %10.4f %10.4f %10.4f\n", ns[ni], avg[bi][ni][0],
                        avg[bi][ni][1], avg[bi][ni][2], avg[bi][ni][3]);
    }
    for (int ni = 0; ni < 6; ++ni) {
        std::printf("# S block 256 n=%zu per-pass mean ms:", ns[ni]);
        for (int k = 0; k < day26::NUM_KINDS; ++k) {
            std::printf(" %s", day26::kind_name(k));
            for (int p = 0; p < passes; ++p) std::printf(" %.4f", mean_ms[p][2][ni][k]);
        }
        std::printf("\n");
    }
    for (int ni : {4, 5}) {
        std::printf("# S ratio to B=256 at n=%zu:", ns[ni]);
        for (int bi = 0; bi < 5; ++bi) {
            std::printf(" B=%d", blocks[bi]);
            for (int k = 0; k < day26::NUM_KINDS; ++k) {
                const double base = avg[2][ni][k];
                std::printf(" %s=%.3f", day26::kind_name(k), base > 0 ? avg[bi][ni][k] / base : 0.0);
            }
        }
        std::printf("\n");
    }

    CK(cudaFree(d_acc));
    CK(cudaFree(d_in));
    return mb::finish("day26_blocksize", budget);
}
