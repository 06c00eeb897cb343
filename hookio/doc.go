// Package hookio decodes a Claude Code hook payload (exactly one JSON object
// on stdin, keys matched exactly and case-sensitively) and classifies a
// PostToolUse(Skill) payload of the /how-do-i skill: a completed digest, a
// benign non-digest (refused, background, launching, failed) or an
// unrecognised shape that a hook must record as a blind fail-open.
package hookio
