// Package hookio decodes a Claude Code hook payload (exactly one JSON object
// on stdin, keys matched exactly and case-sensitively) and classifies a
// PostToolUse(Skill) payload of the /how-do-i skill: a completed digest, a
// benign non-digest (refused, background, launching, failed) or an
// unrecognised shape that a hook must record as a blind fail-open.
//
// Cost is bounded: a hook reads stdin only through [ReadPayload], which
// stops after [MaxPayload] (16 MiB) and refuses a longer payload
// ([ErrTooLarge]); [Decode] refuses, before building any map, a payload with
// more than [MaxMembers] (100,000) object members or nested deeper than
// [MaxDepth] (512). A hook treats both refusals as a malformed payload: a
// blind fail-open, never a blocked session.
package hookio
