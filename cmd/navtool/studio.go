package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"time"
)

func init() {
	register("studio", "tune a level in the browser: bake settings, layers, paths, a crowd (a local web server)", runStudio)
}

const studioUsage = `usage: navtool studio [-addr 127.0.0.1:0] [-open] [-bake-timeout 60s] [-max-memory-mb 1024] [-max-agents 500] [LEVEL.obj | NAVMESH | TILECACHE]
Starts a web server on this machine only and prints its URL: one page with a 3D view of the level and
its navmesh, every bake setting, path and raycast tools and a crowd. Without a file it opens
testdata/dungeon.obj when that exists. A navmesh or tile cache file is shown as it is (no rebake).`

// studioOptions are the flags of `navtool studio`.
type studioOptions struct {
	addr   string
	open   bool
	input  string
	limits studioLimits
}

// studioLimits bound what one request may cost the server.
type studioLimits struct {
	// bakeTimeout stops a bake that runs longer.
	bakeTimeout time.Duration
	// maxMemory is the bake's estimated memory limit
	// (bake.Settings.MaxMemory) [Units: bytes]
	maxMemory int64
	// maxAgents bounds the crowd.
	maxAgents int
	// maxObstacles bounds the obstacles dropped into the crowd.
	maxObstacles int
}

// defaultStudioLimits are the limits without flags.
func defaultStudioLimits() studioLimits {
	return studioLimits{bakeTimeout: time.Minute, maxMemory: 1 << 30, maxAgents: 500, maxObstacles: 64}
}

func parseStudioFlags(args []string, stdout io.Writer) (*studioOptions, error) {
	fs := flag.NewFlagSet("studio", flag.ContinueOnError)
	fs.SetOutput(stdout)
	o := &studioOptions{limits: defaultStudioLimits()}
	fs.StringVar(&o.addr, "addr", "127.0.0.1:0", "`host:port` to listen on: a loopback address; port 0 picks a free one")
	fs.BoolVar(&o.open, "open", false, "open the page in the default browser")
	fs.DurationVar(&o.limits.bakeTimeout, "bake-timeout", o.limits.bakeTimeout, "stop a bake that runs longer than this")
	memoryMB := fs.Int64("max-memory-mb", o.limits.maxMemory>>20, "refuse a bake whose estimated memory exceeds this many `MiB`")
	fs.IntVar(&o.limits.maxAgents, "max-agents", o.limits.maxAgents, "most agents in the crowd")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), studioUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	switch fs.NArg() {
	case 0:
		o.input = "testdata/dungeon.obj"
		if _, err := os.Stat(o.input); err != nil {
			fs.Usage()
			return nil, errors.New("give a level (.obj), navmesh or tile cache file")
		}
	case 1:
		o.input = fs.Arg(0)
	default:
		fs.Usage()
		return nil, fmt.Errorf("want one file, got %d arguments", fs.NArg())
	}
	switch {
	case o.limits.bakeTimeout <= 0:
		return nil, fmt.Errorf("-bake-timeout %v: want a positive duration", o.limits.bakeTimeout)
	case *memoryMB < 1 || *memoryMB > 1<<20:
		return nil, fmt.Errorf("-max-memory-mb %d outside 1..%d", *memoryMB, 1<<20)
	case o.limits.maxAgents < 1 || o.limits.maxAgents > 10000:
		return nil, fmt.Errorf("-max-agents %d outside 1..10000", o.limits.maxAgents)
	}
	o.limits.maxMemory = *memoryMB << 20
	if err := checkLoopback(o.addr); err != nil {
		return nil, err
	}
	return o, nil
}

// checkLoopback refuses a listen address that other machines could reach:
// the studio has no authentication.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-addr %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-addr %q: the studio listens on a loopback address only (127.0.0.1, ::1 or localhost)", addr)
	}
	return nil
}

func runStudio(args []string, stdout io.Writer) error {
	o, err := parseStudioFlags(args, stdout)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	s, err := newStudio(o.input, o.limits)
	if err != nil {
		return err
	}
	defer s.close()
	listener, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	url := "http://" + listener.Addr().String() + "/"
	fmt.Fprintf(stdout, "navtool studio: %s on %s (Ctrl-C stops)\n", o.input, url)
	if o.open {
		if err := openBrowser(url); err != nil {
			fmt.Fprintf(stdout, "could not open a browser (%v): open %s yourself\n", err, url)
		}
	}
	return s.serve(ctx, listener)
}

// serve answers requests on listener until ctx is done.
func (s *studio) serve(ctx context.Context, listener net.Listener) error {
	server := &http.Server{
		Handler:           s.handler(listener.Addr().String()),
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
	done := make(chan error, 1)
	go func() { done <- server.Serve(listener) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		s.close() // ends the event streams, so that Shutdown need not wait for them
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return server.Shutdown(shutdownCtx)
	}
}

// openBrowser asks the desktop to open url.
func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	return cmd.Start()
}
