#!/usr/bin/env bash
# Fixture stand-in for the bash original's am-i-done-gate hook: it notes that it was
# started, then needs jq, as the original does.
[ -z "${E2E_BASH_LOG:-}" ] || echo "hooks/am-i-done-gate.sh" >>"$E2E_BASH_LOG"
jq -e . >/dev/null
