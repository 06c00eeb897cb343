package config

// TurnStateDefault is the turn-state directory the hooks share when
// TURN_STATE_DIR is unset (internal/turnstate applies its shared-host
// fallback).
const TurnStateDefault = "/tmp/claude-turn-state"

// TurnStateDirVar names the turn-state directory (a doctor's fix sets it).
const TurnStateDirVar = "TURN_STATE_DIR"

var envTurnStateDir = declare(Var{
	Name:    TurnStateDirVar,
	Default: TurnStateDefault + ", or " + TurnStateDefault + "-<uid> when that is not a directory of the current user",
	Doc:     "the turn-state directory of the four gate hooks, digest-record, session-digest-read and doctor",
})

// TurnState is the turn-state setting.
type TurnState struct {
	// Dir is $TURN_STATE_DIR, taken as given; "" selects TurnStateDefault
	// with its shared-host fallback.
	Dir string
}

// TurnStateFrom reads the turn-state setting.
func TurnStateFrom(getenv Getenv) TurnState {
	return TurnState{Dir: envTurnStateDir.get(getenv)}
}
