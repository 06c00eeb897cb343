package queryrecords

import "github.com/procedures-go/procedures/internal/cli"

// help is what query-records answers to --help and --version.
var help = cli.Help{Name: "query-records", Usage: `Usage: query-records [--keyword WORDS] [--kind K] [--id ID] [--links-to REF] [--project P]
                     [--limit N] [--full] [--rel-ratio R] [--k-floor N]
       query-records --search GOAL [--kind K] [--project P] [--limit N] [--full]
       query-records --recall TERMS [--limit N]
       query-records --cat RECORD...
       query-records --list-stores

Queries the record stores under $QUERY_RECORDS_ROOT (else $CODEX_ROOT, else
$HOME/.claude), plus $QUERY_RECORDS_EXTRA_STORES. Exits 0 on success (an
empty result included), 2 on a usage error, 3 when a store cannot be read.
--k-floor and $QUERY_RECORDS_K_FLOOR are accepted for compatibility and
ignored, as upstream. --search ranks records by how well their title,
keywords, id, path and body answer a goal in free text (20 lines unless
--limit or $QUERY_RECORDS_LIMIT says; see docs/search.md).
`}
