package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
)

// table is a Markdown table being built. Its first labels columns hold text
// (left-aligned), the others figures (right-aligned).
type table struct {
	header []string
	labels int
	rows   [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer) error {
	line := func(cells []string) string { return "| " + strings.Join(cells, " | ") + " |\n" }
	var b strings.Builder
	b.WriteString(line(t.header))
	sep := make([]string, len(t.header))
	for i := range sep {
		sep[i] = "---:"
		if i < max(t.labels, 1) {
			sep[i] = "---"
		}
	}
	b.WriteString(line(sep))
	for _, row := range t.rows {
		b.WriteString(line(row))
	}
	_, err := io.WriteString(w, b.String()+"\n")
	return err
}

// missing marks a figure the input does not have.
const missing = "–"

// number formats v with three significant digits or more: 0.385, 4.81, 14.4,
// 95.9, 1234.
func number(v float64) string {
	switch {
	case v < 1:
		return fmt.Sprintf("%.3f", v)
	case v < 10:
		return fmt.Sprintf("%.2f", v)
	case v < 100:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.0f", v)
}

// ratio formats ours / theirs.
func ratio(ours, theirs float64) string {
	if theirs == 0 {
		return missing
	}
	return fmt.Sprintf("%.2f×", ours/theirs)
}

// figure is one measured value, or missing.
type figure struct {
	v  float64
	ok bool
}

func (f figure) String() string {
	if !f.ok {
		return missing
	}
	return number(f.v)
}

// integer prints the figure without decimals.
func (f figure) integer() string {
	if !f.ok {
		return missing
	}
	return fmt.Sprintf("%.0f", f.v)
}

// over returns f / theirs as a ratio.
func (f figure) over(theirs float64) string {
	if !f.ok {
		return missing
	}
	return ratio(f.v, theirs)
}

// scaled returns the figure of unit in the best run of name, divided by div.
func (rs results) scaled(name, unit string, div float64) figure {
	v, ok := rs.value(name, unit)
	return figure{v / div, ok}
}

func (rs results) ms(name string) figure { return rs.scaled(name, "ns/op", 1e6) }
func (rs results) us(name string) figure { return rs.scaled(name, "ns/op", 1e3) }
func (rs results) metric(name, unit string) figure {
	return rs.scaled(name, unit, 1)
}

// writeTables prints every table the input has results for.
func writeTables(w io.Writer, rs results) error {
	for _, section := range []func(io.Writer, results) error{
		soloTable, stageTable, tiledTable, tileCacheTable, queryTable, workloadTable, concurrentTable, crowdTable, crowdReferenceTable,
		avoidanceTable,
	} {
		if err := section(w, rs); err != nil {
			return err
		}
	}
	return nil
}

// has reports whether any benchmark name starts with prefix.
func (rs results) has(prefix string) bool {
	for name := range rs {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

func heading(w io.Writer, title, note string) error {
	_, err := fmt.Fprintf(w, "### %s\n\n%s\n\n", title, note)
	return err
}

func soloTable(w io.Writer, rs results) error {
	if !rs.has("BenchmarkSolo/") && !rs.has("BenchmarkBakerSolo/") {
		return nil
	}
	t := &table{header: []string{"level", "C++ ms", "Solo ms", "ratio", "Baker ms", "ratio", "Solo allocs", "Baker allocs", "Solo MB", "Baker MB"}}
	for _, level := range levels {
		solo, baker := "BenchmarkSolo/"+level, "BenchmarkBakerSolo/"+level
		t.add(level, number(cppSolo[level]),
			rs.ms(solo).String(), rs.ms(solo).over(cppSolo[level]),
			rs.ms(baker).String(), rs.ms(baker).over(cppSolo[level]),
			rs.metric(solo, "allocs/op").integer(), rs.metric(baker, "allocs/op").integer(),
			rs.scaled(solo, "B/op", 1e6).String(), rs.scaled(baker, "B/op", 1e6).String())
	}
	if err := heading(w, "Solo bake (ms per bake)", "BenchmarkSolo bakes from scratch on a new bake.Baker (bake.Solo's first call); BenchmarkBakerSolo reuses one Baker (bake.Solo's later calls, through its pool). C++: best of 5."); err != nil {
		return err
	}
	return t.write(w)
}

func stageTable(w io.Writer, rs results) error {
	if !rs.has("BenchmarkSolo/") {
		return nil
	}
	header := []string{"stage"}
	for _, level := range levels {
		header = append(header, level+" C++", "ours", "ratio")
	}
	t := &table{header: header}
	for s, stage := range stageNames {
		row := []string{stageTitles[s]}
		for _, level := range levels {
			ours := rs.metric("BenchmarkSolo/"+level, stage+"-ms")
			row = append(row, number(cppStages[level][s]), ours.String(), ours.over(cppStages[level][s]))
		}
		t.add(row...)
	}
	if err := heading(w, "Solo bake by stage (ms)", "Ours: mean stage time over the iterations of BenchmarkSolo's fastest run. C++: the stages of its best run."); err != nil {
		return err
	}
	return t.write(w)
}

func tiledTable(w io.Writer, rs results) error {
	if !rs.has("BenchmarkTiled") {
		return nil
	}
	t := &table{header: []string{"level", "C++ ms (1 thread)", "1 worker", "ratio", "2 workers", "ratio", "2 vs 1 worker", "with index, 1 worker", "with index, 2 workers", "allocs (1 worker)"}}
	for _, level := range levels {
		one, two := rs.ms("BenchmarkTiled/"+level+"/workers=1"), rs.ms("BenchmarkTiled/"+level+"/workers=2")
		speedup := missing
		if one.ok && two.ok {
			speedup = fmt.Sprintf("%.2f×", one.v/two.v)
		}
		t.add(level, number(cppTiled[level]),
			one.String(), one.over(cppTiled[level]),
			two.String(), two.over(cppTiled[level]), speedup,
			rs.ms("BenchmarkTiledWithIndex/"+level+"/workers=1").String(),
			rs.ms("BenchmarkTiledWithIndex/"+level+"/workers=2").String(),
			rs.metric("BenchmarkTiled/"+level+"/workers=1", "allocs/op").integer())
	}
	if err := heading(w, "Tiled bake, tile size 32 (ms per level)",
		"BenchmarkTiled: every tile, TileBaker made beforehand (the C++ demo also builds its chunk tree first). "+
			"BenchmarkTiledWithIndex: bake.Tiled from geometry (index + tiles). \"2 vs 1 worker\" is the speed-up."); err != nil {
		return err
	}
	return t.write(w)
}

func tileCacheTable(w io.Writer, rs results) error {
	if !rs.has("BenchmarkTileCacheLayers/") {
		return nil
	}
	t := &table{header: []string{"level", "C++ ms (1 thread)", "1 worker", "ratio", "2 workers", "ratio", "layer stage (1 worker)", "allocs (1 worker)"}}
	for _, level := range levels {
		one, two := "BenchmarkTileCacheLayers/"+level+"/workers=1", "BenchmarkTileCacheLayers/"+level+"/workers=2"
		cpp, ok := cppTileCacheLayers[level]
		cppText := missing
		if ok {
			cppText = number(cpp)
		}
		t.add(level, cppText,
			rs.ms(one).String(), rs.ms(one).over(cpp),
			rs.ms(two).String(), rs.ms(two).over(cpp),
			rs.metric(one, "layers-ms").String(), rs.metric(one, "allocs/op").integer())
	}
	if err := heading(w, "Tile cache layer bake, tile size 48 (ms per level)",
		"BenchmarkTileCacheLayers: every tile's heightfield layers (Sample_TempObstacles), TileBaker made beforehand, "+
			"as the reference times the C++ (chunking apart). Targets: ≤ 1.1× on 1 worker, ≤ 0.6× on 2."); err != nil {
		return err
	}
	return t.write(w)
}

func queryTable(w io.Writer, rs results) error {
	if !rs.has("BenchmarkQuery/") {
		return nil
	}
	t := &table{labels: 2, header: []string{"level", "query", "C++ µs", "ours µs", "ratio", "allocs/op"}}
	for _, level := range levels {
		for k, kind := range queryKinds {
			name := "BenchmarkQuery/" + level + "/" + kind
			ours := rs.us(name)
			t.add(level, queryTitles[k], number(cppQueries[level][k]), ours.String(), ours.over(cppQueries[level][k]),
				rs.metric(name, "allocs/op").integer())
		}
	}
	if err := heading(w, "Queries on the solo mesh (µs per call)",
		"10,000 seeded random pairs, half extents (2, 4, 2), include 0xffef, exclude 0, 2048 nodes, 256 polys / points. C++: best of 5."); err != nil {
		return err
	}
	return t.write(w)
}

func workloadTable(w io.Writer, rs results) error {
	if !rs.has("BenchmarkQuery/") {
		return nil
	}
	t := &table{header: []string{"level", "C++ partial paths", "ours", "C++ mean polys", "ours"}}
	for _, level := range levels {
		name := "BenchmarkQuery/" + level + "/path"
		t.add(level, fmt.Sprintf("%.0f", cppWorkload[level].partial), rs.metric(name, "partial-paths").integer(),
			number(cppWorkload[level].meanPolys), rs.metric(name, "mean-polys").String())
	}
	if err := heading(w, "Query workload (of 10,000 pairs)",
		"Our pairs come from a seeded LCG, the C++'s from rand(): other pairs of the same distribution, so these agree only roughly."); err != nil {
		return err
	}
	return t.write(w)
}

func concurrentTable(w io.Writer, rs results) error {
	if !rs.has("BenchmarkConcurrentQueries/") {
		return nil
	}
	t := &table{labels: 2, header: []string{"level", "mesh", "C++ µs (1 thread)", "1 goroutine µs", "2 goroutines µs", "speed-up", "edits/s (1 / 2)", "failed pairs (1 / 2)"}}
	for _, level := range levels {
		for _, scenario := range []string{"solo", "tiled", "tiled+writer"} {
			name := "BenchmarkConcurrentQueries/" + level + "/" + scenario + "/goroutines="
			one, two := rs.us(name+"1"), rs.us(name+"2")
			cpp, speedup, edits, failed := missing, missing, missing, missing
			if scenario == "solo" {
				cpp = number(cppQueries[level][3])
			}
			if one.ok && two.ok {
				speedup = fmt.Sprintf("%.2f×", one.v/two.v)
			}
			if scenario == "tiled+writer" {
				edits = rs.metric(name+"1", "edits/s").integer() + " / " + rs.metric(name+"2", "edits/s").integer()
				failed = percent(rs.metric(name+"1", "failed-pairs")) + " / " + percent(rs.metric(name+"2", "failed-pairs"))
			}
			t.add(level, scenario, cpp, one.String(), two.String(), speedup, edits, failed)
		}
	}
	if err := heading(w, "Whole pairs on goroutines sharing one mesh (µs per pair, wall time)",
		"Each goroutine has its own Query. tiled+writer: a writer removes and re-adds the busiest tile every millisecond meanwhile; "+
			"a pair that meets the tile gone fails with ErrInvalidRef. The C++ cannot share a dtNavMesh while tiles change."); err != nil {
		return err
	}
	return t.write(w)
}

// percent formats a fraction as a percentage.
func percent(f figure) string {
	if !f.ok {
		return missing
	}
	return fmt.Sprintf("%.2f %%", 100*f.v)
}

func crowdTable(w io.Writer, rs results) error {
	if !rs.has("BenchmarkCrowd/") {
		return nil
	}
	t := &table{header: []string{"level", "agents", "C++ mean", "C++ p99",
		"1 worker mean", "p99", "ratio", "2 workers mean", "p99", "ratio",
		"allocs/tick (steady)", "reached C++ / ours", "waiting for a path"}}
	for _, c := range crowdCases {
		for _, agents := range c.agents {
			cpp, hasCpp := cppCrowds[c.level][agents]
			name := fmt.Sprintf("BenchmarkCrowd/%s/agents=%d/workers=", c.level, agents)
			one, two := rs.ms(name+"1"), rs.ms(name+"2")
			if !one.ok && !two.ok {
				continue
			}
			cppMean, cppP99, ratio1, ratio2, reached := missing, missing, missing, missing, missing
			if hasCpp {
				cppMean, cppP99 = number(cpp.mean), number(cpp.p99)
				ratio1, ratio2 = one.over(cpp.mean), two.over(cpp.mean)
				reached = fmt.Sprintf("%d / %s", cpp.reached, rs.metric(name+"1", "reached-1m").integer())
			} else {
				reached = "– / " + rs.metric(name+"1", "reached-1m").integer()
			}
			allocs := rs.metric(name+"1", "allocs/tick").String() + " (" + rs.metric(name+"1", "steady-allocs/tick").String() + ")"
			t.add(c.level, fmt.Sprint(agents), cppMean, cppP99,
				one.String(), rs.metric(name+"1", "p99-ms").String(), ratio1,
				two.String(), rs.metric(name+"2", "p99-ms").String(), ratio2,
				allocs, reached, rs.metric(name+"1", "waiting").integer())
		}
	}
	if err := heading(w, "Crowd (ms per tick, 600 ticks at 1/60 s)",
		"Reference agents and settings, random starts and targets (ours: seeded LCG, so other trips than the C++'s). "+
			"allocs/tick over the run, and in brackets after its first second; reached: agents within 1 m of their target after 10 s; "+
			"waiting: agents still without a path at the end (1 worker)."); err != nil {
		return err
	}
	return t.write(w)
}

func crowdReferenceTable(w io.Writer, rs results) error {
	if !rs.has("BenchmarkCrowdReferenceMode/") {
		return nil
	}
	t := &table{header: []string{"level", "agents", "C++ mean", "C++ p99", "ours mean", "p99", "ratio", "reached C++ / ours", "waiting"}}
	for _, c := range crowdCases {
		for _, agents := range c.agents {
			cpp, hasCpp := cppCrowds[c.level][agents]
			name := fmt.Sprintf("BenchmarkCrowdReferenceMode/%s/agents=%d/workers=1", c.level, agents)
			ours := rs.ms(name)
			if !hasCpp || !ours.ok {
				continue
			}
			t.add(c.level, fmt.Sprint(agents), number(cpp.mean), number(cpp.p99),
				ours.String(), rs.metric(name, "p99-ms").String(), ours.over(cpp.mean),
				fmt.Sprintf("%d / %s", cpp.reached, rs.metric(name, "reached-1m").integer()),
				rs.metric(name, "waiting").integer())
		}
	}
	if err := heading(w, "Crowd in reference mode (ms per tick, 1 worker)",
		"plugin.Config.Reference: deadlock breaker, wall-safe collisions and edge height snap off, so agents move as in dtCrowd."); err != nil {
		return err
	}
	return t.write(w)
}

// avoidanceRow is one crowd of BenchmarkCrowdAvoidance, without its method.
type avoidanceRow struct {
	level           string
	agents, workers int
}

// avoidanceRows lists the crowds of BenchmarkCrowdAvoidance that ran with
// adaptive sampling, by workers, level and agents.
func avoidanceRows(rs results) []avoidanceRow {
	var rows []avoidanceRow
	for name := range rs {
		var row avoidanceRow
		var method string
		rest, ok := strings.CutPrefix(name, "BenchmarkCrowdAvoidance/")
		if !ok {
			continue
		}
		level, rest, ok := strings.Cut(rest, "/")
		if !ok {
			continue
		}
		if _, err := fmt.Sscanf(strings.ReplaceAll(rest, "/", " "), "agents=%d method=%s workers=%d", &row.agents, &method, &row.workers); err != nil || method != "adaptive" {
			continue
		}
		row.level = level
		rows = append(rows, row)
	}
	slices.SortFunc(rows, func(a, b avoidanceRow) int {
		return cmp.Or(cmp.Compare(a.workers, b.workers), cmp.Compare(a.level, b.level), cmp.Compare(a.agents, b.agents))
	})
	return rows
}

func avoidanceTable(w io.Writer, rs results) error {
	rows := avoidanceRows(rs)
	if len(rows) == 0 {
		return nil
	}
	t := &table{header: []string{"level", "agents", "workers", "ms per tick adaptive / ORCA",
		"CPU ms per tick adaptive / ORCA", "avoidance stage ms adaptive / ORCA", "stage ORCA cheaper by", "reached adaptive / ORCA",
		"stuck", "overlap agent-ticks", "off-mesh + wall", "velocity change per tick (m/s)", "ORCA infeasible per tick"}}
	pair := func(adaptive, orca figure, integer bool) string {
		if integer {
			return adaptive.integer() + " / " + orca.integer()
		}
		return adaptive.String() + " / " + orca.String()
	}
	for _, row := range rows {
		name := fmt.Sprintf("BenchmarkCrowdAvoidance/%s/agents=%d/method=", row.level, row.agents)
		workers := fmt.Sprintf("/workers=%d", row.workers)
		adaptive, orca := name+"adaptive"+workers, name+"orca"+workers
		metric := func(unit string, integer bool) string {
			return pair(rs.metric(adaptive, unit), rs.metric(orca, unit), integer)
		}
		cheaper := missing
		if a, o := rs.metric(adaptive, "avoid-ms"), rs.metric(orca, "avoid-ms"); a.ok && o.ok && o.v > 0 {
			cheaper = fmt.Sprintf("%.1f×", a.v/o.v)
		}
		violations := func(name string) figure {
			offMesh, wall := rs.metric(name, "off-mesh"), rs.metric(name, "wall-pen")
			return figure{offMesh.v + wall.v, offMesh.ok && wall.ok}
		}
		t.add(row.level, fmt.Sprint(row.agents), fmt.Sprint(row.workers),
			pair(rs.ms(adaptive), rs.ms(orca), false), metric("cpu-ms", false), metric("avoid-ms", false), cheaper,
			metric("reached-1m", true), metric("stuck", true), metric("overlap", true),
			pair(violations(adaptive), violations(orca), true), metric("dv/tick", false),
			rs.metric(orca, "infeasible/tick").String())
	}
	if err := heading(w, "Avoidance methods side by side (BenchmarkCrowdAvoidance)",
		"The crowds of BenchmarkCrowd (same trips) with preset 3 as the reference's adaptive sampling and as ORCA, one 10 s run each; "+
			"bigworld: the 1 km level, each agent going to a point within 50 m. CPU ms: CPU time of all threads per tick, "+
			"about workers × the wall time on an idle machine. "+
			"reached: agents within 1 m of their target at the end; stuck: complete path, less than 0.5 m in the last 2 s; "+
			"overlap: agent-ticks of pairs closer than their radii minus 0.1 m; off-mesh + wall: agent-ticks off the navmesh or off the "+
			"corridor's first polygon; velocity change: mean |v(t) - v(t-1)| of a walking agent, lower is smoother."); err != nil {
		return err
	}
	return t.write(w)
}
