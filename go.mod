module github.com/archenav/archenav

go 1.23.0

require github.com/go-gl/mathgl v1.2.0
