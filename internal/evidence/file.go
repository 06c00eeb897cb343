package evidence

import (
	"bytes"
	"encoding/json"
	"hash/crc32"
	"hash/fnv"
	"io"
	"os"

	"github.com/procedures-go/procedures/internal/fsx"
	"strings"
	"time"
)

// A turnKey is the FNV-128a hash of message.id NUL requestId: 16 bytes
// per turn, however long the ids.
type turnKey [16]byte

func keyOf(id, req string) turnKey {
	h := fnv.New128a()
	h.Write([]byte(id))
	h.Write([]byte{0})
	h.Write([]byte(req))
	var k turnKey
	h.Sum(k[:0])
	return k
}

// A turnRow is the row that counts for one assistant turn of a file.
type turnRow struct {
	key   turnKey
	keyed bool     // false when the row has neither message.id nor requestId: never merged
	model string   // interned per file
	at    int64    // unix nanoseconds
	u     [4]int64 // input, cache_creation, cache_read, output
	h1    int64    // the one-hour part of cache_creation
	fast  bool     // a fast-mode turn
}

func (t *turnRow) sum() int64 { return t.u[0] + t.u[1] + t.u[2] + t.u[3] }

// forkScan is what one fork's transcript says about retrieval and warm
// starts.
type forkScan struct {
	queryRecords int
	catBatches   int
	catPaths     map[string]bool
	digestReads  int
	warmRead     bool
	violations   []Violation // other retrieval and unexpanded variables
	unexpanded   int
	firstQuery   string // the first retrieval flag the fork's query-records runs passed
}

// fileScan is everything one transcript contributes; files are read in
// parallel and their scans merged in path order.
type fileScan struct {
	tr      transcript
	idx     int    // its place in path order
	session string // from the rows when the file name does not say
	agent   string
	skill   string // attributionSkill of the fork's rows
	first   time.Time
	turns   []turnRow
	fork    forkScan
	// main transcripts: the forks their Skill calls spawned, by agent id
	spawned map[string]string
	// agent ids of forked /how-do-i results that carry a digest
	digests map[string]bool
	typed   int // user-typed /how-do-i invocations
	gates   GateSession
	skipped Skipped
	lines   int64
	bytes   int64
	// where the scan stands, for a resumed read: the tool_use ids of
	// digest reads waiting for their result, and whether the last Stop
	// was blocked
	pending map[string]string
	blocked bool
	sum     uint32 // CRC-32C of the bytes read so far (the cache's append check)
	// a part of a split read: whether it saw a Stop, and whether its
	// first was blocked (the part before decides whether it released)
	stopSeen, firstBlock bool
	// what its turns add up to (parts.go): the turns no other file has,
	// in parts, and the contested ones; resplit says they were made this
	// sweep. fresh says the file was read this sweep (its turns are all in
	// memory); entry is the cache entry a scan kept whole came from.
	parts   []part
	cont    []turnRow
	resplit bool
	fresh   bool
	entry   *cacheEntry
}

func (fs *fileScan) inWindow(t time.Time, o *Options) bool {
	if !o.Since.IsZero() && t.Before(o.Since) {
		return false
	}
	if !o.Until.IsZero() && !t.Before(o.Until) {
		return false
	}
	return true
}

// scan reads one transcript, or takes it from the cache: whole when the
// file is unchanged (then it is not even opened), resumed from its last
// complete line when it grew.
func scan(i int, tr transcript, o *Options, progress func(int64), cc *cache) *fileScan {
	var e *cacheEntry
	if cc != nil {
		e = cc.old[tr.path]
	}
	if e != nil {
		if fs := cc.hit(i, tr, e); fs != nil {
			if progress != nil {
				progress(fs.bytes)
			}
			return fs
		}
	}
	f, err := os.OpenFile(tr.path, os.O_RDONLY|fsx.NoFollow|fsx.NonBlock, 0)
	if err != nil {
		return failed(tr, func(sk *Skipped) { sk.Unreadable++ })
	}
	defer f.Close()
	statAt := time.Now()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return failed(tr, func(sk *Skipped) { sk.Unreadable++ })
	}
	if !trusted(fi) {
		return failed(tr, func(sk *Skipped) { sk.Untrusted++ })
	}
	st := statOf(fi, statAt)
	var fs *fileScan
	var off int64
	if e != nil && e.judge(st) == cacheGrown && e.resumes(f) && cc.f != nil && e.loadTurns(cc.f) {
		fs, off = e.scan, e.size
		fs.tr, fs.entry = tr, nil
		fs.writable()
		e.scan = nil // the scan goes on in fs: the entry is not taken whole again
		cc.resumed.Add(1)
	}
	if fs == nil {
		fs = newFileScan(tr)
	}
	fs.fresh = true
	fs.bytes = fi.Size()
	fs.read(f, off, fi.Size(), o, cc != nil)
	if progress != nil {
		progress(fs.bytes - off)
	}
	if cc != nil {
		cc.store(tr.path, fs, st, f)
	}
	return fs
}

// writable makes the sets a scan goes on writing when it reads more,
// which the cache decodes as nil when empty (the forks' retrieval paths,
// the digest reads waiting for their result, and the Skill calls'
// digests, made with the forks they spawned).
func (fs *fileScan) writable() {
	if fs.fork.catPaths == nil {
		fs.fork.catPaths = map[string]bool{}
	}
	if fs.pending == nil {
		fs.pending = map[string]string{}
	}
	if fs.spawned != nil && fs.digests == nil {
		fs.digests = map[string]bool{}
	}
}

func newFileScan(tr transcript) *fileScan {
	return &fileScan{tr: tr, session: tr.session, agent: tr.agent,
		fork: forkScan{catPaths: map[string]bool{}}, pending: map[string]string{}}
}

// failed is the scan of a file that could not be read.
func failed(tr transcript, count func(*Skipped)) *fileScan {
	fs := newFileScan(tr)
	fs.fresh = true
	count(&fs.skipped)
	return fs
}

// read scans bytes [off, size) of f into fs, continuing from the state a
// scan of [0, off) left. A large main transcript is split at line
// boundaries and its parts read on every core (readSplit). hash says
// whether to keep the CRC the cache checks appends with.
func (fs *fileScan) read(f *os.File, off, size int64, o *Options, hash bool) {
	if parts := splitParts(fs, size-off); parts > 1 {
		fs.readSplit(f, off, size, o, parts, hash)
		return
	}
	var r io.Reader = io.NewSectionReader(f, off, size-off)
	if hash {
		cr := &crcReader{r: r, sum: fs.sum}
		defer func() { fs.sum = cr.sum }()
		r = cr
	}
	fs.readPart(r, o)
}

// readPart scans the lines of r into fs.
func (fs *fileScan) readPart(r io.Reader, o *Options) {
	turnAt := make(map[turnKey]int, len(fs.turns))
	models := map[string]string{}
	for i, t := range fs.turns {
		if t.keyed {
			turnAt[t.key] = i
		}
		models[t.model] = t.model
	}
	err := scanFile(r, &fs.skipped, func(line []byte, kind int) {
		if kind == kindUser && !userNeeded(line, fs.pending) {
			return
		}
		fs.lines++
		decode := decodeRow
		if kind == kindAssistant && !fs.isFork() {
			decode = decodeLite
		}
		r, ok := decode(line, &fs.skipped)
		if !ok {
			return
		}
		if o.Session != "" && r.SessionID != "" && r.SessionID != o.Session {
			return
		}
		at, hasTime := r.time()
		if (!o.Since.IsZero() || !o.Until.IsZero()) && (!hasTime || !fs.inWindow(at, o)) {
			return
		}
		if fs.session == "" {
			fs.session = r.SessionID
		}
		if fs.agent == "" && fs.tr.flat {
			fs.agent = r.AgentID
		}
		if fs.skill == "" && r.AttributionSkill != "" && fs.isFork() {
			fs.skill = r.AttributionSkill
		}
		if hasTime && (fs.first.IsZero() || at.Before(fs.first)) {
			fs.first = at
		}
		switch r.Type {
		case "assistant":
			fs.assistant(r, at, turnAt, models, fs.pending)
		case "user":
			fs.user(r, fs.pending)
		case "system":
			fs.system(r)
		}
	})
	if err != nil {
		fs.skipped.Unreadable++
	}
}

// system counts a Stop-hook summary: a block when a hook error carries
// AM-I-DONE:, a release when the Stop after a block is let through.
func (fs *fileScan) system(r *row) {
	if r.Subtype != "stop_hook_summary" {
		return
	}
	block := false
	for _, e := range r.hookErrors() {
		if strings.HasPrefix(e, "AM-I-DONE:") {
			block = true
		}
	}
	if block {
		fs.gates.StopBlocks++
	} else if fs.blocked {
		fs.gates.Releases++
	}
	if !fs.stopSeen {
		fs.stopSeen, fs.firstBlock = true, block
	}
	fs.blocked = block
}

var (
	needleGate        = []byte("HOW-DO-I-GATE:")
	needleCommandName = []byte(`"commandName"`)
)

// userNeeded reports whether a user row may matter, before it is decoded:
// a gate denial, a Skill result, a typed command, or the result of a
// digest read this fork is waiting for. Tool results of every other call
// (file reads, command output: most of a transcript's bytes) are passed
// over undecoded.
func userNeeded(line []byte, pending map[string]string) bool {
	if bytes.Contains(line, needleGate) || bytes.Contains(line, needleCommandName) || bytes.Contains(line, needleCommand) {
		return true
	}
	for id := range pending {
		if bytes.Contains(line, []byte(id)) {
			return true
		}
	}
	return false
}

func (fs *fileScan) isFork() bool { return fs.tr.agent != "" }

func (fs *fileScan) assistant(r *row, at time.Time, turnAt map[turnKey]int, models, pending map[string]string) {
	if ru := r.Message.Usage; ru != nil {
		u, ok := ru.read(&fs.skipped)
		if !ok {
			goto blocks
		}
		m, ok := models[r.Message.Model]
		if !ok {
			m = r.Message.Model
			models[m] = m
		}
		t := turnRow{model: m, at: unixNano(at), u: u.u, h1: u.h1, fast: u.fast}
		if r.Message.ID != "" || r.RequestID != "" {
			t.key, t.keyed = keyOf(r.Message.ID, r.RequestID), true
		}
		if i, ok := turnAt[t.key]; ok && t.keyed {
			if t.sum() > fs.turns[i].sum() {
				fs.turns[i] = t
			}
		} else {
			turnAt[t.key] = len(fs.turns)
			fs.turns = append(fs.turns, t)
		}
	}
blocks:
	if !fs.isFork() {
		return // the tool calls that count are the forks'
	}
	for _, b := range r.blocks() {
		if b.Type != "tool_use" {
			continue
		}
		var in toolInput
		_ = json.Unmarshal(b.Input, &in)
		switch b.Name {
		case "Bash":
			if !fs.isFork() {
				continue
			}
			c := classify(in.Command)
			if c.queryRecords {
				fs.fork.queryRecords++
			}
			fs.fork.noteQueries(c.queries)
			fs.fork.catBatches += c.catBatches
			for _, p := range c.catPaths {
				fs.fork.catPaths[p] = true
			}
			if c.digestRead {
				fs.fork.digestReads++
				pending[b.ID] = "digest-read"
			}
			if c.other {
				fs.violate("other-retrieval", in.Command)
			}
			if c.unexpanded {
				fs.fork.unexpanded++
				fs.violate("unexpanded", in.Command)
			}
		case "Read", "Grep", "Glob":
			if fs.isFork() && (storePath(in.FilePath) || storePath(in.Path) || storePath(in.Pattern)) {
				fs.violate("other-retrieval", b.Name+" "+in.FilePath+in.Path+" "+in.Pattern)
			}
		}
	}
}

// maxViolations bounds the violations one fork lists; all are counted.
const maxViolations = 20

func (fs *fileScan) violate(kind, cmd string) {
	if len(fs.fork.violations) < maxViolations {
		if len(cmd) > 500 {
			cmd = cmd[:500] + "…"
		}
		fs.fork.violations = append(fs.fork.violations, Violation{Kind: kind, Command: cmd})
	}
}

func (fs *fileScan) user(r *row, pending map[string]string) {
	if s := r.contentText(); s != "" {
		if strings.Contains(s, "<command-name>/how-do-i</command-name>") || strings.Contains(s, "<command-name>/procedures:how-do-i</command-name>") {
			fs.typed++
		}
		return
	}
	for _, b := range r.blocks() {
		if b.Type != "tool_result" {
			continue
		}
		text := resultText(b.Content)
		if b.IsError && strings.Contains(text, "HOW-DO-I-GATE:") {
			fs.gates.Denials++
		}
		if pending[b.ToolUseID] == "digest-read" {
			delete(pending, b.ToolUseID)
			if strings.Contains(text, "==> prior /how-do-i digest ") {
				fs.fork.warmRead = true
			}
		}
	}
	if !fs.isFork() && len(r.ToolUseResult) > 0 && r.ToolUseResult[0] == '{' {
		var sr skillResult
		if json.Unmarshal(r.ToolUseResult, &sr) == nil && sr.AgentID != "" && sr.CommandName != "" {
			if fs.spawned == nil {
				fs.spawned = map[string]string{}
				fs.digests = map[string]bool{}
			}
			fs.spawned[sr.AgentID] = sr.CommandName
			if isSkill(sr.CommandName, "how-do-i") && sr.Status == "forked" && strings.TrimSpace(sr.Result) != "" {
				fs.digests[sr.AgentID] = true
			}
		}
	}
}

// isSkill reports whether name is the skill short or any plugin's
// plugin:short.
func isSkill(name, short string) bool {
	return name == short || strings.HasSuffix(name, ":"+short)
}

// unixNano is t in unix nanoseconds, 0 for the zero time (a row without a
// timestamp); see fromUnixNano.
func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromUnixNano(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

// crcReader passes reads through, adding them to a CRC-32C.
type crcReader struct {
	r   io.Reader
	sum uint32
}

func (c *crcReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.sum = crc32.Update(c.sum, castagnoli(), p[:n])
	return n, err
}
