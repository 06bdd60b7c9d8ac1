// Command compare reads the output of the archenav benchmarks
// (`go test -bench` on ./benchmarks/, one or more files or stdin) and prints
// them beside the C++ reference figures as Markdown tables, with ratios
// (ours / C++: below 1 is faster). A benchmark run several times (-count)
// counts with its fastest run, as the C++ best-of-N figures do.
//
//	go test -run '^$' -bench . ./benchmarks/ | go run ./benchmarks/cmd/compare
//	go run ./benchmarks/cmd/compare results.txt
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

func run(args []string, stdin io.Reader, stdout io.Writer) error {
	rs := results{}
	if len(args) == 0 {
		if err := parse(stdin, rs); err != nil {
			return fmt.Errorf("stdin: %w", err)
		}
	}
	for _, path := range args {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		err = parse(f, rs)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	if len(rs) == 0 {
		return fmt.Errorf("no benchmark results in the input")
	}
	return writeTables(stdout, rs)
}
