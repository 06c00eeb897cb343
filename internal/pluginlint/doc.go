// Package pluginlint lints the surface of a Claude Code plugin tree: the fork-skill
// model "tier pin" (rules R1–R8) and the skill-surface checks.
package pluginlint
