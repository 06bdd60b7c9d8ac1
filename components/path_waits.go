package components

import (
	"math"

	"github.com/archenav/archenav/internal/binstate"
)

// Buckets of PathWaits: one per 1/60 s up to fineWaitBuckets/60 s (4.27 s),
// then one per doubling up to about 2^30 s.
const (
	fineWaitBuckets   = 256
	coarseWaitBuckets = 28
	waitBucketsPerS   = 60
)

// PathWaits is a histogram of how long agents waited for the first path to
// a move target, from the move request (plugin.RequestMoveTarget) to the
// first corridor towards it, complete or partial, whether the quick search
// of the PathRequest stage or the path queue found it [Units: s]. Waits up
// to 4.27 s are kept to the 60th of a second, longer ones to within a
// factor of two. The zero value is empty; it holds no pointers, so it can
// be copied and compared.
type PathWaits struct {
	// Count is the number of waits recorded.
	Count int
	// Max is the longest wait recorded [Units: s]
	Max float32
	// Sum is the sum of the waits recorded, for their mean [Units: s]
	Sum float64

	buckets [fineWaitBuckets + coarseWaitBuckets]uint32
}

// Add records a wait of seconds (negative or NaN counts as 0).
func (w *PathWaits) Add(seconds float32) {
	if !(seconds > 0) {
		seconds = 0
	}
	w.Count++
	w.Sum += float64(seconds)
	w.Max = max(w.Max, seconds)
	w.buckets[waitBucket(seconds)]++
}

// Merge adds the waits of o.
func (w *PathWaits) Merge(o *PathWaits) {
	w.Count += o.Count
	w.Sum += o.Sum
	w.Max = max(w.Max, o.Max)
	for i, n := range o.buckets {
		w.buckets[i] += n
	}
}

// Quantile returns the wait that a share q of the waits recorded do not
// exceed [Limit: 0..1], rounded up to its bucket's upper edge and at most
// Max: Quantile(0.99) is the p99 wait, within a 60th of a second below
// 4.27 s [Units: s]. It is 0 without waits.
func (w *PathWaits) Quantile(q float64) float32 {
	if w.Count == 0 {
		return 0
	}
	rank := uint64(math.Ceil(min(max(q, 0), 1) * float64(w.Count)))
	rank = max(rank, 1)
	seen := uint64(0)
	for i, n := range w.buckets {
		seen += uint64(n)
		if seen >= rank {
			return min(waitBucketTop(i), w.Max)
		}
	}
	return w.Max
}

// waitBucket returns the bucket of a wait of seconds (>= 0).
func waitBucket(seconds float32) int {
	ticks := float64(seconds) * waitBucketsPerS
	if ticks < fineWaitBuckets {
		return int(ticks)
	}
	_, exp := math.Frexp(ticks / fineWaitBuckets) // ticks/256 in [2^(exp-1), 2^exp)
	return min(fineWaitBuckets+exp-1, fineWaitBuckets+coarseWaitBuckets-1)
}

// waitBucketTop returns the upper edge of bucket i [Units: s].
func waitBucketTop(i int) float32 {
	if i < fineWaitBuckets {
		return float32(i+1) / waitBucketsPerS
	}
	if i == fineWaitBuckets+coarseWaitBuckets-1 {
		return float32(math.Inf(1))
	}
	return float32(math.Ldexp(fineWaitBuckets, i-fineWaitBuckets+1) / waitBucketsPerS)
}

// appendState appends the histogram to w: its totals and its buckets in
// use, each as its index and count.
func (w *PathWaits) appendState(out *binstate.Writer) {
	out.Int(w.Count)
	out.F32(w.Max)
	out.U64(math.Float64bits(w.Sum))
	used := 0
	for _, n := range w.buckets {
		if n > 0 {
			used++
		}
	}
	out.Count(used)
	for i, n := range w.buckets {
		if n > 0 {
			out.U16(uint16(i))
			out.U32(n)
		}
	}
}

// readState reads a histogram written by appendState into w, checking that
// its buckets add up to its count.
func (w *PathWaits) readState(r *binstate.Reader) {
	var out PathWaits
	out.Count = r.Int(0, math.MaxInt32)
	out.Max = r.F32()
	out.Sum = math.Float64frombits(r.U64())
	used := r.Count(len(out.buckets), 6)
	total := 0
	for range used {
		i, n := int(r.U16()), r.U32()
		if r.Err() != nil {
			return
		}
		if i >= len(out.buckets) || out.buckets[i] != 0 || n == 0 {
			r.Fail("wait bucket %d of %d repeated or empty", i, len(out.buckets))
			return
		}
		out.buckets[i] = n
		total += int(n)
	}
	switch {
	case r.Err() != nil:
		return
	case total != out.Count:
		r.Fail("%d waits in buckets of %d", total, out.Count)
	case !(out.Max >= 0) || math.IsInf(float64(out.Max), 0) || !(out.Sum >= 0) || math.IsInf(out.Sum, 0):
		r.Fail("waits up to %v summing to %v", out.Max, out.Sum)
	}
	*w = out
}
