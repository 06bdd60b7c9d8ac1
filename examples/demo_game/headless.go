package main

import (
	"bufio"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/archenav/archenav/examples/demo_game/render"
	"github.com/archenav/archenav/examples/demo_game/scene"
)

// GIF recording: one frame every framePeriod ticks (10 frames a second at
// 30 ticks a second), shown for the matching time.
const (
	framePeriod = 3
	frameDelay  = 100 * framePeriod / tickRate // [Units: 1/100 s]
	holdLast    = 150                          // last frame shown 1.5 s before looping
	viewMargin  = 8                            // [Units: pixels]
)

// Output file names inside -out.
const (
	gifName = "demo_game.gif"
	pngName = "demo_game.png"
)

func runHeadless(o *options, stdout io.Writer) error {
	started := time.Now()
	d, err := setup(o)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, d.bakeSummary())

	width, height := o.width, o.height
	if width == 0 {
		width, height = d.autoSize(autoLongSide)
	}
	rec, err := newRecorder(d, width, height)
	if err != nil {
		return err
	}
	ticks := int(o.seconds * tickRate)
	dt := float32(1) / tickRate
	if err := rec.frame(0); err != nil {
		return err
	}
	for tick := 1; tick <= ticks; tick++ {
		if err := d.crowd.Step(dt); err != nil {
			return err
		}
		if tick%framePeriod == 0 || tick == ticks {
			if err := rec.frame(tick); err != nil {
				return err
			}
		}
	}
	rec.animation.HoldLastFrame(holdLast)

	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	gifPath, pngPath := filepath.Join(o.out, gifName), filepath.Join(o.out, pngName)
	gifSize, err := writeFile(gifPath, rec.animation.Encode)
	if err != nil {
		return err
	}
	rec.finalFrame(ticks)
	pngSize, err := writeFile(pngPath, func(w io.Writer) error { return png.Encode(w, rec.canvas.Image()) })
	if err != nil {
		return err
	}

	stats := d.crowd.Stats()
	fmt.Fprintf(stdout, "crowd: %d agents, %d ticks (%.1f s simulated), %.3f ms per tick, %d arrivals\n",
		stats.Agents, stats.Ticks, float64(stats.Ticks)/tickRate, stats.MillisecondsPerTick(), stats.Arrivals)
	printTypes(stdout, stats)
	fmt.Fprintf(stdout, "wrote %s (%d frames, %d KB) and %s (%d KB) in %.1f s\n",
		gifPath, rec.animation.Len(), (gifSize+512)/1024, pngPath, (pngSize+512)/1024, time.Since(started).Seconds())
	return nil
}

// autoLongSide is the long side of the image when -size is auto
// [Units: pixels].
const autoLongSide = 640

// autoSize returns an image size with the level's aspect ratio, longSide
// pixels on its long side, plus room for the caption (and the legend of
// the agent types).
func (d *demo) autoSize(longSide int) (width, height int) {
	layer := d.layer
	spanX, spanZ := layer.Max[0]-layer.Min[0], layer.Max[2]-layer.Min[2]
	if !(spanX > 0) || !(spanZ > 0) {
		return longSide, longSide
	}
	if spanX >= spanZ {
		width, height = longSide, int(float32(longSide)*spanZ/spanX)
	} else {
		width, height = int(float32(longSide)*spanX/spanZ), longSide
	}
	width = max(width, 320) // room for the caption
	height = max(height, minImageSide) + captionHeight(width)
	if d.legend() != nil {
		height += captionHeight(width)
	}
	return width, height
}

// captionHeight is the height of the caption bar on an image this wide.
func captionHeight(width int) int { return render.GlyphHeight*textScale(width) + 4 }

// textScale is the caption's font scale on an image this wide.
func textScale(width int) int {
	if width >= 400 {
		return 2
	}
	return 1
}

// recorder draws frames of the demo into a raster and collects them.
type recorder struct {
	demo       *demo
	view       scene.View
	canvas     *render.Raster
	background []byte // the navmesh drawn once
	animation  *render.Animation
	agents     []scene.Agent
	obstacles  []scene.Obstacle
	textScale  int
	// legend is the agent types' legend line at the bottom (none with one
	// type), printed at legendScale.
	legend      []scene.LegendEntry
	legendScale int
}

func newRecorder(d *demo, width, height int) (*recorder, error) {
	r := &recorder{demo: d, canvas: render.NewRaster(width, height), textScale: textScale(width), legend: d.legend()}
	caption := captionHeight(width)
	below := 0
	if r.legend != nil {
		below = caption
		r.legendScale = r.textScale
		if scene.LegendWidth(r.legend, r.legendScale)+8 > width {
			r.legendScale = 1
		}
	}
	r.view = scene.Fit(d.layer.Min, d.layer.Max, width, height-caption-below, viewMargin)
	r.view.OffsetY += float32(caption)
	r.drawBackground()
	var err error
	r.animation, err = render.NewAnimation(scene.Palette(d.layer), frameDelay)
	return r, err
}

// drawBackground draws the navmesh (with the hatching of where only the
// small agents fit, and the legend line) into the kept background.
func (r *recorder) drawBackground() {
	r.canvas.Clear(scene.Background)
	r.demo.drawNavmesh(r.canvas, r.view)
	if r.legend != nil {
		width, height := r.canvas.Size()
		bar := captionHeight(width)
		render.FillRect(r.canvas, 0, float32(height-bar), float32(width), float32(height), scene.TextBackground)
		textHeight := render.GlyphHeight * r.legendScale
		scene.DrawLegend(r.canvas, render.Point{X: 4, Y: float32(height-bar) + float32(float32(bar-textHeight)/2)}, r.legendScale, r.legend)
	}
	r.background = append(r.background[:0], r.canvas.Image().Pix...)
}

// draw renders the scene at tick into the canvas: the navmesh (drawn again
// when the tile cache has changed it, so that carved holes show), the
// obstacles, the agents and the caption.
func (r *recorder) draw(tick int, caption string) {
	if r.demo.refresh() {
		r.drawBackground()
	}
	copy(r.canvas.Image().Pix, r.background)
	r.agents = r.demo.crowd.Agents(r.agents)
	r.obstacles = r.demo.crowd.Obstacles(r.obstacles, -1)
	scene.DrawObstacles(r.canvas, r.view, r.obstacles)
	scene.DrawAgents(r.canvas, r.view, r.demo.layers, r.agents, nil, scene.DefaultOverlays)
	width, _ := r.canvas.Size()
	render.FillRect(r.canvas, 0, 0, float32(width), float32(captionHeight(width)), scene.TextBackground)
	r.canvas.Text(render.Point{X: 4, Y: 2}, caption, r.textScale, scene.TextColor)
}

// caption is the text over a frame: the title when there is room for it.
func (r *recorder) caption(tick int) string {
	stats := r.demo.crowd.Stats()
	text := fmt.Sprintf("t=%4.1fs  %d agents  %d arrivals", float64(tick)/tickRate, stats.Agents, stats.Arrivals)
	if r.demo.crowd.DoorClosed() && fitsCaption("archenav  "+text+"  door shut", r.canvas.Image().Bounds().Dx()) {
		text += "  door shut"
	}
	width, _ := r.canvas.Size()
	if titled := "archenav  " + text; fitsCaption(titled, width) {
		return titled
	}
	return text
}

// fitsCaption reports whether text fits the caption bar of an image this
// wide.
func fitsCaption(text string, width int) bool {
	w, _ := render.TextSize(text)
	return w*textScale(width)+8 <= width
}

func (r *recorder) frame(tick int) error {
	r.draw(tick, r.caption(tick))
	return r.animation.AddFrame(r.canvas.Image())
}

// finalFrame draws the last state for the PNG.
func (r *recorder) finalFrame(tick int) {
	r.draw(tick, r.caption(tick))
}

// writeFile creates path, writes it with write through a buffer and returns
// its size.
func writeFile(path string, write func(io.Writer) error) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	buffered := bufio.NewWriter(f)
	if err := write(buffered); err != nil {
		f.Close()
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	if err := buffered.Flush(); err != nil {
		f.Close()
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	info, err := f.Stat()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return info.Size(), nil
}
