// Package pluginlint lints the surface of a Claude Code plugin tree: the fork-skill
// model "tier pin" (rules R1–R8), the skill-surface checks, and the contracts of
// the plugin's own prompts (the scout's retrieval loop, the reviewer's evidence
// rules) in the files the fork and the agent actually load.
package pluginlint
