package render

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"io"
)

// Animation collects frames and writes them as a looping animated GIF. Every
// frame is mapped to one fixed palette (exact for the palette's own colors,
// nearest otherwise) and, after the first, stored as the rectangle of pixels
// that changed, with unchanged pixels transparent: a static background costs
// nothing per frame, which keeps a GIF of moving agents small.
type Animation struct {
	palette     color.Palette // the given colors, then the transparent entry
	transparent uint8
	delay       int // per frame [Units: 1/100 s]
	frames      []*image.Paletted
	delays      []int
	previous    *image.Paletted // the last frame in full
	current     *image.Paletted // scratch, swapped with previous
	indexCache  map[color.RGBA]uint8
}

// NewAnimation returns an empty animation over palette (1..255 opaque
// colors; one more entry is added for transparency) showing each frame for
// delay hundredths of a second [Limit: >= 2, as browsers slow faster GIFs].
func NewAnimation(palette color.Palette, delay int) (*Animation, error) {
	if len(palette) < 1 || len(palette) > 255 {
		return nil, fmt.Errorf("render: animation palette has %d colors, want 1..255", len(palette))
	}
	if delay < 2 {
		return nil, fmt.Errorf("render: animation frame delay %d/100 s below 2", delay)
	}
	full := make(color.Palette, 0, len(palette)+1)
	full = append(full, palette...)
	full = append(full, color.RGBA{})
	return &Animation{
		palette:     full,
		transparent: uint8(len(palette)),
		delay:       delay,
		indexCache:  make(map[color.RGBA]uint8),
	}, nil
}

// Len returns the number of frames added.
func (a *Animation) Len() int { return len(a.frames) }

// AddFrame appends img as the next frame. Every frame must have the size of
// the first.
func (a *Animation) AddFrame(img *image.RGBA) error {
	bounds := image.Rect(0, 0, img.Rect.Dx(), img.Rect.Dy())
	if a.previous != nil && bounds != a.previous.Rect {
		return fmt.Errorf("render: animation frame is %v, earlier frames %v", bounds.Size(), a.previous.Rect.Size())
	}
	if a.current == nil {
		a.current = image.NewPaletted(bounds, a.palette)
	}
	a.toPalette(img, a.current)
	if a.previous == nil {
		first := image.NewPaletted(bounds, a.palette)
		copy(first.Pix, a.current.Pix)
		a.frames = append(a.frames, first)
		a.delays = append(a.delays, a.delay)
		a.previous, a.current = a.current, nil
		return nil
	}
	a.frames = append(a.frames, a.delta(a.previous, a.current))
	a.delays = append(a.delays, a.delay)
	a.previous, a.current = a.current, a.previous
	return nil
}

// HoldLastFrame shows the last frame for the given time before the
// animation loops [Units: 1/100 s].
func (a *Animation) HoldLastFrame(delay int) {
	if n := len(a.delays); n > 0 && delay > a.delays[n-1] {
		a.delays[n-1] = delay
	}
}

// Encode writes the animation as a GIF that loops forever.
func (a *Animation) Encode(w io.Writer) error {
	if len(a.frames) == 0 {
		return errors.New("render: animation has no frames")
	}
	disposal := make([]byte, len(a.frames))
	for i := range disposal {
		disposal[i] = gif.DisposalNone
	}
	size := a.frames[0].Rect.Size()
	return gif.EncodeAll(w, &gif.GIF{
		Image:    a.frames,
		Delay:    a.delays,
		Disposal: disposal,
		Config:   image.Config{ColorModel: a.palette, Width: size.X, Height: size.Y},
	})
}

// toPalette maps every pixel of src to its palette index in dst.
func (a *Animation) toPalette(src *image.RGBA, dst *image.Paletted) {
	width, height := dst.Rect.Dx(), dst.Rect.Dy()
	var lastColor color.RGBA
	var lastIndex uint8
	haveLast := false
	for y := 0; y < height; y++ {
		row := src.Pix[src.PixOffset(src.Rect.Min.X, src.Rect.Min.Y+y):]
		out := dst.Pix[y*dst.Stride : y*dst.Stride+width]
		for x := range out {
			c := color.RGBA{row[4*x], row[4*x+1], row[4*x+2], 255}
			if !haveLast || c != lastColor {
				lastColor, lastIndex, haveLast = c, a.indexOf(c), true
			}
			out[x] = lastIndex
		}
	}
}

func (a *Animation) indexOf(c color.RGBA) uint8 {
	if i, ok := a.indexCache[c]; ok {
		return i
	}
	i := uint8(a.palette[:a.transparent].Index(c))
	a.indexCache[c] = i
	return i
}

// delta returns the smallest rectangle of next that differs from previous,
// with the pixels that did not change made transparent. Nothing changed gives
// a 1×1 transparent frame.
func (a *Animation) delta(previous, next *image.Paletted) *image.Paletted {
	width, height := next.Rect.Dx(), next.Rect.Dy()
	changed := image.Rectangle{}
	for y := 0; y < height; y++ {
		p := previous.Pix[y*previous.Stride : y*previous.Stride+width]
		n := next.Pix[y*next.Stride : y*next.Stride+width]
		for x := range n {
			if n[x] != p[x] {
				changed = changed.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	if changed.Empty() {
		frame := image.NewPaletted(image.Rect(0, 0, 1, 1), a.palette)
		frame.Pix[0] = a.transparent
		return frame
	}
	frame := image.NewPaletted(changed, a.palette)
	for y := changed.Min.Y; y < changed.Max.Y; y++ {
		for x := changed.Min.X; x < changed.Max.X; x++ {
			i := y*next.Stride + x
			if next.Pix[i] == previous.Pix[i] {
				frame.Pix[frame.PixOffset(x, y)] = a.transparent
			} else {
				frame.Pix[frame.PixOffset(x, y)] = next.Pix[i]
			}
		}
	}
	return frame
}
