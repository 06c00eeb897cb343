package config

import "path/filepath"

// ClaudePluginsDir is where Claude Code records the plugins it installed
// and the marketplaces it knows (installed_plugins.json,
// known_marketplaces.json): $HOME/.claude/plugins, or "" when HOME is not
// an absolute path (the account database is never read).
func ClaudePluginsDir(getenv func(string) string) string {
	h := getenv(Home)
	if !filepath.IsAbs(h) {
		return ""
	}
	return filepath.Join(h, ".claude", "plugins")
}
