// Package hookio reads a Claude Code hook payload (exactly one JSON object
// on stdin, keys matched exactly and case-sensitively) and classifies a
// PostToolUse(Skill) payload of the /how-do-i skill: a completed digest, a
// benign non-digest (refused, background, launching, failed) or an
// unrecognised shape that a hook must record as a blind fail-open.
//
// Cost is bounded: [Read] takes at most 16 MiB from its reader and refuses a
// longer payload ([ErrTooLarge]); before building any map it refuses a
// payload with more than 100,000 object members or nested deeper than 512
// ([ErrMalformed]). A hook treats every refusal as a blind fail-open, never
// a blocked session.
//
// Fields read the way the bash original read them through jq -r and a
// shell command substitution: a string without its trailing line feeds, any
// other value as jq prints it.
package hookio
