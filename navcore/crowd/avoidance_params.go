package crowd

import (
	"fmt"
	"math"
)

// Limits of the adaptive sampling pattern (DT_MAX_PATTERN_DIVS and
// DT_MAX_PATTERN_RINGS) and of the refinement depth.
const (
	// MaxAdaptiveDivisions is the most samples per ring of the adaptive
	// sampler.
	MaxAdaptiveDivisions = 32
	// MaxAdaptiveRings is the most rings of the adaptive sampler.
	MaxAdaptiveRings = 4
	// MaxAdaptiveDepth is the range of the reference's 8-bit depth field.
	// Each level halves the sampling radius, so beyond ~24 levels the
	// samples no longer move in float32.
	MaxAdaptiveDepth = 255
	// MaxGridSize is the range of the reference's 8-bit grid size field.
	MaxGridSize = 255
)

// AvoidanceParams configure velocity sampling (dtObstacleAvoidanceParams).
// The penalty of a candidate velocity is
//
//	WeightDesiredVelocity·|v - desired|/maxSpeed
//	+ WeightCurrentVelocity·|v - current|/maxSpeed
//	+ WeightSide·side
//	+ WeightTimeOfImpact / (0.1 + timeOfImpact/HorizonTime)
//
// and the candidate with the least penalty wins.
type AvoidanceParams struct {
	// VelocityBias pulls the sampling centre towards the desired velocity:
	// 0 centres the samples on zero, 1 on the desired velocity (velBias).
	// [Limit: 0..1]
	VelocityBias float32
	// WeightDesiredVelocity weighs the distance to the desired velocity
	// (weightDesVel). [Limit: >= 0]
	WeightDesiredVelocity float32
	// WeightCurrentVelocity weighs the distance to the current velocity
	// (weightCurVel). [Limit: >= 0]
	WeightCurrentVelocity float32
	// WeightSide weighs the preference for passing obstacles on one side
	// (weightSide). [Limit: >= 0]
	WeightSide float32
	// WeightTimeOfImpact weighs how soon the candidate hits an obstacle
	// (weightToi). [Limit: >= 0]
	WeightTimeOfImpact float32
	// HorizonTime is how far ahead collisions count (horizTime).
	// [Limit: > 0] [Units: seconds]
	HorizonTime float32
	// GridSize is the number of samples per side of the grid sampler
	// (gridSize). [Limit: 2..MaxGridSize]
	GridSize int
	// AdaptiveDivisions is the number of samples per ring of the adaptive
	// sampler (adaptiveDivs). [Limit: 1..MaxAdaptiveDivisions]
	AdaptiveDivisions int
	// AdaptiveRings is the number of rings of the adaptive sampler
	// (adaptiveRings). [Limit: 1..MaxAdaptiveRings]
	AdaptiveRings int
	// AdaptiveDepth is the number of refinement passes of the adaptive
	// sampler, each around the best sample of the one before at half the
	// radius (adaptiveDepth). [Limit: 1..MaxAdaptiveDepth]
	AdaptiveDepth int
}

// AvoidanceQuality names one of the four presets of the reference demo.
type AvoidanceQuality int

// The four presets of RecastDemo's crowd tool, in preset-index order. The
// number is the typical sample count per agent per tick.
const (
	AvoidanceLow    AvoidanceQuality = iota // 5 divisions, 2 rings, depth 1 (11 samples)
	AvoidanceMedium                         // 5 divisions, 2 rings, depth 2 (22 samples)
	AvoidanceGood                           // 7 divisions, 2 rings, depth 3 (45 samples)
	AvoidanceHigh                           // 7 divisions, 3 rings, depth 3 (66 samples)
)

// String returns the preset's name.
func (q AvoidanceQuality) String() string {
	switch q {
	case AvoidanceLow:
		return "low"
	case AvoidanceMedium:
		return "medium"
	case AvoidanceGood:
		return "good"
	case AvoidanceHigh:
		return "high"
	}
	return fmt.Sprintf("AvoidanceQuality(%d)", int(q))
}

// DefaultAvoidanceParams returns the parameters dtCrowd gives every preset
// slot before the demo overrides them: bias 0.4, weights 2 / 0.75 / 0.75 /
// 2.5, horizon 2.5 s, a 33×33 grid, 7 divisions, 2 rings, depth 5.
func DefaultAvoidanceParams() AvoidanceParams {
	return AvoidanceParams{
		VelocityBias:          0.4,
		WeightDesiredVelocity: 2,
		WeightCurrentVelocity: 0.75,
		WeightSide:            0.75,
		WeightTimeOfImpact:    2.5,
		HorizonTime:           2.5,
		GridSize:              33,
		AdaptiveDivisions:     7,
		AdaptiveRings:         2,
		AdaptiveDepth:         5,
	}
}

// AvoidancePreset returns the demo's parameters for quality q: the defaults
// with VelocityBias 0.5 and the pattern of the quality. An unknown quality
// gives the high preset.
func AvoidancePreset(q AvoidanceQuality) AvoidanceParams {
	p := DefaultAvoidanceParams()
	p.VelocityBias = 0.5
	switch q {
	case AvoidanceLow:
		p.AdaptiveDivisions, p.AdaptiveRings, p.AdaptiveDepth = 5, 2, 1
	case AvoidanceMedium:
		p.AdaptiveDivisions, p.AdaptiveRings, p.AdaptiveDepth = 5, 2, 2
	case AvoidanceGood:
		p.AdaptiveDivisions, p.AdaptiveRings, p.AdaptiveDepth = 7, 2, 3
	default:
		p.AdaptiveDivisions, p.AdaptiveRings, p.AdaptiveDepth = 7, 3, 3
	}
	return p
}

// Validate reports the first field outside its documented limits, wrapping
// ErrInvalidParam. The reference clamps divisions and rings silently and
// divides by zero for a grid size of 1; we refuse instead.
func (p *AvoidanceParams) Validate() error {
	bad := func(name string, v any, limit string) error {
		return fmt.Errorf("crowd: avoidance params: %s %v not %s: %w", name, v, limit, ErrInvalidParam)
	}
	switch {
	case !(p.VelocityBias >= 0 && p.VelocityBias <= 1):
		return bad("VelocityBias", p.VelocityBias, "in 0..1")
	case !finiteNonNegative(p.WeightDesiredVelocity):
		return bad("WeightDesiredVelocity", p.WeightDesiredVelocity, "finite and >= 0")
	case !finiteNonNegative(p.WeightCurrentVelocity):
		return bad("WeightCurrentVelocity", p.WeightCurrentVelocity, "finite and >= 0")
	case !finiteNonNegative(p.WeightSide):
		return bad("WeightSide", p.WeightSide, "finite and >= 0")
	case !finiteNonNegative(p.WeightTimeOfImpact):
		return bad("WeightTimeOfImpact", p.WeightTimeOfImpact, "finite and >= 0")
	case !finiteNonNegative(p.HorizonTime) || p.HorizonTime == 0:
		return bad("HorizonTime", p.HorizonTime, "finite and > 0")
	case p.GridSize < 2 || p.GridSize > MaxGridSize:
		return bad("GridSize", p.GridSize, fmt.Sprintf("in 2..%d", MaxGridSize))
	case p.AdaptiveDivisions < 1 || p.AdaptiveDivisions > MaxAdaptiveDivisions:
		return bad("AdaptiveDivisions", p.AdaptiveDivisions, fmt.Sprintf("in 1..%d", MaxAdaptiveDivisions))
	case p.AdaptiveRings < 1 || p.AdaptiveRings > MaxAdaptiveRings:
		return bad("AdaptiveRings", p.AdaptiveRings, fmt.Sprintf("in 1..%d", MaxAdaptiveRings))
	case p.AdaptiveDepth < 1 || p.AdaptiveDepth > MaxAdaptiveDepth:
		return bad("AdaptiveDepth", p.AdaptiveDepth, fmt.Sprintf("in 1..%d", MaxAdaptiveDepth))
	}
	return nil
}

func finiteNonNegative(f float32) bool {
	return f >= 0 && !math.IsInf(float64(f), 1)
}
