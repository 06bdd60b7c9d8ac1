package render

import (
	"bytes"
	"image/color"
	"image/gif"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAnimationStoresOnlyChangedPixels(t *testing.T) {
	palette := color.Palette{black, white, red}
	anim, err := NewAnimation(palette, 5)
	require.NoError(t, err)

	r := NewRaster(64, 48)
	for frame := 0; frame < 4; frame++ {
		r.Clear(black)
		r.Polygon([]Point{{0, 40}, {64, 40}, {64, 48}, {0, 48}}, white) // static floor
		r.Circle(Point{float32(10 + 10*frame), 20}, 4, 0, red)          // moving agent
		require.NoError(t, anim.AddFrame(r.Image()))
	}
	anim.HoldLastFrame(100)
	assert.Equal(t, 4, anim.Len())

	var buf bytes.Buffer
	require.NoError(t, anim.Encode(&buf))
	decoded, err := gif.DecodeAll(&buf)
	require.NoError(t, err)
	require.Len(t, decoded.Image, 4)
	assert.Equal(t, []int{5, 5, 5, 100}, decoded.Delay)
	assert.Equal(t, 64, decoded.Config.Width)

	// Later frames are only the rectangle around the old and new disc.
	for i, frame := range decoded.Image[1:] {
		b := frame.Bounds()
		assert.LessOrEqual(t, b.Dx(), 20, "frame %d width", i+1)
		assert.LessOrEqual(t, b.Dy(), 9, "frame %d height", i+1)
		assert.GreaterOrEqual(t, b.Min.Y, 15)
	}

	// Composited, the last frame has the disc where it was drawn last.
	last := decoded.Image[3]
	_, _, _, a := last.At(40, 20).RGBA()
	require.NotZero(t, a)
	assert.Equal(t, color.RGBA{255, 0, 0, 255}, color.RGBAModel.Convert(last.At(40, 20)))
	assert.Equal(t, color.RGBA{}, color.RGBAModel.Convert(last.At(35, 20)).(color.RGBA), "unchanged pixel between the discs is transparent")
}

func TestAnimationRejectsBadInput(t *testing.T) {
	_, err := NewAnimation(nil, 5)
	assert.Error(t, err)
	_, err = NewAnimation(make(color.Palette, 256), 5)
	assert.Error(t, err)
	_, err = NewAnimation(color.Palette{black}, 1)
	assert.Error(t, err)

	anim, err := NewAnimation(color.Palette{black}, 4)
	require.NoError(t, err)
	assert.Error(t, anim.Encode(&bytes.Buffer{}), "no frames")
	require.NoError(t, anim.AddFrame(NewRaster(8, 8).Image()))
	assert.Error(t, anim.AddFrame(NewRaster(9, 8).Image()), "size change")
	assert.Equal(t, 1, anim.Len())
}

func TestAnimationMapsForeignColorsToNearest(t *testing.T) {
	anim, err := NewAnimation(color.Palette{black, white}, 4)
	require.NoError(t, err)
	r := NewRaster(2, 1)
	r.Clear(color.RGBA{200, 210, 220, 255})
	require.NoError(t, anim.AddFrame(r.Image()))
	assert.Equal(t, uint8(1), anim.frames[0].Pix[0])
}
