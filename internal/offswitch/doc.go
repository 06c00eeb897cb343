// Package offswitch implements the gates' off-switches: a gate is switched off
// when CLAUDE_PLUGIN_OPTION_ENABLE_<KEY> or PROCEDURES_ENABLE_<KEY> is 0 or
// false, and every such release is appended to the escape log.
package offswitch
