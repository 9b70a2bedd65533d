package driver

// Counters are a simulated launch's event counts; gpu.Counters documents
// the fields.
type Counters struct {
	Blocks  int64 `json:"blocks"`
	Warps   int64 `json:"warps"`
	Threads int64 `json:"threads"`
	// ResidentBlocksPerSM is the occupancy limit for this launch; Waves is
	// blocks / (SMs * ResidentBlocksPerSM), rounded up.
	ResidentBlocksPerSM int   `json:"resident_blocks_per_sm"`
	Waves               int64 `json:"waves"`

	WarpInstructions   int64    `json:"warp_instructions"`
	ThreadInstructions int64    `json:"thread_instructions"`
	ByClass            InstrMix `json:"by_class"`

	// Global memory: requests are warp instructions, sectors the distinct
	// 32-byte sectors they touch, bytes what the active lanes asked for.
	GlobalLoadRequests  int64 `json:"global_load_requests"`
	GlobalLoadSectors   int64 `json:"global_load_sectors"`
	GlobalLoadBytes     int64 `json:"global_load_bytes"`
	GlobalStoreRequests int64 `json:"global_store_requests"`
	GlobalStoreSectors  int64 `json:"global_store_sectors"`
	GlobalStoreBytes    int64 `json:"global_store_bytes"`
	// DRAMBytes is the modelled traffic between the L2 and DRAM (see
	// gpu.Counters).
	DRAMBytes int64 `json:"dram_bytes"`
	// The L2 (modelled, see gpu.Counters): sector accesses, those that
	// hit, the slices and the busiest slice's sector accesses.
	L2Sectors         int64 `json:"l2_sectors"`
	L2Hits            int64 `json:"l2_hits"`
	L2Slices          int   `json:"l2_slices"`
	L2HotSliceSectors int64 `json:"l2_hot_slice_sectors"`

	// Shared memory: BankConflicts counts the extra wavefronts (a request
	// whose lanes hit k distinct words of one bank costs k-1 extra).
	SharedLoadRequests  int64 `json:"shared_load_requests"`
	SharedStoreRequests int64 `json:"shared_store_requests"`
	SharedBankConflicts int64 `json:"shared_bank_conflicts"`

	LocalLoadRequests  int64 `json:"local_load_requests"`
	LocalStoreRequests int64 `json:"local_store_requests"`

	// Global atomics. Requests are warp instructions and Ops the lanes'
	// operations. Issued is what reaches the L2 after the compiler's warp
	// aggregation (an integer add to an address the compiler proves the
	// same for every lane becomes one operation per warp, whether or not
	// its result is used): Aggregated = Ops - Issued, and AggregatedUsed
	// counts the lane operations, of those aggregated, whose lanes use the
	// returned old value (the compiler hands each its share by a warp
	// prefix sum). Addresses and Lines count the distinct addresses and
	// 128-byte lines; MaxChain is the most issued operations to one address
	// and MaxLineChain to one line.
	GlobalAtomicRequests       int64 `json:"global_atomic_requests"`
	GlobalAtomicOps            int64 `json:"global_atomic_ops"`
	GlobalAtomicIssued         int64 `json:"global_atomic_issued"`
	GlobalAtomicAggregated     int64 `json:"global_atomic_aggregated"`
	GlobalAtomicAggregatedUsed int64 `json:"global_atomic_aggregated_used"`
	GlobalAtomicAddresses      int64 `json:"global_atomic_addresses"`
	GlobalAtomicLines          int64 `json:"global_atomic_lines"`
	GlobalAtomicMaxChain       int64 `json:"global_atomic_max_chain"`
	GlobalAtomicMaxLine        int64 `json:"global_atomic_max_line_chain"`
	// FloatAtomicOps counts the global float/double atomic operations (never
	// aggregated by the compiler).
	GlobalFloatAtomicOps int64 `json:"global_float_atomic_ops"`

	// Shared atomics. Conflicts counts, per request, the lanes beyond the
	// first that hit an address another lane of the warp also hits (they
	// serialise; not the lanes of a shared atomicAdd of 1 whose result is
	// unused, nvcc's ATOMS.POPC.INC, which adds their count at once); CASRetries the extra loop trips of the compare-and-swap
	// loop that a shared float atomicAdd compiles to.
	SharedAtomicRequests  int64 `json:"shared_atomic_requests"`
	SharedAtomicOps       int64 `json:"shared_atomic_ops"`
	SharedAtomicConflicts int64 `json:"shared_atomic_conflicts"`
	SharedCASRetries      int64 `json:"shared_cas_retries"`
	// CASFailures counts the atomicCAS lane operations, global and
	// shared, whose compare failed: the stored value was not the one the
	// lane expected, so a compare-and-swap loop goes round again. Each is
	// one retry of a user's CAS loop.
	CASFailures int64 `json:"cas_failures"`

	Shuffles int64 `json:"shuffles"`
	Votes    int64 `json:"votes"`    // ballot, any, all, match, activemask
	Barriers int64 `json:"barriers"` // __syncthreads completed, per block
	// BarrierWaitCycles is the modelled time warps spent waiting at
	// __syncthreads for the last warp of their block, in warp-cycles
	// (SM cycles summed over the waiting warps).
	BarrierWaitCycles int64 `json:"barrier_wait_cycles"`
	SyncWarps         int64 `json:"syncwarps"`
	Fences            int64 `json:"fences"`
	Printfs           int64 `json:"printfs"`
}

// InstrMix counts warp instructions by class.
type InstrMix struct {
	Int     int64 `json:"int"`     // integer and logic
	FP32    int64 `json:"fp32"`    // float add, mul, fma, compare
	FP64    int64 `json:"fp64"`    // double arithmetic
	SFU     int64 `json:"sfu"`     // exp, log, sqrt, sin, rcp, ...
	Convert int64 `json:"convert"` // conversions between types
	Memory  int64 `json:"memory"`  // loads and stores
	Atomic  int64 `json:"atomic"`
	Warp    int64 `json:"warp"`    // shuffles and votes
	Control int64 `json:"control"` // branches, calls, masks
	Sync    int64 `json:"sync"`    // barriers and fences
}
