package bake

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadOBJMatchesRecastDemo checks that the three test meshes load into
// exactly the vertices and triangles RecastDemo's loader produced (FNV-1a 64
// over the float32 coordinates and the int32 indices).
func TestReadOBJMatchesRecastDemo(t *testing.T) {
	for _, ref := range referenceBakes {
		t.Run(ref.mesh, func(t *testing.T) {
			g := loadTestMesh(t, ref.mesh)
			require.Len(t, g.Vertices, ref.vertices)
			require.Len(t, g.Triangles, ref.triangles)
			assert.Equal(t, ref.verticesHash, hashVertices(g.Vertices))
			h := fnv.New64a()
			for _, tri := range g.Triangles {
				for _, i := range tri {
					h.Write([]byte{byte(i), byte(i >> 8), byte(i >> 16), byte(i >> 24)})
				}
			}
			assert.Equal(t, ref.trianglesHash, h.Sum64())
			assert.Nil(t, g.Areas)
			assert.NoError(t, g.Validate())
		})
	}
}

func TestReadOBJ(t *testing.T) {
	quad := []mgl32.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}}
	tests := []struct {
		name      string
		input     string
		vertices  []mgl32.Vec3
		triangles [][3]int32
	}{
		{
			"triangle",
			"v 0 0 0\nv 1 0 0\nv 1 0 1\nf 1 2 3\n",
			quad[:3], [][3]int32{{0, 1, 2}},
		},
		{
			"quad fans from the first corner",
			"v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 2 3 4\n",
			quad, [][3]int32{{0, 1, 2}, {0, 2, 3}},
		},
		{
			"pentagon",
			"v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nv -1 0 0.5\nf 5 4 3 2 1\n",
			append(append([]mgl32.Vec3{}, quad...), mgl32.Vec3{-1, 0, 0.5}), [][3]int32{{4, 3, 2}, {4, 2, 1}, {4, 1, 0}},
		},
		{
			"negative indices count back from the last vertex",
			"v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf -4 -3 -2 -1\n",
			quad, [][3]int32{{0, 1, 2}, {0, 2, 3}},
		},
		{
			"texture and normal indices are ignored",
			"v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nvt 0 0\nvn 0 1 0\nf 1/1/1 2/1/1 3//1 4/1\n",
			quad, [][3]int32{{0, 1, 2}, {0, 2, 3}},
		},
		{
			"comments, blank lines, CRLF, tabs and other statements",
			"# a comment\r\n\r\nmtllib x.mtl\r\no thing\r\n\tv 0 0 0 # corner\r\nv 1 0 0\r\nv\t1 0 1 1.0\r\ng group\r\nusemtl stone\r\ns off\r\nf 1 2 3\r\n   \r\n",
			quad[:3], [][3]int32{{0, 1, 2}},
		},
		{
			"line continuations",
			"v 0 0 \\\n 0\nv 1 0 0\nv 1 0 1\nf 1 \\\r\n2 3",
			quad[:3], [][3]int32{{0, 1, 2}},
		},
		{
			"no final line end",
			"v 0 0 0\nv 1 0 0\nv 1 0 1\nf 1 2 3",
			quad[:3], [][3]int32{{0, 1, 2}},
		},
		{
			"number formats",
			"v 1e-3 -2.5E2 +0.125\n",
			[]mgl32.Vec3{{0.001, -250, 0.125}}, nil,
		},
		{"empty", "", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := ReadOBJ(strings.NewReader(tt.input))
			require.NoError(t, err)
			assert.Equal(t, tt.vertices, g.Vertices)
			assert.Equal(t, tt.triangles, g.Triangles)
		})
	}
}

func TestReadOBJErrors(t *testing.T) {
	tests := []struct {
		name  string
		input string
		line  int
		want  string
	}{
		{"too few coordinates", "v 0 0 0\nv 1 2\n", 2, "2 coordinates"},
		{"bad coordinate", "v 0 0 zero\n", 1, `"zero"`},
		{"NaN coordinate", "v 0 nan 0\n", 1, "not a finite"},
		{"infinite coordinate", "v 0 0 inf\n", 1, "not a finite"},
		{"coordinate overflows float32", "v 0 0 1e39\n", 1, "not a finite"},
		{"face with two corners", "v 0 0 0\nv 1 0 0\nf 1 2\n", 3, "2 corners"},
		{"index zero", "v 0 0 0\nv 1 0 0\nv 1 0 1\nf 0 1 2\n", 4, "corner 0"},
		{"index past the vertices read so far", "v 0 0 0\nv 1 0 0\nf 1 2 3\nv 1 0 1\n", 3, "corner 3"},
		{"negative index too far back", "v 0 0 0\nv 1 0 0\nv 1 0 1\nf -1 -2 -4\n", 4, "corner -4"},
		{"index not a number", "v 0 0 0\nv 1 0 0\nv 1 0 1\nf 1 2 x\n", 4, `"x"`},
		{"fractional index", "v 0 0 0\nv 1 0 0\nv 1 0 1\nf 1 2 3.0\n", 4, `"3.0"`},
		{"empty index", "v 0 0 0\nv 1 0 0\nv 1 0 1\nf 1 2 /3\n", 4, `""`},
		{"line numbers count CRLF lines", "\r\n# c\r\nv 0 0\r\n", 3, "2 coordinates"},
		{"line number of a continued line is its first", "v 0 0 0\nv 1 \\\n 2\n", 2, "2 coordinates"},
		{"line too long", "v 0 0 0 " + strings.Repeat("1 ", MaxOBJLineLength) + "\n", 1, "too long"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := ReadOBJ(strings.NewReader(tt.input))
			require.Error(t, err)
			assert.Nil(t, g, "no half-read geometry")
			var objErr *OBJError
			require.ErrorAs(t, err, &objErr)
			assert.Equal(t, tt.line, objErr.Line)
			assert.Contains(t, err.Error(), tt.want)
			assert.Contains(t, err.Error(), fmt.Sprintf("line %d", tt.line))
		})
	}
}

type failingReader struct{ data io.Reader }

func (r failingReader) Read(p []byte) (int, error) {
	n, err := r.data.Read(p)
	if err == io.EOF {
		return n, errors.New("disk on fire")
	}
	return n, err
}

func TestReadOBJReaderError(t *testing.T) {
	g, err := ReadOBJ(failingReader{strings.NewReader("v 0 0 0\nv 1 0 0\n")})
	assert.Nil(t, g)
	assert.ErrorContains(t, err, "disk on fire")
}

func TestLoadOBJMissingFile(t *testing.T) {
	_, err := LoadOBJ("../testdata/no_such_mesh.obj")
	assert.ErrorContains(t, err, "no_such_mesh.obj")
}

// writeOBJ writes g as an OBJ file with exact float32 coordinates.
func writeOBJ(g *Geometry) []byte {
	var b bytes.Buffer
	for _, v := range g.Vertices {
		b.WriteString("v")
		for _, c := range v {
			b.WriteByte(' ')
			b.WriteString(strconv.FormatFloat(float64(c), 'g', -1, 32))
		}
		b.WriteByte('\n')
	}
	for _, t := range g.Triangles {
		fmt.Fprintf(&b, "f %d %d %d\n", t[0]+1, t[1]+1, t[2]+1)
	}
	return b.Bytes()
}

// FuzzReadOBJ feeds arbitrary bytes to ReadOBJ: it must never panic, and what
// it accepts must be well formed and survive a write/read round trip.
func FuzzReadOBJ(f *testing.F) {
	f.Add([]byte("v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 2 3 4\n"))
	f.Add([]byte("v 0 0 0\r\nv 1 0 0\r\nv 1 0 1\r\nf -3/1/1 -2//2 -1/3\r\n"))
	f.Add([]byte("# c\nv 1e3 -2 0.5 1\nv 0 \\\n0 0\nvn 0 1 0\nf 1 2 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ReadOBJ(bytes.NewReader(data))
		if err != nil {
			var objErr *OBJError
			if !errors.As(err, &objErr) {
				t.Fatalf("error %v is not an *OBJError", err)
			}
			if objErr.Line < 1 || objErr.Line > bytes.Count(data, []byte{'\n'})+1 {
				t.Fatalf("error line %d outside the input", objErr.Line)
			}
			return
		}
		for i, v := range g.Vertices {
			for _, c := range v {
				if math.IsNaN(float64(c)) || math.IsInf(float64(c), 0) {
					t.Fatalf("vertex %d %v not finite", i, v)
				}
			}
		}
		if err := validateTriangles(len(g.Vertices), g.Triangles); err != nil {
			t.Fatal(err)
		}
		again, err := ReadOBJ(bytes.NewReader(writeOBJ(g)))
		if err != nil {
			t.Fatalf("round trip: %v", err)
		}
		if len(g.Vertices) > 0 && !assert.ObjectsAreEqual(g.Vertices, again.Vertices) ||
			len(g.Triangles) > 0 && !assert.ObjectsAreEqual(g.Triangles, again.Triangles) {
			t.Fatal("round trip changed the geometry")
		}
	})
}

func BenchmarkReadOBJ(b *testing.B) {
	for _, mesh := range benchmarkMeshes {
		b.Run(mesh, func(b *testing.B) {
			data, err := os.ReadFile("../testdata/" + mesh + ".obj")
			require.NoError(b, err)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := ReadOBJ(bytes.NewReader(data)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
