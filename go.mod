module github.com/archenav/archenav

go 1.23.0

require (
	github.com/go-gl/mathgl v1.2.0 // indirect
	github.com/mlange-42/arche v0.15.3 // indirect
	github.com/stretchr/testify v1.11.1 // indirect
)
