package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// fixtureDir holds the hook payloads captured from the CLI, normalised.
var fixtureDir = filepath.Join("..", "..", "testdata", "hookpayloads")

// category names the kind of a payload: its event, tool and variant.
func category(p map[string]any) string {
	ev, _ := p["hook_event_name"].(string)
	name := ev
	if tool, ok := p["tool_name"].(string); ok {
		name += "-" + tool
		if in, ok := p["tool_input"].(map[string]any); ok && tool == "Skill" && ev == "PostToolUse" {
			sk, _ := in["skill"].(string)
			name += "-" + strings.TrimPrefix(sk, "procedures:")
		}
	}
	if _, ok := p["agent_id"]; ok {
		name += "-subagent"
	}
	if v, ok := p["stop_hook_active"].(bool); ok {
		if v {
			name += "-stop_hook_active-true"
		} else {
			name += "-stop_hook_active-false"
		}
	}
	return name
}

// keyPaths lists every object key of v, nested ones as a.b, array
// elements as a[].b.
func keyPaths(prefix string, v any, out map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			out[p] = true
			keyPaths(p, e, out)
		}
	case []any:
		for _, e := range v {
			keyPaths(prefix+"[]", e, out)
		}
	}
}

func sortedKeys(v any) []string {
	m := map[string]bool{}
	keyPaths("", v, m)
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// projectsDir is the CLI's per-project transcript directory.
var projectsDir = regexp.MustCompile(`/projects/[^/]+/`)

// normalise replaces host- and run-specific values.
func normalise(raw []byte, repl [][2]string) map[string]any {
	s := string(raw)
	for _, r := range repl {
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	var p map[string]any
	if json.Unmarshal([]byte(s), &p) != nil {
		return nil
	}
	fix := map[string]string{"prompt_id": "11111111-1111-4111-8111-111111111111", "agent_id": "a0000000000000001",
		"agentId": "a0000000000000001", "tool_use_id": "toolu_mock_000001"}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if f, ok := fix[k]; ok {
					if _, isStr := e.(string); isStr {
						v[k] = f
					}
				}
				if t, ok := e.(string); ok && k == "transcript_path" {
					v[k] = projectsDir.ReplaceAllString(t, "/projects/-project/")
				}
				if k == "duration_ms" {
					v[k] = 0
				}
				walk(v[k])
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(p)
	return p
}

// TestE2EHookPayloads compares the key sets of the payloads the CLI sent in
// this run's sessions with the committed fixtures, so a change of shape is
// loud. PROCEDURES_E2E_UPDATE=1 rewrites the fixtures from this run. It runs
// last and needs the sessions of the whole suite.
func TestE2EHookPayloads(t *testing.T) {
	need(t)
	allCaptures.Lock()
	// Some keys come and go within a kind (tool_response.toolsUsedLine):
	// a kind's key set is the union over this run, and its fixture is the
	// payload with the most keys.
	got := map[string]map[string]any{}
	union := map[string]map[string]bool{}
	for id, cs := range allCaptures.bySession {
		for _, c := range cs {
			p := normalise(c.Raw, allCaptures.repl[id])
			if p == nil {
				t.Errorf("hook %s got a payload that is not a JSON object: %q", c.Label, c.Raw)
				continue
			}
			cat := category(p)
			if union[cat] == nil {
				union[cat] = map[string]bool{}
			}
			keyPaths("", p, union[cat])
			if prev, ok := got[cat]; !ok || len(sortedKeys(p)) > len(sortedKeys(prev)) {
				got[cat] = p
			}
		}
	}
	allCaptures.Unlock()
	if len(got) == 0 {
		t.Fatal("no hook payloads were captured: run the whole suite (-run '^TestE2E')")
	}
	if os.Getenv("PROCEDURES_E2E_UPDATE") == "1" {
		os.RemoveAll(fixtureDir)
		if err := os.MkdirAll(fixtureDir, 0o755); err != nil {
			t.Fatal(err)
		}
		for cat, p := range got {
			data, _ := json.MarshalIndent(p, "", "  ")
			if err := os.WriteFile(filepath.Join(fixtureDir, cat+".json"), append(data, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("wrote %d fixtures to %s", len(got), fixtureDir)
	}
	files, _ := filepath.Glob(filepath.Join(fixtureDir, "*.json"))
	want := map[string][]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var p map[string]any
		if err := json.Unmarshal(data, &p); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		cat := strings.TrimSuffix(filepath.Base(f), ".json")
		if category(p) != cat {
			t.Errorf("%s holds a %s payload", f, category(p))
		}
		want[cat] = sortedKeys(p)
	}
	for cat, keys := range want {
		u, ok := union[cat]
		if !ok {
			t.Errorf("fixture %s: the CLI sent no payload of this kind in this run", cat)
			continue
		}
		var g []string
		for k := range u {
			g = append(g, k)
		}
		sort.Strings(g)
		if !reflect.DeepEqual(g, keys) {
			t.Errorf("fixture %s: the CLI now sends keys\n%v\nthe fixture has\n%v\n(PROCEDURES_E2E_UPDATE=1 rewrites the fixtures)", cat, g, keys)
		}
	}
	for cat := range got {
		if _, ok := want[cat]; !ok {
			t.Errorf("the CLI sent a %s payload and no fixture has its shape (PROCEDURES_E2E_UPDATE=1 writes it)", cat)
		}
	}
	// Every wired event has a fixture.
	for _, h := range hookNames() {
		ev := strings.SplitN(h, ".", 2)[0]
		var ok bool
		for cat := range want {
			ok = ok || strings.HasPrefix(cat, ev)
		}
		if !ok {
			t.Errorf("no fixture for the wired event %s", ev)
		}
	}
}
