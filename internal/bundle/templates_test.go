package bundle_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procedures-go/procedures/internal/bundle"
	"github.com/procedures-go/procedures/internal/cli"
	"github.com/procedures-go/procedures/internal/cli/enforcefrontmatter"
	"github.com/procedures-go/procedures/internal/cli/lintfrontmatter"
)

// templateStores is the store each update-records template writes into.
var templateStores = map[string]string{
	"decision": "references/decisions", "solution": "references/solutions",
	"failure-mode": "references/failure-modes", "procedure": "references/procedures",
	"research": "references/research", "plan": "plans",
	"principle": "references/principles", "invariant": "references/invariants",
	"policy": "references/policies", "standard": "references/standards",
}

// Every record template of update-records, written into its store as it
// ships, passes lint-frontmatter with no warning and the enforce-frontmatter
// hook with no block; every store the lint reads has its template.
func TestRecordTemplatesPassTheFrontmatterChecks(t *testing.T) {
	const dir = "skills/update-records/templates"
	ents, err := fs.ReadDir(bundle.PluginFiles(), dir)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	env := func(k string) (string, bool) {
		switch k {
		case "LINT_FRONTMATTER_ROOT", "KNOWLEDGE_ROOT", "CODEX_ROOT":
			return root, true
		case "HOME":
			return root, true
		}
		return "", false
	}
	seen := map[string]bool{}
	for _, e := range ents {
		kind := strings.TrimSuffix(e.Name(), ".md")
		store, ok := templateStores[kind]
		if !ok {
			t.Errorf("template %s has no store", e.Name())
			continue
		}
		seen[kind] = true
		b, _ := fs.ReadFile(bundle.PluginFiles(), path.Join(dir, e.Name()))
		if !bytes.Contains(b, []byte("\nkind: "+kind+"\n")) {
			t.Errorf("%s: kind: is not %s", e.Name(), kind)
		}
		// Two records per store, as an agent would write them: ids differ.
		for _, id := range []string{"one", "two"} {
			rec := bytes.Replace(b, []byte("id: <slug>"), []byte("id: "+kind+"."+id), 1)
			p := filepath.Join(root, filepath.FromSlash(store), id+".md")
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, rec, 0o644); err != nil {
				t.Fatal(err)
			}
			payload, _ := json.Marshal(map[string]any{"hook_event_name": "PostToolUse", "tool_name": "Write",
				"tool_input": map[string]any{"file_path": p, "content": string(rec)}})
			var stdout, stderr bytes.Buffer
			if code := enforcefrontmatter.Main(nil, bytes.NewReader(payload), &stdout, &stderr, cli.Env(env)); code != 0 || stderr.Len() > 0 {
				t.Errorf("enforce-frontmatter on the %s template: exit %d\n%s", kind, code, stderr.String())
			}
		}
	}
	for kind := range templateStores {
		if !seen[kind] {
			t.Errorf("no template for %s", kind)
		}
	}
	var stdout, stderr bytes.Buffer
	code := lintfrontmatter.Main(nil, nil, &stdout, &stderr, cli.Env(env))
	if code != 0 || strings.Contains(stdout.String()+stderr.String(), "⚠") || !strings.Contains(stdout.String()+stderr.String(), "linted 20 file(s)") {
		t.Errorf("lint-frontmatter: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
}
