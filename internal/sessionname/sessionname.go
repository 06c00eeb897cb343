// Package sessionname is the one rule that turns a raw session id into the
// name the plugin's stores use for it (the digest keys, the turn-state
// markers): every byte outside [A-Za-z0-9_-] becomes '_'. Callers differ
// only in what they do with an empty or un-interpolated id, and say so with
// a [Rule].
package sessionname

import "strings"

// Rule is what a store does with the ids the byte mapping alone cannot
// decide.
type Rule struct {
	// Empty is the name an empty id gets; "" refuses an empty id.
	Empty string
	// RefuseUnexpanded refuses an id containing '$' or '{': an
	// un-interpolated ${CLAUDE_SESSION_ID}.
	RefuseUnexpanded bool
}

// The rules of the plugin's stores.
var (
	// Digest is the digest store's rule: an empty or un-interpolated id is
	// refused (nothing is stored, nothing replayed).
	Digest = Rule{RefuseUnexpanded: true}
	// TurnState is the turn-state markers' rule: an empty id is "unknown",
	// a stable bucket; nothing is refused.
	TurnState = Rule{Empty: "unknown"}
)

// Of maps raw to its name under r, or reports false when r refuses it. The
// mapping is byte-wise: a two-byte UTF-8 character becomes "__", and '.'
// and '/' become '_', so a name never names a path outside its store.
func Of(raw string, r Rule) (string, bool) {
	if r.RefuseUnexpanded && strings.ContainsAny(raw, "${") {
		return "", false
	}
	if raw == "" {
		return r.Empty, r.Empty != ""
	}
	b := []byte(raw)
	for i, c := range b {
		if !nameByte(c) {
			b[i] = '_'
		}
	}
	return string(b), true
}

// Valid reports whether name is a non-empty string of the bytes [Of] keeps:
// a name Of could have returned.
func Valid(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !nameByte(name[i]) {
			return false
		}
	}
	return true
}

func nameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-'
}
