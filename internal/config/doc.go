// Package config is the one place that maps the environment variables the
// commands read to the plain option structs the packages take, so the table
// and the code are one: each variable is declared once, with its default
// and meaning, in the file of its area (digest.go, turnstate.go, …), next
// to the function that reads it. [Vars] is that table; docs/environment.md
// is generated from it, and a test fails when the page is stale.
//
// The public packages read no environment; the commands call the
// functions here with their cli.Env.
package config
