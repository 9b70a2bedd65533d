package aggregation

import (
	"fmt"
	"slices"
	"sync"
)

// mix is splitmix64's finaliser: a well-spread hash of x.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// compactInput is the compaction's input of n values, about half of
// them odd (kept), drawn from a hash of the index and seed: the kept
// lanes of a warp are a different random subset in every warp.
type compactInput struct {
	data []int32
	// kept are the odd values, sorted: what out[0:count] must hold in
	// some order.
	kept []int32
}

// bucketInput is the per-bucket append's input: n keys in [0, buckets),
// with distinct keys in every full warp.
type bucketInput struct {
	keys    []int32
	buckets int
	// start[b] is where bucket b's slots begin in out; size[b] how many
	// elements it holds.
	start, size []uint32
	// groups is the number of (warp, key) pairs: the fewest atomics any
	// warp-level aggregation can send.
	groups int64
}

var cache = struct {
	sync.Mutex
	compact map[[2]uint64]*compactInput
	bucket  map[[3]int]*bucketInput
}{compact: map[[2]uint64]*compactInput{}, bucket: map[[3]int]*bucketInput{}}

// compaction returns the compaction input of n values for seed, made once
// per process and shared read-only.
func compaction(n int, seed uint64) *compactInput {
	cache.Lock()
	defer cache.Unlock()
	key := [2]uint64{uint64(n), seed}
	if in, ok := cache.compact[key]; ok {
		return in
	}
	in := &compactInput{data: make([]int32, n)}
	for i := range in.data {
		v := int32(mix(uint64(i)^seed<<32) & 0x7fffffff)
		in.data[i] = v
		if v&1 == 1 {
			in.kept = append(in.kept, v)
		}
	}
	slices.Sort(in.kept)
	cache.compact[key] = in
	return in
}

// keysPerWarp returns keys for n elements in which every full warp holds
// exactly d distinct keys, each on a run of 32/d neighbouring lanes, and
// the keys rotate over the buckets from warp to warp so that every bucket
// gets its share. d must divide 32 and be at most buckets.
func keysPerWarp(n, d, buckets int) (*bucketInput, error) {
	if err := checkKeys(d, buckets); err != nil {
		return nil, err
	}
	cache.Lock()
	defer cache.Unlock()
	ck := [3]int{n, d, buckets}
	if in, ok := cache.bucket[ck]; ok {
		return in, nil
	}
	keys := make([]int32, n)
	run := 32 / d
	for i := range keys {
		w, l := i/32, i%32
		keys[i] = int32((w*d + l/run) % buckets)
	}
	in := layout(keys, buckets)
	cache.bucket[ck] = in
	return in, nil
}

// checkKeys reports whether d distinct keys per warp can be drawn from
// buckets buckets.
func checkKeys(d, buckets int) error {
	if d < 1 || d > 32 || 32%d != 0 {
		return fmt.Errorf("aggregation: %d distinct keys per warp: want 1, 2, 4, 8, 16 or 32", d)
	}
	if buckets < d {
		return fmt.Errorf("aggregation: %d distinct keys per warp need at least as many buckets, not %d", d, buckets)
	}
	return nil
}

// layout computes the buckets' sizes and starts and the (warp, key) pairs
// of keys.
func layout(keys []int32, buckets int) *bucketInput {
	in := &bucketInput{keys: keys, buckets: buckets, start: make([]uint32, buckets), size: make([]uint32, buckets)}
	for _, k := range keys {
		in.size[k]++
	}
	var at uint32
	for b := range in.size {
		in.start[b] = at
		at += in.size[b]
	}
	in.groups = warpGroups(keys)
	return in
}

// warpGroups counts the distinct keys of every warp of 32 consecutive
// elements, summed over the warps.
func warpGroups(keys []int32) int64 {
	var total int64
	for w := 0; w < len(keys); w += 32 {
		seen := map[int32]bool{}
		for _, k := range keys[w:min(w+32, len(keys))] {
			seen[k] = true
		}
		total += int64(len(seen))
	}
	return total
}

// checkCompaction checks a compaction's output: count values, and
// out[0:count] the kept values in some order. It returns "" when right,
// else what is wrong.
func checkCompaction(in *compactInput, count uint32, out []int32) string {
	if int(count) != len(in.kept) {
		return fmt.Sprintf("the counter ended at %d, want %d kept values", count, len(in.kept))
	}
	got := slices.Clone(out[:count])
	slices.Sort(got)
	for i := range got {
		if got[i] != in.kept[i] {
			return fmt.Sprintf("out[0:%d] is not the kept values in some order: sorted, position %d holds %d, want %d (a ticket handed out twice, or one skipped)",
				count, i, got[i], in.kept[i])
		}
	}
	return ""
}

// checkBuckets checks a per-bucket append: count[b] the size of bucket b,
// and bucket b's slots of out a permutation of the indices of the
// elements whose key is b. It returns "" when right, else the first
// thing wrong, located by bucket, slot and element.
func checkBuckets(in *bucketInput, count []uint32, out []int32) string {
	for b := range in.size {
		if count[b] != in.size[b] {
			return fmt.Sprintf("count[%d] = %d, want %d (the elements with key %d)", b, count[b], in.size[b], b)
		}
	}
	// The first problem of each kind; a duplicate explains the slot it
	// left unwritten, so it is reported first.
	var wrongKey, twice, unwritten string
	seen := make([]bool, len(in.keys))
	for b := range in.size {
		for s := uint32(0); s < in.size[b]; s++ {
			e := out[in.start[b]+s]
			switch {
			case e < 0 || int(e) >= len(in.keys):
				if unwritten == "" {
					unwritten = fmt.Sprintf("bucket %d, slot %d holds %d, which is no element's index (0 to %d): a slot nobody wrote (no lane got this ticket, or two lanes got another one and wrote the same slot)", b, s, e, len(in.keys)-1)
				}
			case int(in.keys[e]) != b:
				if wrongKey == "" {
					wrongKey = fmt.Sprintf("bucket %d, slot %d holds element %d, whose key is %d", b, s, e, in.keys[e])
				}
			case seen[e]:
				if twice == "" {
					twice = fmt.Sprintf("bucket %d holds element %d twice (again at slot %d): two lanes got the same ticket", b, e, s)
				}
			default:
				seen[e] = true
			}
		}
	}
	for _, p := range []string{wrongKey, twice, unwritten} {
		if p != "" {
			return p
		}
	}
	for e, ok := range seen {
		if !ok {
			return fmt.Sprintf("element %d (key %d) is in no slot of its bucket", e, in.keys[e])
		}
	}
	return ""
}
