package main

import (
	"os"
)

// Example runs the README's program from the repository's root, where its
// level's path points.
func Example() {
	if err := os.Chdir("../.."); err != nil {
		panic(err)
	}
	main()
	// Output: arrived after 8.6 s
}
