package evidence

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// MaxLine is the longest transcript line a section decodes, newline
// excluded. A longer line that a section would need is skipped and counted
// as "overlong"; a longer line of a type no section reads (an
// api-request-blob row, say) is passed over without being held in memory.
const MaxLine = 8 << 20

// readBuf is the read buffer of one file: lines up to this size are never
// copied.
const readBuf = 256 << 10

// A transcript is one file the sweep reads.
type transcript struct {
	path    string
	session string // from the file name; "" for a flat agent file (rows say)
	agent   string // "" for a main transcript
	flat    bool   // an agent-<id>.jsonl beside the main transcripts
}

// discover lists the transcripts under projects, sorted by path: for each
// project directory, the main transcripts <session>.jsonl, the flat agent
// files agent-<id>.jsonl beside them, and the nested
// <session>/subagents/agent-<id>.jsonl. Files and directories owned by
// another user or writable by others are skipped and counted as
// "untrusted"; anything that is not a regular file or directory (symlinks
// included) is passed over.
func discover(projects string, sk *Skipped) ([]transcript, []dirStat, error) {
	var dirs []dirStat
	if err := trustedDir(projects, &dirs); err != nil {
		return nil, nil, err
	}
	projs, err := os.ReadDir(projects)
	if err != nil {
		return nil, nil, err
	}
	var out []transcript
	for _, p := range projs {
		pdir := filepath.Join(projects, p.Name())
		if !p.IsDir() {
			continue
		}
		if trustedDir(pdir, &dirs) != nil {
			sk.Untrusted++
			continue
		}
		ents, err := os.ReadDir(pdir)
		if err != nil {
			sk.Unreadable++
			continue
		}
		for _, e := range ents {
			name := e.Name()
			switch {
			case e.Type().IsRegular() && strings.HasSuffix(name, ".jsonl"):
				stem := strings.TrimSuffix(name, ".jsonl")
				if id, ok := strings.CutPrefix(stem, "agent-"); ok {
					out = append(out, transcript{path: filepath.Join(pdir, name), agent: id, flat: true})
				} else {
					out = append(out, transcript{path: filepath.Join(pdir, name), session: stem})
				}
			case e.IsDir():
				out = discoverForks(out, pdir, name, &dirs, sk)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out, dirs, nil
}

// discoverForks adds the nested fork transcripts of one session
// directory, <session>/subagents/agent-<id>.jsonl.
func discoverForks(out []transcript, pdir, session string, dirs *[]dirStat, sk *Skipped) []transcript {
	sdir := filepath.Join(pdir, session)
	sfi, err := lstatDir(sdir, dirs) // whether subagents appears: the session directory's stat says
	if err != nil {
		return out
	}
	sub := filepath.Join(sdir, "subagents")
	fi, err := lstatDir(sub, dirs)
	if err != nil || !fi.IsDir() {
		return out
	}
	if !sfi.IsDir() || !trusted(sfi) || !trusted(fi) {
		sk.Untrusted++
		return out
	}
	agents, err := os.ReadDir(sub)
	if err != nil {
		sk.Unreadable++
		return out
	}
	for _, a := range agents {
		an := a.Name()
		id, ok := strings.CutPrefix(strings.TrimSuffix(an, ".jsonl"), "agent-")
		if !ok || !strings.HasSuffix(an, ".jsonl") || !a.Type().IsRegular() {
			continue
		}
		out = append(out, transcript{path: filepath.Join(sub, an), session: session, agent: id})
	}
	return out
}

// A dirStat is a directory discovery read (or looked into), stat'ed
// before it was read: while each is as it was, discovery finds what it
// found (an entry added, removed, renamed or retyped changes its
// directory's mtime; a chmod or chown its ctime).
type dirStat struct {
	path string
	fileStat
}

// lstatDir stats p, and records it in dirs (when not nil) when it exists.
func lstatDir(p string, dirs *[]dirStat) (fs.FileInfo, error) {
	at := time.Now()
	fi, err := os.Lstat(p)
	if err == nil && dirs != nil {
		*dirs = append(*dirs, dirStat{p, statOf(fi, at)})
	}
	return fi, err
}

// errUntrusted is a directory or file another user could have written.
var errUntrusted = errors.New("owned by another user or writable by others")

// trustedDir checks that dir is a directory of ours that no one else can
// write, and records its stat in dirs (when not nil).
func trustedDir(dir string, dirs *[]dirStat) error {
	fi, err := lstatDir(dir, dirs)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return &fs.PathError{Op: "read", Path: dir, Err: errors.New("not a directory")}
	}
	if !trusted(fi) {
		return &fs.PathError{Op: "read", Path: dir, Err: errUntrusted}
	}
	return nil
}

// skippedType reports whether a row of this type is one no section reads.
func skippedType(t []byte) bool {
	switch string(t) {
	case "assistant", "user", "system":
		return false
	}
	return true
}

// knownType reports the row types Claude Code writes that the sweep knows
// and passes over; any other type is counted in Skipped.UnknownTypes. (A
// switch, not a map: a map literal is built at start-up, which every
// command pays.)
func knownType(t string) bool {
	switch t {
	case "assistant", "user", "system", "attachment",
		"summary", "queue-operation", "api-request-blob",
		"api-request", "api-request-shape", "tools-used",
		"last-prompt", "cost-state", "mode", "atis-latch",
		"file-history-snapshot", "custom-title", "progress":
		return true
	}
	return false
}

// leadType returns the row type when the line starts with its "type" key,
// as most rows Claude Code writes for itself do ({"type":"api-request-blob",
// …), so a row no section needs is known without decoding it.
func leadType(line []byte) ([]byte, bool) {
	const lead = `{"type":"`
	if !bytes.HasPrefix(line, []byte(lead)) {
		return nil, false
	}
	rest := line[len(lead):]
	end := bytes.IndexByte(rest, '"')
	if end < 0 || end > 64 {
		return nil, false
	}
	return rest[:end], true
}

var (
	needleType      = []byte(`"type":"`)
	needleAssistant = []byte(`"type":"assistant"`)
	needleUser      = []byte(`"type":"user"`)
	needleSystem    = []byte(`"type":"system"`)
	needleStop      = []byte(`"stop_hook_summary"`)
	needleResult    = []byte(`"tool_result"`)
	needleCommand   = []byte(`<command-name>`)
)

// Row kinds a section reads.
const (
	kindNone = iota
	kindAssistant
	kindUser
	kindSystem
)

// kindOf is the kind of a line's row, found without decoding it: the
// value of its first "type" key when that is a kind a section reads (the
// top-level key comes before the message in every row Claude Code
// writes, and no content block has one of these types), else whichever
// needle the line carries. A row of a needed kind is never missed: its
// needle is verbatim in the line (inside a JSON string a quote is
// escaped). User rows count only when they carry a tool result or a typed
// command, system rows only when they are stop-hook summaries.
func kindOf(line []byte, sk *Skipped) int {
	if t, ok := leadType(line); ok && skippedType(t) {
		sk.unknown(t)
		return kindNone
	}
	k := kindNone
	if i := bytes.Index(line, needleType); i >= 0 {
		rest := line[i+len(needleType):]
		switch {
		case bytes.HasPrefix(rest, []byte(`assistant"`)):
			k = kindAssistant
		case bytes.HasPrefix(rest, []byte(`user"`)):
			k = kindUser
		case bytes.HasPrefix(rest, []byte(`system"`)):
			k = kindSystem
		}
	}
	if k == kindNone {
		switch {
		case bytes.Contains(line, needleAssistant):
			k = kindAssistant
		case bytes.Contains(line, needleUser):
			k = kindUser
		case bytes.Contains(line, needleSystem):
			k = kindSystem
		}
	}
	switch k {
	case kindUser:
		if !bytes.Contains(line, needleResult) && !bytes.Contains(line, needleCommand) {
			return kindNone
		}
	case kindSystem:
		if !bytes.Contains(line, needleStop) {
			return kindNone
		}
	}
	return k
}

// readers are the files' read buffers, reused.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, readBuf) }}

// scanFile streams the lines of r (the first size bytes of a file: a file
// that grows while it is read is read as that prefix) and calls fn with
// each line a section may need, newline removed. The slice is valid only
// during the call. Lines over MaxLine are counted, never held.
func scanFile(r io.Reader, sk *Skipped, fn func(line []byte, kind int)) error {
	br := readers.Get().(*bufio.Reader)
	br.Reset(r)
	defer func() { br.Reset(nil); readers.Put(br) }()
	var long []byte // a line longer than the buffer, being assembled
	discard := false
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if discard {
				continue
			}
			if long == nil {
				if t, ok := leadType(chunk); ok && skippedType(t) {
					sk.unknown(t)
					discard = true
					continue
				}
			}
			if len(long)+len(chunk) > MaxLine {
				sk.Overlong++
				long, discard = nil, true
				continue
			}
			long = append(long, chunk...)
			continue
		}
		if len(chunk) > 0 || long != nil {
			if discard {
				discard = false
			} else {
				line := chunk
				if long != nil {
					if len(long)+len(chunk) > MaxLine+1 {
						sk.Overlong++
						line = nil
					} else {
						line = append(long, chunk...)
					}
				}
				line = bytes.TrimSuffix(line, []byte("\n"))
				if len(line) > 0 {
					if k := kindOf(line, sk); k != kindNone {
						fn(line, k)
					}
				}
			}
			long = nil
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
