package shellread

import "testing"

// Read-only compound commands, tests and harmless environment prefixes.
func TestStructureAllowed(t *testing.T) {
	judge(t, "allowed", []verdict{
		{"[ -d cmd ] && ls cmd", A},
		{"for f in *.go; do wc -l \"$f\"; done", A},
		{"for f in a b c\ndo\n  cat \"$f\"\ndone", A},
		{"if [ -f go.mod ]; then cat go.mod; elif test -d x; then ls x; else echo none; fi", A},
		{"while [ -f x ]; do ls; done", A},
		{"until true; do ls; done", A},
		{"[[ -n \"$x\" && -f y ]] || echo no", A},
		{"[[ $HOME == /root ]]", A},
		{"[[ a < b ]]", A},
		{"[[ 1 -eq 1 ]]", A},
		{"[ ! -f x ]", A}, {"[ \"$a\" = \"$b\" ]", A}, {"[ 1 -lt 2 ]", A}, {"[ -z \"$x\" ]", A},
		{"[ x ]", A}, {"[ ]", A}, {"test -f x", A}, {"test ! x = y", A},
		{"LC_ALL=C sort f", A}, {"TZ=UTC date", A}, {"LANG=C.UTF-8 LC_ALL=C grep -c x f", A},
		{"NO_COLOR=1 ls", A},
		{"for f in *.md; do if [ -s \"$f\" ]; then head -1 \"$f\"; fi; done", A},
	})
}

func TestStructureRefused(t *testing.T) {
	judge(t, "tests", []verdict{
		{"[ -v 'a[$(touch F)]' ]", D}, {"test -v x", D}, {"[ -R x ]", D},
		{"[ $x ]", D}, {"[ -n $x ]", D}, {"[ $a = b ]", D}, {"[ \"$x\" -eq 1 ]", D}, {"[ 1 -eq \"$x\" ]", D},
		{"[ -f x", D}, {"[ \"$a\" \"$b\" ]", D}, {"[ -o x ]", D}, {"[ x -a y ]", D}, {"[ ( x ) ]", D},
		{"[ -f * ]", D}, {"[ \"$@\" ]", D},
		{"[[ $x -eq 1 ]]", D}, {"[[ 'a[$(touch F)]' -gt 0 ]]", D}, {"[[ -v x ]]", D}, {"[[ -R x ]]", D},
		{"[[ x =~ y ]]", D}, {"[[ -o x ]]", D}, {"[[ $(touch F) ]]", D}, {"[[ ${x:=y} ]]", D},
	})
	judge(t, "loops and branches", []verdict{
		{"for PATH in /tmp; do ls; done", D}, {"for path in /tmp; do ls; done", D},
		{"for IFS in x; do ls; done", D}, {"for http_proxy in x; do ls; done", D},
		{"for chpwd_functions in x; do cd /; done", D}, {"for _ in x; do ls; done", D},
		{"for f in $(ls); do cat $f; done", D}, {"for ((i=0;i<3;i++)); do ls; done", D},
		{"select f in a; do ls; done", D}, {"for f in a; do rm $f; done", D},
		{"for f; do ls; done", D},
		{"if true; then rm x; fi", D}, {"if rm x; then ls; fi", D}, {"if true; then ls; else rm x; fi", D},
		{"while true; do touch F; done", D}, {"while rm x; do ls; done", D},
		{"for f in a; do ls; done > out", D},
	})
	judge(t, "environment prefixes", []verdict{
		{"PATH=/tmp ls", D}, {"GIT_DIR=x git status", D}, {"GIT_CONFIG_GLOBAL=x git status", D},
		{"LESSOPEN='|x' cat f", D}, {"BASH_ENV=x ls", D}, {"ENV=x ls", D}, {"IFS=x ls", D},
		{"PS4=x ls", D}, {"ZDOTDIR=x ls", D}, {"SHELLOPTS=xtrace ls", D}, {"HOME=/tmp git status", D},
		{"XDG_CONFIG_HOME=/tmp git status", D}, {"LD_PRELOAD=x ls", D}, {"LD_LIBRARY_PATH=x ls", D},
		{"PAGER=x git log", D}, {"EDITOR=x ls", D}, {"GREP_OPTIONS=x grep a f", D},
		{"RIPGREP_CONFIG_PATH=x rg a", D}, {"TMPDIR=x sort f", D}, {"GCONV_PATH=x ls", D},
		{"GLIBC_TUNABLES=x ls", D}, {"STTY=x ls", D}, {"POSIXLY_CORRECT=1 sort f", D},
		{"DOCKER_HOST=tcp://x docker ps", D}, {"HTTP_PROXY=x ls", D}, {"http_proxy=x ls", D},
		{"path=/tmp ls", D}, {"TERM=x ls", D}, {"NODE_OPTIONS=x ls", D}, {"TAPE=x ls", D},
		{"X=$(touch F) ls", D}, {"X=$Y ls", D}, {"X=* ls", D}, {"LC_ALL=../../tmp/x ls", D},
		{"X+=1 ls", D}, {"a[1]=x ls", D}, {"X=1 rm f", D}, {"X=1", D}, {"X=(a b) ls", D},
	})
}

// everydayStructures are everyday read-only commands built from tests,
// loops, branches and prefixes; all must be allowed.
var everydayStructures = []string{
	"[ -d cmd ] && ls cmd",
	"for f in *.go; do wc -l \"$f\"; done",
	"[ -f go.mod ] && cat go.mod",
	"test -d .git && git status --short",
	"if [ -d internal ]; then ls internal; fi",
	"for d in */; do echo \"$d\"; done",
	"[ -e README.md ] || echo missing",
	"LC_ALL=C sort -u f",
	"[[ -f go.sum ]] && wc -l go.sum",
	"for f in internal/*/doc.go; do head -3 \"$f\"; done",
}

func TestEverydayStructuresAllowed(t *testing.T) {
	wantAllowed(t, everydayStructures)
}

// A brace sequence is expanded as a list when both shells expand it alike,
// and never builds an option.
func TestBraceSequences(t *testing.T) {
	judge(t, "sequences", []verdict{
		{"ls {1..3}", A}, {"ls x{1..3}y", A}, {"cat {a..c}.txt", A}, {"echo {A..C}", A},
		{"find . -{d..d}elete", D}, {"sort -{o..o} OUT f", D}, {"sort --{o..o}utput=OUT f", D},
		{"find . -{f..f}print OUT", D}, {"ls {-,+}{d..d}", D}, {"echo {a..A}", D}, {"echo {01..03}", D},
		{"echo {1..10..2}", D}, {"echo {-1..1}", D}, {"echo {1..9999999}", D},
	})
}
