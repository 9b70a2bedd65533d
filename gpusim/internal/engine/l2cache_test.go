package engine

import (
	"testing"

	"github.com/warplab/warplab/gpu/driver"
)

// l2Counts runs accesses through a cache of the given size and slices and
// returns its counters.
func l2Counts(bytes int64, slices int, as ...l2Access) driver.Counters {
	return l2CountsParts(bytes, slices, 1, as...)
}

func l2CountsParts(bytes int64, slices, parts int, as ...l2Access) driver.Counters {
	var c l2Cache
	c.init(bytes, slices, parts, 128)
	for _, a := range as {
		c.access(a)
	}
	var d driver.Counters
	c.fill(&d)
	return d
}

func load(g uint64, secs uint8) l2Access {
	return l2Access{gran: g, n: uint32(secs), secs: secs, kind: l2Load}
}
func store(g uint64, secs uint8) l2Access {
	return l2Access{gran: g, n: uint32(secs), secs: secs, kind: l2Store}
}

// TestL2ColdAndReuse checks first touches miss and later ones hit, and the
// DRAM traffic: a granule per load miss, none per hit.
func TestL2ColdAndReuse(t *testing.T) {
	d := l2Counts(1<<20, 4, load(10, 2), load(11, 2), load(10, 2), load(11, 1))
	if d.L2Sectors != 7 || d.L2Hits != 3 || d.DRAMBytes != 128 {
		t.Errorf("sectors %d, hits %d, DRAM %d bytes; want 7, 3 and 128", d.L2Sectors, d.L2Hits, d.DRAMBytes)
	}
}

// TestL2LeastRecentlyUsed checks eviction: a granule stays resident until
// the L2 has filled as many others as it holds since its last touch.
func TestL2LeastRecentlyUsed(t *testing.T) {
	const granules = 4
	bytes := int64(granules << granuleShift)
	// 0..3 fill the L2; touching 0 again keeps it; 4 and 5 evict 1 and 2;
	// 0 is still resident, 1 is not.
	d := l2Counts(bytes, 0, load(0, 1), load(1, 1), load(2, 1), load(3, 1), load(0, 1), load(4, 1), load(5, 1), load(0, 1), load(1, 1))
	if d.L2Hits != 2 || d.DRAMBytes != 7*64 {
		t.Errorf("hits %d, DRAM %d bytes; want 2 (granule 0 twice) and %d", d.L2Hits, d.DRAMBytes, 7*64)
	}
	// No L2 at all: every access misses.
	if d := l2Counts(0, 0, load(0, 1), load(0, 1)); d.L2Hits != 0 || d.DRAMBytes != 128 {
		t.Errorf("no L2: hits %d, DRAM %d; want 0 and 128", d.L2Hits, d.DRAMBytes)
	}
}

// TestL2Stores checks that stores hit (they write whole sectors without
// reading them), move no DRAM bytes in the cache (a store's DRAM traffic
// is counted where it runs), and leave the granule resident.
func TestL2Stores(t *testing.T) {
	d := l2Counts(1<<20, 0, store(0, 2), store(0, 2), load(0, 2), load(1, 1))
	if d.DRAMBytes != 64 || d.L2Hits != 6 || d.L2Sectors != 7 {
		t.Errorf("DRAM %d bytes, hits %d of %d; want 64 (load 1's miss) and 6 of 7", d.DRAMBytes, d.L2Hits, d.L2Sectors)
	}
}

// TestL2Partitions checks the two partitions: a load from an SM far from
// the line's home is looked up in its near partition and, missing there,
// at home (two accesses, two misses, one DRAM granule); its next load hits
// the near copy (one access); a load from the home side hits at home; an
// atomic from the far side is two accesses, the near one a hit.
func TestL2Partitions(t *testing.T) {
	var c l2Cache
	c.init(1<<20, 94, 2, 512)
	g := uint64(1000)
	homePart := uint8(c.partOf(c.slice(g)))
	far := 1 - homePart
	a := load(g, 2)
	a.part = far
	c.access(a)
	if c.sectors != 4 || c.hits != 0 || c.dramIn != 64 {
		t.Fatalf("far first load: %d sectors, %d hits, %d DRAM bytes; want 4, 0, 64", c.sectors, c.hits, c.dramIn)
	}
	c.access(a)
	if c.sectors != 6 || c.hits != 2 {
		t.Fatalf("far second load: %d sectors, %d hits; want 6, 2 (the near copy)", c.sectors, c.hits)
	}
	a.part = homePart
	c.access(a)
	if c.sectors != 8 || c.hits != 4 || c.dramIn != 64 {
		t.Fatalf("home-side load: %d sectors, %d hits, %d DRAM; want 8, 4, 64", c.sectors, c.hits, c.dramIn)
	}
	ga := g + 1000
	at := l2Access{gran: ga, n: 32, secs: 1, kind: l2Atomic, part: 1 - uint8(c.partOf(c.slice(ga)))}
	c.access(at)
	if c.sectors != 72 || c.hits != 4+32+31 {
		t.Fatalf("far atomic: %d sectors, %d hits; want 72, %d", c.sectors, c.hits, 4+32+31)
	}
	if hot := c.hotSlice(); hot != 32 {
		t.Errorf("busiest slice %d sectors, want 32 (the atomic's home and its near slice each)", hot)
	}
}

// TestL2Atomics checks an atomic's operations: the first on a new granule
// misses, the rest hit, and none moves DRAM bytes.
func TestL2Atomics(t *testing.T) {
	d := l2Counts(1<<20, 8, l2Access{gran: 7, n: 32, secs: 1, kind: l2Atomic}, l2Access{gran: 7, n: 32, secs: 1, kind: l2Atomic})
	if d.L2Sectors != 64 || d.L2Hits != 63 || d.DRAMBytes != 0 {
		t.Errorf("sectors %d, hits %d, DRAM %d; want 64, 63, 0", d.L2Sectors, d.L2Hits, d.DRAMBytes)
	}
	if d.L2Slices != 8 || d.L2HotSliceSectors != 64 {
		t.Errorf("slices %d, hot slice %d sectors; want 8 and 64 (one line)", d.L2Slices, d.L2HotSliceSectors)
	}
}

// TestL2Slices checks that many lines spread evenly over the slices.
func TestL2Slices(t *testing.T) {
	var as []l2Access
	const lines, slices = 1 << 16, 120
	for ln := uint64(0); ln < lines; ln++ {
		as = append(as, load(2*ln, 2), load(2*ln+1, 2))
	}
	d := l2Counts(1<<30, slices, as...)
	mean := float64(d.L2Sectors) / slices
	if r := float64(d.L2HotSliceSectors) / mean; r < 1 || r > 1.1 {
		t.Errorf("busiest slice %d sectors, %.3f times the mean %.0f: want within 10%%", d.L2HotSliceSectors, r, mean)
	}
}

// TestL2LogCompact checks that compacting a log changes no count when the
// L2 holds the whole log's footprint.
func TestL2LogCompact(t *testing.T) {
	var as []l2Access
	for i := 0; i < 5000; i++ {
		g := uint64(i*7919) % 1000
		a := load(g, uint8(1+i%2))
		switch i % 5 {
		case 1:
			a.kind = l2Store
		case 3:
			a = l2Access{gran: g, n: 3, secs: 1, kind: l2Atomic}
		}
		as = append(as, a)
	}
	want := l2Counts(1<<20, 16, as...)
	l := l2Log{list: append([]l2Access(nil), as...)}
	l.compact()
	if len(l.list) != 1000 {
		t.Fatalf("compacted to %d entries, want 1000 granules", len(l.list))
	}
	if got := l2Counts(1<<20, 16, l.list...); got != want {
		t.Errorf("compacted log counts\n%+v\nwant\n%+v", got, want)
	}
}
