#!/usr/bin/env bash
# Fixture stand-in for the bash original's log-record script: it notes that it was
# started, then needs awk, as the original does.
[ -z "${E2E_BASH_LOG:-}" ] || echo "scripts/log-record.sh" >>"$E2E_BASH_LOG"
awk 'BEGIN { print "bash original" }'
