// Transposes between an array of structures and a structure of arrays
// with vector types: float4 records split into four planes, and planes
// packed back into float4 records with make_float4; a tile of uchar4
// pixels is transposed through shared memory.
__global__ void aosToSoa(const float4* __restrict__ in, float* x, float* y, float* z, float* w, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float4 r = in[i];
        x[i] = r.x;
        y[i] = r.y;
        z[i] = r.z;
        w[i] = r.w;
    }
}

__global__ void soaToAos(const float* x, const float* y, const float* z, const float* w, float4* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = make_float4(x[i], y[i], z[i], w[i]);
}

#define PTILE 16
__global__ void transposePixels(const uchar4* in, uchar4* out, int width, int height) {
    __shared__ uchar4 tile[PTILE][PTILE + 1];
    int x = blockIdx.x * PTILE + threadIdx.x, y = blockIdx.y * PTILE + threadIdx.y;
    if (x < width && y < height) tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    __syncthreads();
    x = blockIdx.y * PTILE + threadIdx.x;
    y = blockIdx.x * PTILE + threadIdx.y;
    if (x < height && y < width) out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}
