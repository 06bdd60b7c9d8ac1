// Command crowdtable makes the README's navtool crowd table in one run: for
// each crowd size it runs `navtool crowd` on the same seeded random starts
// and targets in default mode on one and two workers, with -reference, and
// (given the harness) the C++ crowd of plugin/testdata/reference/
// crowdbench.cpp on the agents navtool wrote (-write-scenario), and prints
// the Markdown table
// with a header saying when, where and under what load it ran.
//
//	go build -o /tmp/navtool ./cmd/navtool
//	go run ./benchmarks/cmd/crowdtable -navtool /tmp/navtool [-crowdbench path/to/crowdbench]
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "crowdtable:", err)
		os.Exit(1)
	}
}

// report is the part of navtool crowd's -json report the table shows.
type report struct {
	MsPerTick struct {
		Mean float64 `json:"mean"`
	} `json:"msPerTick"`
	Reached           int `json:"reached"`
	StuckAgents       int `json:"stuckAgents"`
	OffMeshViolations int `json:"offMeshViolations"`
}

// row holds the runs of one crowd size; nil for runs not made.
type row struct {
	agents                   int
	cppMs                    float64
	cppReached               int
	cpp                      bool
	reference, single, multi *report
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("crowdtable", flag.ContinueOnError)
	navtool := fs.String("navtool", "", "the navtool `binary` (required)")
	crowdbench := fs.String("crowdbench", "", "the C++ harness `binary` built from plugin/testdata/reference/crowdbench.cpp (optional)")
	mesh := fs.String("navmesh", "testdata/navmesh_solo_dungeon.bin", "the DNAV tile `file` (the C++ harness reads DNAV only)")
	sizes := fs.String("agents", "100,500,1000,2000,5000,10000", "crowd sizes")
	referenceMax := fs.Int("reference-max", 2000, "largest crowd run with -reference and in C++")
	ticks := fs.Int("ticks", 600, "ticks per run")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *navtool == "" {
		return errors.New("-navtool is required")
	}
	dir, err := os.MkdirTemp("", "crowdtable")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	started := time.Now()
	loadBefore := loadAverage()
	var rows []row
	for _, field := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil || n <= 0 {
			return fmt.Errorf("-agents: %q is not a crowd size", field)
		}
		r := row{agents: n}
		scenario := filepath.Join(dir, fmt.Sprintf("scenario_%d.csv", n))
		trips := filepath.Join(dir, fmt.Sprintf("trips_%d.txt", n))
		crowd := func(extra ...string) (*report, error) {
			args := append([]string{"crowd", "-navmesh", *mesh, "-agents", strconv.Itoa(n), "-seed", "1", "-ticks", strconv.Itoa(*ticks), "-json"}, extra...)
			out, err := exec.Command(*navtool, args...).Output()
			if err != nil {
				return nil, fmt.Errorf("navtool %s: %w", strings.Join(args, " "), err)
			}
			var rep report
			if err := json.Unmarshal(out, &rep); err != nil {
				return nil, fmt.Errorf("navtool %s: %w", strings.Join(args, " "), err)
			}
			return &rep, nil
		}
		if r.single, err = crowd("-write-scenario", scenario); err != nil {
			return err
		}
		if r.multi, err = crowd("-workers", "2"); err != nil {
			return err
		}
		if n <= *referenceMax {
			if r.reference, err = crowd("-reference"); err != nil {
				return err
			}
			if *crowdbench != "" {
				if err := scenarioToTrips(scenario, trips); err != nil {
					return err
				}
				out, err := exec.Command(*crowdbench, *mesh, trips, strconv.Itoa(*ticks)).Output()
				if err != nil {
					return fmt.Errorf("crowdbench: %w", err)
				}
				if r.cppMs, r.cppReached, err = parseCrowdbench(out); err != nil {
					return err
				}
				r.cpp = true
			}
		}
		rows = append(rows, r)
		fmt.Fprintf(os.Stderr, "%d agents done after %.0f s\n", n, time.Since(started).Seconds())
	}

	fmt.Fprintf(stdout, "Run of %s (%s, %s, %d CPUs, load average %s before, %s after, %.0f s): `go run ./benchmarks/cmd/crowdtable`, %d ticks, seed 1, on %s.\n\n",
		started.UTC().Format("2006-01-02 15:04 UTC"), runtime.Version(), cpuName(), runtime.NumCPU(), loadBefore, loadAverage(),
		time.Since(started).Seconds(), *ticks, filepath.Base(*mesh))
	fmt.Fprintln(stdout, "| agents | C++ ms | `-reference` ms | default ms | default, 2 workers ms | reached C++ / reference / default | stuck reference / default | off-mesh agent-ticks reference / default |")
	fmt.Fprintln(stdout, "|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		cppMs, cppReached := "", "-"
		if r.cpp {
			cppMs, cppReached = fmt.Sprintf("%.2f", r.cppMs), strconv.Itoa(r.cppReached)
		}
		refMs, refReached, refStuck, refOff := "", "-", "-", "-"
		if r.reference != nil {
			refMs = fmt.Sprintf("%.2f", r.reference.MsPerTick.Mean)
			refReached, refStuck, refOff = strconv.Itoa(r.reference.Reached), strconv.Itoa(r.reference.StuckAgents), strconv.Itoa(r.reference.OffMeshViolations)
		}
		fmt.Fprintf(stdout, "| %d | %s | %s | %.2f | %.2f | %s / %s / %d | %s / %d | %s / %d |\n",
			r.agents, cppMs, refMs, r.single.MsPerTick.Mean, r.multi.MsPerTick.Mean,
			cppReached, refReached, r.single.Reached, refStuck, r.single.StuckAgents, refOff, r.single.OffMeshViolations)
	}
	return nil
}

// scenarioToTrips rewrites a navtool crowd scenario (a CSV headed
// sx,sy,sz,tx,ty,tz, as -write-scenario writes it) as crowdbench's input:
// one agent a line, the six values apart by spaces.
func scenarioToTrips(scenario, trips string) error {
	text, err := os.ReadFile(scenario)
	if err != nil {
		return err
	}
	lines := strings.Split(strings.TrimSpace(string(text)), "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "sx,sy,sz,tx,ty,tz" {
		return fmt.Errorf("%s: not a scenario headed sx,sy,sz,tx,ty,tz", scenario)
	}
	var out strings.Builder
	for _, line := range lines[1:] {
		fields := strings.Split(strings.TrimSpace(line), ",")
		if len(fields) != 6 {
			return fmt.Errorf("%s: %q is not six values", scenario, line)
		}
		out.WriteString(strings.Join(fields, " "))
		out.WriteByte('\n')
	}
	return os.WriteFile(trips, []byte(out.String()), 0o644)
}

// parseCrowdbench reads crowdbench's "agents N ticks T cpu C mean M ...
// reached R" line.
func parseCrowdbench(out []byte) (mean float64, reached int, err error) {
	fields := strings.Fields(string(bytes.TrimSpace(out)))
	values := map[string]string{}
	for i := 0; i+1 < len(fields); i += 2 {
		values[fields[i]] = fields[i+1]
	}
	if mean, err = strconv.ParseFloat(values["mean"], 64); err != nil {
		return 0, 0, fmt.Errorf("crowdbench output %q: %w", out, err)
	}
	if reached, err = strconv.Atoi(values["reached"]); err != nil {
		return 0, 0, fmt.Errorf("crowdbench output %q: %w", out, err)
	}
	return mean, reached, nil
}

// loadAverage returns the 1, 5 and 15 minute load averages, "?" off Linux.
func loadAverage() string {
	text, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	fields := strings.Fields(string(text))
	if len(fields) < 3 {
		return "?"
	}
	return strings.Join(fields[:3], " ")
}

// cpuName returns the CPU's model name, "?" off Linux.
func cpuName() string {
	text, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "?"
	}
	for _, line := range strings.Split(string(text), "\n") {
		if name, ok := strings.CutPrefix(line, "model name"); ok {
			return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), ":"))
		}
	}
	return "?"
}
