package shellread

import (
	"strings"
	"testing"
)

// lexRefused are byte sequences the lexical gate refuses before any parse,
// each with a word its reason must hold. Every command here is otherwise
// made of listed readers, so only the lexical gate stands between it and an
// allow.
var lexRefused = []struct{ cmd, why string }{
	{"ls # \\\ntouch F", "comment"},
	{"ls #\\\ntouch F", "comment"},
	{"echo a\r# >F", "carriage return"},
	{"echo a\rb", "carriage return"},
	{"ls\x00", "NUL"},
	{"ls \x1b[2J", "escape"},
	{"ls \x7f", "control byte"},
	{"ls \v", "vertical tab"},
	{"ls \f", "form feed"},
	{"cat <<EO\\\nF\nx\nEOF\ntouch F", "delimiter"},
	{"cat <<'EO\\\nF'\nx\nEOF", "delimiter"},
	{"cat <<E\"O\"F\nx\nEOF", "delimiter"},
	{"cat <<EOF\nx\\\nEOF\ntouch F", "here-document"},
	{"cat <<'EOF'\nx\\\nEOF", "here-document"},
	{"cat <<EOF\na\\b\nEOF", "here-document"},
	{"cat <<EOF\nx", "here-document"},
	{"cat <<EOF", "here-document"},
	{"cat <<EOF \\\n f\nx\nEOF", "backslash-newline"},
	{"cat <<EOF\nx\nEOF\nls \\\n -l", "here-document"},
	{"echo \"$\\\n(touch F)\"", "backslash-newline"},
	{"echo $\\\n(touch F)", "$ followed by a backslash-newline"},
	{"echo \"a\\\nb\"", "double quotes"},
	{"echo x}\\\nls", "continuation"},
	{"echo x\\\nls", "continuation"},
	{"ls \\\n\\\n-l", "continuation"},
	{"ls \\\n# x", "continuation"},
	{"ls \\\n", "continuation"},
	{"ls \\", "end of the command"},
	{"ls |\\\nwc", "continuation"},
	{"echo \\ \\\nls", "continuation"},
	{"ls\u00a0-la", "U+00A0"},
	{"ls\u2028touch F", "U+2028"},
	{"ls \u202e", "U+202E"},
	{"ls \xff", "UTF-8"},
	{"echo 'a", "single quote"},
	{"echo \"a", "double quote"},
	{"echo $\"x\"", "zsh"},
	{"echo $'a\\\nb'", "$'…'"},
	{"((1))", "(("},
}

func TestLexicalGateRefuses(t *testing.T) {
	for _, c := range lexRefused {
		ok, why := Judge(c.cmd)
		if ok {
			t.Errorf("Judge(%q) allowed, want refused (%s)", c.cmd, c.why)
			continue
		}
		if !strings.Contains(why, c.why) {
			t.Errorf("Judge(%q) reason %q, want it to name %q", c.cmd, why, c.why)
		}
	}
}

// lexAccepted pass the lexical gate and the print-back, and are allowed.
var lexAccepted = []string{
	"ls \\\n  -la",
	"ls \\\n-la",
	"find . \\\n  -name '*.go' \\\n  -type f",
	"git log \\\n\t--oneline",
	"ls 'a\\\nb'",
	"echo 'it''s' \"a\\\"b\" $'x\\'y'",
	"cat <<EOF\nhello $HOME ${HOME}\nEOF",
	"cat <<'EOF'\n$(not run) `nor this` a\\b\nEOF",
	"cat <<-EOF\n\thi\n\tEOF",
	"cat <<EOF | wc -l\na\nb\nEOF",
	"cat <<<x",
	"ls # a comment \\ in the middle",
	"ls #",
	"echo $((1 + 2))",
	"echo ${#} $# $? ${1}",
	"grep -rn 'é' .",
	"echo a\\ b",
	"ls\nls",
	"ls;ls",
	"ls 2>/dev/null",
}

func TestLexicalGateAccepts(t *testing.T) {
	wantAllowed(t, lexAccepted)
}

// wantAllowed fails on every command of cmds that Judge refuses.
func wantAllowed(t *testing.T, cmds []string) {
	t.Helper()
	for _, c := range cmds {
		if ok, why := Judge(c); !ok {
			t.Errorf("Judge(%q) refused (%q), want allowed", c, why)
		}
	}
}

// A refusal outside the lexical class carries no reason: the gate's denial
// text stays the plain one.
func TestJudgeReasonOnlyForLexicalClass(t *testing.T) {
	for _, c := range []string{"rm -rf /", "echo $(ls)", "ls > f", "echo ${x:-y}", "cat `ls`", "diff <(ls) f"} {
		ok, why := Judge(c)
		if ok || why != "" {
			t.Errorf("Judge(%q) = %v, %q, want false with no reason", c, ok, why)
		}
	}
}

// The print-back compares everything but layout.
func TestLayoutFree(t *testing.T) {
	for in, want := range map[string]string{
		"a ;b\n":      "ab",
		"a \\\n b":    "ab",
		"a\\\\\nb":    "a\\\\b",
		"'x y'":       "'xy'",
		"a\\ b":       "a\\ b",
		"x}\\\nls":    "x}ls",
		"# c \\":      "#c\\",
		"echo \\":     "echo\\",
		"cat <<EOF\n": "cat<<EOF",
	} {
		if got := layoutFree(in); got != want {
			t.Errorf("layoutFree(%q) = %q, want %q", in, got, want)
		}
	}
}

// The printer writes redirections after the words; a redirection written
// between words still prints back.
func TestPrintBackRedirectionsBetweenWords(t *testing.T) {
	wantAllowed(t, []string{
		"grep -rn foo 2>/dev/null .",
		"sort <f -u",
		"cat <f -n | wc -l",
		"ls 2>/dev/null -la >/dev/null -d .; grep x 2>&1 f",
		"tr a-z A-Z <f",
		"<f cat -n",
		"cat <<EOF -n\nx\nEOF",
	})
}
