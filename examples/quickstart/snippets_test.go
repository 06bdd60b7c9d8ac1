package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The guides' Go snippets compile: every ```go block of docs/*.md is type
// checked against the module's packages. A snippet is a fragment of a
// function (or whole declarations), so two things are supplied around it:
//
//   - check(err), the guides' stand-in for your error handling, and ctx, a
//     context.Context, are declared for every snippet;
//   - the names the guide's text gives the snippet (the mesh, the world, a
//     start point) are declared in an HTML comment right above the block,
//     which a rendered page does not show:
//
//     <!-- snippet given:
//     var mesh *navmesh.Mesh
//     var startPos, endPos geom.Vec3
//     -->
//
// A block that is not Go code to compile (an interface quoted from the
// source, output) says so instead: <!-- snippet: not compiled, REASON -->.
// Packages are imported by the name the snippet uses (query.New imports
// navcore/query); unused variables and imports are allowed, as a fragment
// often leaves a result for the reader to use.

// snippetImports maps the package names the guides use to import paths.
var snippetImports = map[string]string{
	"bake":       "github.com/archenav/archenav/bake",
	"bakedraw":   "github.com/archenav/archenav/bake/bakedraw",
	"dynamic":    "github.com/archenav/archenav/bake/dynamic",
	"components": "github.com/archenav/archenav/components",
	"collider":   "github.com/archenav/archenav/navcore/collider",
	"crowd":      "github.com/archenav/archenav/navcore/crowd",
	"debugdraw":  "github.com/archenav/archenav/navcore/debugdraw",
	"raster":     "github.com/archenav/archenav/navcore/debugdraw/raster",
	"svg":        "github.com/archenav/archenav/navcore/debugdraw/svg",
	"geom":       "github.com/archenav/archenav/navcore/geom",
	"hierarchy":  "github.com/archenav/archenav/navcore/hierarchy",
	"navdraw":    "github.com/archenav/archenav/navcore/navdraw",
	"navmesh":    "github.com/archenav/archenav/navcore/navmesh",
	"navquery":   "github.com/archenav/archenav/navcore/navquery",
	"query":      "github.com/archenav/archenav/navcore/query",
	"tilecache":  "github.com/archenav/archenav/navcore/tilecache",
	"plugin":     "github.com/archenav/archenav/plugin",
	"crowddraw":  "github.com/archenav/archenav/plugin/crowddraw",
	"systems":    "github.com/archenav/archenav/systems",
	"ecs":        "github.com/mlange-42/arche/ecs",
	"generic":    "github.com/mlange-42/arche/generic",
	"mgl32":      "github.com/go-gl/mathgl/mgl32",
	"bytes":      "bytes",
	"color":      "image/color",
	"context":    "context",
	"errors":     "errors",
	"fmt":        "fmt",
	"log":        "log",
	"math":       "math",
	"rand":       "math/rand/v2",
	"os":         "os",
	"time":       "time",
}

// snippetPrelude is declared for every snippet.
const snippetPrelude = `
// check stands for the reader's error handling.
func check(err error) {
	if err != nil {
		panic(err)
	}
}

var ctx context.Context
`

// snippet is a ```go block of a guide.
type snippet struct {
	page string // relative to the repository's root
	line int    // of the block's first code line
	code string
	// given declares the names the guide's text supplies.
	given string
	// skip, when set, is why the block is not compiled.
	skip string
}

// snippetMarker matches the HTML comment above a block.
var snippetMarker = regexp.MustCompile(`(?s)^<!--\s*snippet(:\s*not compiled(.*)|\s+given:(.*))-->$`)

// snippets returns the ```go blocks of a markdown text.
func snippets(page, text string) ([]snippet, error) {
	lines := strings.Split(text, "\n")
	var out []snippet
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```go" {
			continue
		}
		s := snippet{page: page, line: i + 2}
		// The marker comment ends on the line above the fence.
		if j := i - 1; j >= 0 && strings.HasSuffix(strings.TrimSpace(lines[j]), "-->") {
			k := j
			for k > 0 && !strings.HasPrefix(strings.TrimSpace(lines[k]), "<!--") {
				k--
			}
			comment := strings.TrimSpace(strings.Join(lines[k:j+1], "\n"))
			m := snippetMarker.FindStringSubmatch(comment)
			if m == nil {
				return nil, fmt.Errorf("%s:%d: the comment above a ```go block is not a snippet marker: %q", page, j+1, comment)
			}
			if m[2] != "" || strings.HasPrefix(m[1], ":") {
				s.skip = strings.Trim(strings.TrimSpace(m[2]), ",: ")
				if s.skip == "" {
					return nil, fmt.Errorf("%s:%d: a snippet not compiled says why", page, j+1)
				}
			}
			s.given = m[3]
		}
		end := i + 1
		for end < len(lines) && strings.TrimSpace(lines[end]) != "```" {
			end++
		}
		if end == len(lines) {
			return nil, fmt.Errorf("%s:%d: a ```go block that never ends", page, i+1)
		}
		s.code = strings.Join(lines[i+1:end], "\n")
		out = append(out, s)
		i = end
	}
	return out, nil
}

// packageRef matches a name used as a package: a word before a dot, not
// after one.
var packageRef = regexp.MustCompile(`(^|[^.\w])([a-z][a-z0-9]*)\.[A-Za-z]`)

// source returns the snippet as a Go file: the prelude, the given
// declarations and the code, as declarations if it parses as such, else as
// the body of a function. Line directives put the code's errors on the
// page's lines.
func (s snippet) source() string {
	declared := map[string]bool{}
	if f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+s.given, parser.SkipObjectResolution); err == nil {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch spec := spec.(type) {
					case *ast.ValueSpec:
						for _, n := range spec.Names {
							declared[n.Name] = true
						}
					case *ast.TypeSpec:
						declared[spec.Name.Name] = true
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil {
					declared[d.Name.Name] = true
				}
			}
		}
	}
	used := map[string]bool{"context": true}
	for _, m := range packageRef.FindAllStringSubmatch(s.given+"\n"+s.code, -1) {
		if _, ok := snippetImports[m[2]]; ok && !declared[m[2]] {
			used[m[2]] = true
		}
	}
	names := make([]string, 0, len(used))
	for n := range used {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("package snippet\n\nimport (\n")
	for _, n := range names {
		fmt.Fprintf(&b, "\t%s %q\n", n, snippetImports[n])
	}
	b.WriteString(")\n")
	b.WriteString(snippetPrelude)
	b.WriteString(s.given + "\n")
	head := b.String()
	asDecls := fmt.Sprintf("%s//line %s:%d\n%s\n", head, s.page, s.line, s.code)
	if _, err := parser.ParseFile(token.NewFileSet(), "", asDecls, parser.SkipObjectResolution); err == nil {
		return asDecls
	}
	return fmt.Sprintf("%sfunc _() {\n//line %s:%d\n%s\n}\n", head, s.page, s.line, s.code)
}

func TestDocSnippetsCompile(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	var all []snippet
	for _, page := range pages {
		text, err := os.ReadFile(page)
		require.NoError(t, err)
		name, err := filepath.Rel(root, page)
		require.NoError(t, err)
		found, err := snippets(filepath.ToSlash(name), string(text))
		require.NoError(t, err)
		all = append(all, found...)
	}
	require.Greater(t, len(all), 5, "the guides have Go snippets")

	fset := token.NewFileSet()
	imp := exportDataImporter(t, fset)
	compiled := 0
	for _, s := range all {
		if s.skip != "" {
			t.Logf("%s:%d not compiled: %s", s.page, s.line, s.skip)
			continue
		}
		compiled++
		// The line directives name the page.
		file, err := parser.ParseFile(fset, "snippet.go", s.source(), parser.AllErrors)
		if err != nil {
			t.Errorf("%s:%d does not parse: %v", s.page, s.line, err)
			continue
		}
		var hard []error
		config := types.Config{Importer: imp, Error: func(err error) {
			var typeErr types.Error
			if errors.As(err, &typeErr) && typeErr.Soft {
				return // an unused variable or import
			}
			hard = append(hard, err)
		}}
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
		_, _ = config.Check("snippet", fset, []*ast.File{file}, info) // the errors are collected above
		for _, err := range hard {
			t.Errorf("%v", err)
		}
		for _, pos := range ignoredErrors(file, info) {
			t.Errorf("%s: an error result is ignored", fset.Position(pos))
		}
	}
	t.Logf("%d snippets compiled, %d not compiled by their marker", compiled, len(all)-compiled)
}

// exportDataImporter imports the packages the snippets may use from the
// compiler's export data, which go list -export builds (or finds in the
// build cache): much faster than type checking them from source.
func exportDataImporter(t *testing.T, fset *token.FileSet) types.Importer {
	t.Helper()
	args := []string{"list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}"}
	for _, path := range snippetImports {
		args = append(args, path)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	out, err := cmd.Output()
	require.NoError(t, err, "go list -export: %s", errorOutput(err))
	exports := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, file, _ := strings.Cut(line, "=")
		exports[path] = file
	}
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("no export data for %q: add it to snippetImports", path)
		}
		return os.Open(file)
	})
}

// errorOutput returns the standard error of a failed command.
func errorOutput(err error) string {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return string(exit.Stderr)
	}
	return ""
}

// ignoredErrors returns where a snippet drops an error result: a call
// whose results include an error written as a statement, or an error result
// assigned to _.
func ignoredErrors(file *ast.File, info *types.Info) []token.Pos {
	errorType := types.Universe.Lookup("error").Type()
	// isError reports whether result i of call is an error; i < 0 asks
	// whether any result is.
	isError := func(call ast.Expr, i int) bool {
		tv, ok := info.Types[call]
		if !ok {
			return false
		}
		if tuple, ok := tv.Type.(*types.Tuple); ok {
			for j := 0; j < tuple.Len(); j++ {
				if (i < 0 || i == j) && types.Identical(tuple.At(j).Type(), errorType) {
					return true
				}
			}
			return false
		}
		return (i <= 0) && types.Identical(tv.Type, errorType)
	}
	var found []token.Pos
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ExprStmt:
			if call, ok := n.X.(*ast.CallExpr); ok && isError(call, -1) {
				found = append(found, call.Pos())
			}
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				id, ok := lhs.(*ast.Ident)
				if !ok || id.Name != "_" {
					continue
				}
				if len(n.Rhs) == 1 && len(n.Lhs) > 1 && isError(n.Rhs[0], i) ||
					len(n.Rhs) == len(n.Lhs) && isError(n.Rhs[i], 0) {
					found = append(found, id.Pos())
				}
			}
		}
		return true
	})
	return found
}

// TestDocSnippetsHandleErrors: no guide snippet drops an error. A line that
// assigns err is followed, before err is assigned again or the snippet ends,
// by a use of it (check(err), return err, if err != nil). Errors dropped
// otherwise (a call as a statement, _ =) are TestDocSnippetsCompile's.
func TestDocSnippetsHandleErrors(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	for _, page := range pages {
		text, err := os.ReadFile(page)
		require.NoError(t, err)
		name, _ := filepath.Rel(root, page)
		found, err := snippets(filepath.ToSlash(name), string(text))
		require.NoError(t, err)
		for _, s := range found {
			if s.skip != "" {
				continue
			}
			for _, line := range droppedErrors(s.code) {
				t.Errorf("%s:%d: err is assigned and not checked", s.page, s.line+line)
			}
		}
	}
}

// errAssigned matches a line assigning err; errUsed a line reading it.
var (
	errAssigned = regexp.MustCompile(`\berr\s*:?=[^=]`)
	errUsed     = regexp.MustCompile(`check\(err\)|return[^\n]*\berr\b|err\s*!=|==\s*err\b|\(err\)`)
)

// droppedErrors returns the lines (0-based) of code that assign err and are
// followed by another assignment or the end without a use in between.
func droppedErrors(code string) []int {
	var dropped []int
	pending := -1
	for i, line := range strings.Split(code, "\n") {
		line, _, _ = strings.Cut(line, "//")
		if pending >= 0 && errUsed.MatchString(line) {
			pending = -1
		}
		if errAssigned.MatchString(line) && !strings.Contains(line, "if ") {
			if pending >= 0 {
				dropped = append(dropped, pending)
			}
			pending = i
			if errUsed.MatchString(line) {
				pending = -1
			}
		}
	}
	if pending >= 0 {
		dropped = append(dropped, pending)
	}
	return dropped
}

func TestSnippetParsing(t *testing.T) {
	text := "intro\n<!-- snippet given:\nvar mesh *navmesh.Mesh\n-->\n```go\nq, err := query.New(mesh, 8)\ncheck(err)\n```\n" +
		"<!-- snippet: not compiled, quoted from the source -->\n```go\ntype Drawer interface{}\n```\n```go\nx := 1\n```\n"
	got, err := snippets("p.md", text)
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, snippet{page: "p.md", line: 6, code: "q, err := query.New(mesh, 8)\ncheck(err)", given: "\nvar mesh *navmesh.Mesh\n"}, got[0])
	assert.Equal(t, "quoted from the source", got[1].skip)
	assert.Equal(t, snippet{page: "p.md", line: 14, code: "x := 1"}, got[2])
	src := got[0].source()
	assert.Contains(t, src, `query "github.com/archenav/archenav/navcore/query"`)
	assert.Contains(t, src, `navmesh "github.com/archenav/archenav/navcore/navmesh"`)
	assert.Contains(t, src, "func _() {\n//line p.md:6\n")

	_, err = snippets("p.md", "<!-- a comment -->\n```go\nx\n```\n")
	assert.Error(t, err, "a comment above a block that is no marker")

	assert.Equal(t, []int{0}, droppedErrors("a, err := f()\nb, err := g()\ncheck(err)"))
	assert.Equal(t, []int{2}, droppedErrors("a, err := f()\ncheck(err)\nerr = g()"))
	assert.Empty(t, droppedErrors("a, err := f()\nif err != nil {\n\treturn err\n}\ncheck(g())"))
	assert.True(t, slices.Equal([]int{0}, droppedErrors("err = h() // ok?\n")))
}

// TestCrowdGuideListsStagesAndEvents: docs/crowd.md names every stage of
// the schedule in the order plugin declares them, and every event kind.
func TestCrowdGuideListsStagesAndEvents(t *testing.T) {
	guide, err := os.ReadFile(filepath.Join(root, "docs", "crowd.md"))
	require.NoError(t, err)
	schedule, err := os.ReadFile(filepath.Join(root, "plugin", "schedule.go"))
	require.NoError(t, err)
	events, err := os.ReadFile(filepath.Join(root, "components", "events.go"))
	require.NoError(t, err)

	stages := regexp.MustCompile(`(?m)^\t(Stage\w+)\s*= "`).FindAllStringSubmatch(string(schedule), -1)
	require.Greater(t, len(stages), 10)
	at := 0
	for _, m := range stages {
		i := strings.Index(string(guide[at:]), "`"+m[1]+"`")
		if !assert.GreaterOrEqual(t, i, 0, "docs/crowd.md lists %s after the stages before it", m[1]) {
			continue
		}
		at += i
	}
	kinds := regexp.MustCompile(`(?m)^\t(Event\w+)( EventKind = iota.*)?$`).FindAllStringSubmatch(string(events), -1)
	require.Greater(t, len(kinds), 10)
	for _, m := range kinds {
		assert.Contains(t, string(guide), "`"+m[1]+"`", "docs/crowd.md names the event kind")
	}
}
