package config

import (
	"slices"
	"strconv"
	"strings"
)

// Var is one environment variable.
type Var struct {
	Name    string // as the environment spells it
	Default string // what unset (or empty) means
	Doc     string // what it sets, and who reads it
}

// Getenv reads one variable: os.Getenv in the binaries, a map in tests.
type Getenv = func(string) string

// registry holds every declared variable, in declaration order.
var registry []*Var

// declare adds v to the table and returns it, for the reading code to use
// (v.get), so a variable cannot be read without being declared.
func declare(v Var) *Var {
	registry = append(registry, &v)
	return &v
}

// Vars returns the table: every declared variable, sorted by name.
func Vars() []Var {
	out := make([]Var, 0, len(registry))
	for _, v := range registry {
		out = append(out, *v)
	}
	slices.SortFunc(out, func(a, b Var) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// get reads the variable; nil getenv reads nothing.
func (v *Var) get(getenv Getenv) string {
	if getenv == nil {
		return ""
	}
	return getenv(v.Name)
}

// parseDigits parses a non-empty string of ASCII digits as a decimal number
// (leading zeros allowed, so "010" is ten). It reports false for anything
// else (a sign, a space, hex, non-ASCII digits), and returns -1 for a digit
// string too large for an int64.
func parseDigits(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return -1, true
	}
	return n, true
}
