package svg

import (
	"bytes"
	"encoding/xml"
	"flag"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/debugdraw"
)

var update = flag.Bool("update", false, "rewrite the golden files")

var (
	black  = color.NRGBA{0, 0, 0, 255}
	blue   = color.NRGBA{40, 120, 220, 255}
	orange = color.NRGBA{255, 140, 0, 160}
	white  = color.NRGBA{255, 255, 255, 255}
	red    = color.NRGBA{220, 30, 30, 255}
)

// twoFloors is the scene of the raster golden images.
func twoFloors(d debugdraw.Drawer) {
	debugdraw.Quad(d, mgl32.Vec3{0, 0, 0}, mgl32.Vec3{8, 0, 0}, mgl32.Vec3{8, 0, 6}, mgl32.Vec3{0, 0, 6}, blue)
	outline(d, 0, 0, 0, 8, 6, black)
	debugdraw.Quad(d, mgl32.Vec3{4, 2, 1}, mgl32.Vec3{9, 2, 1}, mgl32.Vec3{9, 2, 5}, mgl32.Vec3{4, 2, 5}, orange)
	outline(d, 4, 2, 1, 9, 5, white)
	for _, p := range []mgl32.Vec3{{1, 0, 1}, {6, 0, 3}, {6, 2, 3}} {
		d.Point(p, 4, red)
	}
	debugdraw.Circle(d, mgl32.Vec3{2, 0, 4}, 1.2, 1, white)
}

func outline(d debugdraw.Drawer, x0, y, z0, x1, z1 float32, c color.NRGBA) {
	corners := []mgl32.Vec3{{x0, y, z0}, {x1, y, z0}, {x1, y, z1}, {x0, y, z1}}
	for i := range corners {
		d.Line(corners[i], corners[(i+1)%4], 2, c)
	}
}

var number = regexp.MustCompile(`-?[0-9]+(\.[0-9]+)?`)

// compareGolden checks document against testdata/name: the same text with
// every number within 0.05 (float rounding on another machine may move a
// last digit). With -update it writes the file.
func compareGolden(t *testing.T, name string, document []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, document, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to make the golden files")
	require.Equal(t, number.ReplaceAllString(string(want), "#"), number.ReplaceAllString(string(document), "#"), "%s: the same elements", name)
	wantNumbers, gotNumbers := number.FindAllString(string(want), -1), number.FindAllString(string(document), -1)
	require.Len(t, gotNumbers, len(wantNumbers))
	for i := range wantNumbers {
		w, _ := strconv.ParseFloat(wantNumbers[i], 64)
		g, _ := strconv.ParseFloat(gotNumbers[i], 64)
		require.InDelta(t, w, g, 0.05, "%s: number %d", name, i)
	}
}

func render(t *testing.T, view debugdraw.View, draw func(debugdraw.Drawer)) []byte {
	t.Helper()
	c, err := New(view, Options{Background: color.NRGBA{30, 30, 36, 255}})
	require.NoError(t, err)
	draw(c)
	var buf bytes.Buffer
	n, err := c.WriteTo(&buf)
	require.NoError(t, err)
	assert.Equal(t, int64(buf.Len()), n)
	return buf.Bytes()
}

func TestGoldenDocuments(t *testing.T) {
	bmin, bmax := mgl32.Vec3{0, 0, 0}, mgl32.Vec3{9, 2, 6}
	for name, view := range map[string]debugdraw.View{
		"top.svg": debugdraw.TopView(bmin, bmax, 96, 64, 4),
		"iso.svg": debugdraw.IsoView(bmin, bmax, 96, 64, 4),
	} {
		t.Run(name, func(t *testing.T) {
			doc := render(t, view, twoFloors)
			var parsed struct {
				XMLName xml.Name
				Paths   []struct {
					D string `xml:"d,attr"`
				} `xml:"path"`
			}
			require.NoError(t, xml.Unmarshal(doc, &parsed), "well-formed XML")
			assert.Equal(t, "svg", parsed.XMLName.Local)
			compareGolden(t, name, doc)
		})
	}
}

// elements returns the d attribute and fill or stroke colour of each path
// in doc, in order.
func elements(t *testing.T, doc []byte) (paths []string, colours []string) {
	t.Helper()
	decoder := xml.NewDecoder(bytes.NewReader(doc))
	for {
		token, err := decoder.Token()
		if err == io.EOF {
			return paths, colours
		}
		require.NoError(t, err)
		start, ok := token.(xml.StartElement)
		if !ok || start.Name.Local != "path" {
			continue
		}
		var d, col string
		for _, a := range start.Attr {
			switch a.Name.Local {
			case "d":
				d = a.Value
			case "fill":
				if a.Value != "none" {
					col = a.Value
				}
			case "stroke":
				col = a.Value
			}
		}
		paths, colours = append(paths, d), append(colours, col)
	}
}

func TestFarthestFirstAndMerging(t *testing.T) {
	view := debugdraw.TopView(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{10, 5, 10}, 100, 100, 0)
	doc := render(t, view, func(d debugdraw.Drawer) {
		// Near (high) first, then two far (low) triangles of one colour,
		// then a line on the far floor.
		d.Triangle(mgl32.Vec3{0, 5, 0}, mgl32.Vec3{5, 5, 0}, mgl32.Vec3{0, 5, 5}, red)
		d.Triangle(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{10, 0, 0}, mgl32.Vec3{0, 0, 10}, blue)
		d.Triangle(mgl32.Vec3{10, 0, 0}, mgl32.Vec3{10, 0, 10}, mgl32.Vec3{0, 0, 10}, blue)
		d.Line(mgl32.Vec3{0, 0, 9}, mgl32.Vec3{10, 0, 9}, 2, black)
	})
	paths, colours := elements(t, doc)
	assert.Equal(t, []string{"#2878dc", "#000000", "#dc1e1e"}, colours, "low floor, its line, then the high triangle")
	assert.Equal(t, 2, strings.Count(paths[0], "M"), "the two blue triangles in one path")
}

func TestWindingIsMadeClockwise(t *testing.T) {
	view := debugdraw.TopView(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{10, 0, 10}, 100, 100, 0)
	doc := render(t, view, func(d debugdraw.Drawer) {
		d.Triangle(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{10, 0, 0}, mgl32.Vec3{0, 0, 10}, blue)
		d.Triangle(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{0, 0, 10}, mgl32.Vec3{10, 0, 0}, blue)
	})
	paths, _ := elements(t, doc)
	require.Len(t, paths, 1)
	subpaths := strings.Split(paths[0], " M")
	require.Len(t, subpaths, 2)
	assert.Equal(t, strings.TrimPrefix(subpaths[0], "M"), subpaths[1], "both written the same way round")
}

func TestDropsWhatItCannotDraw(t *testing.T) {
	view := debugdraw.TopView(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{10, 0, 10}, 100, 100, 0)
	c, err := New(view, Options{})
	require.NoError(t, err)
	nan := float32(math.NaN())
	c.Triangle(mgl32.Vec3{nan, 0, 0}, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 0, 1}, blue)
	c.Line(mgl32.Vec3{0, float32(math.Inf(1)), 0}, mgl32.Vec3{1, 0, 0}, 1, blue)
	c.Point(mgl32.Vec3{0, 0, 0}, 2, color.NRGBA{}) // invisible: not kept, not dropped
	c.Point(mgl32.Vec3{0, 0, 0}, nan, blue)        // size becomes 1
	assert.Equal(t, 2, c.Dropped())
	assert.Equal(t, 1, c.Len())
	var buf bytes.Buffer
	_, err = c.WriteTo(&buf)
	require.NoError(t, err)
	assert.Contains(t, buf.String(), `stroke-width="1"`)
	assert.NotContains(t, buf.String(), "<rect", "no background by default")
	c.Reset()
	assert.Zero(t, c.Len())
	assert.Zero(t, c.Dropped())
	assert.Equal(t, view, c.View())

	_, err = New(view, Options{DepthBias: -1})
	assert.Error(t, err)
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

func TestWriteErrorsAreReported(t *testing.T) {
	c, err := New(debugdraw.TopView(mgl32.Vec3{}, mgl32.Vec3{1, 1, 1}, 10, 10, 0), Options{})
	require.NoError(t, err)
	twoFloors(c)
	_, err = c.WriteTo(failingWriter{})
	assert.ErrorIs(t, err, io.ErrClosedPipe)
}
