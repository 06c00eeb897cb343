package procedures_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// filecount <dir> <n>
//
// Fails unless the tree under dir holds exactly n files (regular files and
// symlinks, dot files included), listing them otherwise.
func cmdFileCount(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: filecount <dir> <n>")
	}
	want, err := strconv.Atoi(args[1])
	ts.Check(err)
	var found []string
	filepath.WalkDir(ts.MkAbs(args[0]), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			found = append(found, p)
		}
		return nil
	})
	if len(found) != want {
		ts.Fatalf("%s holds %d files, want %d: %q", args[0], len(found), want, found)
	}
}

// selectable lists the base names a reader could select in dir: regular,
// not dot-prefixed, containing ".digest.", sorted; only key's if key != "".
func selectable(ts *testscript.TestScript, dir, key string) []string {
	entries, err := os.ReadDir(ts.MkAbs(dir))
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		ts.Fatalf("%v", err)
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if !e.Type().IsRegular() || strings.HasPrefix(n, ".") || !strings.Contains(n, ".digest.") {
			continue
		}
		if key != "" && !strings.HasPrefix(n, key+".digest.") {
			continue
		}
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

var digestName = regexp.MustCompile(`^([A-Za-z0-9_-]+)\.digest\.([0-9]+)\.([A-Za-z0-9]+)$`)

// digests <dir> <n> [key]
//
// Fails unless dir holds exactly n digest files (of key, when given), each
// named <key>.digest.<epoch>.<unique>. A missing dir holds 0.
func cmdDigests(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: digests <dir> <n> [key]")
	}
	want, err := strconv.Atoi(args[1])
	ts.Check(err)
	key := ""
	if len(args) == 3 {
		key = args[2]
	}
	names := selectable(ts, args[0], key)
	if len(names) != want {
		ts.Fatalf("%s holds %d digests%s, want %d: %q", args[0], len(names), map[bool]string{true: " of " + key}[key != ""], want, names)
	}
	for _, n := range names {
		m := digestName.FindStringSubmatch(n)
		if m == nil || (key != "" && m[1] != key) {
			ts.Fatalf("digest name %q is not <key>.digest.<epoch>.<unique>", n)
		}
	}
}

// digest-cat <dir> <key>
//
// Writes the bytes of key's digest files, in name order, to stdout.
func cmdDigestCat(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: digest-cat <dir> <key>")
	}
	for _, n := range selectable(ts, args[0], args[1]) {
		data, err := os.ReadFile(filepath.Join(ts.MkAbs(args[0]), n))
		ts.Check(err)
		ts.Stdout().Write(data)
	}
}

var tsRE = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$`)

// fo-log <file> [<gate> <why> <session_id>]...
//
// Fails unless the fail-open log holds exactly these records, in order,
// each one whole line that is a JSON object with exactly the keys
// ts,gate,why,session_id in that order and a UTC second-precision ts. With
// no triple the log must be absent or empty. Give an empty field as an
// empty quoted argument.
func cmdFoLog(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || (len(args)-1)%3 != 0 {
		ts.Fatalf("usage: fo-log <file> [<gate> <why> <session_id>]...")
	}
	want := (len(args) - 1) / 3
	lines := foRecords(ts, args[0])
	if len(lines) != want {
		ts.Fatalf("%s holds %d records, want %d:\n%s", args[0], len(lines), want, strings.Join(lines, "\n"))
	}
	for i, line := range lines {
		_, vals := foRecord(ts, i+1, line)
		w := args[1+3*i : 4+3*i]
		if vals[1] != w[0] || vals[2] != w[1] || vals[3] != w[2] {
			ts.Fatalf("record %d is gate=%q why=%q session_id=%q, want %q %q %q", i+1, vals[1], vals[2], vals[3], w[0], w[1], w[2])
		}
	}
}

// fo-last <file> <n> <gate> <why> <session_id>
//
// Fails unless the fail-open log holds exactly n well-formed records (as
// fo-log checks them) and the last one is gate/why/session_id.
func cmdFoLast(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 5 {
		ts.Fatalf("usage: fo-last <file> <n> <gate> <why> <session_id>")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	lines := foRecords(ts, args[0])
	if len(lines) != n {
		ts.Fatalf("%s holds %d records, want %d:\n%s", args[0], len(lines), n, strings.Join(lines, "\n"))
	}
	if n == 0 {
		ts.Fatalf("fo-last needs n >= 1")
	}
	_, vals := foRecord(ts, n, lines[n-1])
	if vals[1] != args[2] || vals[2] != args[3] || vals[3] != args[4] {
		ts.Fatalf("last record is gate=%q why=%q session_id=%q, want %q %q %q", vals[1], vals[2], vals[3], args[2], args[3], args[4])
	}
}

// foRecords reads the log's lines, checking each is a well-formed record.
func foRecords(ts *testscript.TestScript, file string) []string {
	data, err := os.ReadFile(ts.MkAbs(file))
	if err != nil && !os.IsNotExist(err) {
		ts.Fatalf("%v", err)
	}
	if len(data) == 0 {
		return nil
	}
	if !bytes.HasSuffix(data, []byte("\n")) {
		ts.Fatalf("%s does not end with a newline: %q", file, data)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for i, line := range lines {
		foRecord(ts, i+1, line)
	}
	return lines
}

// foRecord checks one record's exact shape and returns its keys and values.
func foRecord(ts *testscript.TestScript, i int, line string) (keys, vals []string) {
	keys, vals = jsonObject(ts, line)
	if strings.Join(keys, ",") != "ts,gate,why,session_id" || !strings.HasPrefix(line, `{"ts":"`) {
		ts.Fatalf("record %d has keys %q, want ts,gate,why,session_id: %s", i, keys, line)
	}
	if !tsRE.MatchString(vals[0]) {
		ts.Fatalf("record %d: ts %q is not UTC YYYY-MM-DDTHH:MM:SSZ", i, vals[0])
	}
	return keys, vals
}

// jsonObject decodes one JSON object of string values, keeping key order.
func jsonObject(ts *testscript.TestScript, line string) (keys, vals []string) {
	dec := json.NewDecoder(strings.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		ts.Fatalf("not a JSON object: %s", line)
	}
	for dec.More() {
		k, err := dec.Token()
		ts.Check(err)
		var v string
		if err := dec.Decode(&v); err != nil {
			ts.Fatalf("value of %v is not a string: %s", k, line)
		}
		keys, vals = append(keys, k.(string)), append(vals, v)
	}
	if _, err := dec.Token(); err != nil || dec.More() {
		ts.Fatalf("not exactly one JSON object: %s", line)
	}
	if _, err := dec.Token(); err == nil {
		ts.Fatalf("trailing data after the object: %s", line)
	}
	return keys, vals
}

// mode <path> <octal perm>
//
// Fails unless path (not following a final symlink) has exactly this
// permission.
func cmdMode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: mode <path> <octal perm>")
	}
	want, err := strconv.ParseUint(args[1], 8, 32)
	ts.Check(err)
	fi, err := os.Lstat(ts.MkAbs(args[0]))
	ts.Check(err)
	if got := fi.Mode().Perm(); got != os.FileMode(want) {
		ts.Fatalf("%s has mode %#o, want %#o", args[0], got, want)
	}
}

// age <hours> <file>...
//
// Sets the files' mtime to that many hours ago (negative: in the future).
func cmdAge(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: age <hours> <file>...")
	}
	h, err := strconv.Atoi(args[0])
	ts.Check(err)
	t := time.Now().Add(-time.Duration(h) * time.Hour)
	for _, f := range args[1:] {
		ts.Check(os.Chtimes(ts.MkAbs(f), t, t))
	}
}

// snapshot <dir>
//
// Writes every path below dir (not dir itself) with its mode, size, mtime and content hash
// to stdout, to compare before and after with cmp.
func cmdSnapshot(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: snapshot <dir>")
	}
	root := ts.MkAbs(args[0])
	w := bufio.NewWriter(ts.Stdout())
	defer w.Flush()
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			fmt.Fprintf(w, "%s error\n", p)
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if rel == "." {
			return nil // the root's own mtime changes with its entries
		}
		var content []byte
		if fi.Mode().IsRegular() {
			content, _ = os.ReadFile(p)
		}
		fmt.Fprintf(w, "%s %v %d %d %q\n", rel, fi.Mode(), fi.Size(), fi.ModTime().UnixNano(), content)
		return nil
	})
}

// gen-payload <file> <session_id> <result bytes>
//
// Writes a live-shape PostToolUse(Skill) payload whose .tool_response.result
// is "GOAL: big\n" padded with lines of x to the given size.
func cmdGenPayload(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: gen-payload <file> <session_id> <result bytes>")
	}
	n, err := strconv.Atoi(args[2])
	ts.Check(err)
	var b strings.Builder
	b.WriteString("GOAL: big\n")
	for b.Len() < n {
		b.WriteString(strings.Repeat("x", min(79, n-b.Len()-1)) + "\n")
	}
	payload := map[string]any{
		"session_id": args[1], "hook_event_name": "PostToolUse", "tool_name": "Skill",
		"tool_input": map[string]any{"skill": "procedures:how-do-i", "args": "big"},
		"tool_response": map[string]any{"success": true, "status": "forked",
			"commandName": "procedures:how-do-i", "agentId": "a0", "result": b.String()},
	}
	data, err := json.Marshal(payload)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), data, 0o644))
	ts.Check(os.WriteFile(ts.MkAbs(args[0])+".result", []byte(b.String()), 0o644))
}
