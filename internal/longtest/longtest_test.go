package longtest

import (
	"testing"

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
