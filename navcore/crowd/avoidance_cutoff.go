package crowd

import "math"

// impactCutoff is the early-out of processSample without its division.
//
// processSample gives up on a sample before looking at any obstacle when
// even the latest possible impact would make it no better than the best so
// far: with remaining = minPenalty - desiredPenalty - currentPenalty, when
//
//	(weightTimeOfImpact/remaining - 0.1)·horizonTime - horizonTime > -FLT_EPSILON
//
// in float32 arithmetic. Every step of that expression is monotone in
// remaining over (0, +∞) (IEEE rounding is monotone), so the test holds
// exactly for remaining in (0, limit] for a limit that depends only on the
// two parameters. Comparing with the limit gives the same answer as the
// formula, bit for bit, without a division on most samples.
type impactCutoff struct {
	weight, horizon float32 // the parameters limit was found for
	limit           float32 // 0 when no positive remaining passes
	valid           bool
}

// cutoffExits is the reference's early-out test for a remaining penalty.
func cutoffExits(weight, horizon, remaining float32) bool {
	threshold := float32((weight/remaining - 0.1) * horizon)
	return threshold-horizon > -floatEpsilon
}

// update finds the limit for weight and horizon, unless it already has it.
func (c *impactCutoff) update(weight, horizon float32) {
	if c.valid && c.weight == weight && c.horizon == horizon {
		return
	}
	c.weight, c.horizon, c.valid = weight, horizon, true
	// Binary search over the bit patterns of the positive finite floats,
	// which are ordered like the floats themselves.
	lo, hi := uint32(1), math.Float32bits(math.MaxFloat32)
	if !cutoffExits(weight, horizon, math.Float32frombits(lo)) {
		c.limit = 0
		return
	}
	// Invariant: lo passes; everything above hi fails.
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if cutoffExits(weight, horizon, math.Float32frombits(mid)) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	c.limit = math.Float32frombits(lo)
}

// exits reports whether the sample with this remaining penalty is given
// up: the reference's test, with the division only outside (0, limit].
func (c *impactCutoff) exits(remaining float32) bool {
	switch {
	case remaining > c.limit:
		return false
	case remaining > 0:
		return true
	}
	// Zero, negative or NaN.
	return cutoffExits(c.weight, c.horizon, remaining)
}
