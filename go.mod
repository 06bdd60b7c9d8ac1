module github.com/archenav/archenav

go 1.23.0

require github.com/go-gl/mathgl v1.2.0

require github.com/mlange-42/arche v0.15.3

require (
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	github.com/stretchr/testify v1.11.1
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
