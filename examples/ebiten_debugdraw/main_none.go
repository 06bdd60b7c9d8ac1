//go:build !ebiten

// Command ebiten_debugdraw shows archenav's debug drawing in an ebiten
// window through a debugdraw.Drawer built on ebiten's vector package. It
// needs the ebiten build tag:
//
//	go run -tags ebiten ./examples/ebiten_debugdraw
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "ebiten_debugdraw: build with -tags ebiten (it opens a window)")
	os.Exit(2)
}
