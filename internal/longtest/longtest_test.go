package longtest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestEnabledFollowsTheSwitch(t *testing.T) {
	cases := []struct {
		value string
		want  bool
	}{
		{"1", !testing.Short()},
		{"", false},
		{"0", false},
		{"yes", false},
	}
	for _, c := range cases {
		t.Run("value="+c.value, func(t *testing.T) {
			t.Setenv(EnvVar, c.value)
			assert.Equal(t, c.want, Enabled())
		})
	}
}

func TestSkipSoakRunsOnlyWithoutTheRaceDetector(t *testing.T) {
	t.Setenv(EnvVar, "1")
	ran := false
	t.Run("soak", func(t *testing.T) {
		SkipSoak(t)
		ran = true
	})
	assert.Equal(t, !Race && !testing.Short(), ran)

	t.Setenv(EnvVar, "")
	ran = false
	t.Run("off", func(t *testing.T) {
		SkipSoak(t)
		ran = true
	})
	assert.False(t, ran)
}

func TestSoakDurationReadsTheSwitch(t *testing.T) {
	cases := []struct {
		value string
		want  time.Duration
		full  bool
	}{
		{"", 3 * time.Minute, false},
		{"30m", 30 * time.Minute, true},
		{"2h", 2 * time.Hour, true},
		{"90s", 90 * time.Second, true},
	}
	for _, c := range cases {
		t.Run("value="+c.value, func(t *testing.T) {
			t.Setenv(SoakEnvVar, c.value)
			got, full := SoakDuration(t, 3*time.Minute)
			assert.Equal(t, c.want, got)
			assert.Equal(t, c.full, full)
		})
	}
	for _, bad := range []string{"1", "yes", "-5m", "0s", "48h"} {
		t.Setenv(SoakEnvVar, bad)
		var rec failRecorder
		SoakDuration(&rec, 3*time.Minute)
		assert.True(t, rec.failed, "value %q", bad)
	}
}

// failRecorder is a testing.TB that records Fatalf instead of stopping.
type failRecorder struct {
	testing.TB
	failed bool
}

func (r *failRecorder) Helper() {}

func (r *failRecorder) Fatalf(string, ...any) { r.failed = true }
