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
