package hookio

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

const wrap = `Skill \"how-do-i\" completed (forked execution).\n\nResult:\n`

// env builds a payload with tool Skill, skill how-do-i, session s1 and the
// given raw tool_response (omitted when empty).
func env(resp string) string {
	s := `{"tool_name":"Skill","tool_input":{"skill":"how-do-i"},"session_id":"s1"`
	if resp != "" {
		s += `,"tool_response":` + resp
	}
	return s + "}"
}

// classifyBytes reads data as a hook's stdin and classifies it.
func classifyBytes(data []byte) (Result, error) {
	p, err := Read(bytes.NewReader(data))
	if err != nil {
		return Result{}, err
	}
	return p.Classify(), nil
}

func obj(success, status, result string) string {
	s := `{"success":` + success + `,"status":` + status
	if result != "" {
		s += `,"result":` + result
	}
	return s + `,"commandName":"procedures:how-do-i","agentId":"a0"}`
}

// Every payload shape and what the digest recorder makes of it (a digest,
// a legitimate decline, or a blind failure), at the classification level.
func TestClassifyMatrix(t *testing.T) {
	T, F, forked := "true", "false", `"forked"`
	for _, c := range []struct {
		name    string
		payload string
		kind    kind
		digest  string
	}{
		{"object digest", env(obj(T, forked, `"GOAL: x"`)), digestKind, "GOAL: x"},
		{"object digest trailing LFs", env(obj(T, forked, `"GOAL: x\n\n"`)), digestKind, "GOAL: x"},
		{"success false", env(obj(F, forked, `"GOAL: x"`)), failed, ""},
		{"success false no result", env(obj(F, forked, "")), failed, ""},
		{"success false null result", env(obj(F, forked, "null")), failed, ""},
		{"success false result 5", env(obj(F, forked, "5")), unrecognized, ""},
		{"status completed", env(obj(T, `"completed"`, `"GOAL: x"`)), unrecognized, ""},
		{"status Forked", env(obj(T, `"Forked"`, `"GOAL: x"`)), unrecognized, ""},
		{"success string true", env(obj(`"true"`, forked, `"GOAL: x"`)), unrecognized, ""},
		{"background", env(obj(T, forked, `"Scout is running in the background"`)), background, ""},
		{"background indented", env(obj(T, forked, `"  \t\u000b\u00a0\u3000Scout is running in the background"`)), background, ""},
		{"background after U+200B is not a notice", env(obj(T, forked, `"\u200bScout is running in the background"`)), digestKind, "\u200bScout is running in the background"},
		{"refusal", env(obj(T, forked, `"The user doesn't want to proceed with this tool use."`)), refused, ""},
		{"refusal mentioned anywhere", env(obj(T, forked, `"GOAL: x\nsaid want to proceed with this tool use"`)), refused, ""},
		{"launching", env(obj(T, forked, `"Launching skill: how-do-i"`)), launching, ""},
		{"launching on line 2 is a digest", env(obj(T, forked, `"GOAL: x\nLaunching skill: y"`)), digestKind, "GOAL: x\nLaunching skill: y"},
		{"background on line 2 is a digest", env(obj(T, forked, `"GOAL: x\nScout is running in the background"`)), digestKind, "GOAL: x\nScout is running in the background"},
		{"empty result", env(obj(T, forked, `""`)), unrecognized, ""},
		{"LF-only result", env(obj(T, forked, `"\n\n"`)), unrecognized, ""},
		{"whitespace result is a (declined) digest", env(obj(T, forked, `" \t "`)), digestKind, " \t "},
		{"space-LF result", env(obj(T, forked, `" \n "`)), digestKind, " \n "},
		{"number result", env(obj(T, forked, "5")), unrecognized, ""},
		{"object result", env(obj(T, forked, `{"a":1}`)), unrecognized, ""},
		{"future shape", env(`{"some_future_key":"digest moved somewhere new"}`), unrecognized, ""},
		{"no result", env(obj(T, forked, "")), unrecognized, ""},
		{"legacy wrapped", env(`"` + wrap + `GOAL: y"`), digestKind, "GOAL: y"},
		{"legacy same line", env(`"Skill \"how-do-i\" completed (forked execution).\nResult: GOAL: same line"`), digestKind, "GOAL: same line"},
		{"legacy empty name indented", env(`"Skill \"\" completed (forked execution).  \n \n  Result:\n\n   indented digest\n"`), digestKind, "indented digest"},
		{"legacy empty digest", env(`"` + wrap + `"`), unrecognized, ""},
		{"legacy whitespace digest", env(`"` + wrap + `  \n\t\n"`), unrecognized, ""},
		{"legacy wrapped refusal", env(`"` + wrap + `The user doesn't want to proceed with this tool use."`), refused, ""},
		{"legacy wrapped launching", env(`"` + wrap + `Launching skill: how-do-i"`), unrecognized, ""},
		{"legacy wrapped background", env(`"` + wrap + `Scout is running in the background"`), unrecognized, ""},
		{"legacy no LF before Result", env(`"Skill \"how-do-i\" completed (forked execution). Result:\nGOAL: y"`), unrecognized, ""},
		{"legacy preceded by text", env(`"x Skill \"how-do-i\" completed (forked execution).\n\nResult:\nGOAL: y"`), unrecognized, ""},
		{"legacy preceded by a space", env(`" Skill \"how-do-i\" completed (forked execution).\n\nResult:\nGOAL: y"`), unrecognized, ""},
		{"unwrapped string", env(`"GOAL: looks like a digest but arrived unwrapped"`), unrecognized, ""},
		{"unwrapped refusal", env(`"The user doesn't want to proceed with this tool use. The tool use was rejected."`), refused, ""},
		{"unwrapped launching", env(`"Launching skill: how-do-i"`), launching, ""},
		{"unwrapped background", env(`"Scout is running in the background"`), background, ""},
		{"no tool_response", env(""), unrecognized, ""},
		{"tool_response null", env("null"), unrecognized, ""},
		{"tool_response array", env("[1,2]"), unrecognized, ""},
		{"tool_response number", env("7"), unrecognized, ""},
		{"tool_response false falls back to response", `{"tool_name":"Skill","tool_input":{"skill":"how-do-i"},"session_id":"s1","tool_response":false,"response":` + obj(T, forked, `"GOAL: r"`) + `}`, digestKind, "GOAL: r"},
		{"response only", `{"tool_name":"Skill","tool_input":{"skill":"how-do-i"},"session_id":"s1","response":` + obj(T, forked, `"GOAL: r"`) + `}`, digestKind, "GOAL: r"},
		{"tool_response empty string wins", `{"tool_name":"Skill","tool_input":{"skill":"how-do-i"},"session_id":"s1","tool_response":"","response":` + obj(T, forked, `"GOAL: r"`) + `}`, unrecognized, ""},
		{"tool instead of tool_name", `{"tool":"Skill","tool_input":{"skill":"how-do-i"},"tool_response":` + obj(T, forked, `"GOAL: t"`) + `}`, digestKind, "GOAL: t"},
		{"tool_name null + tool", `{"tool_name":null,"tool":"Skill","tool_input":{"skill":"how-do-i"},"tool_response":` + obj(T, forked, `"GOAL: t"`) + `}`, digestKind, "GOAL: t"},
		{"tool_name empty + tool", `{"tool_name":"","tool":"Skill","tool_input":{"skill":"how-do-i"},"tool_response":` + obj(T, forked, `"GOAL: t"`) + `}`, otherTool, ""},
		{"tool_name skill", `{"tool_name":"skill","tool_input":{"skill":"how-do-i"}}`, otherTool, ""},
		{"tool_name space Skill", `{"tool_name":" Skill","tool_input":{"skill":"how-do-i"}}`, otherTool, ""},
		{"Tool_Name is not tool_name", `{"Tool_Name":"Skill","tool_input":{"skill":"how-do-i"},"tool_response":` + obj(T, forked, `"GOAL: t"`) + `}`, otherTool, ""},
		{"tool_name trailing LFs", `{"tool_name":"Skill\n\n","tool_input":{"skill":"how-do-i\n"},"tool_response":` + obj(T, forked, `"GOAL: t"`) + `}`, digestKind, "GOAL: t"},
		{"duplicate key last wins", `{"tool_name":"Skill","tool_name":"Bash"}`, otherTool, ""},
		{"duplicate key last wins 2", `{"tool_name":"Bash","tool_name":"Skill","tool_input":{"skill":"x","skill":"how-do-i"},"tool_response":` + obj(T, forked, `"GOAL: d"`) + `}`, digestKind, "GOAL: d"},
		{"input.skill", `{"tool_name":"Skill","input":{"skill":"how-do-i"},"tool_response":` + obj(T, forked, `"GOAL: i"`) + `}`, digestKind, "GOAL: i"},
		{"tool_input.skill null + input.skill", `{"tool_name":"Skill","tool_input":{"skill":null},"input":{"skill":"procedures:how-do-i"},"tool_response":` + obj(T, forked, `"GOAL: i"`) + `}`, digestKind, "GOAL: i"},
		{"tool_input string", `{"tool_name":"Skill","tool_input":"how-do-i","input":{"skill":"how-do-i"}}`, otherSkill, ""},
		{"tool_input false", `{"tool_name":"Skill","tool_input":false,"input":{"skill":"how-do-i"}}`, otherSkill, ""},
		{"tool_input array", `{"tool_name":"Skill","tool_input":[],"input":{"skill":"how-do-i"}}`, otherSkill, ""},
		{"tool_input number", `{"tool_name":"Skill","tool_input":5,"input":{"skill":"how-do-i"}}`, otherSkill, ""},
		{"take-note beats input", `{"tool_name":"Skill","tool_input":{"skill":"take-note"},"input":{"skill":"how-do-i"}}`, otherSkill, ""},
		{"Bash", `{"tool_name":"Bash"}`, otherTool, ""},
		{"empty object", `{}`, otherTool, ""},
		{"BOM", "\xEF\xBB\xBF" + `{"tool_name":"Bash"}`, otherTool, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := classifyBytes([]byte(c.payload))
			if err != nil {
				t.Fatal(err)
			}
			if r.kind != c.kind || r.Shape != c.kind.shape() || r.Digest != c.digest {
				t.Fatalf("Classify = %v (%v) %q, want %v (%v) %q", r.kind, r.Shape, r.Digest, c.kind, c.kind.shape(), c.digest)
			}
		})
	}
}

// Only the bare name and this plugin's namespace are the skill.
func TestSkillNames(t *testing.T) {
	for _, s := range []string{`"how-do-i"`, `"procedures:how-do-i"`} {
		r, _ := classifyBytes([]byte(`{"tool_name":"Skill","tool_input":{"skill":` + s + `}}`))
		if r.kind == otherSkill {
			t.Errorf("%s declined", s)
		}
	}
	for _, s := range []string{`"take-note"`, `"evil:how-do-i"`, `"How-Do-I"`, `"/how-do-i"`, `"procedures:am-i-done"`, `"procedures:how-do-i:x"`, `"some-other-skill"`, "5", `""`, "null"} {
		r, _ := classifyBytes([]byte(`{"tool_name":"Skill","tool_input":{"skill":` + s + `},"tool_response":` + obj("true", `"forked"`, `"GOAL: x"`) + `}`))
		if r.kind != otherSkill {
			t.Errorf("skill %s: %v, want other-skill", s, r.Shape)
		}
	}
}

// Decoding failures.
func TestDecodeErrors(t *testing.T) {
	for _, c := range []struct {
		in   string
		kind error
	}{
		{"not json {{{ ", ErrMalformed},
		{`{"a":1`, ErrMalformed},
		{`{"a":nan}`, ErrMalformed},
		{"null", ErrMalformed},
		{"false", ErrMalformed},
		{" null \n", ErrMalformed},
		{"", ErrMalformed},
		{" \n\t ", ErrMalformed},
		{`{} {}`, ErrMalformed},
		{`{"a":1} {"b":2}`, ErrMalformed},
		{`[] {"tool_name":"Skill"}`, ErrMalformed},
		{`{"tool_name":"Skill"} []`, ErrMalformed},
		{`{"tool_name":"Bash"} x`, ErrMalformed},
		{`"not an envelope"`, ErrNonObject},
		{`[]`, ErrNonObject},
		{`0`, ErrNonObject},
		{`42`, ErrNonObject},
		{`true`, ErrNonObject},
		{"\xEF\xBB\xBF[]", ErrNonObject},
	} {
		_, err := classifyBytes([]byte(c.in))
		var de *DecodeError
		if !errors.Is(err, c.kind) || !errors.As(err, &de) {
			t.Errorf("Classify(%q) error %v, want %v", c.in, err, c.kind)
		}
	}
}

// Session id text, one rendering (jq -r, trailing LFs removed)
// for every hook; the digest recorder keys only strings, true and integers.
func TestSessionID(t *testing.T) {
	for _, c := range []struct {
		raw     string
		want    string
		ok      bool
		keyable string
	}{
		{`"abc\n\n"`, "abc", true, "abc"},
		{`"sess/../weird id.42"`, "sess/../weird id.42", true, "sess/../weird id.42"},
		{`true`, "true", true, "true"},
		{`123`, "123", true, "123"},
		{`""`, "", true, ""},
		{`null`, "", false, ""},
		{`false`, "", false, ""},
		{`{"a":1}`, "{\n  \"a\": 1\n}", true, ""},
		{`["a"]`, "[\n  \"a\"\n]", true, ""},
		{`1.50`, "1.5", true, ""},
		{`1e3`, "1000", true, ""},
	} {
		p, err := decode([]byte(`{"session_id":` + c.raw + `}`))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := p.SessionID()
		if got != c.want || ok != c.ok {
			t.Errorf("session_id %s: %q %v, want %q %v", c.raw, got, ok, c.want, c.ok)
		}
		if k := p.Classify().SessionID; k != c.keyable {
			t.Errorf("session_id %s: Result.SessionID %q, want %q", c.raw, k, c.keyable)
		}
	}
	p, _ := decode([]byte(`{}`))
	if _, ok := p.SessionID(); ok {
		t.Error("missing session_id reported present")
	}
}

// A nil payload (what a failed Read returns) reads as one with every member
// absent.
func TestNilPayload(t *testing.T) {
	var p *Payload
	if v := p.Get("x"); v != nil {
		t.Errorf("Get: %q", v)
	}
	if id, ok := p.SessionID(); ok || id != "" || p.ToolName() != "" || p.Skill() != "" {
		t.Errorf("accessors of nil: %q %v %q %q", id, ok, p.ToolName(), p.Skill())
	}
	if r := p.Classify(); r.Shape != Other || r.SessionID != "" {
		t.Errorf("Classify of nil: %+v", r)
	}
	if r := new(Payload).Classify(); r.Shape != Other {
		t.Errorf("Classify of the zero Payload: %+v", r)
	}
}

// The committed live payload has the shape the hook
// really receives — deleting a key from it or wrapping its result turns this
// red — and classifies as a digest equal to .tool_response.result.
func TestLiveFixture(t *testing.T) {
	data, err := os.ReadFile("../testdata/hook/posttooluse-skill-forked.json")
	if err != nil {
		t.Fatal(err)
	}
	var env map[string]json.RawMessage
	if err := json.Unmarshal(data, &env); err != nil {
		t.Fatal(err)
	}
	var resp map[string]json.RawMessage
	if err := json.Unmarshal(env["tool_response"], &resp); err != nil {
		t.Fatalf("tool_response is not an object: %v", err)
	}
	var keys []string
	for k := range resp {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"agentId", "commandName", "result", "status", "success"}; !slices.Equal(keys, want) {
		t.Fatalf("tool_response keys %q, want %q", keys, want)
	}
	var result string
	if err := json.Unmarshal(resp["result"], &result); err != nil {
		t.Fatalf("result is not a string: %v", err)
	}
	if strings.Contains(result, "completed (forked execution)") || strings.Contains(result, "Result:") {
		t.Fatal("fixture result carries the legacy wrapper")
	}
	r, err := classifyBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	if r.Shape != Digest || r.legacy || r.SessionID != "00000000-0000-4000-8000-000000000001" {
		t.Fatalf("fixture classified %+v", r)
	}
	if r.Digest != strings.TrimRight(result, "\n") || len(result) != 221 {
		t.Fatalf("digest %q (result %d bytes)", r.Digest, len(result))
	}
}

// FuzzClassify: no panic; a Digest is non-empty, has no trailing LF and is
// never a notice; decoding errors are exactly one of the two kinds.
func FuzzClassify(f *testing.F) {
	if data, err := os.ReadFile("../testdata/hook/posttooluse-skill-forked.json"); err == nil {
		f.Add(data)
	}
	for _, s := range []string{
		env(obj("true", `"forked"`, `"GOAL: x"`)),
		env(`"` + wrap + `GOAL: y"`),
		env(`"` + wrap + `Launching skill: how-do-i"`),
		env(obj("false", `"forked"`, `"x"`)),
		`{"tool":"Skill","input":{"skill":"procedures:how-do-i"},"response":"Scout is running in the background"}`,
		"not json {{{ ", "null", "[]", "", "{} {}", "\xEF\xBB\xBF{}",
		`{"tool_name":"Skill","tool_input":5}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := classifyBytes(data)
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrNonObject) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if r.Shape < Other || r.Shape > Unrecognized || r.kind.shape() != r.Shape {
			t.Fatalf("shape %d, kind %d", r.Shape, r.kind)
		}
		if r.Shape == Digest {
			if r.Digest == "" || strings.HasSuffix(r.Digest, "\n") || rejected(r.Digest) {
				t.Fatalf("bad digest %q", r.Digest)
			}
		} else if r.Digest != "" {
			t.Fatalf("%v carries a digest", r.Shape)
		}
	})
}

// The leading-space class of the wrapper regexp (jq's \s) and unicode.IsSpace,
// used for the notice anchors, are the same set.
func TestSpaceClassIsUnicodeIsSpace(t *testing.T) {
	re := regexp.MustCompile(`\A` + space + `\z`)
	for r := rune(0); r <= 0x3100; r++ {
		if re.MatchString(string(r)) != unicode.IsSpace(r) {
			t.Errorf("U+%04X: class %v, unicode.IsSpace %v", r, re.MatchString(string(r)), unicode.IsSpace(r))
		}
	}
}
