package hookio

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"
)

// A payload of exactly 16 MiB is read; one byte more is ErrTooLarge, and no
// more than the cap plus one byte is consumed.
func TestReadPayloadCap(t *testing.T) {
	const cap16 = 16 << 20
	if maxPayload != cap16 {
		t.Fatalf("maxPayload = %d, want 16 MiB", maxPayload)
	}
	// 16 MiB of white space around an object: read whole, then decoded.
	exact := append([]byte("{}"), bytes.Repeat([]byte(" "), cap16-2)...)
	if p, err := Read(bytes.NewReader(exact)); err != nil || p == nil {
		t.Fatalf("16 MiB: %v", err)
	}
	r := bytes.NewReader(make([]byte, cap16+100))
	p, err := Read(r)
	var de *DecodeError
	if !errors.Is(err, ErrTooLarge) || !errors.As(err, &de) || p != nil {
		t.Fatalf("16 MiB + 100: %v; want a DecodeError of ErrTooLarge", err)
	}
	if r.Len() != 99 {
		t.Errorf("read %d bytes past the cap, want 1", 100-r.Len())
	}
}

func manyMembers(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"session_id":"s1","tool_name":"Skill","x":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":0`)
	}
	b.WriteString("}}")
	return []byte(b.String())
}

// Decoding limits: more than 100,000 object members (at any depth) or
// nesting deeper than 512 is malformed, before any map is built.
func TestDecodeLimits(t *testing.T) {
	ok := [][]byte{
		manyMembers(100_000 - 3),
		[]byte(`{"a":` + strings.Repeat("[", 511) + strings.Repeat("]", 511) + `}`),
		[]byte(`{"a":"` + strings.Repeat(`:{[\"`, 100_000) + `"}`), // inside a string: not counted
	}
	for i, data := range ok {
		if _, err := decode(data); err != nil {
			t.Errorf("ok[%d]: %v", i, err)
		}
	}
	bad := [][]byte{
		manyMembers(200_000),
		[]byte(`{"a":` + strings.Repeat("[", 512) + strings.Repeat("]", 512) + `}`),
	}
	for i, data := range bad {
		_, err := decode(data)
		if !errors.Is(err, ErrMalformed) {
			t.Errorf("bad[%d]: %v, want ErrMalformed", i, err)
		}
	}
}

// BenchmarkDecodeCap decodes the costliest payloads the cap admits and
// reports bytes allocated per payload byte: a 16 MiB payload of tiny members
// (refused by the member limit before any map is built) and a 16 MiB digest
// string.
func BenchmarkDecodeCap(b *testing.B) {
	members := manyMembers(1_200_000) // just under 16 MiB
	digest := []byte(`{"session_id":"s1","tool_name":"Skill","tool_input":{"skill":"how-do-i"},"tool_response":{"success":true,"status":"forked","result":"` +
		strings.Repeat("word ", (maxPayload-200)/5) + `"}}`)
	for _, c := range []struct {
		name string
		data []byte
	}{{"members", members}, {"digest", digest}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.data)))
			for b.Loop() {
				p, _ := Read(bytes.NewReader(c.data))
				p.Classify()
			}
		})
	}
}

// FuzzCheckLimits: the pre-decoding pass never panics, and it never refuses
// a payload within both limits as the JSON decoder counts them.
func FuzzCheckLimits(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":{"b":[1,{"c":":"}]}}`, `"\\"`, `{"a":"\"`, `]]]`, `[[[`, manyMembersSeed} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := checkLimits(data)
		if err != nil && len(data) < maxMembers && bytes.Count(data, []byte("["))+
			bytes.Count(data, []byte("{")) <= maxDepth {
			t.Fatalf("refused a small payload: %v", err)
		}
		decode(data) // must not panic
	})
}

const manyMembersSeed = `{"a":0,"b":1,"c":{"d":[true,false,null]}}`
