package shellread

import (
	"strings"
	"testing"
)

// Issue 15: the classes of commands the word-matching classifier let
// through, each judged on what the shell runs after expansion.
func TestIssue15Classes(t *testing.T) {
	judge(t, "1 brace expansion builds an option", []verdict{
		{"sort --{output,output}=F f", D}, {"find . -{delete,true}", D}, {"sed --{in-place,in-place} s/a/b/ f", D},
		{"sort -{o,o}F f", D}, {"sort {-o,F} f", D}, {"sort -{1..3} f", D}, {"uniq {a,b}", D},
		{"cat {a,b}.txt", A}, {"sort {a,b}.txt", A}, {"ls {1..3}", A}, {"echo {a,b}{c,d}", A},
		{"cat " + strings.Repeat("{a,b}", 7), D}, // 128 words: over the expansion cap
	})
	judge(t, "2 a special parameter becomes an option", []verdict{
		{"echo o/tmp/x; sort -$_ f", D}, {"sort -$1 f", D}, {"sort f$X", D}, {"sort $((1)) f", D},
		{"sort -* f", D}, {"sort -[o]x f", D}, {`sort "$X" f`, D}, {`sort "f$X"`, A}, {"echo $_ $1", A},
	})
	judge(t, "10 zsh glob qualifiers and tildes", []verdict{
		{"ls *(e:'touch F':)", D}, {"ls *(+f)", D}, {"ls *(.)", D}, {"ls ?(a)", D}, {"ls ~[x]", D},
		{"ls ~+", D}, {"cat ~/notes.md", A}, {"ls ~", A}, {"ls ~root/x", A}, {"ls =(ls)", D}, {"echo ${(e)X}", D},
		{"echo $X[1]", D}, // zsh parses a subscript, which it evaluates as arithmetic
		{"ls '*(e:x:)'", A}, {`ls "a(b)"`, A},
	})
	judge(t, "12 comments are not commands", []verdict{
		{"git status # why", A}, {"git status  # why", A}, {"ls # a\nwc -l f # b", A}, {"# only a comment", D},
		{"rm x # ls", D},
	})
}

// 11: over the size or opener cap, a command is refused before a parse.
func TestIssue15Caps(t *testing.T) {
	flat := strings.Repeat("ls;", MaxCommand/3+1)
	if ReadOnly(flat) {
		t.Errorf("a %d-byte flat command is allowed, over MaxCommand %d", len(flat), MaxCommand)
	}
	if !ReadOnly(flat[:MaxCommand-MaxCommand%3]) {
		t.Errorf("a flat command of %d bytes, within MaxCommand, is refused", MaxCommand-MaxCommand%3)
	}
	nested := strings.Repeat("(", MaxOpeners+1) + "ls" + strings.Repeat(")", MaxOpeners+1)
	if ReadOnly(nested) || ReadOnly("jq '"+strings.Repeat("[", MaxOpeners+1)+"'") {
		t.Error("a command past MaxOpeners is allowed")
	}
	if !ReadOnly("jq '" + strings.Repeat("[", MaxOpeners) + "'") {
		t.Error("a command with exactly MaxOpeners openers is refused")
	}
}

// Classes 3-9: explicit grammars, default deny.
func TestIssue15Grammars(t *testing.T) {
	judge(t, "3 builtins that assign or evaluate a subscript", []verdict{
		{"printf -v 'a[$(touch F)]' x", D}, {"printf -va x", D}, {"test -v 'a[$(touch F)]'", D}, {"test '-v' x", D},
		{"[ -v x ]", D}, {"[[ -v x ]]", D}, {"declare x", D}, {"read x", D}, {"mapfile x", D}, {"test a -eq 1", D},
		{"printf '%s\\n' a", A}, {"printf -- -v", A}, {"test -f go.mod", A}, {"test -n x", A},
	})
	judge(t, "4 - is an operand", []verdict{
		{"cat f | uniq - OUT", D}, {"xxd -p f | xxd -r -p - OUT", D}, {"xxd - f", D}, {"uniq -- a b", D},
		{"uniq -c -", A}, {"xxd f", A},
	})
	judge(t, "5 GNU sed script grammar", []verdict{
		{"sed ':x w F' f", D}, {"sed -n ':x e cmd' f", D}, {"sed 'bx w F' f", D}, {"sed 's/[/]/x/w F' f", D},
		{"sed -n 's/[/]/x/p' f", A}, {"sed -n ':a;N;ba' f", A}, {"sed --debug -n p f", A},
		{"sed -z p f", A}, {"sed --posix p f", A}, {"sed -c p f", D}, {"sed --follow-symlinks p f", D},
	})
	judge(t, "6 a global option that takes a value hides the subcommand", []verdict{
		{"git --shallow-file log stash", D}, {"git --frobnicate log", D}, {"git -C d* status", D},
		{"docker --config ps run x", D}, {"docker --frob ps", D}, {"systemctl --root=R -p status enable foo", D},
		{"systemctl -H host status x", D}, {"systemctl -p Id status x", A}, {"docker --config d ps", A},
		{"git -C /r --no-pager log", A}, {"git --git-dir=.git log", A},
	})
	judge(t, "7 operands after --", []verdict{
		{"git branch -- b", D}, {"git tag -- t", D}, {"git config -- core.fsmonitor 'touch F'", D},
		{"git stash list -- x", D}, {"git log -- a b", A}, {"git branch --list 'feat/*'", A}, {"git tag -l 'v1.*'", A},
	})
	judge(t, "8 git stash -m list is a push", []verdict{{"git stash -m list", D}, {"git stash list", A}})
	judge(t, "9 unlisted writing options", []verdict{
		{"journalctl --cursor-file=F", D}, {"journalctl --vacuum-size=1", D}, {"tree -R -H . ", D}, {"tree --fromfile x", D},
		{"journalctl -u nginx -n 50 --no-pager", A}, {"tree -L 2 -a", A}, {"tmux display-message -p x new -d 'touch F'", D},
	})
}
