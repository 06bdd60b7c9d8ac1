package main

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// result is one line of `go test -bench` output: the iteration count and
// every value by unit ("ns/op", "allocs/op", "p99-ms"...).
type result struct {
	iterations int
	values     map[string]float64
}

// results holds every line read, by benchmark name without the GOMAXPROCS
// suffix, in the order read.
type results map[string][]result

// benchLine matches a result line: name, optional -GOMAXPROCS, iterations,
// then value/unit pairs.
var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+(\d+)\s+(.+)$`)

// parse reads `go test -bench` output; lines that are not results are
// skipped.
func parse(r io.Reader, into results) error {
	scanner := bufio.NewScanner(r)
	scanner.Buffer(make([]byte, 64<<10), 1<<20)
	for line := 1; scanner.Scan(); line++ {
		m := benchLine.FindStringSubmatch(scanner.Text())
		if m == nil {
			continue
		}
		n, err := strconv.Atoi(m[2])
		if err != nil {
			return fmt.Errorf("line %d: iterations: %w", line, err)
		}
		fields := strings.Fields(m[3])
		if len(fields)%2 != 0 {
			return fmt.Errorf("line %d: odd number of value/unit fields", line)
		}
		res := result{iterations: n, values: map[string]float64{}}
		for i := 0; i < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				return fmt.Errorf("line %d: value %q: %w", line, fields[i], err)
			}
			res.values[fields[i+1]] = v
		}
		into[m[1]] = append(into[m[1]], res)
	}
	return scanner.Err()
}

// best returns the run of name with the lowest ns/op (the C++ figures are
// best-of-N too), and whether there was one.
func (rs results) best(name string) (result, bool) {
	runs := rs[name]
	if len(runs) == 0 {
		return result{}, false
	}
	b := runs[0]
	for _, r := range runs[1:] {
		if r.values["ns/op"] < b.values["ns/op"] {
			b = r
		}
	}
	return b, true
}

// value returns unit's value in the best run of name.
func (rs results) value(name, unit string) (float64, bool) {
	r, ok := rs.best(name)
	if !ok {
		return 0, false
	}
	v, ok := r.values[unit]
	return v, ok
}
