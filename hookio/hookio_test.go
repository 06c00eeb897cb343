package hookio

import (
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

func obj(success, status, result string) string {
	s := `{"success":` + success + `,"status":` + status
	if result != "" {
		s += `,"result":` + result
	}
	return s + `,"commandName":"procedures:how-do-i","agentId":"a0"}`
}

// The outcome matrix of spec 3.6 and the taxonomy of spec 7, at the
// classification level (HK-10..HK-17).
func TestClassifyMatrix(t *testing.T) {
	T, F, forked := "true", "false", `"forked"`
	for _, c := range []struct {
		name    string
		payload string
		shape   Shape
		digest  string
	}{
		{"object digest", env(obj(T, forked, `"GOAL: x"`)), Digest, "GOAL: x"},
		{"object digest trailing LFs", env(obj(T, forked, `"GOAL: x\n\n"`)), Digest, "GOAL: x"},
		{"success false", env(obj(F, forked, `"GOAL: x"`)), Failed, ""},
		{"success false no result", env(obj(F, forked, "")), Failed, ""},
		{"success false null result", env(obj(F, forked, "null")), Failed, ""},
		{"success false result 5", env(obj(F, forked, "5")), Unrecognized, ""},
		{"status completed", env(obj(T, `"completed"`, `"GOAL: x"`)), Unrecognized, ""},
		{"status Forked", env(obj(T, `"Forked"`, `"GOAL: x"`)), Unrecognized, ""},
		{"success string true", env(obj(`"true"`, forked, `"GOAL: x"`)), Unrecognized, ""},
		{"background", env(obj(T, forked, `"Scout is running in the background"`)), Background, ""},
		{"background indented", env(obj(T, forked, `"  \t\u000b\u00a0\u3000Scout is running in the background"`)), Background, ""},
		{"background after U+200B is not a notice", env(obj(T, forked, `"\u200bScout is running in the background"`)), Digest, "\u200bScout is running in the background"},
		{"refusal", env(obj(T, forked, `"The user doesn't want to proceed with this tool use."`)), Refused, ""},
		{"refusal mentioned anywhere", env(obj(T, forked, `"GOAL: x\nsaid want to proceed with this tool use"`)), Refused, ""},
		{"launching", env(obj(T, forked, `"Launching skill: how-do-i"`)), Launching, ""},
		{"launching on line 2 is a digest", env(obj(T, forked, `"GOAL: x\nLaunching skill: y"`)), Digest, "GOAL: x\nLaunching skill: y"},
		{"background on line 2 is a digest", env(obj(T, forked, `"GOAL: x\nScout is running in the background"`)), Digest, "GOAL: x\nScout is running in the background"},
		{"empty result", env(obj(T, forked, `""`)), Unrecognized, ""},
		{"LF-only result", env(obj(T, forked, `"\n\n"`)), Unrecognized, ""},
		{"whitespace result is a (declined) digest", env(obj(T, forked, `" \t "`)), Digest, " \t "},
		{"space-LF result", env(obj(T, forked, `" \n "`)), Digest, " \n "},
		{"number result", env(obj(T, forked, "5")), Unrecognized, ""},
		{"object result", env(obj(T, forked, `{"a":1}`)), Unrecognized, ""},
		{"future shape", env(`{"some_future_key":"digest moved somewhere new"}`), Unrecognized, ""},
		{"no result", env(obj(T, forked, "")), Unrecognized, ""},
		{"legacy wrapped", env(`"` + wrap + `GOAL: y"`), Digest, "GOAL: y"},
		{"legacy same line", env(`"Skill \"how-do-i\" completed (forked execution).\nResult: GOAL: same line"`), Digest, "GOAL: same line"},
		{"legacy empty name indented", env(`"Skill \"\" completed (forked execution).  \n \n  Result:\n\n   indented digest\n"`), Digest, "indented digest"},
		{"legacy empty digest", env(`"` + wrap + `"`), Unrecognized, ""},
		{"legacy whitespace digest", env(`"` + wrap + `  \n\t\n"`), Unrecognized, ""},
		{"legacy wrapped refusal", env(`"` + wrap + `The user doesn't want to proceed with this tool use."`), Refused, ""},
		{"legacy wrapped launching", env(`"` + wrap + `Launching skill: how-do-i"`), Unrecognized, ""},
		{"legacy wrapped background", env(`"` + wrap + `Scout is running in the background"`), Unrecognized, ""},
		{"legacy no LF before Result", env(`"Skill \"how-do-i\" completed (forked execution). Result:\nGOAL: y"`), Unrecognized, ""},
		{"legacy preceded by text", env(`"x Skill \"how-do-i\" completed (forked execution).\n\nResult:\nGOAL: y"`), Unrecognized, ""},
		{"legacy preceded by a space", env(`" Skill \"how-do-i\" completed (forked execution).\n\nResult:\nGOAL: y"`), Unrecognized, ""},
		{"unwrapped string", env(`"GOAL: looks like a digest but arrived unwrapped"`), Unrecognized, ""},
		{"unwrapped refusal", env(`"The user doesn't want to proceed with this tool use. The tool use was rejected."`), Refused, ""},
		{"unwrapped launching", env(`"Launching skill: how-do-i"`), Launching, ""},
		{"unwrapped background", env(`"Scout is running in the background"`), Background, ""},
		{"no tool_response", env(""), Unrecognized, ""},
		{"tool_response null", env("null"), Unrecognized, ""},
		{"tool_response array", env("[1,2]"), Unrecognized, ""},
		{"tool_response number", env("7"), Unrecognized, ""},
		{"tool_response false falls back to response", `{"tool_name":"Skill","tool_input":{"skill":"how-do-i"},"session_id":"s1","tool_response":false,"response":` + obj(T, forked, `"GOAL: r"`) + `}`, Digest, "GOAL: r"},
		{"response only", `{"tool_name":"Skill","tool_input":{"skill":"how-do-i"},"session_id":"s1","response":` + obj(T, forked, `"GOAL: r"`) + `}`, Digest, "GOAL: r"},
		{"tool_response empty string wins", `{"tool_name":"Skill","tool_input":{"skill":"how-do-i"},"session_id":"s1","tool_response":"","response":` + obj(T, forked, `"GOAL: r"`) + `}`, Unrecognized, ""},
		{"tool instead of tool_name", `{"tool":"Skill","tool_input":{"skill":"how-do-i"},"tool_response":` + obj(T, forked, `"GOAL: t"`) + `}`, Digest, "GOAL: t"},
		{"tool_name null + tool", `{"tool_name":null,"tool":"Skill","tool_input":{"skill":"how-do-i"},"tool_response":` + obj(T, forked, `"GOAL: t"`) + `}`, Digest, "GOAL: t"},
		{"tool_name empty + tool", `{"tool_name":"","tool":"Skill","tool_input":{"skill":"how-do-i"},"tool_response":` + obj(T, forked, `"GOAL: t"`) + `}`, OtherTool, ""},
		{"tool_name skill", `{"tool_name":"skill","tool_input":{"skill":"how-do-i"}}`, OtherTool, ""},
		{"tool_name space Skill", `{"tool_name":" Skill","tool_input":{"skill":"how-do-i"}}`, OtherTool, ""},
		{"Tool_Name is not tool_name", `{"Tool_Name":"Skill","tool_input":{"skill":"how-do-i"},"tool_response":` + obj(T, forked, `"GOAL: t"`) + `}`, OtherTool, ""},
		{"tool_name trailing LFs", `{"tool_name":"Skill\n\n","tool_input":{"skill":"how-do-i\n"},"tool_response":` + obj(T, forked, `"GOAL: t"`) + `}`, Digest, "GOAL: t"},
		{"duplicate key last wins", `{"tool_name":"Skill","tool_name":"Bash"}`, OtherTool, ""},
		{"duplicate key last wins 2", `{"tool_name":"Bash","tool_name":"Skill","tool_input":{"skill":"x","skill":"how-do-i"},"tool_response":` + obj(T, forked, `"GOAL: d"`) + `}`, Digest, "GOAL: d"},
		{"input.skill", `{"tool_name":"Skill","input":{"skill":"how-do-i"},"tool_response":` + obj(T, forked, `"GOAL: i"`) + `}`, Digest, "GOAL: i"},
		{"tool_input.skill null + input.skill", `{"tool_name":"Skill","tool_input":{"skill":null},"input":{"skill":"procedures:how-do-i"},"tool_response":` + obj(T, forked, `"GOAL: i"`) + `}`, Digest, "GOAL: i"},
		{"tool_input string", `{"tool_name":"Skill","tool_input":"how-do-i","input":{"skill":"how-do-i"}}`, OtherSkill, ""},
		{"tool_input false", `{"tool_name":"Skill","tool_input":false,"input":{"skill":"how-do-i"}}`, OtherSkill, ""},
		{"tool_input array", `{"tool_name":"Skill","tool_input":[],"input":{"skill":"how-do-i"}}`, OtherSkill, ""},
		{"tool_input number", `{"tool_name":"Skill","tool_input":5,"input":{"skill":"how-do-i"}}`, OtherSkill, ""},
		{"take-note beats input", `{"tool_name":"Skill","tool_input":{"skill":"take-note"},"input":{"skill":"how-do-i"}}`, OtherSkill, ""},
		{"Bash", `{"tool_name":"Bash"}`, OtherTool, ""},
		{"empty object", `{}`, OtherTool, ""},
		{"BOM", "\xEF\xBB\xBF" + `{"tool_name":"Bash"}`, OtherTool, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := Classify([]byte(c.payload))
			if err != nil {
				t.Fatal(err)
			}
			if r.Shape != c.shape || r.Digest != c.digest {
				t.Fatalf("Classify = %v %q, want %v %q", r.Shape, r.Digest, c.shape, c.digest)
			}
		})
	}
}

// HK-05: only the bare name and this plugin's namespace are the skill.
func TestSkillNames(t *testing.T) {
	for _, s := range []string{`"how-do-i"`, `"procedures:how-do-i"`} {
		r, _ := Classify([]byte(`{"tool_name":"Skill","tool_input":{"skill":` + s + `}}`))
		if r.Shape == OtherSkill {
			t.Errorf("%s declined", s)
		}
	}
	for _, s := range []string{`"take-note"`, `"evil:how-do-i"`, `"How-Do-I"`, `"/how-do-i"`, `"procedures:am-i-done"`, `"procedures:how-do-i:x"`, `"some-other-skill"`, "5", `""`, "null"} {
		r, _ := Classify([]byte(`{"tool_name":"Skill","tool_input":{"skill":` + s + `},"tool_response":` + obj("true", `"forked"`, `"GOAL: x"`) + `}`))
		if r.Shape != OtherSkill {
			t.Errorf("skill %s: %v, want other-skill", s, r.Shape)
		}
	}
}

// HK-07, HK-08, HK-09 and 9.4: decoding failures.
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
		_, err := Classify([]byte(c.in))
		var de *DecodeError
		if !errors.Is(err, c.kind) || !errors.As(err, &de) {
			t.Errorf("Classify(%q) error %v, want %v", c.in, err, c.kind)
		}
	}
}

// HK-18, 3.2: session id text.
func TestSessionID(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want string
		ok   bool
	}{
		{`"abc\n\n"`, "abc", true},
		{`"sess/../weird id.42"`, "sess/../weird id.42", true},
		{`true`, "true", true},
		{`123`, "123", true},
		{`""`, "", true},
		{`null`, "", false},
		{`false`, "", false},
		{`{"a":1}`, "", false},
		{`["a"]`, "", false},
		{`1.5`, "", false},
	} {
		p, err := Decode([]byte(`{"session_id":` + c.raw + `}`))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := p.SessionID()
		if got != c.want || ok != c.ok {
			t.Errorf("session_id %s: %q %v, want %q %v", c.raw, got, ok, c.want, c.ok)
		}
	}
	p, _ := Decode([]byte(`{}`))
	if _, ok := p.SessionID(); ok {
		t.Error("missing session_id reported present")
	}
}

// HK-02 (fixture guard): the committed live payload has the shape the hook
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
	r, err := Classify(data)
	if err != nil {
		t.Fatal(err)
	}
	if r.Shape != Digest || r.Legacy || r.SessionID != "00000000-0000-4000-8000-000000000001" || !r.HasSessionID {
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
		r, err := Classify(data)
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrNonObject) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if r.Shape < OtherTool || r.Shape > Unrecognized {
			t.Fatalf("shape %d", r.Shape)
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
