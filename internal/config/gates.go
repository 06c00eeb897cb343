package config

import "github.com/procedures-go/procedures/internal/wiring"

var (
	envEntrypoint = declare(Var{
		Name:    "CLAUDE_CODE_ENTRYPOINT",
		Default: "(none)",
		Doc:     "sdk-cli exempts the session from am-i-done-gate's Stop gate",
	})
	envBinDir = declare(Var{
		Name:    "PROCEDURES_BIN_DIR",
		Default: "the running executable's directory",
		Doc:     "set by the launcher to its own bin/; the gates find <it>/../skills/<skill>/SKILL.md, doctor the bundle",
	})
)

// Entrypoint is $CLAUDE_CODE_ENTRYPOINT.
func Entrypoint(getenv Getenv) string { return envEntrypoint.get(getenv) }

// BinDir is $PROCEDURES_BIN_DIR; "" is unset.
func BinDir(getenv Getenv) string { return envBinDir.get(getenv) }

// The two channels of a gate switch: the plugin option, then the
// per-invocation variable.
const (
	switchOptionPrefix = "CLAUDE_PLUGIN_OPTION_ENABLE_"
	switchPrefix       = "PROCEDURES_ENABLE_"
)

// switchVars maps each switch key of the wiring table to its two variables,
// declared here.
var switchVars = func() map[string][2]string {
	m := map[string][2]string{}
	for _, s := range wiring.Switches() {
		key := s.Key()
		names := switchNames(key)
		for _, name := range names {
			declare(Var{
				Name:    name,
				Default: "on",
				Doc:     "0 or false (any case) switches off " + s.Command + " (plugin option " + s.Option + ")",
			})
		}
		m[key] = names
	}
	return m
}()

func switchNames(key string) [2]string {
	return [2]string{switchOptionPrefix + key, switchPrefix + key}
}

// SwitchVars returns the variables that switch the gate key off, the
// plugin option's first: CLAUDE_PLUGIN_OPTION_ENABLE_<key> and
// PROCEDURES_ENABLE_<key>.
func SwitchVars(key string) [2]string {
	if names, ok := switchVars[key]; ok {
		return names
	}
	return switchNames(key)
}
