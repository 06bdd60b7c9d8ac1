package navmesh

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// LinkKind tells how an agent crosses an off-mesh connection. Detour's
// connections carry no such thing, so the bake's automatic links write it
// into the connection's UserID (AutoLinkUserID) and the crowd reads it back
// (ParseAutoLinkUserID) to animate the crossing along the same path the bake
// checked.
type LinkKind uint8

const (
	// LinkPlain is any connection the bake did not place, crossed in a
	// straight line (Detour's behaviour).
	LinkPlain LinkKind = iota
	// LinkDrop walks off a ledge: level to above the end point, then
	// straight down. One-way.
	LinkDrop
	// LinkJump is a ballistic arc whose apex lies the arc height above the
	// higher end point; the same arc serves both directions.
	LinkJump
)

// String returns "plain", "drop" or "jump".
func (k LinkKind) String() string {
	switch k {
	case LinkPlain:
		return "plain"
	case LinkDrop:
		return "drop"
	case LinkJump:
		return "jump"
	}
	return fmt.Sprintf("LinkKind(%d)", uint8(k))
}

// AreaDrop and FlagDrop are the area id and polygon flag the bake gives its
// drop links by default, beside RecastDemo's areas and flags (its jump
// links take AreaJump and FlagJump).
const (
	AreaDrop uint8  = 6
	FlagDrop uint16 = 0x20
)

// The UserID of an automatic link: the tag in bits 31..20, the kind in bits
// 19..16 and the arc height in millimetres in bits 15..0.
const (
	autoLinkTag       uint32 = 0xa71 << 20
	autoLinkTagMask   uint32 = 0xfff << 20
	autoLinkKindShift        = 16
	autoLinkArcMask   uint32 = 0xffff
	// MaxLinkArcHeight is the highest arc an automatic link's UserID
	// holds [Units: world units]
	MaxLinkArcHeight = float32(autoLinkArcMask) / 1000
)

// AutoLinkUserID returns the UserID the bake gives an automatic link of kind
// with an arc height (rounded to the millimetre, clamped to
// 0..MaxLinkArcHeight; only jumps use it) [Units: world units]. A user's own
// connection whose UserID has the same top 12 bits (0xa71) reads back as an
// automatic link: keep user ids below 0xa7100000 or above 0xa71fffff.
func AutoLinkUserID(kind LinkKind, arcHeight float32) uint32 {
	return autoLinkTag | uint32(kind&0xf)<<autoLinkKindShift | quantizeArc(arcHeight)
}

// ParseAutoLinkUserID reads the kind and arc height back from an automatic
// link's UserID; any other id gives LinkPlain and 0.
func ParseAutoLinkUserID(userID uint32) (kind LinkKind, arcHeight float32) {
	if userID&autoLinkTagMask != autoLinkTag {
		return LinkPlain, 0
	}
	kind = LinkKind(userID >> autoLinkKindShift & 0xf)
	if kind != LinkDrop && kind != LinkJump {
		return LinkPlain, 0
	}
	return kind, float32(userID&autoLinkArcMask) / 1000
}

// QuantizeLinkArc returns arcHeight as an automatic link's UserID stores it:
// rounded to the millimetre and clamped to 0..MaxLinkArcHeight.
func QuantizeLinkArc(arcHeight float32) float32 {
	return float32(quantizeArc(arcHeight)) / 1000
}

func quantizeArc(arcHeight float32) uint32 {
	if !(arcHeight > 0) { // also NaN
		return 0
	}
	mm := math.Round(float64(arcHeight) * 1000)
	return uint32(min(mm, float64(autoLinkArcMask)))
}

// LinkPath returns the point a fraction u (0..1, clamped) along the path of
// a link of kind from start to end:
//   - LinkPlain: the straight segment.
//   - LinkDrop: level with start to above end for u up to 0.5, then straight
//     down to end.
//   - LinkJump: xz moves at a steady rate while y follows the parabola
//     through start and end whose apex lies arcHeight above the higher of
//     the two (a ballistic arc; with arcHeight 0 its apex is that end).
//
// The bake checks the agent's body along this path; the crowd moves agents
// along it.
func LinkPath(kind LinkKind, start, end mgl32.Vec3, arcHeight, u float32) mgl32.Vec3 {
	u = min(max(u, 0), 1)
	switch kind {
	case LinkDrop:
		if u <= 0.5 {
			s := 2 * u
			return mgl32.Vec3{start[0] + float32((end[0]-start[0])*s), start[1], start[2] + float32((end[2]-start[2])*s)}
		}
		s := float32(2*u) - 1
		return mgl32.Vec3{end[0], start[1] + float32((end[1]-start[1])*s), end[2]}
	case LinkJump:
		return mgl32.Vec3{start[0] + float32((end[0]-start[0])*u), JumpArcHeight(start[1], end[1], arcHeight, u), start[2] + float32((end[2]-start[2])*u)}
	}
	return mgl32.Vec3{start[0] + float32((end[0]-start[0])*u), start[1] + float32((end[1]-start[1])*u), start[2] + float32((end[2]-start[2])*u)}
}

// JumpArcHeight returns the height at fraction u (0..1) of the ballistic arc
// from height startY to endY whose apex lies arcHeight above the higher of
// the two [Units: world units]. The apex is reached at u =
// √h1 / (√h1 + √h2), h1 and h2 being the apex's height above start and end.
func JumpArcHeight(startY, endY, arcHeight, u float32) float32 {
	arcHeight = max(arcHeight, 0)
	apex := max(startY, endY) + arcHeight
	rise, fall := sqrt32(apex-startY), sqrt32(apex-endY)
	if rise+fall == 0 {
		return startY
	}
	peak := rise / (rise + fall)
	a := (rise + fall) * (rise + fall)
	d := u - peak
	return apex - float32(a*d*d)
}

func sqrt32(x float32) float32 { return float32(math.Sqrt(float64(max(x, 0)))) }
