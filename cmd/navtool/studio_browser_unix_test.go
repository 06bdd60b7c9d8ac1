//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// startInGroup starts the browser in a process group of its own, so that
// killGroup ends its helper processes with it.
func startInGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup ends the browser's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
