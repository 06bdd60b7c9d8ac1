package bake

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"

	"github.com/go-gl/mathgl/mgl32"
)

// MaxOBJLineLength is the longest line, in bytes, ReadOBJ accepts.
const MaxOBJLineLength = 1 << 20

// OBJError reports a malformed line of a Wavefront OBJ stream.
type OBJError struct {
	// Line is the 1-based line number.
	Line int
	// Err says what is wrong with it.
	Err error
}

// Error returns the message with its line number.
func (e *OBJError) Error() string { return fmt.Sprintf("bake: obj line %d: %v", e.Line, e.Err) }

// Unwrap returns the underlying error.
func (e *OBJError) Unwrap() error { return e.Err }

// LoadOBJ reads the Wavefront OBJ file at path; see ReadOBJ.
func LoadOBJ(path string) (*Geometry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("bake: load obj: %w", err)
	}
	defer f.Close()
	g, err := ReadOBJ(f)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, path)
	}
	return g, nil
}

// ReadOBJ reads the vertices and faces of a Wavefront OBJ stream in one pass
// and returns them as a Geometry (without areas, volumes or connections).
//
// It reads "v x y z" lines (extra values such as w or a colour are ignored)
// and "f" lines whose corners are "i", "i/t", "i//n" or "i/t/n" with 1-based
// or negative (relative to the last vertex read) indices. A polygon with n
// corners becomes n-2 triangles fanned from its first corner, (c0, c[i-1],
// c[i]), which is exactly what RecastDemo's loader produces, so bakes match.
// Comments (#), blank lines, CRLF line ends, "\" line continuations and all
// other statements (vt, vn, g, o, usemtl, ...) are accepted and skipped.
//
// A malformed v or f line — too few values, a number that does not parse or
// is not finite, an index of 0 or outside the vertices read so far, fewer
// than three corners — fails the whole read with an *OBJError naming the
// line; no partial Geometry is returned. (RecastDemo silently skips such
// faces, reads garbage vertices, and cuts faces after 32 corners.)
func ReadOBJ(r io.Reader) (*Geometry, error) {
	lines := lineReader{reader: bufio.NewReaderSize(r, 64<<10)}
	g := &Geometry{}
	var corners []int32
	var fields [][]byte
	for {
		line, number, err := lines.next()
		if err == io.EOF {
			return g, nil
		}
		if err != nil {
			return nil, err
		}
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		fields = splitFields(fields[:0], line)
		if len(fields) == 0 {
			continue
		}
		switch string(fields[0]) {
		case "v":
			v, err := parseVertex(fields[1:])
			if err != nil {
				return nil, &OBJError{Line: number, Err: err}
			}
			g.Vertices = append(g.Vertices, v)
			g.VertexLines = append(g.VertexLines, int32(min(number, math.MaxInt32)))
		case "f":
			corners, err = parseFace(corners[:0], fields[1:], len(g.Vertices))
			if err != nil {
				return nil, &OBJError{Line: number, Err: err}
			}
			for i := 2; i < len(corners); i++ {
				g.Triangles = append(g.Triangles, [3]int32{corners[0], corners[i-1], corners[i]})
			}
		}
	}
}

// parseVertex parses the coordinates of a "v" statement.
func parseVertex(fields [][]byte) (mgl32.Vec3, error) {
	var v mgl32.Vec3
	if len(fields) < 3 {
		return v, fmt.Errorf("vertex has %d coordinates, want 3", len(fields))
	}
	for i := range 3 {
		f, err := strconv.ParseFloat(string(fields[i]), 32)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return v, fmt.Errorf("vertex coordinate %q is not a finite float32", fields[i])
		}
		v[i] = float32(f)
	}
	return v, nil
}

// parseFace appends the 0-based vertex index of each corner of an "f"
// statement to corners; vertexCount is the number of vertices read so far.
func parseFace(corners []int32, fields [][]byte, vertexCount int) ([]int32, error) {
	if len(fields) < 3 {
		return corners, fmt.Errorf("face has %d corners, want at least 3", len(fields))
	}
	for _, field := range fields {
		if i := bytes.IndexByte(field, '/'); i >= 0 {
			field = field[:i]
		}
		index, err := strconv.ParseInt(string(field), 10, 64)
		if err != nil {
			return corners, fmt.Errorf("face corner %q is not a vertex index", field)
		}
		resolved := index - 1
		if index < 0 {
			resolved = index + int64(vertexCount)
		}
		if index == 0 || resolved < 0 || resolved >= int64(vertexCount) {
			return corners, fmt.Errorf("face corner %d does not name one of the %d vertices read so far", index, vertexCount)
		}
		corners = append(corners, int32(resolved))
	}
	return corners, nil
}

// splitFields appends the blank-separated fields of line to fields.
func splitFields(fields [][]byte, line []byte) [][]byte {
	start := -1
	for i, c := range line {
		if isBlank(c) {
			if start >= 0 {
				fields = append(fields, line[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		fields = append(fields, line[start:])
	}
	return fields
}

func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

// lineReader yields the logical lines of an OBJ stream: without the line
// end, with "\"-continued physical lines joined, numbered from 1.
type lineReader struct {
	reader *bufio.Reader
	joined []byte
	line   int
}

// next returns the next logical line and the number of its first physical
// line; the slice is valid until the following call. It returns io.EOF after
// the last line.
func (lr *lineReader) next() ([]byte, int, error) {
	lr.joined = lr.joined[:0]
	first := lr.line + 1
	for {
		physical, err := lr.readPhysical()
		if err != nil {
			if err == io.EOF && len(lr.joined) > 0 {
				return lr.joined, first, nil // continuation at end of stream
			}
			return nil, first, err
		}
		trimmed := bytes.TrimRight(physical, " \t\r\v\f")
		if len(trimmed) == 0 || trimmed[len(trimmed)-1] != '\\' {
			if len(lr.joined) == 0 {
				return physical, first, nil
			}
			lr.joined = append(lr.joined, physical...)
			return lr.joined, first, nil
		}
		lr.joined = append(lr.joined, trimmed[:len(trimmed)-1]...)
		lr.joined = append(lr.joined, ' ')
		if len(lr.joined) > MaxOBJLineLength {
			return nil, first, &OBJError{Line: first, Err: errors.New("line too long")}
		}
	}
}

// readPhysical returns the next physical line without its '\n'.
func (lr *lineReader) readPhysical() ([]byte, error) {
	lr.line++
	chunk, err := lr.reader.ReadSlice('\n')
	if err == nil {
		return chunk[:len(chunk)-1], nil
	}
	if err == io.EOF {
		if len(chunk) == 0 {
			return nil, io.EOF
		}
		return chunk, nil
	}
	if err != bufio.ErrBufferFull {
		return nil, fmt.Errorf("bake: obj line %d: %w", lr.line, err)
	}
	long := append([]byte(nil), chunk...)
	for err == bufio.ErrBufferFull {
		if len(long) > MaxOBJLineLength {
			return nil, &OBJError{Line: lr.line, Err: errors.New("line too long")}
		}
		chunk, err = lr.reader.ReadSlice('\n')
		long = append(long, chunk...)
	}
	switch {
	case err == nil:
		return long[:len(long)-1], nil
	case err == io.EOF:
		return long, nil
	default:
		return nil, fmt.Errorf("bake: obj line %d: %w", lr.line, err)
	}
}
