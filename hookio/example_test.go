package hookio_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/procedures-go/procedures/hookio"
)

func ExampleRead() {
	p, err := hookio.Read(strings.NewReader(`{"session_id":"s1\n","tool_name":"Edit","tool_input":{"file_path":"/tmp/x"}}`))
	fmt.Println(err)
	id, ok := p.SessionID()
	fmt.Printf("%q %v %s\n", id, ok, p.ToolName())
	in, _ := p.Field("tool_input")
	fmt.Println(string(in))
	// Output:
	// <nil>
	// "s1" true Edit
	// {"file_path":"/tmp/x"}
}

// A refused payload is a *DecodeError: errors.Is finds its kind, errors.As
// the JSON error underneath.
func ExampleDecodeError() {
	_, err := hookio.Read(strings.NewReader(`{"a":nan}`))
	var syntax *json.SyntaxError
	fmt.Println(errors.Is(err, hookio.ErrMalformed), errors.As(err, &syntax))

	_, err = hookio.Read(strings.NewReader(`[]`))
	fmt.Println(errors.Is(err, hookio.ErrNonObject), err)

	_, err = hookio.Read(strings.NewReader(strings.Repeat(" ", 16<<20+1)))
	fmt.Println(errors.Is(err, hookio.ErrTooLarge))
	// Output:
	// true true
	// true hook payload is not a JSON object
	// true
}

// A failed Read returns a nil *Payload, which reads as a payload with every
// member absent.
func ExamplePayload_SessionID() {
	p, _ := hookio.Read(strings.NewReader(`{"session_id":1.50}`))
	fmt.Println(p.SessionID())
	p, _ = hookio.Read(strings.NewReader(`not json`))
	id, ok := p.SessionID()
	fmt.Printf("%q %v\n", id, ok)
	// Output:
	// 1.5 true
	// "" false
}

func ExamplePayload_Skill() {
	p, _ := hookio.Read(strings.NewReader(`{"tool_name":"Skill","tool_input":{"skill":"procedures:how-do-i","args":"x"}}`))
	fmt.Println(p.ToolName(), p.Skill())
	// Output:
	// Skill procedures:how-do-i
}

func ExamplePayload_Classify() {
	p, _ := hookio.Read(strings.NewReader(`{"session_id":"s1","tool_name":"Skill","tool_input":{"skill":"procedures:how-do-i"},
		"tool_response":{"success":true,"status":"forked","result":"GOAL: x\n"}}`))
	r := p.Classify()
	fmt.Printf("%v %s %q\n", r.Shape, r.SessionID, r.Digest)

	p, _ = hookio.Read(strings.NewReader(`{"tool_name":"Skill","tool_input":{"skill":"how-do-i"},"tool_response":"Launching skill: how-do-i"}`))
	fmt.Println(p.Classify().Shape)

	p, _ = hookio.Read(strings.NewReader(`{"tool_name":"Skill","tool_input":{"skill":"how-do-i"},"tool_response":{"some_future_key":1}}`))
	fmt.Println(p.Classify().Shape)

	p, _ = hookio.Read(strings.NewReader(`{"tool_name":"Bash"}`))
	fmt.Println(p.Classify().Shape)
	// Output:
	// digest s1 "GOAL: x"
	// benign
	// unrecognized
	// other
}
