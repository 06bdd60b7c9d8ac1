package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The browser tests open the studio in headless Chromium (Debian's
// package chromium) with ?selftest=NAME: the page loads
// testdata/studio/NAME.js, which drives it as a user would and posts what
// it saw to /selftest/result. Without Chromium they skip, unless CI or
// ARCHENAV_BROWSER=1 is set: then they fail, so that CI cannot pass
// without running them. ARCHENAV_CHROMIUM names another browser binary.

// chromiumPath finds the browser or skips (fails in CI).
func chromiumPath(t *testing.T) string {
	t.Helper()
	candidates := []string{os.Getenv("ARCHENAV_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"}
	for _, name := range candidates {
		if name == "" {
			continue
		}
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	message := "no headless browser: install Debian's chromium (apt-get install chromium) or set ARCHENAV_CHROMIUM"
	if os.Getenv("CI") != "" || os.Getenv("ARCHENAV_BROWSER") == "1" {
		t.Fatal(message + " (CI or ARCHENAV_BROWSER=1 is set: the browser tests must run)")
	}
	t.Skip(message)
	return ""
}

// selftestServer is a studio on a loopback port with the selftest
// endpoints: the scripts of testdata/studio, extra JSON files, and
// /selftest/result, whose body arrives on results.
// setFile serves data as /selftest/name.
func (ts *selftestServer) setFile(name string, data []byte) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.files[name] = data
}

type selftestServer struct {
	studio  *studio
	url     string
	results chan []byte

	mu sync.Mutex
	// files are served under /selftest/ (setFile): the server's goroutines
	// read them while the test may still add one.
	files map[string][]byte
	// failed lists the requests answered with a status of 400 or more
	// ("GET /favicon.ico 404"): a browser logs each in its console, where
	// the page's own error handlers do not see it.
	failed []string
}

// failedRequests returns the requests answered with an error status so far.
func (ts *selftestServer) failedRequests() []string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return slices.Clone(ts.failed)
}

// statusRecorder keeps the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(status int) {
	r.status = status
	r.ResponseWriter.WriteHeader(status)
}

// Unwrap gives http.ResponseController the writer underneath.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// Flush passes flushes on, for the server-sent events.
func (r *statusRecorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func startSelftestServer(t *testing.T, input string) *selftestServer {
	t.Helper()
	s, err := newStudio(input, defaultStudioLimits())
	require.NoError(t, err)
	ts := &selftestServer{studio: s, results: make(chan []byte, 1), files: map[string][]byte{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /selftest/result", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 64<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		select {
		case ts.results <- body:
		default:
		}
	})
	mux.HandleFunc("GET /selftest/{file}", func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("file")
		ts.mu.Lock()
		data, ok := ts.files[name]
		ts.mu.Unlock()
		if ok {
			w.Header().Set("Content-Type", "application/json")
			w.Write(data)
			return
		}
		if filepath.Base(name) != name || !strings.HasSuffix(name, ".js") {
			http.NotFound(w, r)
			return
		}
		data, err := os.ReadFile(filepath.Join("testdata", "studio", name))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/javascript")
		w.Write(data)
	})
	s.selftest = mux
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	studioHandler := s.handler(listener.Addr().String())
	recording := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		studioHandler.ServeHTTP(rec, r)
		if rec.status >= 400 {
			ts.mu.Lock()
			ts.failed = append(ts.failed, fmt.Sprintf("%s %s %d", r.Method, r.URL.Path, rec.status))
			ts.mu.Unlock()
		}
	})
	server := &http.Server{Handler: recording, ReadHeaderTimeout: 10 * time.Second}
	go server.Serve(listener)
	t.Cleanup(func() {
		s.close()
		server.Close()
	})
	ts.url = "http://" + listener.Addr().String() + "/"
	return ts
}

// runSelftest opens the page with ?selftest=script in headless Chromium
// and returns what the script posted.
func (ts *selftestServer) runSelftest(t *testing.T, browser, script string, timeout time.Duration) []byte {
	t.Helper()
	profile := t.TempDir()
	cmd := exec.Command(browser, "--headless", "--no-sandbox", "--disable-gpu", "--enable-unsafe-swiftshader",
		"--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
		"--disable-sync", "--disable-extensions", "--user-data-dir="+profile, "--window-size=1280,800",
		ts.url+"?selftest="+script)
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	startInGroup(cmd)
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		killGroup(cmd)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
		}
	}()
	select {
	case body := <-ts.results:
		return body
	case err := <-exited:
		t.Fatalf("the browser quit before the page reported (%v):\n%s", err, tail(output.String(), 3000))
	case <-time.After(timeout):
		t.Fatalf("no report from the page within %v; the browser said:\n%s", timeout, tail(output.String(), 3000))
	}
	return nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// checkReport is what testdata/studio/check.js posts.
type checkReport struct {
	Steps          []string                                          `json:"steps"`
	Failure        string                                            `json:"failure"`
	Errors         []string                                          `json:"errors"`
	FirstPolys     int                                               `json:"firstPolys"`
	RebakePolys    int                                               `json:"rebakePolys"`
	RebakeState    string                                            `json:"rebakeState"`
	RebakeSettings map[string]any                                    `json:"rebakeSettings"`
	LayerCounts    map[string]struct{ Triangles, Lines, Points int } `json:"layerCounts"`
	Path           studioQueryResult                                 `json:"path"`
	PathText       string                                            `json:"pathText"`
	Crowd          struct {
		Tick   int          `json:"tick"`
		Agents int          `json:"agents"`
		Before [][3]float32 `json:"before"`
		After  [][3]float32 `json:"after"`
	} `json:"crowd"`
	CrowdText       string `json:"crowdText"`
	Screenshot      string `json:"screenshot"`
	ScreenshotAfter string `json:"screenshotAfter"`
}

// TestStudioInBrowser opens the studio on the dungeon in a real browser:
// the page loads without console errors; a rebake with agent radius 1.2
// through the form shows the polygon count navtool bake gives for that
// radius; two clicks in the path tool give the path navtool query gives
// for the clicked points; the crowd plays; the view looks like the
// golden picture.
func TestStudioInBrowser(t *testing.T) {
	browser := chromiumPath(t)
	ts := startSelftestServer(t, "../../testdata/dungeon.obj")
	// The quick start's points, on the lower floor.
	ts.setFile("points.json", []byte(`[[-9.17, 10.2, -20.34], [11.22, 10.2, -0.93]]`))
	body := ts.runSelftest(t, browser, "check", 4*time.Minute)
	var got checkReport
	require.NoError(t, json.Unmarshal(body, &got))
	require.Empty(t, got.Failure, "the page's script failed after %v", got.Steps)
	assert.Empty(t, got.Errors, "console errors")
	assert.Empty(t, ts.failedRequests(), "requests the server refused or lacked (each a console error in the browser)")
	assert.Equal(t, []string{"loaded", "rebaked", "path", "crowd"}, got.Steps)

	// Polygon counts: what navtool bake says for each radius.
	assert.Equal(t, bakePolys(t, ""), got.FirstPolys, "the first bake")
	want := bakePolys(t, `{"agentRadius": 1.2}`)
	assert.Equal(t, want, got.RebakePolys, "after the rebake with radius 1.2")
	assert.NotEqual(t, got.FirstPolys, got.RebakePolys, "the radius must change the mesh for this check to mean anything")
	assert.Equal(t, "done", got.RebakeState)
	assert.InDelta(t, 1.2, got.RebakeSettings["agentRadius"], 1e-6)
	assert.Positive(t, got.LayerCounts["polygons"].Triangles)
	assert.Positive(t, got.LayerCounts["input"].Triangles)

	// The path of the clicked points, against navtool query on the same
	// navmesh (the studio's file download) and points.
	path := got.Path
	require.True(t, path.StartFound && path.EndFound, "both clicks landed on the navmesh: %+v", path)
	assert.Greater(t, path.Polys, 1)
	meshFile := filepath.Join(t.TempDir(), "radius12.navmesh")
	download(t, ts.url+"api/navmesh", meshFile)
	row := queryOne(t, meshFile, path.Start, path.End)
	assert.Equal(t, strconv.Itoa(path.Polys), row["npolys"])
	assert.Equal(t, strconv.Itoa(path.Straight), row["nstraight"])
	assert.Equal(t, fmt.Sprintf("%.9g", path.Length3D), row["len3d"])
	assert.Equal(t, fmt.Sprintf("%.9g", path.Length2D), row["len2d"])
	require.NotEmpty(t, path.Points)
	last := path.Points[len(path.Points)-1]
	assert.Equal(t, fmt.Sprintf("%.9g", last[0]), row["endx"])
	assert.Equal(t, fmt.Sprintf("%.9g", last[2]), row["endz"])
	assert.Contains(t, got.PathText, fmt.Sprintf("corridor: %d polygons", path.Polys), "the numbers are on the page")

	// The crowd played a second (30 ticks) and its agents walked.
	assert.GreaterOrEqual(t, got.Crowd.Tick, 30)
	assert.Equal(t, 20, got.Crowd.Agents)
	require.Len(t, got.Crowd.Before, 20)
	walked := 0
	for i := range got.Crowd.Before {
		a, b := got.Crowd.Before[i], got.Crowd.After[i]
		if math.Hypot(float64(b[0]-a[0]), float64(b[2]-a[2])) > 0.5 {
			walked++
		}
	}
	assert.GreaterOrEqual(t, walked, 10, "agents that walked more than 0.5 m in a second")
	assert.Contains(t, got.CrowdText, "20 agents")

	// The picture: the navmesh's blue covers a good part of the view, and
	// the view matches the golden one at a coarse scale.
	picture := decodeDataURL(t, got.Screenshot)
	assert.Greater(t, navmeshBlueShare(picture), 0.04, "share of navmesh-blue pixels")
	compareLoosely(t, picture, filepath.Join("testdata", "studio", "dungeon_top.png"))
}

// bakePolys runs navtool bake on the dungeon with a settings file (none
// for "") and returns its polygon count.
func bakePolys(t *testing.T, settings string) int {
	t.Helper()
	args := []string{"bake", "-json"}
	if settings != "" {
		path := filepath.Join(t.TempDir(), "settings.json")
		require.NoError(t, os.WriteFile(path, []byte(settings), 0o644))
		args = append(args, "-config", path)
	}
	var out bytes.Buffer
	require.NoError(t, run(append(args, "../../testdata/dungeon.obj"), &out, io.Discard))
	var report struct{ Polys int }
	require.NoError(t, json.Unmarshal(out.Bytes(), &report))
	return report.Polys
}

// queryOne runs navtool query for one pair and returns its output row by
// column name.
func queryOne(t *testing.T, meshFile string, start, end [3]float32) map[string]string {
	t.Helper()
	f := func(v float32) string { return strconv.FormatFloat(float64(v), 'g', -1, 32) }
	pairs := filepath.Join(t.TempDir(), "pairs.csv")
	line := fmt.Sprintf("sx,sy,sz,ex,ey,ez\n%s,%s,%s,%s,%s,%s\n", f(start[0]), f(start[1]), f(start[2]), f(end[0]), f(end[1]), f(end[2]))
	require.NoError(t, os.WriteFile(pairs, []byte(line), 0o644))
	var out bytes.Buffer
	require.NoError(t, run([]string{"query", "-navmesh", meshFile, "-pairs", pairs}, &out, io.Discard))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 2)
	names, values := strings.Split(lines[0], ","), strings.Split(lines[1], ",")
	row := map[string]string{}
	for i, name := range names {
		row[name] = values[i]
	}
	return row
}

func download(t *testing.T, url, path string) {
	t.Helper()
	response, err := http.Get(url)
	require.NoError(t, err)
	defer response.Body.Close()
	require.Equal(t, http.StatusOK, response.StatusCode)
	data, err := io.ReadAll(response.Body)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, data, 0o644))
}

func decodeDataURL(t *testing.T, url string) image.Image {
	t.Helper()
	encoded, ok := strings.CutPrefix(url, "data:image/png;base64,")
	require.True(t, ok, "a PNG data URL")
	data, err := base64.StdEncoding.DecodeString(encoded)
	require.NoError(t, err)
	picture, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	return picture
}

// navmeshBlueShare is the share of pixels in navdraw's ground blue
// (strong blue, little red).
func navmeshBlueShare(picture image.Image) float64 {
	b := picture.Bounds()
	blue := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, _, bl, _ := picture.At(x, y).RGBA()
			if bl>>8 > 180 && r>>8 < 110 {
				blue++
			}
		}
	}
	return float64(blue) / float64(b.Dx()*b.Dy())
}

// coarse averages a picture over a 32 × 20 grid of cells.
func coarse(picture image.Image) [20][32][3]float64 {
	var grid [20][32][3]float64
	var counts [20][32]float64
	b := picture.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			gy, gx := (y-b.Min.Y)*20/b.Dy(), (x-b.Min.X)*32/b.Dx()
			r, g, bl, _ := picture.At(x, y).RGBA()
			grid[gy][gx][0] += float64(r >> 8)
			grid[gy][gx][1] += float64(g >> 8)
			grid[gy][gx][2] += float64(bl >> 8)
			counts[gy][gx]++
		}
	}
	for y := range grid {
		for x := range grid[y] {
			for c := range 3 {
				grid[y][x][c] /= max(counts[y][x], 1)
			}
		}
	}
	return grid
}

// compareLoosely compares a picture with a golden one on a coarse grid:
// the mean difference of the cells' colours must stay under 8 of 255, so
// that another Chromium's rasterization passes and a view that lost its
// navmesh or moved its camera fails. ARCHENAV_UPDATE_GOLDEN=1 writes the
// golden picture instead.
func compareLoosely(t *testing.T, picture image.Image, golden string) {
	t.Helper()
	if os.Getenv("ARCHENAV_UPDATE_GOLDEN") == "1" {
		var buf bytes.Buffer
		require.NoError(t, png.Encode(&buf, picture))
		require.NoError(t, os.WriteFile(golden, buf.Bytes(), 0o644))
		return
	}
	file, err := os.Open(golden)
	require.NoError(t, err, "ARCHENAV_UPDATE_GOLDEN=1 writes it")
	defer file.Close()
	want, err := png.Decode(file)
	require.NoError(t, err)
	a, b := coarse(picture), coarse(want)
	sum := 0.0
	for y := range a {
		for x := range a[y] {
			for c := range 3 {
				sum += math.Abs(a[y][x][c] - b[y][x][c])
			}
		}
	}
	mean := sum / (20 * 32 * 3)
	if mean >= 8 {
		var buf bytes.Buffer
		png.Encode(&buf, picture)
		failed := filepath.Join(os.TempDir(), "studio_failed_"+filepath.Base(golden))
		os.WriteFile(failed, buf.Bytes(), 0o644)
		t.Errorf("the view differs from %s by %.1f of 255 on average per coarse cell (at most 8); this run's picture: %s", golden, mean, failed)
	}
}

// TestStudioScreenshot writes the picture of the studio that the README
// and docs/studio.md show, when ARCHENAV_STUDIO_SCREENSHOT names the file:
//
//	ARCHENAV_STUDIO_SCREENSHOT=$PWD/docs/studio.png go test ./cmd/navtool -run TestStudioScreenshot
func TestStudioScreenshot(t *testing.T) {
	out := os.Getenv("ARCHENAV_STUDIO_SCREENSHOT")
	if out == "" {
		t.Skip("set ARCHENAV_STUDIO_SCREENSHOT=FILE.png to write the README's picture")
	}
	browser := chromiumPath(t)
	ts := startSelftestServer(t, "../../testdata/dungeon.obj")
	cmd := exec.Command(browser, "--headless", "--no-sandbox", "--disable-gpu", "--enable-unsafe-swiftshader",
		"--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
		"--disable-sync", "--disable-extensions", "--user-data-dir="+t.TempDir(), "--window-size=1280,760",
		"--virtual-time-budget=20000", "--screenshot="+out, ts.url+"?events=0&selftest=readme")
	output, err := cmd.CombinedOutput()
	require.NoError(t, err, string(output))
	file, err := os.Open(out)
	require.NoError(t, err)
	defer file.Close()
	picture, err := png.Decode(file)
	require.NoError(t, err)
	assert.Greater(t, navmeshBlueShare(picture), 0.02)
}
