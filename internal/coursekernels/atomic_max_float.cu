// From the atomic-operations reference ("Atomic Operations"), section
// "atomicCAS for everything else": atomicMaxFloat, a compare-and-swap loop
// on the float's bits. The page warns that it is only correct for
// non-negative floats.

__device__ float atomicMaxFloat(float* addr, float value) {
    int* iaddr = reinterpret_cast<int*>(addr);
    int old = *iaddr, assumed;
    do {
        assumed = old;
        const float cur = __int_as_float(assumed);
        if (cur >= value) break;
        old = atomicCAS(iaddr, assumed, __float_as_int(value));
    } while (assumed != old);
    return __int_as_float(old);
}

// Added so atomicMaxFloat can be launched: the maximum of in[0..n) into
// *result.
__global__ void maxFloatCAS(const float* in, int n, float* result) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicMaxFloat(result, in[i]);
    }
}

// Added for comparison: the same maximum with the native integer atomicMax
// on the float's bits, one instruction and no loop. Like the CAS version it
// orders floats correctly only when they are non-negative.
__global__ void maxFloatIntBits(const float* in, int n, float* result) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicMax(reinterpret_cast<int*>(result), __float_as_int(in[i]));
    }
}
