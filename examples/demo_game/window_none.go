//go:build !ebiten

package main

import (
	"errors"
	"io"
)

// haveWindow reports whether this build has the interactive window (build
// tag ebiten).
const haveWindow = false

func runWindow(*options, io.Writer) error {
	return errors.New("this build has no window: run with -tags ebiten")
}
