package hookio

import (
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// Shape is what a payload is to the digest recorder.
type Shape int

const (
	// Other: not a Skill call of /how-do-i (another tool, or another
	// skill). A silent decline.
	Other Shape = iota + 1
	// Digest: a completed fork's digest, in Result.Digest (it may still be
	// white space only, which a store declines).
	Digest
	// Benign: no digest, for a reason the response gives: the user refused
	// the tool use, the scout runs in the background, a launch notice, or
	// the fork reported success:false. Silent.
	Benign
	// Unrecognized: no digest and no explanation why. Blind: a hook records
	// "payload-shape-unrecognized".
	Unrecognized
)

var shapeNames = [...]string{"", "other", "digest", "benign", "unrecognized"}

func (s Shape) String() string {
	if s > 0 && int(s) < len(shapeNames) {
		return shapeNames[s]
	}
	return "Shape(?)"
}

// kind is the detailed classification behind a Shape.
type kind int

const (
	otherTool kind = iota + 1
	otherSkill
	digestKind
	refused
	background
	launching
	failed
	unrecognized
)

func (k kind) shape() Shape {
	switch k {
	case otherTool, otherSkill:
		return Other
	case digestKind:
		return Digest
	case refused, background, launching, failed:
		return Benign
	}
	return Unrecognized
}

var kindNames = [...]string{"", "other-tool", "other-skill", "digest", "refused", "background", "launching", "failed", "unrecognized"}

func (k kind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(?)"
}

// Result is the classification of one payload.
type Result struct {
	Shape Shape
	// SessionID is the session id a digest can be keyed by: the text of
	// [Payload.SessionID] when session_id is a string, true or an integer,
	// else "" (missing, null, false, and objects, arrays and fractional
	// numbers, which are refused).
	SessionID string
	// Digest is the digest text when Shape is Digest, NUL bytes and
	// trailing LFs removed.
	Digest string

	kind   kind // the detail behind Shape
	legacy bool // the digest came from the legacy string wrapper
}

// Classify classifies a PostToolUse payload for the digest recorder: in
// this order, whether the tool is Skill, whether the skill is /how-do-i
// (exactly "how-do-i" or "procedures:how-do-i"), and what the response
// (tool_response if truthy, else response) holds. The live object shape
// needs status "forked" and success true and carries the digest, unwrapped,
// in result; the legacy string shape carries it behind a "Skill "…"
// completed (forked execution). … Result:" wrapper. A nil payload is
// [Other].
func (p *Payload) Classify() Result {
	var r Result
	r.SessionID = keyableSessionID(p)
	switch {
	case p.ToolName() != "Skill":
		r.kind = otherTool
	case !isHowDoI(p.Skill()):
		r.kind = otherSkill
	default:
		resp, _ := p.response()
		r.kind, r.Digest, r.legacy = classifyResponse(resp)
	}
	r.Shape = r.kind.shape()
	return r
}

// keyableSessionID is [Result.SessionID].
func keyableSessionID(p *Payload) string {
	v, ok := p.field("session_id")
	if !ok || len(v) == 0 || !(v[0] == '"' || v[0] == 't' || isInteger(v)) {
		return ""
	}
	id, _ := p.SessionID()
	return id
}

// isInteger reports whether a JSON number is written as an integer.
func isInteger(v []byte) bool {
	if len(v) > 0 && v[0] == '-' {
		v = v[1:]
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(v) > 0
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
	refusalText    = "want to proceed with this tool use"
	backgroundText = "Scout is running in the background"
	launchingText  = "Launching skill:"
)

// startsWith reports whether s starts with prefix after optional leading
// white space (jq's ^\s*: Unicode White_Space, which is unicode.IsSpace).
func startsWith(s, prefix string) bool {
	return strings.HasPrefix(strings.TrimLeftFunc(s, unicode.IsSpace), prefix)
}

// rejected reports whether a candidate is a notice rather than a digest.
func rejected(s string) bool {
	return strings.Contains(s, refusalText) || startsWith(s, backgroundText) || startsWith(s, launchingText)
}

// classifyResponse classifies the tool response of a /how-do-i Skill call
// (nil when there is none; see [Payload.Classify]). It returns the kind, the
// digest text (NUL bytes and trailing LFs removed) and whether the legacy
// wrapper was used.
func classifyResponse(resp json.RawMessage) (kind, string, bool) {
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
			return digestKind, d, isStr
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
			return unrecognized, "", false
		}
	case isStr:
		t = str
	}
	switch {
	case strings.Contains(t, refusalText):
		return refused, "", false
	case startsWith(t, backgroundText):
		return background, "", false
	case startsWith(t, launchingText):
		return launching, "", false
	case isObj && string(obj["success"]) == "false":
		return failed, "", false
	}
	return unrecognized, "", false
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
