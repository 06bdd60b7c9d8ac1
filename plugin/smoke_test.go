package plugin

import (
	"testing"
)

func TestSmokeCrowd(t *testing.T) {
	mesh := loadDungeon(t)
	for _, n := range []int{100, 500} {
		f := newCrowd(t, mesh, n, 1, Config{Reference: true})
		f.step(t, 600)
		t.Logf("%d agents: reached %d", n, f.reached(t, 1))
	}
}
