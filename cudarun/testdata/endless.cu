// endless.cu: kernels for the GPU watchdog (cuda?timeout=, warplab run
// --timeout). endless spins until *stop is nonzero, which nothing sets, so
// it never ends on its own; the volatile read keeps the compiler from
// assuming the loop ends. twice is an ordinary kernel to launch after it.
__global__ void endless(int *stop) {
    while (*(volatile int *)stop == 0) {
    }
}

__global__ void twice(float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * i;
}
