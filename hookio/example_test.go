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
	fmt.Println(p.ToolInput().Get("file_path").Text())
	// Output:
	// <nil>
	// "s1" true Edit
	// /tmp/x
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

// Get reads the first truthy of several paths, jq's .a // .b: here the
// command of a Bash call, in the payload shape Claude Code sends and in the
// older one. A tool_input that is not an object ends the chain.
func ExamplePayload_Get() {
	for _, payload := range []string{
		`{"tool_name":"Bash","tool_input":{"command":"git status"}}`,
		`{"tool":"Bash","input":{"command":"ls"}}`,
		`{"tool_name":"Bash","tool_input":"ls","input":{"command":"ls"}}`,
	} {
		p, _ := hookio.Read(strings.NewReader(payload))
		cmd := p.Get("tool_input.command", "input.command")
		fmt.Printf("%s %q %v\n", p.ToolName(), cmd.Text(), cmd != nil)
	}
	// Output:
	// Bash "git status" true
	// Bash "ls" true
	// Bash "" false
}

// ToolInput is the object a tool call's fields are read from (tool_input,
// else input); Get on it takes the first truthy of several fields.
func ExamplePayload_ToolInput() {
	p, _ := hookio.Read(strings.NewReader(`{"tool_name":"Read","tool_input":{"file_path":null,"path":"docs/"}}`))
	fmt.Println(p.ToolInput().Get("file_path", "notebook_path", "path").Text())
	// Output:
	// docs/
}

// The Stop hook's fields: the event, and the transcript the harness names.
func ExamplePayload_TranscriptPath() {
	p, _ := hookio.Read(strings.NewReader(`{"hook_event_name":"Stop","session_id":"s1","transcript_path":"/home/u/.claude/projects/p/s1.jsonl"}`))
	fmt.Println(p.Get("hook_event_name").Text())
	fmt.Println(p.TranscriptPath())
	// Output:
	// Stop
	// /home/u/.claude/projects/p/s1.jsonl
}

// Text renders any value as jq -r does; Composite tells an object or array
// from a scalar.
func ExampleValue_Text() {
	p, _ := hookio.Read(strings.NewReader(`{"agent_id":7,"cwd":"/work\n","tool_input":{"tags":["a"]}}`))
	fmt.Printf("%q %q\n", p.Get("agent_id").Text(), p.Get("cwd").Text())
	tags := p.ToolInput().Get("tags")
	fmt.Println(tags.Composite(), p.Get("missing").Text() == "")
	// Output:
	// "7" "/work"
	// true true
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
