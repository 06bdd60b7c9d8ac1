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

// AvoidanceParams configure obstacle avoidance: which method plans the
// velocity (Method) and that method's settings. The sampling methods
// (AvoidanceAdaptive, AvoidanceGrid) read every field but ORCA
// (dtObstacleAvoidanceParams); AvoidanceORCA reads only ORCA.
//
// The sampling penalty of a candidate velocity is
//
//	WeightDesiredVelocity·|v - desired|/maxSpeed
//	+ WeightCurrentVelocity·|v - current|/maxSpeed
//	+ WeightSide·side
//	+ WeightTimeOfImpact / (0.1 + timeOfImpact/HorizonTime)
//
// and the candidate with the least penalty wins.
type AvoidanceParams struct {
	// Method picks the avoidance method. The zero value is adaptive
	// sampling, DetourCrowd's.
	Method AvoidanceMethod
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
	// ORCA configures the AvoidanceORCA method.
	ORCA ORCAParams
}

// AvoidanceMethod is how an agent's velocity is planned around its
// neighbours and walls.
type AvoidanceMethod uint8

// The avoidance methods.
const (
	// AvoidanceAdaptive samples rings of candidate velocities around the
	// desired one and refines around the best (DetourCrowd's
	// sampleVelocityAdaptive, ObstacleAvoidance.SampleVelocityAdaptive).
	AvoidanceAdaptive AvoidanceMethod = iota
	// AvoidanceGrid scores a square grid of candidates
	// (sampleVelocityGrid, ObstacleAvoidance.SampleVelocityGrid).
	AvoidanceGrid
	// AvoidanceORCA solves a small linear program over the half-planes of
	// optimal reciprocal collision avoidance (ReciprocalAvoidance).
	AvoidanceORCA

	// avoidanceMethods is the number of methods.
	avoidanceMethods
)

// String returns the method's name: "adaptive", "grid" or "orca".
func (m AvoidanceMethod) String() string {
	switch m {
	case AvoidanceAdaptive:
		return "adaptive"
	case AvoidanceGrid:
		return "grid"
	case AvoidanceORCA:
		return "orca"
	}
	return fmt.Sprintf("AvoidanceMethod(%d)", int(m))
}

// ParseAvoidanceMethod returns the method named name ("adaptive", "grid" or
// "orca", as String gives them); an ErrInvalidParam error for another name.
func ParseAvoidanceMethod(name string) (AvoidanceMethod, error) {
	for m := AvoidanceMethod(0); m < avoidanceMethods; m++ {
		if m.String() == name {
			return m, nil
		}
	}
	return 0, fmt.Errorf("crowd: avoidance method %q not adaptive, grid or orca: %w", name, ErrInvalidParam)
}

// MaxORCANeighbours bounds ORCAParams.MaxNeighbours. The crowd gathers at
// most components.MaxNeighbours (6) neighbours per agent, so more than that
// changes nothing there.
const MaxORCANeighbours = 64

// ORCAParams configure optimal reciprocal collision avoidance (see
// ReciprocalAvoidance).
type ORCAParams struct {
	// TimeHorizon is how far ahead collisions with other agents are
	// avoided: a velocity that keeps clear of every neighbour for this
	// long is allowed. Longer horizons avoid earlier and more smoothly but
	// leave dense crowds less room [Limit: > 0, finite] [Units: seconds]
	TimeHorizon float32
	// ObstacleTimeHorizon is the same for walls; shorter than TimeHorizon,
	// so that agents may walk close along walls [Limit: > 0, finite]
	// [Units: seconds]
	ObstacleTimeHorizon float32
	// MaxNeighbours is how many of the nearest neighbours are avoided; 0
	// avoids walls only [Limit: 0..MaxORCANeighbours]
	MaxNeighbours int
}

// DefaultORCAParams returns the ORCA settings the presets use: a
// neighbour horizon of 1 s, a wall horizon of 0.5 s and six neighbours.
// With the reference's agents (radius 0.6, speed 3.5) on dungeon and
// nav_test, horizons of 0.5 to 3 s were tried: longer ones slow dense
// crowds down (fewer agents arrive), shorter ones let more bodies overlap;
// 1 s arrived as many as adaptive sampling or more.
func DefaultORCAParams() ORCAParams {
	return ORCAParams{TimeHorizon: 1, ObstacleTimeHorizon: 0.5, MaxNeighbours: 6}
}

// Validate reports the first field outside its documented limits,
// wrapping ErrInvalidParam.
func (p *ORCAParams) Validate() error {
	bad := func(name string, v any, limit string) error {
		return fmt.Errorf("crowd: ORCA params: %s %v not %s: %w", name, v, limit, ErrInvalidParam)
	}
	switch {
	case !finiteNonNegative(p.TimeHorizon) || p.TimeHorizon == 0:
		return bad("TimeHorizon", p.TimeHorizon, "finite and > 0")
	case !finiteNonNegative(p.ObstacleTimeHorizon) || p.ObstacleTimeHorizon == 0:
		return bad("ObstacleTimeHorizon", p.ObstacleTimeHorizon, "finite and > 0")
	case p.MaxNeighbours < 0 || p.MaxNeighbours > MaxORCANeighbours:
		return bad("MaxNeighbours", p.MaxNeighbours, fmt.Sprintf("in 0..%d", MaxORCANeighbours))
	}
	return nil
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
// slot before the demo overrides them: adaptive sampling, bias 0.4, weights
// 2 / 0.75 / 0.75 / 2.5, horizon 2.5 s, a 33×33 grid, 7 divisions, 2 rings,
// depth 5; and DefaultORCAParams for when Method is switched to ORCA.
func DefaultAvoidanceParams() AvoidanceParams {
	return AvoidanceParams{
		Method:                AvoidanceAdaptive,
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
		ORCA:                  DefaultORCAParams(),
	}
}

// ORCAPreset returns DefaultAvoidanceParams with Method AvoidanceORCA.
func ORCAPreset() AvoidanceParams {
	p := DefaultAvoidanceParams()
	p.Method = AvoidanceORCA
	return p
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
// ErrInvalidParam: Method, and the fields its method reads (ORCA for
// AvoidanceORCA, the others for sampling). The reference clamps divisions
// and rings silently and divides by zero for a grid size of 1; we refuse
// instead.
func (p *AvoidanceParams) Validate() error {
	switch p.Method {
	case AvoidanceAdaptive, AvoidanceGrid:
		return p.validateSampling()
	case AvoidanceORCA:
		return p.ORCA.Validate()
	}
	return fmt.Errorf("crowd: avoidance params: Method %v not adaptive, grid or orca: %w", p.Method, ErrInvalidParam)
}

// validateSampling checks the fields the sampling methods read, whatever
// Method says.
func (p *AvoidanceParams) validateSampling() error {
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
