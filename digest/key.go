package digest

import "strings"

// Key derives the store key of a raw session id, or reports false when the
// id is refused: it contains '$' or '{' (an un-interpolated
// ${CLAUDE_SESSION_ID}) or is empty. Otherwise the key is [SessionName] of
// the id. A refused key is not an error: the writer stores nothing and the
// reader prints nothing.
func Key(raw string) (string, bool) {
	if strings.ContainsAny(raw, "${") || raw == "" {
		return "", false
	}
	return SessionName(raw), true
}

// SessionName maps a raw session id to the name the plugin's stores use for
// it: every byte outside [A-Za-z0-9_-] becomes '_' (byte-wise, so a two-byte
// UTF-8 character becomes "__"). The turn-state markers and the digest keys
// of one session share it, and it can never name a path outside a store.
func SessionName(raw string) string {
	b := []byte(raw)
	for i, c := range b {
		if !keyByte(c) {
			b[i] = '_'
		}
	}
	return string(b)
}

func keyByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-'
}

// validKey reports whether key is a non-empty string of key bytes, as Key
// returns it: such a key can never name a path outside the store.
func validKey(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		if !keyByte(key[i]) {
			return false
		}
	}
	return true
}
