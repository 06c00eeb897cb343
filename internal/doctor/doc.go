// Package doctor inspects an installed procedures plugin and the state its
// hooks leave behind, and reports what it finds as data: the wiring of the
// bundle, which gates are switched off, what the fail-open log says was
// released blind, and the stores the hooks and commands use. It only reads:
// it never creates, changes the mode of, or deletes anything.
//
// Caps: a log line longer than [gatelog.MaxLine] bytes is counted as over-long and
// skipped without being held in memory; at most [MaxGroups] distinct
// gate/reason pairs and [MaxSessions] digest sessions are kept (the rest
// are counted together); hooks.json and plugin.json are read up to
// [MaxConfig] bytes.
package doctor
