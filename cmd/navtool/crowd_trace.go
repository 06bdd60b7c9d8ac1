package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
)

// crowdTraceEvery is the tick spacing of a crowd trace: it records tick 0
// and every tick t with (t+1) % crowdTraceEvery == 0, as the recorded C++
// traces of plugin/testdata/reference do.
const crowdTraceEvery = 30

// crowdTraceTick reports whether a trace records tick.
func crowdTraceTick(tick int) bool { return tick == 0 || (tick+1)%crowdTraceEvery == 0 }

// crowdTracer writes the trace of a run, one line per agent of each traced
// tick after the tick's Step:
//
//	tick agent x y z targetState
//
// agent is the index of the trip, the position is printed as C's %a prints
// a float (Go's 'x' format with the exponent unpadded, so that the file is
// byte for byte the one the C++ harness writes) and targetState is the
// number of components.TargetState, which is dtCrowd's
// DT_CROWDAGENT_TARGET_* numbering.
type crowdTracer struct {
	w    *bufio.Writer
	line []byte
}

func newCrowdTracer(w io.Writer) *crowdTracer { return &crowdTracer{w: bufio.NewWriter(w)} }

// record writes the lines of tick if it is a traced tick.
func (t *crowdTracer) record(tick int, p *plugin.Plugin, world *ecs.World, agents []ecs.Entity) error {
	if !crowdTraceTick(tick) {
		return nil
	}
	for i, e := range agents {
		info, err := p.State(world, e)
		if err != nil {
			return fmt.Errorf("trace: tick %d agent %d: %w", tick, i, err)
		}
		line := strconv.AppendInt(t.line[:0], int64(tick), 10)
		line = append(line, ' ')
		line = strconv.AppendInt(line, int64(i), 10)
		for _, v := range info.Position {
			line = append(line, ' ')
			line = append(line, hexFloat(v)...)
		}
		line = append(line, ' ')
		line = strconv.AppendInt(line, int64(info.Target), 10)
		line = append(line, '\n')
		if _, err := t.w.Write(line); err != nil {
			return fmt.Errorf("trace: %w", err)
		}
		t.line = line
	}
	return nil
}

// flush writes what is buffered.
func (t *crowdTracer) flush() error {
	if err := t.w.Flush(); err != nil {
		return fmt.Errorf("trace: %w", err)
	}
	return nil
}

// hexFloat formats v as C's printf("%a", v) does: Go's hexadecimal format
// with the exponent's leading zero dropped ("0x1.8p+01" becomes "0x1.8p+1").
// strconv.ParseFloat reads either form.
func hexFloat(v float32) string {
	s := strconv.FormatFloat(float64(v), 'x', -1, 32)
	at := strings.LastIndexAny(s, "+-")
	if at > 0 && len(s) > at+2 && s[at+1] == '0' {
		s = s[:at+1] + s[at+2:]
	}
	return s
}

// writeCrowdScenario writes trips as the CSV -scenario reads, each value
// the shortest decimal that reads back as the same float32 (C's strtof
// too).
func writeCrowdScenario(w io.Writer, trips []crowdTrip, typed bool) error {
	out := bufio.NewWriter(w)
	if typed {
		fmt.Fprint(out, "type,")
	}
	fmt.Fprintln(out, "sx,sy,sz,tx,ty,tz")
	for _, trip := range trips {
		if typed {
			out.WriteString(trip.typeName)
			out.WriteByte(',')
		}
		values := [6]float32{trip.start[0], trip.start[1], trip.start[2], trip.target[0], trip.target[1], trip.target[2]}
		for i, v := range values {
			if i > 0 {
				out.WriteByte(',')
			}
			out.WriteString(strconv.FormatFloat(float64(v), 'g', -1, 32))
		}
		out.WriteByte('\n')
	}
	return out.Flush()
}
