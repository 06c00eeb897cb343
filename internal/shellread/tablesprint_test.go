package shellread

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"testing"
)

// tablePrints are the SHA-256 fingerprints of the option tables each maker
// builds: every key and its text, sorted by key. They were taken before the
// makers were split into per-family functions, so a split, a fold of shared
// text or a move that changes any table by one byte turns this test red.
// Change a fingerprint only together with a deliberate change of a table.
var tablePrints = map[string]string{
	"optionTables": "96f60d3aca1481da67c8f03639e5b5b61e390d3eb987e38ed69a2e523f881bca",
	"moreTables":   "2ce0a4cd15ff196543c0075f260e92f5eaf38cd4b25dee65117a1fac4f368cc4",
	"gitTables":    "799a71d9e3fcd1a1f235d8bba82698c0a52441eb6e73842502eedcffe8a60d46",
	"coreTables":   "41ebeaed3e9731ec77a5ec0a9943250ca0a62f69a9b3f561cfe0f9fb0ec9984e",
	"dockerTables": "8904e351753ccfccde4457f4bf702031a16a7f0a92fe184903b55e695df1bba1",
	"specAliases":  "058f4d871875f87eca1d5bde0e698f54c4aa0e6869c1afa6637f856ce9cf6c6d",
}

// tablePrint is the fingerprint of one built table.
func tablePrint(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + "\n" + m[k] + "\x00")
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}

func TestTablesFingerprint(t *testing.T) {
	built := map[string]map[string]string{
		"optionTables": makeOptionTables(),
		"moreTables":   makeMoreTables(),
		"gitTables":    makeGitTables(),
		"coreTables":   makeCoreTables(),
		"dockerTables": makeDockerTables(),
		"specAliases":  makeSpecAliases(),
	}
	for name, m := range built {
		if got := tablePrint(m); got != tablePrints[name] {
			t.Errorf("%s (%d tables): fingerprint %s, want %s", name, len(m), got, tablePrints[name])
		}
	}
}
