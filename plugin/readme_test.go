package plugin_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestREADMEQuickStartIsTheExample checks that the program the README shows
// under "Use the plugin" is Example_quickStart as a main package (with the
// level's path seen from the repository's root), so that it compiles and
// runs as written.
func TestREADMEQuickStartIsTheExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	source, err := os.ReadFile("quickstart_example_test.go")
	require.NoError(t, err)

	section := string(readme)
	start := strings.Index(section, "## Use the plugin")
	require.GreaterOrEqual(t, start, 0, "README section")
	section = section[start:]
	begin := strings.Index(section, "```go\n")
	require.GreaterOrEqual(t, begin, 0, "README code block")
	section = section[begin+len("```go\n"):]
	shown := section[:strings.Index(section, "```\n")]

	text := string(source)
	imports := text[strings.Index(text, "import ("):]
	imports = imports[:strings.Index(imports, ")\n")+2]
	body := text[strings.Index(text, "func Example_quickStart() {\n")+len("func Example_quickStart() {\n"):]
	body = body[:strings.Index(body, "\t// Output:")]
	body = strings.ReplaceAll(body, `"../testdata/`, `"testdata/`)

	want := "package main\n\n" + imports + "\nfunc main() {\n" + body + "}\n"
	assert.Equal(t, want, shown)
}
