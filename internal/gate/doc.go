// Package gate holds what the how-do-i and am-i-done gates decide with: who
// is bound (audience), which tool calls are always allowed (the compliance
// allowlist), whether the current turn used tools (the transcript), whether
// the skill a gate names is installed, and the exact JSON a gate prints; and
// the Verdict a gate's decision returns, which its command carries out.
package gate
