// Package turnstate is the gates' per-turn memory: one empty marker file per
// fact (<session>.<key>) directly in the turn-state directory, so marks of
// different facts never race, and a reset that starts a new turn by clearing
// the session's other markers and reaping stale files.
package turnstate
