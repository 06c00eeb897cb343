#!/usr/bin/env bash
# Fixture stand-in for the bash original's turn-state-reset hook: it notes that it was
# started, then needs jq, as the original does.
[ -z "${E2E_BASH_LOG:-}" ] || echo "hooks/turn-state-reset.sh" >>"$E2E_BASH_LOG"
jq -e . >/dev/null
