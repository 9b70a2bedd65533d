package profiles

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Profile describes one GPU to the simulator.
type Profile struct {
	// Name is the profile's key in specs ("t4" in "sim:t4").
	Name string
	// Device is the GPU's marketing name; Arch its compute capability.
	Device string
	Arch   string

	SMs                int
	MaxThreadsPerBlock int
	MaxThreadsPerSM    int
	MaxBlocksPerSM     int
	MaxWarpsPerSM      int
	// SharedPerSM is the shared memory blocks on one SM can use together;
	// SharedPerBlock the most one block gets without an opt-in attribute.
	SharedPerSM    int64
	SharedPerBlock int64
	RegsPerSM      int
	// L1SharedPerSM is an SM's unified data cache, which the L1 and shared
	// memory split between them; SharedCarveoutsKB the shared-memory sizes
	// the split can take (ascending, in KB), and SharedReservedPerBlock the
	// shared memory the system takes from each resident block. The L1 has
	// what the smallest carveout that holds the resident blocks' shared
	// memory leaves.
	L1SharedPerSM          int64
	SharedCarveoutsKB      []int
	SharedReservedPerBlock int64
	ClockMHz               float64
	MemoryBytes            int64
	// DRAMGBps is the peak DRAM bandwidth; L2Bytes the L2 cache size,
	// L2Slices the slices it is built of, L2Partitions the partitions the
	// slices form (an SM's access to a line homed in the far one is looked
	// up in both) and L2HashBytes the bytes that go to one slice together,
	// for the L2 residency and slice models (gpu.Counters' L2 counters).
	DRAMGBps     float64
	L2Bytes      int64
	L2Slices     int
	L2Partitions int
	L2HashBytes  int64

	// The cost model's parameters (gpusim's costmodel.go says how they
	// combine). Times in SM cycles scale with the clock; L2 times are in
	// nanoseconds because the L2's atomic rate does not follow the SM clock.
	Cost Cost

	// Sources names where each parameter comes from, by field name
	// ("SMs", "Cost.L2OpF32Ns", ...).
	Sources map[string]string

	// Fits names, for a parameter whose source cites evidence it was not
	// fitted to (another run for comparison, an earlier fit), the
	// evidence it was fitted to: "PATH" or "PATH: FIELD,FIELD" for the
	// rows of a CSV that hold those fields. FittingSources reads it.
	Fits map[string][]string

	// Provenance says in a few words what the profile's cost parameters
	// rest on: "measured: ..." where they were measured on this GPU, or
	// "unmeasured: ..." where they are another GPU's copied (Unmeasured).
	// A user who picks the profile sees it beside the profile's name
	// (warplab devices, the device line of a lab's output, a launch's
	// timing source).
	Provenance string
}

// evidencePath is a path under calibration/evidence as a source cites it.
var evidencePath = regexp.MustCompile(`calibration/evidence/[A-Za-z0-9._/-]*[A-Za-z0-9_]`)

// FittingSources returns what the parameter (a key of Sources) was fitted
// to or measured from: its Fits where the profile gives them, else every
// calibration/evidence path its source cites (a CSV, or a folder meaning every
// file in it), each "PATH" or "PATH: FIELD,FIELD" (the CSV's rows that
// hold those fields). A datasheet's or the programming guide's figure has
// none.
func (p *Profile) FittingSources(param string) []string {
	if p.Unmeasured() && p != all["h200"] {
		// Its cost parameters are the H200's, fitted there.
		return all["h200"].FittingSources(param)
	}
	if f, ok := p.Fits[param]; ok {
		return f
	}
	src := p.Sources[param]
	if !strings.HasPrefix(src, Calibrated) && !strings.HasPrefix(src, Measured) {
		return nil
	}
	var out []string
	for _, m := range evidencePath.FindAllString(src, -1) {
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

// Unmeasured reports whether none of the profile's cost parameters were
// measured on its GPU (its Provenance starts with "unmeasured").
func (p *Profile) Unmeasured() bool { return strings.HasPrefix(p.Provenance, "unmeasured") }

// Label is the profile's name as a user picks it, with its provenance
// where it is unmeasured: "a100 (unmeasured: H200 parameters)".
func (p *Profile) Label() string {
	if p.Unmeasured() {
		return p.Name + " (" + p.Provenance + ")"
	}
	return p.Name
}

// Cost holds a profile's cost-model parameters.
type Cost struct {
	// BaseClockMHz is the SM clock before GPU Boost raises it; a spec can
	// run the profile at it (sim:t4?clock=base).
	BaseClockMHz float64
	// LaunchUs is the time CUDA events measure around the launch of an
	// empty kernel, back to back with others.
	LaunchUs float64
	// QueuedLaunchUs is what a launch adds when the GPU already holds it
	// queued behind a running kernel of the same stream (two launches
	// between one pair of events): the front end's dispatch of the next
	// kernel, without the host's submission the events see around a lone
	// launch (0: not modelled, a full LaunchUs).
	QueuedLaunchUs float64
	// DRAMEfficiency is the fraction of DRAMGBps a streaming copy reaches.
	DRAMEfficiency float64
	// DRAMLoneGranuleFactor is how much longer the DRAM takes over a
	// 64-byte granule that a warp's load reads without the other granule
	// of its 128-byte line than over one read with it (lanes 128 bytes
	// apart against 64): the same bytes in twice the DRAM accesses (0 or
	// 1: no difference).
	DRAMLoneGranuleFactor float64
	// IssueIPC is the warp instructions an SM issues per cycle.
	IssueIPC float64
	// LoopUnroll is the factor by which nvcc unrolls an innermost counted
	// loop of constant step (not a grid-stride loop): its branch and counter update issue once per LoopUnroll
	// iterations, and the global loads of LoopUnroll iterations are in
	// flight together (0 or 1: no unrolling modelled).
	LoopUnroll int64
	// LoopUnrollALU is the factor for such a loop whose body is register
	// arithmetic alone, which ptxas unrolls again (0: LoopUnroll).
	LoopUnrollALU int64
	// HoistInvariants: in an innermost loop, reads of the launch's special
	// registers (threadIdx, blockDim, ...) and integer arithmetic on values
	// the loop does not change issue nothing, as the compiler computes
	// them above the loop.
	HoistInvariants bool
	// ConvergenceSlots is the instructions a branch that may diverge
	// around memory accesses inside a loop issues a trip beside its
	// compare and branch: the BSSY before it and the BSYNC where its lanes
	// reconverge (0: not modelled).
	ConvergenceSlots float64
	// UnrollRemainderSlots is the instructions an unrolled loop whose trip
	// count is known only at run time issues each time it is entered,
	// beside its first test: the tests of the count against the unrolled
	// body's sizes and the jump into the remainder (0: not modelled).
	UnrollRemainderSlots float64
	// AggregationSlots is the instructions nvcc's warp aggregation of an
	// integer atomic whose old value the lanes use issues beside the
	// atomic itself: the vote and the leader's election before it, each
	// lane's share of the old value after (0: not modelled).
	AggregationSlots float64
	// BranchSlots is the issue slots of a conditional branch: the GPU
	// compares (ISETP) and then branches on the predicate (BRA), where the
	// IR does both in one instruction (0: one slot). The warp's clock
	// keeps one ALU latency for it.
	BranchSlots float64
	// StoreLineCycles is the SM cycles spent per line request a warp's
	// global store sends to the L2 (one per 128-byte line it touches): a
	// store scattered over 32 lines costs 32 times a coalesced one (0: not
	// modelled). Without StorePathLineCycles it is the busiest SM's store
	// path's price; with it, the L2's, counted per SM over all the SMs'
	// requests.
	StoreLineCycles float64
	// StoreSectorCycles is the SM cycles spent, where StoreLineCycles is,
	// on each further 32-byte sector of a line request that a warp's store
	// writes only part of, beyond the line's first: lanes 16 or 32 bytes
	// apart write a word into each of a line's four sectors, and the
	// request takes StoreLineCycles + 3 * StoreSectorCycles. Whole sectors
	// (a coalesced store) add nothing (0: not modelled).
	StoreSectorCycles float64
	// StorePathLineCycles is the SM cycles one SM's own store path spends
	// per line request and its first sector (further sectors:
	// StorePathSectorCycles, StorePathWholeSectorCycles). Where it is set (0: not
	// modelled), StoreLineCycles and StoreSectorCycles are the L2's work
	// on every SM's requests together, counted per SM over all the SMs,
	// and the busiest SM's requests cost StorePathLineCycles each: a
	// launch whose stores gather on a few SMs is bound by their path, one
	// whose SMs all store alike by the L2.
	StorePathLineCycles float64
	// StorePathSectorCycles and StorePathWholeSectorCycles are the SM
	// cycles one SM's own store path spends, beyond StorePathLineCycles,
	// on each further partly written and each further whole 32-byte
	// sector of a line request (0: not modelled): the path moves a
	// request's sectors one after another.
	StorePathSectorCycles, StorePathWholeSectorCycles float64
	// StoreWholeSectorCycles is the SM cycles, counted as
	// StoreSectorCycles is (the L2's work over all the SMs' requests,
	// where StorePathLineCycles is set), of each further whole sector of
	// a line request: a coalesced store's line (0: whole sectors add
	// nothing).
	StoreWholeSectorCycles float64
	// ChainWriteShare is the share of the L2's work on the launch's store
	// requests (the l2 writes term, where StorePathLineCycles and
	// StoreLineCycles are set) by which a hot line's chain of atomics
	// takes longer: the busiest line's serving time grows by
	// ChainWriteShare times that work, while the queue's stores go to the
	// L2 beside its pops (0: the chain and the writes overlap fully).
	ChainWriteShare float64
	// LoadLineCycles is the SM cycles an SM's L1 spends per 128-byte line
	// a warp's global load touches (a load whose lanes each read their own
	// line costs 32 times a coalesced one; 0: not modelled).
	LoadLineCycles float64
	// L2ReadGBps is the rate at which the L2 serves the SMs' 32-byte
	// sector requests: every global load's sectors but those the L1 holds
	// (a lane's reread of the 64-byte granule it loaded last, while the
	// L1 has room for a line per resident thread; 0: not modelled).
	L2ReadGBps float64
	// L1OverlapPower is how the L1's line lookups and the L2's returns
	// overlap: their times t and u take (t^p + u^p)^(1/p), which is the
	// larger when one dominates and up to 2^(1/p) times it when they are
	// alike, as two stages of one pipeline queue behind each other (0: the
	// larger alone).
	L1OverlapPower float64
	// SharedWavefrontsPerCycle is the shared-memory wavefronts an SM
	// serves per cycle (a bank-conflicted request takes one per word a bank
	// serves).
	SharedWavefrontsPerCycle float64
	// Scoreboard times a warp as its machine code issues: a load's result
	// is waited for where an instruction first reads it (the instructions
	// in between, other loads among them, issue while it is in flight), a
	// shared store does not stall the warp, and the IR's copies, constants
	// and structure markers, which nvcc emits nothing for, take no time
	// (false: every IR instruction costs its whole latency where it
	// stands).
	Scoreboard bool
	// Schedulers is an SM's warp schedulers, each issuing SchedulerIPC
	// warp instructions a cycle to the warps of its slots: warps that
	// share one and together ask for more slow each other down (0: not
	// modelled).
	Schedulers   int
	SchedulerIPC float64
	// SchedulerCharge: the virtual-time schedule itself charges a warp's
	// issue slots to its scheduler at each global instruction it reaches,
	// so a warp whose scheduler is oversubscribed reaches it later, and a
	// work queue's items go to the warps whose schedulers are freer
	// (false: the schedulers' contention is priced after the schedule
	// alone, which keeps who got what work). A warp's first atomic and a
	// compare-and-swap the L2 serves (CASServed) are charged but not
	// moved: their timing is fitted with the issue in it.
	SchedulerCharge bool

	// Latencies in SM cycles, for the virtual clock: an ALU instruction
	// (with the SM's issue slots shared by its resident warps), a
	// special-function instruction, a shared-memory access, a global load,
	// a global atomic whose result is used, a barrier, and the delay before
	// a block starts in a slot another block freed.
	ALUCycles, SFUCycles, SharedCycles, GlobalCycles, AtomicCycles, BarrierCycles, BlockStartCycles int64
	// BarrierBaseCycles and BarrierWarpCycles: a barrier releases its
	// block BarrierBaseCycles + BarrierWarpCycles*W cycles after the last
	// of its W warps arrives (each arriving warp pays BarrierCycles). Zero
	// for both: BarrierCycles, whatever the block's warps.
	BarrierBaseCycles, BarrierWarpCycles float64
	// BarrierStaggerCycles: a barrier's warps leave it one after another,
	// this many cycles apart in warp order, the last at the release time
	// above (0: all at once).
	BarrierStaggerCycles float64

	// Shared atomics: a lane's float atomicAdd (a compare-and-swap loop)
	// holds its address SharedFloatA + SharedFloatB/W cycles when W warps of
	// the block use it; a native integer atomic holds it SharedInt cycles.
	SharedFloatA, SharedFloatB, SharedInt float64
	// SharedFloatPipeCycles is the SM cycles of shared-memory pipeline one
	// lane's shared float atomicAdd takes, failed compare-and-swap trips
	// included: an SM's resident blocks run their loops side by side, so
	// with B blocks resident a lane holds its address at least B times this
	// (a lane that adds zero, which leaves the value as it was, takes
	// none). 0: not modelled.
	SharedFloatPipeCycles float64
	// SharedCASConvoyCycles, SharedCASPhasesCycles and
	// SharedCASWindowCycles set a shared float add queue's mode by when a
	// block's warps reach it: warps arriving within SharedCASWindowCycles
	// of each other (modulo SharedCASConvoyCycles, the interval of one
	// success in a convoy) run as a convoy; once a busy period's arrivals
	// spread wider, its lanes cost SharedCASPhasesCycles /
	// SharedCASConvoyCycles of a convoy's. 0 for SharedCASConvoyCycles:
	// one mode.
	SharedCASConvoyCycles, SharedCASPhasesCycles, SharedCASWindowCycles float64
	// SharedCASPhasesMaxWarps is the most warps a block may have for its
	// queue to take the two-phase rate; a larger block's queue stays a
	// convoy (0: any block).
	SharedCASPhasesMaxWarps int
	// SharedPopcWavefronts is the fewest shared-memory wavefronts a warp's
	// ATOMS.POPC.INC (a shared atomicAdd of 1) takes, however few banks
	// its lanes hit. 0: as many as its busiest bank serves.
	SharedPopcWavefronts float64
	// LoadSpreadCycles spreads a plain global load's latency by the line
	// it reads and the SM that asks: the quantiles, at equal steps of
	// probability from 0 to 1, of the cycles by which a load's latency
	// differs from GlobalCycles (their mean 0). Each 256-byte unit of the
	// address (bit 9 left out) draws its quantile from a hash of the
	// unit and the SM's TPC, where the device's undocumented physical hash
	// places a buffer's lines a new way in each process.
	// nil: every load takes GlobalCycles.
	LoadSpreadCycles []float64

	// L2 atomics, in ns: a transaction (a warp's lanes on one 128-byte
	// line) holds the line max(n*op, a*L2AddrNs, s*L2SectorNs), n the most
	// lanes on one of its addresses, op the per-operation time of the type,
	// a the lanes' operations it carries (distinct addresses or not) and s
	// the sum over the 32-byte sectors it touches of the most lanes on one
	// address of the sector.
	L2AddrNs, L2OpF32Ns, L2OpF64Ns, L2OpIntNs, L2SectorNs float64
	// L2LinesAtOnce is how many lines' worth of transactions the L2 serves
	// at once when a launch's atomics go to a given number of hot lines,
	// measured at some numbers of lines (ParallelLines interpolates
	// between them); beyond the last it grows in proportion to the hot
	// lines, up to L2MaxParallelLines lines at once.
	L2LinesAtOnce      []LinesAtOnce
	L2MaxParallelLines float64
	// L2Timed prices the L2's atomic work at the times it arrives: each
	// window of arrivals (L2InFlight) is served at its lines' rate once it
	// has arrived and the windows before it are served, so atomics that
	// arrive together at a launch's end (a privatised histogram's merge
	// after its walk) are served after the blocks finish, while atomics
	// spread over the launch are served beside them. False: the work is a
	// throughput beside the schedule, wherever in the launch it arrives.
	L2Timed bool
	// L2InFlight is the atomic transactions (a warp's lanes on one line)
	// the L2 holds queued at once: the lines among that many consecutive
	// arrivals are the lines hot together. Zero: the lines that receive
	// transactions within GlobalCycles of each other.
	L2InFlight int64
	// CASServed: an atomicCAS whose result is used, every lane on one
	// global word, compares when the word's line in the L2 serves it, not
	// when the warp issues it, and a load of such a word (a warp-uniform
	// global load in a kernel that uses its atomics' results) waits a
	// random share of the line's queued work and reads the word as the
	// line has served it. The line serves the compare-and-swaps in
	// arrival order while its queue holds at most CASOrderedCycles of work
	// ahead of one, beyond that at a random point of the rest (0: arrival
	// order always).
	CASServed        bool
	CASOrderedCycles int64
	// JitterCycles is the largest random delay added where a warp reaches
	// an instruction other blocks observe: it orders atomics differently
	// from seed to seed, as runs differ on hardware. Where a warp reaches a
	// shared atomic, which only its block observes, the delay is divided
	// by SharedJitterDivisor.
	JitterCycles, SharedJitterDivisor int64

	// The block scheduler: the blocks a launch first places on one SM
	// start BlockStaggerCycles apart; a block placed in a slot another
	// block freed starts BlockRefillCycles after it.
	BlockStaggerCycles, BlockRefillCycles int64
	// FirstWaveStartCycles is, per SM (by SM id), the cycles after a
	// launch's first block at which the SM's first block starts: the
	// block scheduler does not reach every SM at once, and where warps
	// race for one word (a work queue's head) the SMs it reaches first
	// win (nil: every SM's first block at once).
	FirstWaveStartCycles []int32
	// FirstWaveJitterCycles, where FirstWaveStartCycles is set, bounds the
	// seeded delay (JitterCycles at every other) at a first-wave warp's
	// first instruction another block can observe where that is a global
	// atomic: the warps reach it in the order their blocks started, give
	// or take this (0: JitterCycles there too). A first volatile access or
	// fence keeps JitterCycles: the weak-memory litmus shapes need their
	// seeds' variety.
	FirstWaveJitterCycles int64
	// Past a launch's first wave an SM starts its blocks one at a time: a
	// block of w warps holds the SM's block dispatch for the longer of
	// BlockDispatchCycles and w*WarpDispatchCycles, so a grid of many
	// short blocks runs no faster than one block per dispatch time per SM.
	// Zero: not modelled (a freed slot's block starts BlockRefillCycles
	// after its predecessor whatever the SM's other slots do).
	BlockDispatchCycles, WarpDispatchCycles float64
	// LocalCycles is a local-memory access's latency; StoreCycles the
	// issue cost of a global store or of an atomic whose result is unused
	// (a reduction), which the warp does not wait for.
	LocalCycles, StoreCycles int64
}

// L1Bytes returns the L1's share of an SM's unified data cache when
// blocks blocks of blockShared bytes of shared memory each are resident:
// what the smallest carveout that holds them leaves (the whole cache
// less their shared memory when the profile lists no carveouts). It
// assumes the driver picks that carveout, as it may when a kernel sets no
// preference.
func (p *Profile) L1Bytes(blocks int, blockShared int64) int64 {
	used := int64(blocks) * (blockShared + p.SharedReservedPerBlock)
	carve := used
	for _, kb := range p.SharedCarveoutsKB {
		if c := int64(kb) << 10; c >= used {
			carve = c
			break
		}
	}
	return max(0, p.L1SharedPerSM-carve)
}

// LinesAtOnce is one measured point of Cost.L2LinesAtOnce: with Hot lines
// receiving atomics, the L2 served AtOnce lines' worth at once.
type LinesAtOnce struct{ Hot, AtOnce float64 }

// ParallelLines returns how many lines' worth of atomic transactions the
// L2 serves at once when hot lines receive them: the measured points
// interpolated on log-log axes, and beyond the last point in proportion
// to hot, up to L2MaxParallelLines. Below the first point it is the
// first point's value.
func (c *Cost) ParallelLines(hot float64) float64 {
	t := c.L2LinesAtOnce
	if len(t) == 0 || hot <= 0 {
		return 1
	}
	if hot <= t[0].Hot {
		return t[0].AtOnce
	}
	for i := 1; i < len(t); i++ {
		if hot <= t[i].Hot {
			a, b := t[i-1], t[i]
			f := math.Log(hot/a.Hot) / math.Log(b.Hot/a.Hot)
			return math.Exp(math.Log(a.AtOnce) + f*math.Log(b.AtOnce/a.AtOnce))
		}
	}
	last := t[len(t)-1]
	return max(last.AtOnce, min(last.AtOnce*hot/last.Hot, c.L2MaxParallelLines))
}

// Source kinds, prefixes of the Sources entries.
const (
	Datasheet  = "datasheet: "
	Measured   = "measured: "
	Calibrated = "calibrated: "
	Guide      = "CUDA programming guide: "
)

var all = map[string]*Profile{}

func register(p *Profile) {
	if _, dup := all[p.Name]; dup {
		panic("profiles: duplicate " + p.Name)
	}
	all[p.Name] = p
}

// Get returns the named profile.
func Get(name string) (*Profile, error) {
	p, ok := all[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("no device profile %q (profiles: %s)", name, strings.Join(Names(), ", "))
	}
	return p, nil
}

// Names lists the profiles, sorted.
func Names() []string {
	var n []string
	for k := range all {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}
