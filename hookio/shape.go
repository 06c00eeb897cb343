package hookio

import (
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// Shape classifies a payload for the digest recorder.
type Shape int

const (
	// OtherTool: the tool is not exactly "Skill". Silent decline.
	OtherTool Shape = iota + 1
	// OtherSkill: the skill is not /how-do-i. Silent decline.
	OtherSkill
	// Digest: a completed fork's digest, in Result.Digest (it may still be
	// whitespace only, which the store declines).
	Digest
	// Refused: the user refused the tool use. Benign, silent.
	Refused
	// Background: the scout runs in the background. Benign, silent.
	Background
	// Launching: a launch notice, not a result. Benign, silent.
	Launching
	// Failed: the fork reported success:false. Benign, silent.
	Failed
	// Unrecognized: no digest and no explanation why. Blind: record
	// "payload-shape-unrecognized".
	Unrecognized
)

var shapeNames = [...]string{"", "other-tool", "other-skill", "digest", "refused", "background", "launching", "failed", "unrecognized"}

func (s Shape) String() string {
	if s > 0 && int(s) < len(shapeNames) {
		return shapeNames[s]
	}
	return "Shape(?)"
}

// Benign reports whether the shape is an explained non-digest of the
// skill's own completion (refused, background, launching, failed).
func (s Shape) Benign() bool {
	return s == Refused || s == Background || s == Launching || s == Failed
}

// Result is the classification of one payload.
type Result struct {
	Shape Shape
	// SessionID is the raw session id text and HasSessionID whether there
	// is one (see [Payload.SessionID]).
	SessionID    string
	HasSessionID bool
	// Digest is the digest text when Shape is Digest, NUL bytes and
	// trailing LFs removed.
	Digest string
	// Legacy reports a digest taken from the legacy string wrapper.
	Legacy bool
}

// Classify decodes stdin and classifies it. A decoding failure is a
// *DecodeError (see [Decode]); otherwise the result says, in this order,
// whether the tool is Skill, the skill is /how-do-i, and what the response
// holds.
func Classify(data []byte) (Result, error) {
	p, err := Decode(data)
	if err != nil {
		return Result{}, err
	}
	return p.Classify(), nil
}

// Classify classifies a decoded payload (see [Classify]).
func (p *Payload) Classify() Result {
	var r Result
	r.SessionID, r.HasSessionID = p.SessionID()
	switch {
	case p.ToolName() != "Skill":
		r.Shape = OtherTool
	case !IsHowDoI(p.Skill()):
		r.Shape = OtherSkill
	default:
		resp, _ := p.Response()
		r.Shape, r.Digest, r.Legacy = ClassifyResponse(resp)
	}
	return r
}

// space is \s as jq (Oniguruma) means it: Unicode White_Space.
const space = `[\t\n\v\f\r \x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}]`

// wrapper matches the legacy string wrapper up to the digest. It is compiled
// on first use: the live object shape never needs it, and hooks are started
// once per tool call.
var wrapper = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\ASkill "[^"]*" completed \(forked execution\)\.` + space + `*\n` + space + `*Result:` + space + `*\n?`)
})

const (
	refusal    = "want to proceed with this tool use"
	background = "Scout is running in the background"
	launching  = "Launching skill:"
)

// startsWith reports whether s starts with prefix after optional leading
// white space (jq's ^\s*: Unicode White_Space, which is unicode.IsSpace).
func startsWith(s, prefix string) bool {
	return strings.HasPrefix(strings.TrimLeftFunc(s, unicode.IsSpace), prefix)
}

// rejected reports whether a candidate is a notice rather than a digest.
func rejected(s string) bool {
	return strings.Contains(s, refusal) || startsWith(s, background) || startsWith(s, launching)
}

// ClassifyResponse classifies the tool response of a /how-do-i Skill call
// (nil when there is none). The live object shape needs status "forked" and
// success true and carries the digest, unwrapped, in result; the legacy
// string shape carries it behind a "Skill "…" completed (forked execution).
// … Result:" wrapper. It returns the shape, the digest text (NUL bytes and
// trailing LFs removed) and whether the legacy wrapper was used.
func ClassifyResponse(resp json.RawMessage) (Shape, string, bool) {
	var obj map[string]json.RawMessage
	var str string
	isObj, isStr := false, false
	if len(resp) > 0 {
		switch resp[0] {
		case '{':
			isObj = json.Unmarshal(resp, &obj) == nil
		case '"':
			isStr = json.Unmarshal(resp, &str) == nil
		}
	}
	var candidate string
	found := false
	switch {
	case isObj:
		if stringIs(obj["status"], "forked") && string(obj["success"]) == "true" {
			candidate, found = stringOf(obj["result"])
		}
	case isStr:
		if loc := wrapper().FindStringIndex(str); loc != nil {
			candidate, found = str[loc[1]:], true
		}
	}
	if found && !rejected(candidate) {
		if d := commandSubstitution(candidate); d != "" {
			return Digest, d, isStr
		}
	}
	// No digest: benign only if the hook can say why.
	var t string
	switch {
	case isObj:
		res, ok := obj["result"]
		switch {
		case !ok || string(res) == "null" || string(res) == "false":
		case res[0] == '"':
			t, _ = stringOf(res)
		default:
			return Unrecognized, "", false
		}
	case isStr:
		t = str
	}
	switch {
	case strings.Contains(t, refusal):
		return Refused, "", false
	case startsWith(t, background):
		return Background, "", false
	case startsWith(t, launching):
		return Launching, "", false
	case isObj && string(obj["success"]) == "false":
		return Failed, "", false
	}
	return Unrecognized, "", false
}

// commandSubstitution is s as a shell command substitution yields it, the
// way the bash original read the digest: NUL bytes dropped, then trailing
// LFs trimmed.
func commandSubstitution(s string) string {
	return strings.TrimRight(strings.ReplaceAll(s, "\x00", ""), "\n")
}

func stringOf(v json.RawMessage) (string, bool) {
	if len(v) == 0 || v[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

func stringIs(v json.RawMessage, want string) bool {
	s, ok := stringOf(v)
	return ok && s == want
}
