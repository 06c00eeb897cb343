package evidence

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// genCorpus writes a synthetic projects directory in the shapes of the
// real fixture, deterministically: sessions of turns, each main turn a
// streamed message of one to three rows sharing message.id and requestId
// (usage growing row by row, sometimes a smaller row last), some rows
// without requestId, an api-request-blob of blobBytes before each request,
// a file read's tool result of half that before each answer, and per
// session two how-do-i forks (nested layout) that run
// session-digest-read and query-records --cat. It returns the bytes
// written.
func genCorpus(tb testing.TB, dir string, sessions, turns, blobBytes int) int64 {
	tb.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	blobHead := `{"type":"api-request-blob","sessionId":"%s","hash":"h","message":{"role":"user","content":[{"type":"text","text":"`
	blobBody := strings.Repeat("x", blobBytes) + `"}]}}` + "\n"
	blob := func(w io.Writer, sid string) { fmt.Fprintf(w, blobHead, sid); io.WriteString(w, blobBody) }
	// a file read's result: half a blob of source text
	readHead := `{"parentUuid":null,"isSidechain":false,"type":"user","sessionId":"%s","timestamp":"%s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"r%d","content":"`
	readBody := strings.Repeat(`func f() {\n\treturn\n}\n`, blobBytes/2/20) + `"}]},"toolUseResult":{"type":"text","file":{"filePath":"/src/f.go"}}}` + "\n"
	base := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	var total int64
	for s := range sessions {
		sid := fmt.Sprintf("00000000-0000-4000-8000-%012d", s)
		proj := filepath.Join(dir, fmt.Sprintf("-proj%d", s%3))
		main := openGen(tb, filepath.Join(proj, sid+".jsonl"))
		at := base.Add(time.Duration(s) * time.Hour)
		ts := func() string { at = at.Add(time.Second); return at.Format("2006-01-02T15:04:05.000Z") }
		msg := 0
		assistant := func(w io.Writer, extra string, withReq bool, content string) {
			msg++
			id := fmt.Sprintf("msg_%d_%d", s, msg)
			req := ""
			if withReq {
				req = fmt.Sprintf(`,"requestId":"req_%d_%d"`, s, msg)
			}
			in, cc, cr := rng.IntN(5000), rng.IntN(3000), rng.IntN(50000)
			out := 1 + rng.IntN(200)
			rows := 1 + rng.IntN(3)
			for r := range rows {
				o := out * (r + 1)
				if r == rows-1 && rows > 1 && rng.IntN(4) == 0 {
					o = 1 // a smaller last row: the largest one counts
				}
				fmt.Fprintf(w, `{"parentUuid":null,"isSidechain":%s,"type":"assistant","sessionId":"%s"%s%s,"timestamp":"%s","message":{"id":"%s","model":"claude-sonnet-4-5","role":"assistant","content":%s,"usage":{"input_tokens":%d,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,"output_tokens":%d}}}`+"\n",
					map[bool]string{true: "true", false: "false"}[extra != ""], sid, extra, req, ts(), id, content, in, cc, cr, o)
			}
		}
		for t := range turns {
			fmt.Fprintf(main, `{"type":"queue-operation","operation":"enqueue","sessionId":"%s","timestamp":"%s"}`+"\n", sid, ts())
			fmt.Fprintf(main, `{"parentUuid":null,"isSidechain":false,"type":"user","sessionId":"%s","timestamp":"%s","message":{"role":"user","content":"prompt %d"}}`+"\n", sid, ts(), t)
			blob(main, sid)
			assistant(main, "", rng.IntN(10) != 0, fmt.Sprintf(`[{"type":"tool_use","id":"r%d","name":"Read","input":{"file_path":"/src/f%d.go"}}]`, t, t))
			fmt.Fprintf(main, readHead, sid, ts(), t)
			io.WriteString(main, readBody)
			assistant(main, "", rng.IntN(10) != 0, `[{"type":"text","text":"ok"}]`)
			if t < 2 { // two forks per session
				agent := fmt.Sprintf("a%d%d", s, t)
				fmt.Fprintf(main, `{"type":"user","isSidechain":false,"sessionId":"%s","timestamp":"%s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu%d","content":"done"}]},"toolUseResult":{"success":true,"commandName":"procedures:how-do-i","status":"forked","agentId":"%s","result":"GOAL: g"}}`+"\n", sid, ts(), t, agent)
				f := openGen(tb, filepath.Join(proj, sid, "subagents", "agent-"+agent+".jsonl"))
				extra := fmt.Sprintf(`,"agentId":"%s","attributionSkill":"procedures:how-do-i"`, agent)
				blob(f, sid)
				assistant(f, extra, true, `[{"type":"tool_use","id":"b1","name":"Bash","input":{"command":"bash \"/p/scripts/session-digest-read.sh\" --read \"`+sid+`\""}}]`)
				prior := ""
				if t == 1 {
					prior = `==> prior /how-do-i digest 1 <==\nGOAL: g`
				}
				fmt.Fprintf(f, `{"type":"user","isSidechain":true,"sessionId":"%s"%s,"timestamp":"%s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"b1","content":"%s"}]}}`+"\n", sid, extra, ts(), prior)
				assistant(f, extra, true, fmt.Sprintf(`[{"type":"tool_use","id":"b2","name":"Bash","input":{"command":"/p/bin/procedures query-records --cat references/decisions/d%d.md references/decisions/shared.md"}}]`, t))
				total += closeGen(tb, f)
			}
		}
		total += closeGen(tb, main)
	}
	return total
}

type genFile struct {
	*bufio.Writer
	f *os.File
}

func openGen(tb testing.TB, p string) genFile {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	f, err := os.Create(p)
	if err != nil {
		tb.Fatal(err)
	}
	return genFile{bufio.NewWriterSize(f, 1<<16), f}
}

func closeGen(tb testing.TB, g genFile) int64 {
	if err := g.Flush(); err != nil {
		tb.Fatal(err)
	}
	fi, err := g.f.Stat()
	if err != nil {
		tb.Fatal(err)
	}
	g.f.Close()
	return fi.Size()
}

// genMoneyCorpus writes sessions over two weeks of June 2026 (some turns
// just before and after midnight UTC) on several priced models and one
// unpriced, with usage shapes that price differently: turns past 200,000
// tokens in a bucket, one-hour cache writes, fast-mode turns, streamed
// messages written as several rows, nested forks and a flat agent file.
func genMoneyCorpus(tb testing.TB, dir string) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	models := []string{"claude-sonnet-4-5-20250929", "claude-opus-4-6", "claude-haiku-4-5-20251001",
		"claude-opus-4-1-20250805", "claude-sonnet-5-5", "claude-sonnet-4-6", "claude-opus-4-7"}
	n := 0
	row := func(w io.Writer, sid, extra string, at time.Time, model string) {
		n++
		in, cc, cr, out := rng.IntN(20000), rng.IntN(30000), rng.IntN(400000), 1+rng.IntN(3000)
		if rng.IntN(5) == 0 {
			in = 150000 + rng.IntN(200000) // past the 200k tier in one bucket
		}
		split := ""
		if rng.IntN(3) == 0 {
			h1 := rng.IntN(cc + 1)
			split = fmt.Sprintf(`,"cache_creation":{"ephemeral_5m_input_tokens":%d,"ephemeral_1h_input_tokens":%d}`, cc-h1, h1)
		}
		speed := `"standard"`
		if rng.IntN(4) == 0 {
			speed = `"fast"`
		}
		rows := 1 + rng.IntN(2)
		for r := range rows {
			fmt.Fprintf(w, `{"type":"assistant","sessionId":"%s"%s,"requestId":"req_%d","timestamp":"%s","message":{"id":"msg_%d","model":"%s","role":"assistant","content":[],"usage":{"input_tokens":%d,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,"output_tokens":%d%s,"speed":%s}}}`+"\n",
				sid, extra, n, at.Format("2006-01-02T15:04:05.000Z"), n, model, in, cc, cr, out*(r+1), split, speed)
		}
	}
	base := time.Date(2026, 6, 1, 22, 0, 0, 0, time.UTC)
	for s := range 16 {
		sid := fmt.Sprintf("10000000-0000-4000-8000-%012d", s)
		proj := filepath.Join(dir, fmt.Sprintf("-proj%d", s%2))
		main := openGen(tb, filepath.Join(proj, sid+".jsonl"))
		at := base.Add(time.Duration(s) * 21 * time.Hour)
		for range 12 {
			at = at.Add(time.Duration(rng.IntN(40)) * time.Minute)
			row(main, sid, "", at, models[rng.IntN(len(models))])
		}
		agent := fmt.Sprintf("b%d", s)
		var f genFile
		extra := fmt.Sprintf(`,"isSidechain":true,"agentId":"%s","attributionSkill":"procedures:how-do-i"`, agent)
		if s%4 == 0 {
			f = openGen(tb, filepath.Join(proj, "agent-"+agent+".jsonl"))
		} else {
			f = openGen(tb, filepath.Join(proj, sid, "subagents", "agent-"+agent+".jsonl"))
		}
		for range 4 {
			at = at.Add(time.Duration(rng.IntN(20)) * time.Minute)
			row(f, sid, extra, at, models[rng.IntN(len(models))])
		}
		closeGen(tb, f)
		closeGen(tb, main)
	}
}
