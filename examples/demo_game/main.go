// Command demo_game is archenav's first demo: it bakes a level for two
// agent types (small quick agents and large slow ones, each on its own
// navmesh), spawns a crowd of both that walk to random targets, and
// records what they do as an animated GIF and a final PNG (headless, pure
// Go). Built with -tags ebiten it opens an interactive window instead.
//
//	go run ./examples/demo_game                  # writes out/demo_game.gif and .png
//	go run -tags ebiten ./examples/demo_game     # interactive window
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return
	case err != nil:
		fmt.Fprintln(os.Stderr, "demo_game:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	o, err := parseOptions(args, stderr)
	if err != nil {
		return err
	}
	if haveWindow && !o.headless {
		return runWindow(o, stdout)
	}
	return runHeadless(o, stdout)
}
