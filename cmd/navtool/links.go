package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/archenav/archenav/navcore/navmesh"
)

// The runtime links of -links (navtool query, navtool crowd): a CSV whose
// header names the columns sx,sy,sz,ex,ey,ez (the ends), radius and
// bidirectional (1/0 or true/false), and optionally width, area, flags
// (default 1, walkable ground's) and cost; one link per row, added to the
// loaded navmesh before anything else runs (navmesh.Mesh.AddLink).

// maxLinkRows bounds the rows of a -links file.
const maxLinkRows = 1 << 20

// linkColumns are the required columns, then the optional ones.
var (
	linkColumns         = []string{"sx", "sy", "sz", "ex", "ey", "ez", "radius", "bidirectional"}
	optionalLinkColumns = []string{"width", "area", "flags", "cost"}
)

// readLinks reads the links of a -links CSV.
func readLinks(r io.Reader) ([]navmesh.LinkDesc, error) {
	reader := csv.NewReader(r)
	reader.FieldsPerRecord = -1
	header, err := reader.Read()
	if err != nil {
		return nil, fmt.Errorf("read header: %w", err)
	}
	column := func(name string) int {
		for j, h := range header {
			if strings.TrimSpace(h) == name {
				return j
			}
		}
		return -1
	}
	cols := make(map[string]int, len(linkColumns)+len(optionalLinkColumns))
	for _, name := range linkColumns {
		if cols[name] = column(name); cols[name] < 0 {
			return nil, fmt.Errorf("header has no %q column (want %s, optionally %s)", name,
				strings.Join(linkColumns, ","), strings.Join(optionalLinkColumns, ","))
		}
	}
	for _, name := range optionalLinkColumns {
		cols[name] = column(name)
	}
	var links []navmesh.LinkDesc
	for line := 2; ; line++ {
		record, err := reader.Read()
		if err == io.EOF {
			return links, nil
		}
		if err != nil {
			return nil, err
		}
		if len(links) == maxLinkRows {
			return nil, fmt.Errorf("more than %d links", maxLinkRows)
		}
		link, err := parseLinkRow(record, cols)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		links = append(links, link)
	}
}

// parseLinkRow reads one link of a -links CSV.
func parseLinkRow(record []string, cols map[string]int) (navmesh.LinkDesc, error) {
	field := func(name string) (string, bool) {
		j := cols[name]
		if j < 0 || j >= len(record) {
			return "", false
		}
		return strings.TrimSpace(record[j]), true
	}
	// number reads a float column; an optional one may be absent or
	// empty (0).
	number := func(name string, required bool) (float32, error) {
		s, ok := field(name)
		if !ok || s == "" {
			if required {
				return 0, fmt.Errorf("no %s value", name)
			}
			return 0, nil
		}
		f, err := strconv.ParseFloat(s, 32)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", name, err)
		}
		return float32(f), nil
	}
	var v [7]float32
	for i, name := range linkColumns[:7] {
		f, err := number(name, true)
		if err != nil {
			return navmesh.LinkDesc{}, err
		}
		v[i] = f
	}
	link := navmesh.LinkDesc{Start: [3]float32{v[0], v[1], v[2]}, End: [3]float32{v[3], v[4], v[5]}, Radius: v[6], Flags: 1}
	s, ok := field("bidirectional")
	if !ok || s == "" {
		return link, errors.New("no bidirectional value")
	}
	bidir, err := strconv.ParseBool(s)
	if err != nil {
		return link, fmt.Errorf("bidirectional %q: want 1, 0, true or false", s)
	}
	link.Bidirectional = bidir
	if link.Width, err = number("width", false); err != nil {
		return link, err
	}
	if link.Cost, err = number("cost", false); err != nil {
		return link, err
	}
	if s, ok := field("area"); ok && s != "" {
		area, err := strconv.ParseUint(s, 0, 8)
		if err != nil {
			return link, fmt.Errorf("area: %w", err)
		}
		link.Area = uint8(area)
	}
	if s, ok := field("flags"); ok && s != "" {
		flags, err := strconv.ParseUint(s, 0, 16)
		if err != nil {
			return link, fmt.Errorf("flags: %w", err)
		}
		link.Flags = uint16(flags)
	}
	return link, nil
}

// addLinksFile adds the links of the -links file path to each mesh.
func addLinksFile(path string, meshes ...*navmesh.Mesh) error {
	if path == "" {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	links, err := readLinks(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for _, mesh := range meshes {
		for i, link := range links {
			if _, err := mesh.AddLink(link); err != nil {
				return fmt.Errorf("%s: line %d: %w", path, i+2, err)
			}
		}
	}
	return nil
}
