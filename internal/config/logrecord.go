package config

var (
	envMistakes = declare(Var{
		Name:    "MISTAKES_JSONL",
		Default: "<root>/mistakes.jsonl",
		Doc:     "the mistake log log-record mistake appends to",
	})
	envDecisions = declare(Var{
		Name:    "DECISIONS_DIR",
		Default: "<root>/references/decisions",
		Doc:     "where log-record decision writes",
	})
	envSolutions = declare(Var{
		Name:    "SOLUTIONS_DIR",
		Default: "<root>/references/solutions",
		Doc:     "where log-record solution writes",
	})
	envFailureModes = declare(Var{
		Name:    "FAILURE_MODES_DIR",
		Default: "<root>/references/failure-modes",
		Doc:     "where log-record failure-mode writes",
	})
)

// LogRecord is log-record's targets, as the environment gives them; ""
// selects the default under the record root.
type LogRecord struct {
	Mistakes     string // $MISTAKES_JSONL
	Decisions    string // $DECISIONS_DIR
	Solutions    string // $SOLUTIONS_DIR
	FailureModes string // $FAILURE_MODES_DIR
}

// LogRecordFrom reads log-record's targets.
func LogRecordFrom(getenv Getenv) LogRecord {
	return LogRecord{
		Mistakes:     envMistakes.get(getenv),
		Decisions:    envDecisions.get(getenv),
		Solutions:    envSolutions.get(getenv),
		FailureModes: envFailureModes.get(getenv),
	}
}
