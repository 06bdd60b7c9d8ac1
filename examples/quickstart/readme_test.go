package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The documentation tests: the README's program is this package's
// main.go, and every link of the README and of docs/ points at a file (and
// a heading, for a link with an anchor into a markdown file) that exists.

// root is the repository's root (Example changes the working directory).
var root = func() string {
	dir, err := filepath.Abs("../..")
	if err != nil {
		panic(err)
	}
	return dir
}()

// expectedFromOtherBranches are guides that other work in progress writes:
// a link to one of them may point nowhere until it lands, and is checked as
// soon as the file exists. Empty this list once they have all landed.
var expectedFromOtherBranches = []string{}

func TestREADMEProgramIsTheQuickstart(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	source, err := os.ReadFile(filepath.Join(root, "examples/quickstart/main.go"))
	require.NoError(t, err)
	program := string(source[strings.Index(string(source), "package main"):])
	assert.Contains(t, string(readme), "```go\n"+program+"```\n",
		"the README shows examples/quickstart/main.go from its package clause on, as it is")
	lines := strings.Count(program, "\n")
	assert.LessOrEqual(t, lines, 50, "the README's program stays short")
}

func TestREADMEIsShort(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	assert.LessOrEqual(t, strings.Count(string(readme), "\n"), 250, "README lines: the details belong in docs/")
}

// TestREADMEListsEveryExample: a new example gets its line in the README.
func TestREADMEListsEveryExample(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	entries, err := os.ReadDir(filepath.Join(root, "examples"))
	require.NoError(t, err)
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "internal" {
			continue
		}
		assert.Contains(t, string(readme), "./examples/"+e.Name()+"`", "the README's examples table lists examples/%s", e.Name())
	}
}

// markdownLink matches [text](target) and ![alt](target); the target ends
// at the first space or closing parenthesis.
var markdownLink = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)\)`)

func TestDocLinksResolve(t *testing.T) {
	pages := []string{filepath.Join(root, "README.md")}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	pages = append(pages, docs...)
	require.Greater(t, len(pages), 10, "README and the guides")
	for _, page := range pages {
		text, err := os.ReadFile(page)
		require.NoError(t, err)
		name, _ := filepath.Rel(root, page)
		for _, target := range links(string(text)) {
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
			}
			rel, err := filepath.Rel(root, path)
			require.NoError(t, err)
			rel = filepath.ToSlash(rel)
			if _, err := os.Stat(path); err != nil {
				if slices.Contains(expectedFromOtherBranches, rel) {
					t.Logf("%s links %s, expected from another branch", name, target)
					continue
				}
				t.Errorf("%s links %s: %s does not exist", name, target, rel)
				continue
			}
			if anchor == "" || !strings.HasSuffix(path, ".md") {
				continue
			}
			body, err := os.ReadFile(path)
			require.NoError(t, err)
			if !slices.Contains(headingAnchors(string(body)), anchor) {
				t.Errorf("%s links %s: %s has no heading #%s (it has %v)", name, target, rel, anchor, headingAnchors(string(body)))
			}
		}
	}
}

// links returns the link targets of a markdown text outside code blocks.
func links(text string) []string {
	var targets []string
	inCode := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inCode = !inCode
			continue
		}
		if inCode {
			continue
		}
		for _, m := range markdownLink.FindAllStringSubmatch(line, -1) {
			targets = append(targets, m[1])
		}
	}
	return targets
}

// headingAnchors returns the anchors GitHub gives a markdown text's
// headings: lower case, punctuation dropped, spaces as hyphens, repeats
// numbered.
func headingAnchors(text string) []string {
	var anchors []string
	seen := map[string]int{}
	inCode := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inCode = !inCode
			continue
		}
		if inCode || !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(title) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
				b.WriteRune(r)
			}
		}
		anchor := b.String()
		if n := seen[anchor]; n > 0 {
			seen[anchor]++
			anchor += "-" + string(rune('0'+n))
		} else {
			seen[anchor] = 1
		}
		anchors = append(anchors, anchor)
	}
	return anchors
}

func TestHeadingAnchors(t *testing.T) {
	text := "# A Title\n## `navtool bake`\n```\n# not a heading\n```\n### The crowd against DetourCrowd (`navtool crowd`)\n## A Title\n"
	assert.Equal(t, []string{"a-title", "navtool-bake", "the-crowd-against-detourcrowd-navtool-crowd", "a-title-1"}, headingAnchors(text))
	assert.Equal(t, []string{"a.md", "b.png", "#c"}, links("[x](a.md) and ![y](b.png)\n```\n[z](no.md)\n```\n[w](#c)"))
}
