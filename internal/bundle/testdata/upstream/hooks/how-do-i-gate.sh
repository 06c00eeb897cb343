#!/usr/bin/env bash
# Fixture stand-in for the bash original's how-do-i-gate hook: it notes that it was
# started, then needs jq, as the original does.
[ -z "${E2E_BASH_LOG:-}" ] || echo "hooks/how-do-i-gate.sh" >>"$E2E_BASH_LOG"
jq -e . >/dev/null
