// Package ir is gpusim's intermediate representation: a kernel lowered from
// the checked cudac tree to a flat list of typed register instructions with
// explicit SIMT control flow.
//
// # Registers
//
// A register holds one 64-bit value per lane. 32-bit values (int, unsigned,
// float bits, bool) live in the low 32 bits with the high bits zero; narrower
// integers are kept sign- or zero-extended to 32 bits, as C promotes them;
// 64-bit values (long long, double bits, pointers) use all 64. Every C scalar
// local variable is one register; arrays, structs and variables whose
// address is taken live in per-thread local memory.
//
// # Control flow
//
// Control flow is structured, as the source is. Each warp keeps a stack of
// mask entries (one per active if, loop, switch or inlined call) and a
// "parked" mask: lanes that left the active set through break, continue or
// return and wait in an entry for the point where they rejoin. Instructions
// that can leave the active mask empty carry a Target to jump to, always the
// next join point outward, so a warp never executes a long run of
// instructions with no active lane. The stack depth at every instruction is
// static, so break, continue and return name their entry by index.
//
// # Memory
//
// Addresses are 64-bit and generic: the window an address falls in selects
// global, shared or local memory, as on the hardware. SharedBase and
// LocalBase are the bases of the shared and local windows; global
// allocations sit at GlobalBase and above.
package ir
