package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPackageDocsStartHere: the README promises that each package's go doc
// starts with a "Start here" section. go doc shows the comment attached to
// a package clause; a blank line inside it detaches what comes before, so
// the section is looked for in the attached comment, as go doc shows it.
// Commands, examples, benchmarks and internal packages are not the API.
func TestPackageDocsStartHere(t *testing.T) {
	skip := map[string]bool{"cmd": true, "examples": true, "benchmarks": true, "internal": true, "testdata": true}
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") || skip[d.Name()] {
			return filepath.SkipDir
		}
		docs, files := packageDocs(t, path)
		if files == 0 {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		checked++
		if !assert.Len(t, docs, 1, "%s: one file carries the package comment", rel) {
			return nil
		}
		assert.Contains(t, docs[0], "\n# Start here\n", "%s: go doc shows a # Start here section", rel)
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, checked, 15, "packages checked")
}

// packageDocs returns the package comments of a directory's non-test Go
// files and the number of those files.
func packageDocs(t *testing.T, dir string) (docs []string, files int) {
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.PackageClauseOnly|parser.ParseComments)
		require.NoError(t, err)
		if f.Name.Name == "main" {
			continue
		}
		files++
		if f.Doc != nil {
			docs = append(docs, f.Doc.Text())
		}
	}
	return docs, files
}
