// Command navtool bakes, inspects and queries archenav navigation meshes.
//
// Usage:
//
//	navtool <command> [flags] [arguments]
//
// Run `navtool help` for the list of commands.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one navtool sub-command.
type command struct {
	// summary is the one-line description shown by `navtool help`.
	summary string
	// run executes the command with its own arguments (without the command
	// name), writing results to stdout.
	run func(args []string, stdout io.Writer) error
}

// commands maps a sub-command name to its implementation. Each command's
// file registers itself from an init function.
var commands = map[string]command{}

func register(name, summary string, run func(args []string, stdout io.Writer) error) {
	commands[name] = command{summary: summary, run: run}
}

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "navtool:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stderr)
		if len(args) == 0 {
			return errors.New("no command given")
		}
		return nil
	}
	cmd, ok := commands[args[0]]
	if !ok {
		usage(stderr)
		return fmt.Errorf("unknown command %q", args[0])
	}
	err := cmd.run(args[1:], stdout)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", args[0], err)
	}
	return nil
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: navtool <command> [flags] [arguments]")
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(w, "  %-8s %s\n", name, commands[name].summary)
	}
}
