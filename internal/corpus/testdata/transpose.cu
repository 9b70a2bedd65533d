// A tiled matrix transpose through shared memory, the tile padded by one
// column against bank conflicts; each thread moves TILE / ROWS elements.
#define TILE 32
#define ROWS 8
#define AT(m, r, c, ld) (m)[(r) * (ld) + (c)]

template <typename T>
__global__ void transposeTiled(const T* __restrict__ in, T* __restrict__ out, int rows, int cols) {
    __shared__ T tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = AT(in, y + j, x, cols);
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (x < rows && y + j < cols) AT(out, y + j, x, rows) = tile[threadIdx.x][threadIdx.y + j];
}
