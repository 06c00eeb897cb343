package records

import (
	"io"

	"github.com/procedures-go/procedures/internal/recall"
)

// RecallTerms tokenises a recall search text: ASCII-lowercase, split on
// whitespace, keep terms holding at least two bytes of [a-z0-9] in total
// (punctuation stays inside a term), deduplicate.
func RecallTerms(s string) []string { return recall.Terms(s) }

// Recall returns the LF-separated lines of r (a final line without LF
// counts) that match any of terms, unchanged, in order. A line matches a
// term when one of its text fields (pattern, description, correction, face,
// category, skill, summary, what, fix) holds the term's words in order,
// ignoring ASCII case. Terms holding more than 64 words in total are refused
// with a *RecallPartsError before anything is read. To search a
// mistakes.jsonl file, open it and pass the *os.File (see the example).
func Recall(r io.Reader, terms []string) ([][]byte, error) {
	hits, err := recall.Search(r, terms)
	return hits, fromEngine(err)
}
