package oracle

import (
	"math/rand/v2"
	"strings"
)

// Generated returns command number i of the run seeded by seed as the
// oracle runs it: every fourth one is a mutation (Mutated), the rest plain
// generated commands (Command).
func Generated(seed uint64, i int) string {
	if i%4 == 3 {
		return Mutated(seed, i)
	}
	return Command(seed, i)
}

// Mutated returns mutation number i of the run seeded by seed: a command the
// gate allows (a listed reader, or a generated command), moved by one to
// three of the moves an adversary uses where the parser's model of the shell
// may differ from the shell's: a backslash-newline or a carriage return at
// any byte, a comment tail, a here-document form, a brace sequence, a $ or
// } before a continuation, an invisible character, or a loop, branch, test
// or VAR=value prefix around it. Most hide a write (touch F) that runs only
// if the shell reads the bytes the other way.
func Mutated(seed uint64, i int) string {
	g := &gen{r: rand.New(rand.NewPCG(seed^0x6d75746174696f6e, uint64(i)))}
	var cmd string
	if g.chance(0.5) {
		cmd = g.pick(readers)
	} else {
		cmd = g.command()
	}
	for n := 1 + g.r.IntN(3); n > 0; n-- {
		cmd = mutations[g.r.IntN(len(mutations))](g, cmd)
	}
	return cmd
}

// readers are commands the gate allows, the material the mutations move.
var readers = []string{
	"ls", "ls -la sub", "cat f", "cat -n f g", "git status", "git log --oneline -1", "sort f",
	"sort -rn n", "grep -n a f", "wc -l f", "head -n 2 f", "find . -name f", "echo hi",
	"uniq -c f", "cut -d: -f1 f", "tr a-z A-Z < f", "diff f g", "jq . y.json", "sed -n 1p f",
	"stat f", "du -sh sub", "git diff --stat", "git branch --list", "tree -L 1", "date -u",
	"xxd f", "hostname", "printf '%s\\n' a", "cd sub && ls",
}

// A mutation moves a command.
type mutation func(g *gen, cmd string) string

var mutations = []mutation{
	continuationAt, crAt, commentTail, heredocForm, braceSequence, dollarContinuation,
	invisibleAt, structureAround, continuationBetweenWords,
}

// at returns a byte position of cmd (0…len), never inside a UTF-8 sequence.
func (g *gen) at(cmd string) int {
	p := g.r.IntN(len(cmd) + 1)
	for p < len(cmd) && cmd[p]&0xc0 == 0x80 {
		p++
	}
	return p
}

func continuationAt(g *gen, cmd string) string {
	p := g.at(cmd)
	tail := cmd[p:]
	if g.chance(0.3) {
		tail += "\ntouch F"
	}
	return cmd[:p] + "\\\n" + tail
}

func continuationBetweenWords(g *gen, cmd string) string {
	sp := strings.Index(cmd, " ")
	if sp < 0 {
		return cmd + " \\\n  " + g.pick([]string{"-l", "f", "# x", "\\\ntouch F", "touch F"})
	}
	return cmd[:sp] + " \\\n" + g.pick(ws("|  |\t|\\\n|#x\n")) + cmd[sp+1:]
}

func crAt(g *gen, cmd string) string {
	if sp := strings.Index(cmd, " "); sp >= 0 && g.chance(0.3) {
		return cmd[:sp] + "\r" + cmd[sp+1:]
	}
	if g.chance(0.4) {
		return cmd + g.pick(ws("\r# >F|\r;touch F|\r\ntouch F|\r touch F"))
	}
	p := g.at(cmd)
	return cmd[:p] + "\r" + cmd[p:]
}

func commentTail(g *gen, cmd string) string {
	return cmd + g.pick(ws(
		" # \\\ntouch F| #\\\ntouch F| # x\\\ntouch F|# a \\\ntouch F| # x\\\r\ntouch F| # x\ntouch F|"+
			" #\\| # $(touch F)| # `touch F`| #\rtouch F"))
}

var heredocs = []string{
	"cat <<EO\\\nF\nx\nEOF\ntouch F", "cat <<'E'OF\nx\nEOF\ntouch F", "cat <<EOF\nx\\\nEOF\ntouch F",
	"cat <<-EOF\n\tx\n\tEOF\ntouch F", "cat <<EOF; touch F\nx\nEOF", "cat <<E\\OF\nx\nEOF\ntouch F",
	"cat <<\"EOF\"\nx\nEOF", "cat <<EOF\n$HOME\nEOF", "cat <<EOF\nEOF \ntouch F\nEOF", "cat <<EOF\n\tEOF\ntouch F\nEOF",
	"cat <<EOF\n$\\\n(touch F)\nEOF", "cat <<EOF\n${x}\\\nEOF\ntouch F", "cat <<EOF\n`touch F`\nEOF",
	"cat <<'EOF'\n$(touch F)\nEOF", "cat <<EOF && touch F\nx\nEOF", "cat <<EOF | sort\nb\na\nEOF",
	"cat <<EOF\nx\r\nEOF\r\ntouch F\nEOF", "cat << EOF\nx\nEOF", "cat <<EOF\nx\nEO\\\nF\ntouch F\nEOF", "cat <<EOF",
}

func heredocForm(g *gen, cmd string) string {
	h := g.pick(heredocs)
	switch g.r.IntN(3) {
	case 0:
		return h
	case 1:
		return cmd + "\n" + h
	}
	return strings.Replace(h, "cat", cmd+" |", 1)
}

func braceSequence(g *gen, cmd string) string {
	if g.chance(0.5) {
		return g.pick(ws("find . -{d..d}elete|sort -{o..o} OUT f|sort --{o..o}utput=OUT f|sed -{i..i} s/a/b/ f|" +
			"git branch {n..n}b|sort -o{O..O}UT f|find . -{f..f}print OUT|echo {a..c} && touch {F..F}|" +
			"sort -{a..z} OUT f|ls {-,+}{d..d}|find . -{de,}lete|git {stash,stash}"))
	}
	for k := 0; k < 8; k++ {
		p := g.r.IntN(len(cmd) + 1)
		if p < len(cmd) && ('a' <= cmd[p] && cmd[p] <= 'z') {
			c := cmd[p : p+1]
			return cmd[:p] + "{" + c + ".." + c + "}" + cmd[p+1:]
		}
	}
	return cmd + " {1..3}"
}

func dollarContinuation(g *gen, cmd string) string {
	return cmd + g.pick(ws(` "$\`+"\n"+`(touch F)"| $\`+"\n"+`(touch F)| x}\`+"\n"+`touch F| ${HOME}\`+"\n"+`touch F|`+
		` "a\`+"\n"+`b"| $\`+"\n"+`{HOME}| x\`+"\n"+`;touch F`))
}

func invisibleAt(g *gen, cmd string) string {
	p := g.at(cmd)
	return cmd[:p] + g.pick(ws("\u00a0|\u2028|\u202e|\u200b|\x00|\x1b|\x0b|\x0c|\x85|\xc2\x85|\ufeff")) + cmd[p:]
}

// hiddenWrites are writes a structure or prefix might hide.
var hiddenWrites = []string{
	"for f in *; do touch \"$f\"; done", "[ -f f ] && touch F", "PATH=. ls", "for path in /tmp; do ls; done",
	"X=1 sort -o OUT f", "[ -v 'a[$(touch F)]' ]", "[[ 'a[$(touch F)]' -eq 0 ]]", "x='a[$(touch F)]'; [ \"$x\" -eq 0 ]",
	"if ls; then touch F; fi", "while [ ! -f F ]; do touch F; done", "for PATH in .; do ls; done",
	"HOME=sub git status", "GIT_DIR=sub git status", "LESSOPEN='|touch F' cat f", "[ -n x ] || touch F",
	"for f in a; do ls; done >OUT", "test x -a -v 'a[$(touch F)]'", "[[ -v a[$(touch F)] ]]", "[ 1 -eq 1 ] && rm f",
}

// wrappers put a command (CMD) inside a read-only structure.
var wrappers = []string{
	"for f in *; do CMD; done", "if [ -f f ]; then CMD; fi", "[ -d sub ] && CMD", "while [ -f nope ]; do CMD; done",
	"LC_ALL=C CMD", "X=1 CMD", "[[ -n \"$HOME\" ]] && CMD", "until [ -d sub ]; do CMD; done",
	"if [ -d x ]; then ls; elif [ -f f ]; then CMD; else echo n; fi", "for f in f g; do CMD \"$f\"; done",
	"[ \"$HOME\" = /x ] || CMD", "test -e f && CMD", "for d in */; do CMD; done",
}

func structureAround(g *gen, cmd string) string {
	if g.chance(0.35) {
		return g.pick(hiddenWrites)
	}
	return strings.ReplaceAll(g.pick(wrappers), "CMD", cmd)
}
