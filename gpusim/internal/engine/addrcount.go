package engine

// addrCounts counts the global atomic operations issued per address, for
// the distinct addresses and the longest chain on one address, in host
// memory bounded by the device memory the atomics touch. A map entry per
// address cost about 36 bytes of host memory for every 4-byte word a
// kernel updated atomically, nine times the device memory; here each
// 4 KiB page of device memory that atomics touch holds its counts in a
// short list while it has few addresses, and in a dense array of 1024
// 4-byte counts (its size again) once it has more.
type addrCounts struct {
	pages    map[uint64]*addrPage // by address >> pageShift
	big      map[uint64]int64     // counts past what a page's uint32 holds, and sub-word addresses
	distinct int64
	most     int64
	// last is the page page returned last, at lastKey: consecutive
	// atomics mostly hit one page, and skip the map.
	last    *addrPage
	lastKey uint64
}

const (
	pageShift   = 12
	pageWords   = 1 << (pageShift - 2)
	sparseLimit = 32 // addresses a page lists before it turns dense
)

type addrPage struct {
	offs   []uint16 // the listed addresses' byte offsets in the page
	counts []uint32
	dense  *[pageWords]uint32 // by word, once the list is full
	// lines are the L2 lines of the page, in place of a map entry and a
	// pointer per line (see atomStats.line).
	lines [1 << (pageShift - 7)]lineState
}

// page returns the page that holds addr, adding it on first use.
func (a *addrCounts) page(addr uint64) *addrPage {
	key := addr >> pageShift
	if a.last != nil && key == a.lastKey {
		return a.last
	}
	p := a.pages[key]
	if p == nil {
		p = &addrPage{}
		a.pages[key] = p
	}
	a.last, a.lastKey = p, key
	return p
}

func (a *addrCounts) init() {
	a.pages = map[uint64]*addrPage{}
	a.last = nil
	a.big = nil
	a.distinct, a.most = 0, 0
}

// add counts n more operations on addr.
func (a *addrCounts) add(addr uint64, n int64) {
	p := a.page(addr)
	off := uint16(addr & (1<<pageShift - 1))
	var c *uint32
	switch {
	case addr&3 != 0:
		// A 1- or 2-byte atomic off a word boundary: rare, kept aside.
		a.addBig(addr, n, 0)
		return
	case p.dense != nil:
		c = &p.dense[off>>2]
	default:
		for i, o := range p.offs {
			if o == off {
				c = &p.counts[i]
				break
			}
		}
		if c == nil && len(p.offs) < sparseLimit {
			p.offs = append(p.offs, off)
			p.counts = append(p.counts, 0)
			c = &p.counts[len(p.counts)-1]
		}
		if c == nil {
			p.dense = new([pageWords]uint32)
			for i, o := range p.offs {
				p.dense[o>>2] = p.counts[i]
			}
			p.offs, p.counts = nil, nil
			c = &p.dense[off>>2]
		}
	}
	old := int64(*c)
	if old == 0 && (a.big == nil || a.big[addr] == 0) {
		a.distinct++
	}
	if sum := old + n; sum < 1<<32-1 {
		*c = uint32(sum)
		if a.big == nil || a.big[addr] == 0 {
			a.most = max(a.most, sum)
			return
		}
		a.most = max(a.most, sum+a.big[addr])
		return
	}
	// Past a uint32: the word keeps 1 (so that it still reads as used)
	// and the rest moves aside.
	*c = 1
	a.addBig(addr, old+n-1, 1)
}

// addBig counts n operations on addr in the side map; base is what the
// page still holds for it.
func (a *addrCounts) addBig(addr uint64, n, base int64) {
	if a.big == nil {
		a.big = map[uint64]int64{}
	}
	if a.big[addr] == 0 && base == 0 {
		a.distinct++
	}
	a.big[addr] += n
	a.most = max(a.most, a.big[addr]+base)
}
