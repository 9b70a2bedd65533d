package engine

import (
	"math/bits"
	"slices"

	"github.com/warplab/warplab/gpu/driver"
)

// The L2 residency model: which of the launch's global accesses the L2
// serves from what it holds (a hit), which it must fetch from DRAM (a
// miss), and how its sector accesses spread over the L2's slices, counted
// as Nsight Compute's lts__t_sectors and lts__t_sector_hit_rate count them
// (calibration/evidence/2026-11-30-h200-ncu-l2).
//
//   - The SMs' accesses are counted in 32-byte sectors: a load's sectors
//     that miss the L1 (a lane's reload of the 64-byte granule it loaded
//     last is the L1's, see dramBytes), a store's sectors, and one sector
//     per atomic operation issued (after the compiler's warp aggregation).
//   - The L2 starts the launch empty (Nsight Compute flushes the caches
//     before each profiled launch) and fills in 64-byte granules, the
//     DRAM's access granularity (granuleShift): a load's first touch of a
//     granule misses for each of the granule's sectors it asks for; later
//     touches hit while the granule is resident. A store writes whole
//     sectors without reading them: it hits (as the profiler counts it) and
//     leaves the granule resident and dirty.
//   - A granule stays resident until the L2 has filled as many other
//     granules as it holds since the granule was last touched (least
//     recently used, counted in fills: Machine.L2Bytes / 64 of them).
//   - Partitions (Machine.L2Partitions, two on the H100 and H200): each SM
//     is near one; a line's home is the partition of its slice. An SM's
//     access to a line homed in the other partition is looked up in its
//     near partition (the slice at the same place there), which keeps a
//     copy of what it reads; a read the copy misses, and every atomic or
//     store, goes on to the home slice and is looked up there too: two
//     sector accesses, as the profiler's "fabric" traffic counts them.
//   - DRAM traffic is a granule per load that misses at the home slice,
//     and, for stores, the granules each store touches (counted where the
//     store runs): the L2's merging of stores to a granule it holds is not
//     credited, since the H200 takes about a granule's transfer time for
//     each partial-sector store (fidelity's queue k = 8: each 32-byte
//     sector written 4 bytes at a time by 8 stores, 0.0358 ms measured,
//     0.0341 modelled so; crediting the merge gives 0.0212). Atomics' fills
//     are left out of it, as the cost model has always left them.
//   - Lines go to slices by hashing the address in units of
//     Machine.L2HashBytes (512 bytes on the H200: four neighbouring lines
//     share a slice), since the devices' own hashes are not documented;
//     the hash is multiplicative. For the kernels whose busiest slice
//     matters (one hot address, a few hot lines), its load is the hot
//     lines' load whatever hash spreads the others.
//   - Not modelled: the other units' traffic the profiler also counts
//     (instruction and constant fetches, a few thousand sectors a launch,
//     mostly hits), and the L1's reuse beyond a lane's last granule.
//
// Accesses are logged by each context in program order and fed to the
// model in the order contexts merge (the batch order), so the counts are
// the same whatever the host's number of cores. The scheduler's own
// context, and the contexts of a kernel whose phases run one after another
// whatever the cores (plain global stores, the relaxed model), feed it as
// they go, in that same order, and keep no log. The model therefore sees
// the accesses in the order the phases make them (a block's warps one
// after another, each up to its next stop), not interleaved in time as the
// SMs make them: reuse within one warp's own share of a footprint larger
// than the L2 counts as hits that an L2 shared by every warp at once would
// have evicted (calibration/evidence/2026-11-30-h200-ncu-l2, reread at 96 MB: the
// H200's SM reads hit 0%; the model's, half). Footprints within the L2,
// and data touched once, come out the same either way.
// Kinds of L2 access.
const (
	l2Load uint8 = iota
	l2Store
	l2Atomic
)

// l2Access is one granule's share of a global access: n sector accesses,
// secs of them to distinct sectors (1 or 2), from an SM near partition
// part; again counts the sector accesses of later accesses to the granule
// folded into this one when its log was compacted, which hit.
type l2Access struct {
	gran  uint64 // address >> granuleShift
	n     uint32
	again uint32
	secs  uint8
	kind  uint8
	part  uint8
}

// l2LogCap is the length at which a log is compacted: 1M entries, 24 MiB.
const l2LogCap = 1 << 20

// l2Log is a context's L2 accesses in the order it made them; with direct
// set, they go straight to that cache instead (a context that runs on the
// scheduler's goroutine in the scheduler's order: the main context, and
// every context of a kernel whose phases never run side by side).
type l2Log struct {
	list   []l2Access
	direct *l2Cache
	// part is the partition the accessing SM is near (set by the caller
	// before it logs).
	part uint8
}

func (l *l2Log) add(gran uint64, n uint32, secs uint8, kind uint8) {
	a := l2Access{gran: gran, n: n, secs: secs, kind: kind, part: l.part}
	if l.direct != nil {
		l.direct.access(a)
		return
	}
	if len(l.list) >= l2LogCap && cap(l.list) == len(l.list) {
		l.compact()
	}
	l.list = append(l.list, a)
}

// compact folds every access to a granule the log already holds into the
// granule's first entry: a context's accesses between its first touch of a
// granule and a later one are fewer than the log holds, so the later one
// finds the granule resident (where the L2 holds at least l2LogCap
// granules, 64 MiB: nearly so for the profiles' smaller L2s). The log then
// holds a granule once, and grows with the context's footprint, not its
// traffic.
func (l *l2Log) compact() {
	type key struct {
		gran uint64
		part uint8
	}
	first := make(map[key]int, len(l.list))
	out := l.list[:0]
	for _, a := range l.list {
		if i, ok := first[key{a.gran, a.part}]; ok {
			f := &out[i]
			f.again += a.n + a.again
			continue
		}
		first[key{a.gran, a.part}] = len(out)
		out = append(out, a)
	}
	l.list = out
}

// addSectors logs the distinct sorted sector numbers (address >> 5) secs
// as one access per granule.
func (l *l2Log) addSectors(secs []uint64, kind uint8) {
	for i := 0; i < len(secs); {
		g := secs[i] >> (granuleShift - 5)
		j := i + 1
		for j < len(secs) && secs[j]>>(granuleShift-5) == g {
			j++
		}
		l.add(g, uint32(j-i), uint8(j-i), kind)
		i = j
	}
}

// l2PageShift sizes the pages of granule stamps: 2 MiB of addresses, 32,768
// granules, 128 KiB of stamps.
const l2PageShift = 21

type l2Page [1 << (l2PageShift - granuleShift)]uint32

// A stamp holds the clock after the granule's last touch in its low bits
// (0: never touched), and flags: the home slice holds it, the other
// partition holds a copy.
const (
	l2Home     = 1 << 30
	l2Copy     = 1 << 29
	l2ClockMax = l2Copy - 1
)

// l2Cache is the launch's L2 state and its counts.
type l2Cache struct {
	capacity uint32 // granules the L2 holds (0: none, every access misses)
	// clock counts the granules filled (at the home slice or as a copy):
	// a granule is resident while fewer than capacity fills came after
	// its last touch. At l2ClockMax (2^29 fills, 32 GiB of traffic) the
	// L2 is emptied and the clock starts again.
	clock    uint32
	pages    map[uint64]*l2Page
	lastKey  uint64
	last     *l2Page
	hashBits uint // log2 of the bytes hashed to one slice
	parts    int
	// slices counts the sector accesses per slice.
	slices                []int64
	sectors, hits, dramIn int64
}

func (c *l2Cache) init(bytes int64, slices, parts int, hashBytes int64) {
	c.capacity = uint32(min(bytes>>granuleShift, l2ClockMax))
	c.clock = 0
	c.pages = map[uint64]*l2Page{}
	c.last = nil
	c.slices = make([]int64, max(slices, 0))
	c.parts = max(parts, 1)
	c.hashBits = 7
	for hashBytes > 128 && c.hashBits < 20 && int64(1)<<c.hashBits < hashBytes {
		c.hashBits++
	}
	c.sectors, c.hits, c.dramIn = 0, 0, 0
}

// stamp returns the stamp of granule g.
func (c *l2Cache) stamp(g uint64) *uint32 {
	key := g >> (l2PageShift - granuleShift)
	if c.last == nil || key != c.lastKey {
		p := c.pages[key]
		if p == nil {
			p = &l2Page{}
			c.pages[key] = p
		}
		c.last, c.lastKey = p, key
	}
	return &c.last[g&(1<<(l2PageShift-granuleShift)-1)]
}

// slice returns the home slice of granule g: the hash of its address in
// units of 1 << hashBits bytes, over the slices.
func (c *l2Cache) slice(g uint64) int {
	if len(c.slices) == 0 {
		return 0
	}
	unit := g >> (c.hashBits - granuleShift)
	hi, _ := bits.Mul64(unit*0x9e3779b97f4a7c15, uint64(len(c.slices)))
	return int(hi)
}

// partOf returns the partition of slice s: the slices are split evenly.
func (c *l2Cache) partOf(s int) int {
	if len(c.slices) == 0 {
		return 0
	}
	return s * c.parts / len(c.slices)
}

// feed applies a log's accesses in order and empties it.
func (c *l2Cache) feed(l *l2Log) {
	for _, a := range l.list {
		c.access(a)
	}
	l.list = l.list[:0]
}

// count adds n sector accesses at slice s.
func (c *l2Cache) count(s int, n int64) {
	c.sectors += n
	if len(c.slices) > 0 {
		c.slices[s] += n
	}
}

func (c *l2Cache) access(a l2Access) {
	if c.clock >= l2ClockMax {
		// Far beyond any simulated launch: start again from an empty L2.
		clear(c.pages)
		c.last, c.clock = nil, 0
	}
	n, again := int64(a.n), int64(a.again)
	kind := a.kind
	home := c.slice(a.gran)
	st := c.stamp(a.gran)
	if *st != 0 && c.clock-*st&l2ClockMax >= c.capacity {
		*st = 0 // evicted
	}
	// The lookup in the SM's near partition, when the line's home is the
	// other one: the copy there serves the loads that hit it; a load that
	// misses it, and every store and atomic, goes on to the home slice.
	if p := int(a.part) % c.parts; c.parts > 1 && p != c.partOf(home) {
		near := (home + (p-c.partOf(home)+c.parts)*len(c.slices)/c.parts) % len(c.slices)
		c.count(near, n+again)
		switch {
		case kind == l2Load && *st&l2Copy != 0:
			c.hits += n + again
			*st = *st&^l2ClockMax | c.clock
			return
		case kind == l2Load:
			c.hits += again // the context's repeats find the copy
			c.clock++
			*st |= l2Copy
			again = 0
		default:
			c.hits += n + again
		}
	}
	c.count(home, n+again)
	c.hits += again
	switch {
	case kind == l2Store || *st&l2Home != 0:
		// A store writes whole sectors without reading them.
		c.hits += n
	default:
		// A miss for each distinct sector; the access's repeats of them
		// (an atomic's later operations) find the granule filled.
		c.hits += n - int64(a.secs)
		if kind == l2Load {
			c.dramIn += 1 << granuleShift
		}
	}
	if *st&l2Home == 0 {
		c.clock++
	}
	*st = *st&^l2ClockMax | l2Home | c.clock
}

// hotSlice returns the sector accesses of the busiest slice.
func (c *l2Cache) hotSlice() int64 {
	if len(c.slices) == 0 {
		return 0
	}
	return slices.Max(c.slices)
}

// lone scales the lone bytes of the loads' moved granules (moved bytes in
// all, were the L2 to hold none) to the share of them that missed the L2.
func (c *l2Cache) lone(lone, moved int64) int64 {
	if moved <= 0 || c.dramIn >= moved {
		return lone
	}
	return int64(float64(lone) * float64(c.dramIn) / float64(moved))
}

// fill sets the L2 counters and adds the loads' DRAM traffic.
func (c *l2Cache) fill(d *driver.Counters) {
	d.L2Sectors, d.L2Hits, d.L2Slices, d.L2HotSliceSectors = c.sectors, c.hits, len(c.slices), c.hotSlice()
	d.DRAMBytes += c.dramIn
}
