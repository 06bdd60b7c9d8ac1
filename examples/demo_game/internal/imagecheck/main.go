// Command imagecheck tells whether a PNG (a screenshot of the demo's window)
// shows something: it fails unless the image has at least -min-size pixels
// on each side and at least -min-colors distinct colors, none of which covers
// more than -max-share of it.
//
//	go run ./examples/demo_game/internal/imagecheck -min-colors 16 shot.png
package main

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	_ "image/png"
	"io"
	"os"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "imagecheck:", err)
		}
		os.Exit(1)
	}
}

// limits are what an image must meet.
type limits struct {
	minSize   int
	minColors int
	maxShare  float64
}

func run(args []string, stdout, stderr io.Writer) error {
	var l limits
	fs := flag.NewFlagSet("imagecheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&l.minSize, "min-size", 64, "smallest width and height [pixels]")
	fs.IntVar(&l.minColors, "min-colors", 8, "fewest distinct colors")
	fs.Float64Var(&l.maxShare, "max-share", 0.95, "largest share of the pixels one color may cover")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("want one PNG file")
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	summary, err := check(img, l)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	fmt.Fprintf(stdout, "%s: %s\n", fs.Arg(0), summary)
	return nil
}

// check measures img against l and describes it.
func check(img image.Image, l limits) (string, error) {
	b := img.Bounds()
	if b.Dx() < l.minSize || b.Dy() < l.minSize {
		return "", fmt.Errorf("image is %dx%d, want at least %dx%d", b.Dx(), b.Dy(), l.minSize, l.minSize)
	}
	counts := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			counts[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	most := 0
	for _, n := range counts {
		most = max(most, n)
	}
	share := float64(most) / float64(b.Dx()*b.Dy())
	summary := fmt.Sprintf("%dx%d, %d colors, the commonest on %.0f%% of the pixels", b.Dx(), b.Dy(), len(counts), 100*share)
	switch {
	case len(counts) < l.minColors:
		return summary, fmt.Errorf("blank: %s (want at least %d colors)", summary, l.minColors)
	case share > l.maxShare:
		return summary, fmt.Errorf("blank: %s (want at most %.0f%%)", summary, 100*l.maxShare)
	}
	return summary, nil
}
