// Package engine executes lowered kernels (package ir) SIMT-style: a warp
// runs one instruction for its active lanes under a mask; resident blocks
// are scheduled on the machine's SMs in seeded virtual time, so that the
// order in which atomics reach an address is a pure function of (kernel,
// inputs, launch, machine, seed).
//
// # Virtual time
//
// Every warp has a clock in cycles. An instruction advances its warp's
// clock by a cost from the Machine. Within a block, the warp with the lowest
// clock runs next; across blocks, a heap orders the instructions another
// block can observe (global atomics, volatile accesses, fences, and in a
// kernel that uses its global atomics' results its warp-uniform global
// loads) by clock, so they happen in the same order whatever the host does. Instructions nobody
// else can observe run eagerly. Seeded jitter at those points varies the
// order from seed to seed as it varies from run to run on a GPU.
package engine
