package engine

import (
	"context"
	"time"

	"github.com/warplab/warplab/cudac"
	"github.com/warplab/warplab/gpu/driver"
	"github.com/warplab/warplab/gpusim/internal/ir"
)

// Machine is what the engine needs to know about the simulated device.
type Machine struct {
	Name               string
	SMs                int
	MaxThreadsPerBlock int
	MaxThreadsPerSM    int
	MaxBlocksPerSM     int
	MaxWarpsPerSM      int
	SharedPerSM        int64 // bytes usable by blocks
	SharedPerBlock     int64 // the per-block limit (static + dynamic)
	RegsPerSM          int   // 32-bit registers
	// L2Bytes, L2Slices and L2Partitions are the L2's size, its slices
	// and the partitions they form, and L2HashBytes the bytes that go to
	// one slice together, for the residency and slice models (l2cache.go;
	// L2Bytes 0: every access misses; L2Slices 0: no slices).
	L2Bytes      int64
	L2Slices     int
	L2Partitions int
	L2HashBytes  int64
	// Costs in cycles that advance a warp's clock (see Costs).
	Costs Costs
	// ClockGHz converts the L2's times (in ns) to SM cycles.
	ClockGHz float64
	// Jitter is the largest random delay, in cycles, added where a warp
	// reaches an instruction another block can observe.
	Jitter int64
	// FirstWave is, per SM, the cycles after the launch's first block at
	// which the SM's first block starts (nil: every SM's at once); the
	// SM's other first-wave blocks follow Costs.Stagger apart.
	FirstWave []int32
	// FirstWaveJitter, where FirstWave is set and it is not 0, bounds the
	// seeded delay at a first-wave warp's first instruction another block
	// can observe when that is a global atomic (Jitter at every other):
	// the warps that start first get there first, as the block
	// scheduler's order says.
	FirstWaveJitter int64
}

// Costs are the per-instruction latencies, in cycles, that drive the
// virtual clock, and the service times of the contended resources the
// engine models as queues or accumulates for the cost model.
type Costs struct {
	// Latencies in SM cycles.
	ALU, SFU, Shared, Global, Atomic, Barrier int64
	// BarrierBase and BarrierWarp give the cycles from a barrier's last
	// warp arriving to the block's release: BarrierBase + BarrierWarp*W
	// for a block of W warps (0 for both: Barrier, whatever the warps).
	BarrierBase, BarrierWarp float64
	// BarrierStagger is the cycles between the warps a barrier releases,
	// in warp order, the last at the release time (0: all at once).
	BarrierStagger float64
	// Launch is the delay, in cycles, before blocks continue after a grid
	// synchronisation.
	Launch int64
	// Stagger is the delay between the starts of the blocks a launch
	// first places on one SM; Refill the delay before a block starts in a
	// slot another block freed.
	Stagger, Refill int64
	// Dispatch and DispatchWarp give the cycles an SM's block dispatch is
	// held per block it starts past the first wave: the longer of Dispatch
	// and DispatchWarp per warp of the block (0: freed slots refill
	// independently).
	Dispatch, DispatchWarp float64
	// Local is a local-memory access's latency; Store the cost of a global
	// store or an atomic whose result is unused, which the warp does not
	// wait for.
	Local, Store int64
	// CASServed: a compare-and-swap whose result is used and whose lanes
	// are on one global word compares when its line serves it, and
	// CASOrdered is the line's queue, in cycles of work, within which it
	// serves them in arrival order (casserve.go).
	CASServed  bool
	CASOrdered int64
	// L2InFlight is the transactions the L2 holds queued at once: the
	// window of arrivals whose lines it serves side by side (0: the
	// arrivals within Global cycles).
	L2InFlight int64
	// SharedJitterDivisor divides the seeded jitter where a warp reaches a
	// shared atomic, which only its own block observes.
	SharedJitterDivisor int64
	// SharedFloatA and SharedFloatB give the cycles one lane's shared float
	// atomicAdd (a compare-and-swap loop) holds its address in a block of
	// W warps: A + B/W. The more warps contend, the better
	// the loop's round trips overlap.
	SharedFloatA, SharedFloatB float64
	// SharedFloatPipe is the cycles of the SM's shared-memory pipeline one
	// lane's shared float atomicAdd takes, its failed compare-and-swap
	// trips and the other warps' included: the blocks resident on an SM
	// run their loops side by side, so a lane holds its address at least
	// SharedFloatPipe times the SM's resident blocks. A lane that adds
	// zero leaves the value as it was, so it succeeds in the trip of the
	// lane before it and takes none of the pipeline. 0: not modelled.
	SharedFloatPipe float64
	// SharedCASConvoy, SharedCASPhases and SharedCASWindow set a shared
	// float add queue's mode by when the warps reach it: a trip of the
	// compare-and-swap loop succeeds only if no other success fell in its
	// last SharedCASWindow cycles, so warps that arrive within the window
	// of each other (their arrivals taken modulo SharedCASConvoy, the
	// interval of one success a trip) run as one convoy, while warps
	// arriving further apart fit two successes into each interval: once a
	// busy period's arrivals spread over the window, its lanes cost
	// SharedCASPhases/SharedCASConvoy of a convoy's (queuecas.go). 0 for
	// SharedCASConvoy: one mode.
	SharedCASConvoy, SharedCASPhases, SharedCASWindow float64
	// SharedCASPhasesWarps is the most warps a block may have for its
	// queue to take the two-phase rate; a larger block's queue stays a
	// convoy however its warps arrive (0: any block).
	SharedCASPhasesWarps int
	// LoadSpread spreads a plain global load's latency by the line it
	// reads and the SM that asks (loadspread.go): the quantiles, at equal
	// steps of probability from 0 to 1, of the cycles by which a load's
	// latency differs from Global. nil or one value: every load takes
	// Global.
	LoadSpread []float64
	// SharedInt is the cycles one lane's native shared atomic holds its address.
	SharedInt float64
	// SharedPopc is the fewest shared-memory wavefronts a warp's
	// ATOMS.POPC.INC (a shared atomicAdd of 1) takes, however few banks its
	// lanes' addresses hit (0: as many as its busiest bank serves).
	SharedPopc float64
	// L2 service times in nanoseconds (the L2 has its own clock): an
	// atomic transaction (one warp instruction's lanes that hit one 128-byte
	// line) holds its line for max(a*L2Addr, n*op, s*L2Sector) where a is
	// its distinct addresses, n the most lanes on one address of the line,
	// op the per-operation time of its type, and s the sum over the 32-byte
	// sectors it touches of the most lanes on one address of the sector.
	L2Addr, L2OpF32, L2OpF64, L2OpInt, L2Sector float64
	// Unroll is the factor by which the compiler unrolls an innermost
	// counted loop (0 or 1: not at all): the loop's branch and its
	// induction update issue once per Unroll iterations, and the global
	// loads of Unroll iterations are in flight together (see issue.go).
	Unroll int64
	// Scoreboard times a warp as its machine code issues (scoreboard.go):
	// a load's result is waited for where an instruction first reads it,
	// a shared store costs its issue, and what nvcc emits nothing for
	// costs nothing. False: every IR instruction costs its whole latency
	// where it stands.
	Scoreboard bool
	// UnrollALU is the factor for an unrolled loop whose body is register
	// arithmetic alone, which ptxas unrolls again (0: Unroll).
	UnrollALU int64
	// Hoist: integer arithmetic on a loop's invariants, and reads of the
	// launch's special registers, in an innermost loop issue nothing (the
	// compiler computes them above the loop; see issue.go, hoist).
	Hoist bool
	// ConvergeSlots is the instructions (BSSY, BSYNC) a branch that may
	// diverge around memory accesses in a loop issues a trip beside its
	// compare and branch; UnrollRemainderSlots the instructions an
	// unrolled loop whose trip count is known only at run time issues each
	// time it is entered, beside its first test (issue.go, brackets). 0:
	// not modelled.
	ConvergeSlots, UnrollRemainderSlots float64
	// BranchSlots is the issue slots of a conditional branch, its compare
	// and its branch (0: one, as the IR's one instruction); the warp's
	// clock keeps one ALU latency for it.
	BranchSlots float64
	// AggregateSlots is the instructions nvcc's warp aggregation of an
	// integer atomic whose old value the lanes use issues beside the
	// atomic: the vote, the leader's election and the warp's total before
	// it, each lane's share of the old value after (0: not modelled).
	AggregateSlots float64
	// Schedulers is each SM's warp schedulers (0: not modelled), each
	// issuing SchedulerIPC warp instructions a cycle: warps that share a
	// scheduler and together ask for more slow each other down (see
	// schedulers.go).
	Schedulers   int
	SchedulerIPC float64
	// SchedulerCharge: a warp's issue slots since its last global
	// instruction are charged to its scheduler when it reaches the next
	// one, and the warp reaches it no earlier than its scheduler could
	// have issued them (see charge, schedulers.go), so that what a warp
	// gets from a work queue follows its scheduler's contention.
	SchedulerCharge bool
	// StoreLine and StoreSector are the SM cycles the store path spends per
	// line request a warp's global store sends and per further partly
	// written sector of it (see partialSectors): they pick the SM whose
	// stores cost most for Outcome's store figures (0: the SM with the
	// most line requests). Where StorePath is set, the SM's own path
	// takes StorePath a line request and StoreLine and StoreSector are
	// the L2's, over all the SMs' requests: the busiest SM is the one
	// with the most line requests.
	StoreLine, StoreSector, StorePath float64
	// StoreWhole is the L2's cycles a further whole sector of a line
	// request, where StorePath is set; StorePathSector and StorePathWhole
	// the SM's own path's a further partly written and whole sector (0:
	// not modelled).
	StoreWhole, StorePathSector, StorePathWhole float64
}

// Order says how the order of atomics is chosen.
type Order uint8

const (
	// Seeded: virtual time with seeded jitter; different seeds give
	// different orders, as runs on a GPU do.
	Seeded Order = iota
	// Deterministic: no jitter; ties are broken by block and warp index.
	Deterministic
)

// Config is one launch: the kernel, its geometry and arguments, the memory
// it runs against, and how its order is chosen, budgeted and checked. The
// device it runs on is the Machine passed to Run beside it.
type Config struct {
	Kernel      *ir.Kernel
	Grid, Block driver.Dim3
	SharedBytes int64 // dynamic shared memory
	// Params are the parameters' register values (pointers as addresses).
	Params []uint64
	// Memory is the device memory that the pointer parameters and the
	// globals point into; its allocations name the buffer an illegal
	// address fell near, in error messages.
	Memory  *Memory
	Globals []uint64 // the address of each of Kernel.Globals
	// Seed seeds the jitter that orders the warps' observable accesses;
	// Order says whether that jitter is used at all.
	Seed  uint64
	Order Order
	// MaxInstructions is the warp-instruction budget shared by all warps
	// (0 or less: DefaultBudget for the launch's warp count, and
	// DefaultWarpBudget for each warp on its own).
	MaxInstructions int64
	// RaceCheck turns on the shared-memory race detector.
	RaceCheck bool
	// Cooperative is a cooperative launch: every block is resident at
	// once, and grid_group::sync() is allowed.
	Cooperative bool
	// Relaxed runs global memory under the weak model of weak.go instead
	// of sequential consistency.
	Relaxed bool
	// Fine switches between a block's warps at shared-memory loads and
	// stores too, after seeded delays (see fine.go).
	Fine bool
	// Ctx, if set, stops the launch when it is done; Timeout, if
	// positive, when it has run this long (see watch.go).
	Ctx     context.Context
	Timeout time.Duration
	// Progress, if set, receives the blocks finished of the grid's total,
	// from another goroutine, while a launch longer than
	// driver.ProgressAfter runs.
	Progress func(done, total int64)
}

// Outcome is what a launch produced besides its memory writes.
type Outcome struct {
	Counters    driver.Counters
	Printf      string
	Diagnostics []driver.Diagnostic
	// Cycles is the virtual time at which the kernel finished: the later of
	// BlocksEnd, when its last block finished, and L2Drain, when the L2
	// served its last atomic.
	Cycles, BlocksEnd, L2Drain int64
	// L2 is the time the L2 spent on atomics, by line.
	L2 L2Profile
	// ResidentBlocks is the number of blocks that fit on one SM.
	ResidentBlocks int
	// Schedulers is the busiest warp scheduler's contention (zero when
	// the machine does not model it; see schedulers.go).
	Schedulers SchedulerLoad
	// IssueSlots is the warp instructions the SMs' schedulers issue for
	// the launch: the executed instructions less those the compiler
	// leaves no machine instruction for (see issue.go).
	IssueSlots float64
	// MaxSMStoreLines is the 128-byte lines the global stores of the
	// blocks on the busiest SM wrote (a warp's store counts each line its
	// lanes touch once), and MaxSMStoreSectors the further partly written
	// sectors in them (partialSectors): the busiest SM's store traffic to
	// the L2, busiest by Costs.StoreLine and StoreSector (by lines where
	// those are 0).
	MaxSMStoreLines, MaxSMStoreSectors int64
	// MaxSMStoreWhole is the further whole sectors of the busiest SM's
	// line requests (the sectors beyond a line's first that a store
	// writes all of).
	MaxSMStoreWhole int64
	// StoreLines, StoreSectors and StoreWhole are the same over every SM:
	// the launch's line requests, further partly written sectors and
	// further whole sectors.
	StoreLines, StoreSectors, StoreWhole int64
	// MaxSMLoadLines is the same for the global loads: the most 128-byte
	// lines the loads of the blocks on one SM read, each line a warp's
	// load touches once.
	MaxSMLoadLines int64
	// L1HitSectors is the 32-byte sectors the global loads read from a
	// 64-byte granule their lane had loaded last time: what the L1 serves
	// when it holds every resident lane's line.
	L1HitSectors int64
	// DRAMLoneBytes is the part of the global loads' DRAM bytes moved in
	// 64-byte granules without the other granule of their 128-byte line
	// in the same warp access (lanes 128 bytes apart move one granule a
	// line): the DRAM serves those less efficiently.
	DRAMLoneBytes int64
	// SharedAtomicWavefronts is the shared-memory wavefronts the shared
	// atomics took: per warp instruction, the most distinct words one bank
	// serves (an ATOMS.POPC.INC at least Costs.SharedPopc).
	SharedAtomicWavefronts float64
	// SMBlocks is the blocks one SM holds at once: the resident blocks, or
	// the grid's share of an SM when the grid has fewer. BlockThreads and
	// BlockShared are a block's threads and shared memory (static and
	// dynamic).
	SMBlocks, BlockThreads int
	BlockShared            int64
}

// L2Profile is the L2's atomic work: each line's busy time in nanoseconds,
// summed over the transactions that hit it. A line is busy while it serves
// a transaction and while a transaction at the head of its queue waits for
// a sector whose previous operation has not completed.
type L2Profile struct {
	MaxLineNs float64 // the busiest line
	SumNs     float64 // all lines together, stalls included
	HotLines  int64   // lines that received atomics
	// Windows splits the same work by when it arrived: the transactions
	// of Costs.L2InFlight consecutive operations (or, where that is 0,
	// those that arrive within one global-memory latency, Costs.Global
	// cycles, of each other) compete for the L2's units together, so how
	// many lines the L2 serves at once depends on the lines hot in the
	// same window, not on all the lines the launch ever touched.
	Windows []L2Window
}

// L2Window is the L2 atomic work that arrived in one window of virtual time.
type L2Window struct {
	BusyNs  float64 // the lines' busy time, stalls included
	StallNs float64 // the part of BusyNs spent waiting on a sector
	Lines   int64   // distinct lines that received transactions
	// First and Last are the SM cycles at which the window's first and
	// last transactions arrived: when its work reached the L2.
	First, Last int64
}

// DefaultBudget returns the warp-instruction budget of a launch that sets
// none: generous for real kernels, short enough that an endless loop stops
// within seconds.
func DefaultBudget(warps int64) int64 {
	return max(200_000_000, 4096*warps)
}

// stop says why a warp stopped running.
type stop int8

const (
	run             stop = iota // keep going
	stopLocal                   // before a shared atomic or volatile shared access: let the block's other warps catch up
	stopGlobal                  // before an instruction other blocks can observe: wait for the global scheduler
	stopBarrier                 // arrived at __syncthreads
	stopGridBarrier             // arrived at grid_group::sync()
	stopExit                    // every lane has finished
	stopFault                   // the launch failed; exec.err says why
)

// step executes one instruction for a warp.
type step func(w *warp) stop

// pcInfo is one instruction's executable form and its cost.
type pcInfo struct {
	fn   step
	cost int64
	// lat is, for a load on the scoreboard, its latency: its result is
	// ready lat cycles after it issues (cost is then its issue alone); 0
	// otherwise. srcs are the registers the instruction reads (NoReg
	// where none), all says it reads more than srcs can hold.
	lat  int64
	dst  ir.Reg
	srcs [3]ir.Reg
	all  bool
	// issue is the machine instructions one execution issues (issue.go).
	issue float64
	// spread: a load whose latency takes Costs.LoadSpread (loadspread.go).
	spread bool
}

// entry is one level of a warp's mask stack.
type entry struct {
	saved uint32
	a     uint32 // If: the else lanes; Loop, Switch: break lanes; Func: returned lanes
	b     uint32 // Loop: continue lanes; Switch: default lanes
	// pc is the If or Loop instruction of a construct that contains a
	// barrier, else -1; side says where the warp is in it.
	pc   int32
	side side
}

// side is the way a warp went at a construct that contains a barrier.
type side uint8

const (
	sideThen side = 1 << iota
	sideElse
	sideLeft // left the loop
)

// divergence records the ways a warp went, since the last barrier, at
// constructs that contain one.
type divergence struct {
	pc   int32
	side side
}

type warpState uint8

const (
	runnable warpState = iota
	atBarrier
	atGridBarrier
	done
)

// pending says what a warp stopped before.
type pending uint8

const (
	pendNone pending = iota
	pendLocal
	pendGlobal
)

// warp is one resident warp. The fields the scheduler reads at every
// pick (state, clock) and those every instruction touches come first, in
// the struct's first cache line.
type warp struct {
	state    warpState
	pend     pending
	cleared  bool // the scheduler allows the pending instruction to run
	pc       int32
	clock    int64
	mask     uint32   // active lanes
	launched uint32   // lanes that exist
	exited   uint32   // lanes that have finished
	parked   uint32   // lanes waiting in an entry (break, continue, return)
	regs     []uint64 // NumRegs * 32
	blk      *block
	sp       int // entries in use
	stack    []entry
	local    []byte // LocalBytes * 32
	idx      int    // warp index within the block
	// start is the clock the warp started at, slots the issue slots it
	// has used (for the schedulers' term, schedulers.go).
	start int64
	slots float64
	// chargedAt and chargedSlots are the clock and slots at the warp's
	// last charge to its scheduler, charged that its pending global
	// instruction has been (SchedulerCharge, schedulers.go).
	chargedAt    int64
	chargedSlots float64
	charged      bool
	chargedOnce  bool // the warp has reached a global instruction
	rng          uint64
	// localAt is the clock at which the warp last stopped before a
	// shared access, before the jitter there: when it reached the
	// access (queuecas.go).
	localAt int64
	// casHeld is, while the warp waits for its line to serve its
	// compare-and-swap, the cycles the transaction takes; -1 otherwise
	// (casserve.go).
	casHeld  int64
	loadHeld bool
	// loadExtra is the cycles of Costs.LoadSpread the load just executed
	// adds to its latency (loadspread.go); 0 otherwise.
	loadExtra int64
	// firstStop is set until a first-wave warp first stops before an
	// instruction another block can observe, where the machine bounds
	// its jitter if it is a global atomic (Machine.FirstWaveJitter).
	firstStop bool
	// syncEpoch advances at __syncwarp, for the race check.
	syncEpoch uint32
	exitEpoch uint32 // the block's epoch when the warp finished
	printfs   int64  // printf calls so far, to keep each thread's in order
	left      int64  // warp instructions left of the warp's own budget
	warpEnd   int64  // while the warp runs: its context's count at which its budget ends
	barDst    ir.Reg
	ways      []divergence
	// late is the warp's deferred load under the relaxed model (late.go);
	// nil otherwise.
	late *lateLoad
	// l1 holds, per lane, the 64-byte granule of its last global load plus
	// one (0: none), the L1 reuse the DRAM traffic model credits.
	l1 [32]uint64
	// ready is, per register, the clock at which a load on the scoreboard
	// delivers it, and pendUntil the latest of them (scoreboard.go); nil
	// and 0 without the scoreboard.
	ready     []int64
	pendUntil int64
}

// went records that lanes of w went way s at the construct at pc.
func (w *warp) went(pc int32, s side) {
	for i := range w.ways {
		if w.ways[i].pc == pc {
			w.ways[i].side |= s
			return
		}
	}
	w.ways = append(w.ways, divergence{pc, s})
}

// took reports the ways w went at pc since the last barrier.
func (w *warp) took(pc int32) side {
	for _, d := range w.ways {
		if d.pc == pc {
			return d.side
		}
	}
	return 0
}

// block is one resident block.
type block struct {
	x      *exec
	slot   int
	sm     int
	part   uint8       // the L2 partition the block's SM is near
	id     driver.Dim3 // blockIdx
	linear int64
	warps  []*warp
	live   int // warps not done
	shared []byte
	start  int64
	end    int64
	// peers is the blocks resident on the block's SM when it started, itself
	// included (in the first wave, every first-wave block of the SM): the
	// blocks whose shared-memory work shares the SM's pipeline with its own.
	peers   int
	arrived int
	barPC   int32
	barMax  int64
	barCnt  int32 // lanes with a true predicate, for __syncthreads_count/and/or
	barLane int32 // lanes that arrived
	epoch   uint32
	race    *raceShadow
	// queues are the shared-memory addresses atomics have held, each the
	// index in queueStore of its service, with the time it is free again.
	// The store keeps its storage from one block in the slot to the next,
	// so a block's first atomic on an address allocates nothing.
	queues     map[uint64]int32
	queueStore []addrQueue
	// ctx is the context the block's instructions update.
	ctx *ctx
	// wb is the block's buffer of global stores not yet visible to other
	// blocks, under the relaxed memory model (nil otherwise).
	wb *storeBuf
	// After a phase: yielded says the block waits for the global scheduler
	// until yieldAt; otherwise it has finished (or failed).
	yielded bool
	yieldAt int64
	// picked is the warp charge picked (b.pick) before it let the block's
	// phase run, unchanged since: the phase's first pick. Nil otherwise.
	picked *warp
}

// addrQueue is one shared address's atomic service.
type addrQueue struct {
	free int64
	// ref is the first arrival of the busy period that ends at free, and
	// phases its arrivals modulo Costs.SharedCASConvoy after ref (the
	// first nphases of them); spread says they lie further apart than
	// Costs.SharedCASWindow (queuecas.go).
	ref     int64
	phases  [32]float32
	nphases int
	spread  bool
}

// lanePos describes where lane l of warp w is, for error messages.
func (w *warp) thread(l int) driver.Dim3 {
	b := w.blk.x.cfg.Block
	t := w.idx*32 + l
	return driver.Dim3{X: t % b.X, Y: t / b.X % b.Y, Z: t / (b.X * b.Y)}
}

func (w *warp) pos() cudac.Pos {
	return w.blk.x.k.PosOf(int(w.pc) - 1)
}
