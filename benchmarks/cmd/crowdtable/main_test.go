package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseCrowdbench(t *testing.T) {
	mean, reached, err := parseCrowdbench([]byte("agents 500 ticks 600 cpu 3.700 mean 3.712 p50 3.600 p99 4.800 max 6.100 reached 56\n"))
	require.NoError(t, err)
	assert.Equal(t, 3.712, mean)
	assert.Equal(t, 56, reached)
	_, _, err = parseCrowdbench([]byte("init failed"))
	assert.Error(t, err)
}
