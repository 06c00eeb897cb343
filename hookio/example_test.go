package hookio_test

import (
	"errors"
	"fmt"

	"github.com/procedures-go/procedures/hookio"
)

func ExampleClassify() {
	payload := `{"session_id":"s1","tool_name":"Skill","tool_input":{"skill":"procedures:how-do-i"},
		"tool_response":{"success":true,"status":"forked","result":"GOAL: x\n"}}`
	r, err := hookio.Classify([]byte(payload))
	fmt.Println(r.Shape, r.SessionID, fmt.Sprintf("%q", r.Digest), err)

	r, _ = hookio.Classify([]byte(`{"tool_name":"Skill","tool_input":{"skill":"how-do-i"},"tool_response":"Launching skill: how-do-i"}`))
	fmt.Println(r.Shape, r.Shape.Benign())

	_, err = hookio.Classify([]byte(`[]`))
	fmt.Println(errors.Is(err, hookio.ErrNonObject))
	// Output:
	// digest s1 "GOAL: x" <nil>
	// launching true
	// true
}
