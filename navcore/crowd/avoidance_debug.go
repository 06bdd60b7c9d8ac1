package crowd

import (
	"fmt"

	"github.com/archenav/archenav/navcore/geom"
)

// AvoidanceSample is one scored candidate velocity, for debug drawing.
type AvoidanceSample struct {
	// Velocity is the candidate [Units: world units per second]
	Velocity geom.Vec3
	// Size is the spacing of the samples around it, for drawing
	// [Units: world units per second]
	Size float32
	// Penalty is the total of the four terms below (see AvoidanceParams).
	Penalty float32
	// DesiredVelocityPenalty is the weighted distance to the desired
	// velocity.
	DesiredVelocityPenalty float32
	// CurrentVelocityPenalty is the weighted distance to the current
	// velocity.
	CurrentVelocityPenalty float32
	// SidePenalty is the weighted preference for passing on one side.
	SidePenalty float32
	// TimeOfImpactPenalty is the weighted cost of an early collision.
	TimeOfImpactPenalty float32
}

// AvoidanceDebug records the samples of one sampling call
// (dtObstacleAvoidanceDebugData). Pass it to a sampler to fill it; samples
// beyond its capacity are not recorded. It allocates nothing after
// NewAvoidanceDebug.
type AvoidanceDebug struct {
	samples []AvoidanceSample
}

// NewAvoidanceDebug returns a recorder for up to maxSamples samples.
//
// maxSamples [Limit: >= 1]
func NewAvoidanceDebug(maxSamples int) (*AvoidanceDebug, error) {
	if maxSamples < 1 {
		return nil, fmt.Errorf("crowd: avoidance debug: %d samples: %w", maxSamples, ErrInvalidParam)
	}
	return &AvoidanceDebug{samples: make([]AvoidanceSample, 0, maxSamples)}, nil
}

// Reset forgets every sample. Samplers call it at their start.
func (d *AvoidanceDebug) Reset() { d.samples = d.samples[:0] }

func (d *AvoidanceDebug) add(s AvoidanceSample) {
	if len(d.samples) < cap(d.samples) {
		d.samples = append(d.samples, s)
	}
}

// Samples returns the recorded samples, in scoring order. The slice is
// reused by the next sampling call.
func (d *AvoidanceDebug) Samples() []AvoidanceSample { return d.samples }

// NormalizeSamples rescales the penalty and each of its terms, separately,
// to 0..1 over the recorded samples (a range under 0.001 is not stretched),
// as the demo does before drawing.
func (d *AvoidanceDebug) NormalizeSamples() {
	fields := [...]func(*AvoidanceSample) *float32{
		func(s *AvoidanceSample) *float32 { return &s.Penalty },
		func(s *AvoidanceSample) *float32 { return &s.DesiredVelocityPenalty },
		func(s *AvoidanceSample) *float32 { return &s.CurrentVelocityPenalty },
		func(s *AvoidanceSample) *float32 { return &s.SidePenalty },
		func(s *AvoidanceSample) *float32 { return &s.TimeOfImpactPenalty },
	}
	for _, field := range fields {
		lo, hi := floatMax, -floatMax
		for i := range d.samples {
			v := *field(&d.samples[i])
			lo = minf(lo, v)
			hi = maxf(hi, v)
		}
		penaltyRange := hi - lo
		scale := float32(1)
		if penaltyRange > 0.001 {
			scale = 1 / penaltyRange
		}
		for i := range d.samples {
			v := field(&d.samples[i])
			*v = clampf((*v-lo)*scale, 0, 1)
		}
	}
}

func maxf(a, b float32) float32 {
	if a > b {
		return a
	}
	return b
}
