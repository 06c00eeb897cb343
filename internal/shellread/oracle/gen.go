package oracle

import (
	"math/rand/v2"
	"strings"
)

// Command returns generated command number i of the run seeded by seed. The
// same seed and index always give the same command, so a failure replays
// from the two numbers alone.
func Command(seed uint64, i int) string {
	g := &gen{r: rand.New(rand.NewPCG(seed, uint64(i)))}
	return g.command()
}

// Tools lists every command name the generator builds commands for: the
// allow-listed names of internal/shellread (rules.go, git.go, sed.go) plus
// a few unlisted ones that must never be allowed.
func Tools() []string {
	names := make([]string, 0, len(tools))
	for _, t := range tools {
		names = append(names, t.name)
	}
	return names
}

// A tool is one command with the words the generator may give it: options
// that only read, options and operands that write (or run something), and
// operands. Several words in one entry are separated by a space and stay
// together ("-o OUT").
type tool struct {
	name     string
	reads    []string
	writes   []string
	operands []string
}

// The sandbox tree the commands run in holds these names (see the sandbox
// in the tests): f and g (text), n (numbers), d.hex (an xxd dump), y.json,
// y.yaml, a.tar, a.tgz and a.gz (archives of f), sub/ (a directory with a file) and two files whose names are
// options, "-delete" and "--output=OUT", for globs to pick up.
var files = []string{"f", "g", "n", "d.hex", "y.json", "y.yaml", "sub", "sub/h", ".", "-", "OUT", "/tmp/o", "a.tar", "a.gz"}

func ws(s string) []string { return strings.Split(s, "|") }

var tools = []tool{
	{name: "cat", reads: ws("-n|-A|-s|-v|--number|-E"), operands: ws("f|g|-|sub/h")},
	{name: "head", reads: ws("-n 2|-c 5|-n2|--lines=1|-q|-v"), operands: ws("f|n|-")},
	{name: "tail", reads: ws("-n 2|-c 5|-n+2|--lines=1|-q"), operands: ws("f|n|-")},
	{name: "nl", reads: ws("-ba|-w3|-s:"), operands: ws("f|-")},
	{name: "wc", reads: ws("-l|-c|-w|--lines|--files0-from=-"), operands: ws("f|g|n|-")},
	{name: "cut", reads: ws("-d: -f1|-c1-3|-f2|--complement -c1"), operands: ws("f|-")},
	{name: "tr", reads: ws("a-z A-Z|-d a|-s ' '|-c a b"), operands: ws("")},
	{name: "rev", operands: ws("f|-")},
	{name: "column", reads: ws("-t|-s:|-c 40"), operands: ws("f")},
	{name: "comm", reads: ws("-12|-3|--check-order"), operands: ws("f g|f -|n f")},
	{name: "diff", reads: ws("-u|-q|-r|--color=never|-y"), operands: ws("f g|sub .|f -")},
	{name: "cmp", reads: ws("-l|-s|-b"), operands: ws("f g|f -")},
	{name: "basename", reads: ws("-a|-s .hex"), operands: ws("sub/h|d.hex")},
	{name: "dirname", operands: ws("sub/h|/tmp/o")},
	{name: "realpath", reads: ws("-m|-e|--relative-to=sub"), operands: ws("f|sub/h|OUT")},
	{name: "readlink", reads: ws("-f|-m|-e"), operands: ws("f|sub")},
	{name: "echo", reads: ws("-n|-e|-E"), operands: ws("hi|-o/tmp/o|o/tmp/o|OUT|-delete|--output=OUT|a b")},
	{name: "printf", reads: ws("%s\\n|'%s %s' a b"), writes: ws("-v x hi|-v 'a[$(touch F)]' x|-v a[0] x"), operands: ws("hi|x")},
	{name: "pwd", reads: ws("-L|-P")},
	{name: "cd", operands: ws("sub|/tmp|-|..")},
	{name: "whoami"},
	{name: "uname", reads: ws("-a|-r|-m")},
	{name: "id", reads: ws("-u|-g|-n")},
	{name: "stat", reads: ws("-c %s|-L|--format=%n|-f"), operands: ws("f|sub")},
	{name: "du", reads: ws("-s|-h|-a|--max-depth=1"), operands: ws(".|sub")},
	{name: "df", reads: ws("-h|-i|-T"), operands: ws(".")},
	{name: "free", reads: ws("-m|-h")},
	{name: "uptime", reads: ws("-p|-s")},
	{name: "ps", reads: ws("aux|-ef|-o pid,comm")},
	{name: "pgrep", reads: ws("-l|-a|-x"), operands: ws("bash|zsh")},
	{name: "pstree", reads: ws("-p|-a")},
	{name: "jq", reads: ws(".|-r .a|-c .|-n 1|--arg x y .|-s .|-e .a"), writes: ws("-n 'input_filename'|--rawfile x f .|-n '$__loc__'|--seq ."), operands: ws("y.json|-")},
	{name: "grep", reads: ws("-n a|-r a|-c a|-i a|-l a|-e a|-F a|-E 'a|b'|-f g|--include=*.go -r a"), operands: ws("f|.|-|sub")},
	{name: "egrep", reads: ws("a|-n a"), operands: ws("f")},
	{name: "fgrep", reads: ws("a|-c a"), operands: ws("f")},
	{name: "ls", reads: ws("-l|-a|-la|-R|--color=never|-d|-1|-t"), operands: ws(".|sub|f|-|*|-- *")},
	{name: "seq", reads: ws("3|1 5|-s, 3|-w 10")},
	{name: "md5sum", reads: ws("-b|--tag"), writes: ws("-c f"), operands: ws("f|-")},
	{name: "sha256sum", reads: ws("-b|--tag"), operands: ws("f|-")},
	{name: "which", reads: ws("-a"), operands: ws("ls|git|sh")},
	{name: "hexdump", reads: ws("-C|-n 8|-c"), operands: ws("f|-")},
	{name: "strings", reads: ws("-n 3|-a"), operands: ws("f|-")},
	{name: "lsof", reads: ws("-n|-p 1|-i")},
	{name: "getent", operands: ws("passwd root|hosts localhost|group 0")},
	{name: "type", reads: ws("-a|-t|-p"), operands: ws("ls|cd|git")},
	{name: "true"},
	{name: "test", reads: ws("-f f|-d sub|-n x|f -nt g|-z ''"), writes: ws("-v 'a[$(touch F)]'|-v x")},
	{name: "sed", reads: ws("-n 1p|-n '$p'|s/a/b/|-e s/a/b/|-E 's/(a)/\\1/'|-n /a/p|--expression=1d|-s -n 1p|y/a/b/|-n l|=|-z s/a/b/"),
		writes:   ws("-i s/a/b/|--in-place s/a/b/|-i.bak 1d|--in-place=.b 1d|'w OUT'|'s/a/b/w OUT'|'1w OUT'|':x w OUT'|-n ':x e touch F'|'e touch F'|'s/a/touch F/e'|'s/[/]/x/w OUT'|--{in-place,in-place} s/a/b/|-n 'W OUT'|-e 'w OUT'|-f g|--file=g|'s/a/b/;w OUT'|'1{w OUT\n}'|'s/a/b/gw OUT'|-s -i 1d"),
		operands: ws("f|g|-|sub/h")},
	{name: "sort", reads: ws("-r|-n|-u|-k2|-t, -k1|--reverse|-c|-m|-s|-R"),
		writes:   ws("-o OUT|--output=OUT|--output OUT|-oOUT|-ro OUT|--out=OUT|--o=OUT|--{output,output}=OUT|-{o,o}OUT|--outp OUT|-T . --compress-program=touch"),
		operands: ws("f|n|-|*")},
	{name: "yq", reads: ws(".|-r .a|-o json ."), writes: ws("-i '.a=1'|--in-place '.a=1'|-i=true .|-s '.a'|--split-exp .a"), operands: ws("y.yaml|-")},
	{name: "date", reads: ws("-u|+%s|-d @0|-r f|-I"), writes: ws("-s 2000-01-01|--set=2000-01-01|--s=x")},
	{name: "rg", reads: ws("a|-n a|--files|-l a"), writes: ws("--pre touch a|--pre=sh a|--pr=sh a"), operands: ws("f|.")},
	{name: "tree", reads: ws("-a|-L 1|-d"), writes: ws("-o OUT|--output=OUT|-R -H .|-H . -o OUT|-R"), operands: ws(".|sub")},
	{name: "file", reads: ws("-b|-i|-L"), writes: ws("-C|-C -m g|--compile -m g"), operands: ws("f|sub|-")},
	{name: "ss", reads: ws("-t|-l|-a|-s|-tlnp"), writes: ws("-K|--kill|-D OUT|--diag=OUT")},
	{name: "hostname", reads: ws("-s|-f|-i"), writes: ws("x|-F g|--file=g|-b x")},
	{name: "uniq", reads: ws("-c|-d|-u|-i|-f1"), writes: ws("f OUT|- OUT|-c f OUT|f -- OUT|-- f OUT"), operands: ws("f|-|n")},
	{name: "xxd", reads: ws("-p|-l 8|-c 4|-g1|-s 2"), writes: ws("f OUT|-r d.hex OUT|-r -p - OUT|-r d.hex|- OUT|-r -p d.hex /tmp/o|-p f -- OUT"), operands: ws("f|-|d.hex")},
	{name: "find", reads: ws(". -name f|. -type f|sub -print|. -maxdepth 1|. -newer g|. -name '*.hex' -print0|-L .|. -path './sub*'"),
		writes:   ws(". -delete|. -name OUT -delete|. -{delete,true}|. -fprint OUT|. -fprintf OUT %p|. -fprint0 OUT|. -fls OUT|. -exec touch F ;|. -exec touch {} +|. -execdir touch F ;|. -ok touch F ;|* -print|. -name f -delete -print|sub -fprint /tmp/o|. -- -delete|-D tree . -delete"),
		operands: ws("")},
	{name: "tmux", reads: ws("ls|list-sessions|-L s ls|-S /tmp/s ls|display-message -p x|has-session"),
		writes: ws("-c 'touch F'|-f g ls|new -d 'touch F'|ls \\; new -d 'touch F'|run 'touch F'|display-message -p '#(touch F)'|-L s new -d")},
	{name: "docker", reads: ws("ps|logs x|inspect x|images|--context x ps|version"),
		writes: ws("run x|--config ps run x|rm x|-c x run|--context=x run|--host x ps run|-H x run x")},
	{name: "systemctl", reads: ws("status|status foo|list-units|is-active foo|show foo"),
		writes: ws("enable foo|--root=R -p status enable foo|-p status enable foo|start foo|--user enable x|-H x stop y")},
	{name: "journalctl", reads: ws("-n 1|--no-pager -n 1|-b|-u foo|--since today"),
		writes: ws("--cursor-file=OUT|--cursor-file OUT|--vacuum-size=1|--rotate|--flush|--setup-keys|--update-catalog|--output-fields=x --cursor-file=OUT")},
	{name: "git", reads: ws("status|log|log --oneline|-p log|--paginate log|show|diff|diff HEAD|blame f|describe --always|shortlog -s HEAD|rev-parse HEAD|rev-list HEAD|ls-files|ls-tree HEAD|cat-file -p HEAD|show-ref|grep a|branch|branch --list|branch -a|tag|tag -l|stash list|worktree list|config --get user.name|config -l|remote|remote -v|-C sub status|--no-pager log|log -p -1|log --format=%H|reflog|for-each-ref|merge-base HEAD b1|show-branch|name-rev HEAD|diff-tree HEAD|diff-index HEAD|diff-files|count-objects -v|check-ignore f|var GIT_AUTHOR_IDENT|config core.x|log --decorate-refs=x -1"),
		writes:   ws("branch nb|branch -- nb|tag nt|tag -- nt|config -- core.fsmonitor 'touch F'|config core.x y|config --unset user.name|stash|stash -m list|stash push|stash drop|stash pop|stash clear|--shallow-file log stash|--shallow-file=x stash|-c core.pager=touch log|log --output=OUT|diff --output=OUT|log --outp=OUT|branch -d b1|branch -D b1|branch -m b2|branch -c nb|branch -f b1|tag -d t1|tag -f t1|tag -a t9 -m x|worktree add W|remote add o u|-C sub branch nb|--git-dir .git branch nb|--work-tree . stash|grep -O a|grep --open-files-in-pager=touch a|--exec-path=. status|checkout b1|reset --hard|clean -fd|add f|commit -m x|gc|update-ref refs/heads/z HEAD|branch --set-upstream-to=b1|branch -u b1|branch --edit-description|config --add core.x y|config --replace-all user.name x|-c alias.x=!touch x|branch -- --list nb|tag -- -l nt|stash -- list|reflog expire --all --expire=now|reflog delete HEAD@{0}|config core.x y --get|config core.fsmonitor 'touch F' --get|log --decorate-refs -- --output=OUT|log --grep -- --output=OUT|diff-tree --output=OUT HEAD"),
		operands: ws("")},
	// the families issue 31 opened: their readers and their writers
	{name: "awk", reads: ws("'{print}'|'NR==1'|-F: '{print $1}'|'$1 > 1 {print}'|'/a|b/'|'{n++} END {print n}'|-v x=1 '{print x}'|'{print (1 > 2)}'"),
		writes:   ws("'{print > \"OUT\"}'|'BEGIN{system(\"touch F\")}'|'{print | \"cat > OUT\"}'|'BEGIN{\"touch F\" | getline}'|'{printf \"x\" > \"OUT\"}'|-f g|'BEGIN { print 1 >> \"OUT\" }'|'BEGIN{print 1 >\"/tmp/o\"}'"),
		operands: ws("f|g|-")},
	{name: "xargs", reads: ws("-0|-n 1|-r|-L 1|wc -l|cat|grep a"), writes: ws("touch|-I{} touch {}|sort -o OUT|-i touch {}|sh -c 'touch F'|tee OUT|sort --output OUT")},
	{name: "env", reads: ws("-i|LANG=C|-u HOME|cat f|sort f|LC_ALL=C sort f"), writes: ws("touch F|sort -o OUT f|-S 'touch F'|PATH=. ls|GIT_DIR=x git status|sh -c 'touch F'")},
	{name: "command", reads: ws("-v ls|-V cat|ls -l|cat f|-p sort n"), writes: ws("touch F|sort -o OUT f|-p touch F|sort f -o OUT")},
	{name: "tac", reads: ws("-s a|-b"), operands: ws("f|-")},
	{name: "paste", reads: ws("-s|-d,"), operands: ws("f g|f -")},
	{name: "printenv", reads: ws("HOME|PATH|-0")},
	{name: "nice", reads: ws("-n 5|cat f|sort n"), writes: ws("touch F|sort -o OUT f|-n 1 touch F")},
	{name: "tar", reads: ws("-tf a.tar|tf a.tar|-tvf a.tar|--list -f a.tar|-tzf a.tgz"), writes: ws("-xf a.tar|xf a.tar|-cf OUT f|cf OUT f|-tf a.tar --to-command=touch|-xf a.tar -C /tmp|-rf a.tar g|--delete -f a.tar f")},
	{name: "gzip", reads: ws("-l a.gz|-c f|-dc a.gz|-t a.gz|-lv a.gz"), writes: ws("f|-d a.gz|-k f|-S .x f|-f g|-r sub")},
	{name: "zcat", reads: ws("a.gz|-f f|-v a.gz"), operands: ws("a.gz")},
	{name: "base64", reads: ws("-d|-w 0|-i"), operands: ws("f|-")},
	{name: "od", reads: ws("-c|-An -tx1|-N 4|-x|-w8"), operands: ws("f|-")},
	{name: "dmesg", reads: ws("-T|-t|--level=err|-k")},
	{name: "fdfind", reads: ws("f|-e hex|-t f|-H|-d 1|--max-depth 1"), writes: ws("-x touch|-X touch|--exec touch|-x rm|f -X rm")},
	{name: "less", reads: ws("-N|-S|-R|-X|-F"), writes: ws("-o OUT|-O OUT|--log-file=OUT|+!touch\\ F|'+s OUT'"), operands: ws("f|g")},
	{name: "more", reads: ws("-d|-s|+2"), writes: ws("'+!touch F'"), operands: ws("f")},
	// unlisted commands: never allowed
	{name: "touch", writes: ws("F|OUT")},
	{name: "rm", writes: ws("f|-r sub")},
	{name: "cp", writes: ws("f OUT")},
	{name: "tee", writes: ws("OUT|-a OUT")},
}

// templates are hand-written commands, one per class of issue 15 and its
// relatives, mixed into the stream so every run covers them.
var templates = []string{
	"sort --{output,output}=OUT f",
	"find . -{delete,true}",
	"sed --{in-place,in-place} s/a/b/ f",
	"echo o/tmp/o; sort -$_ f",
	"echo o/tmp/o; sort -$_ f",
	"echo -oOUT; sort $_ f",
	"printf -v 'a[$(touch F)]' x",
	"test -v 'a[$(touch F)]'",
	"[[ -v 'a[$(touch F)]' ]]",
	"cat f | uniq - OUT",
	"xxd -p f | xxd -r -p - OUT",
	"sed ':x w OUT' f",
	"sed -n ':x e touch F' f",
	"sed 's/[/]/x/w OUT' f",
	"git --shallow-file log stash",
	"git branch -- nb",
	"git tag -- nt",
	"git config -- core.fsmonitor 'touch F'",
	"git stash -m list",
	"journalctl --cursor-file=OUT",
	"tree -R -H .",
	"ls *(e:'touch F':)",
	"ls *(+touch)",
	"git status  # why",
	"ls -- *",
	"sort *",
	"find *",
	"cat f | sort -o OUT",
	"sort -m -o OUT f -",
	"ls =(touch F)",
	"cat <(touch F)",
	"echo $(touch F)",
	"echo `touch F`",
	"ls ${x:=$(touch F)}",
	"echo $((x[$(touch F)]))",
	"cat f >OUT",
	"cat f >|OUT",
	"cat f &>OUT",
	"cat f 2>OUT",
	"ls >/dev/null 2>&1",
	"ls 3>OUT",
	"ls >&OUT",
	"cat f <>OUT",
	"git status # $(touch F)",
	"ls\n# touch F",
	"ls; touch F",
	"ls && touch F",
	"ls | tee OUT",
	"echo ~root",
	"ls ~/",
	"cd sub && ls",
	"ls **/*(e:'touch F':)",
	"ls *(N)",
	"echo a{b,c}",
	"ls [f]",
	"sed -n '1{p;q}' f",
	"sed -n -e 1p -e '$p' f",
	"sed 's/a/b/w /dev/stdout' f",
	"sed 'w /dev/stdout' f",
	"sort -T . -S 1 f",
	"xxd -r d.hex",
	"uniq f",
	"find . -name '*' -print",
	"find . -newer OUT",
	"git log -- f",
	"git -C . log",
	"git branch --list 'b*'",
	"git config --get-all user.name",
	"date -s@0",
	"hostname -F g",
	"ls *(e[touch F])",
	"ls *(e.touch\\ F.)",
	"ls f(e:'touch F':)",
	"cat f(e:'touch F':)",
	"echo ${(e):-'$(touch F)'}",
	"echo ${(e)x:-'$(touch F)'}",
	"ls *(N) f(e:'touch F':)",
	"cat <<EOF\n$(touch F)\nEOF",
	"cat <<'EOF'\n$(touch F)\nEOF",
	"cat <<<$(touch F)",
	"echo ${a[$(touch F)]}",
	"git -p log",
	"git --paginate log -1",
	"GIT_PAGER='touch F' git -p log",
	"PAGER='touch F' git -p log",
	"git log >/dev/stdout",
	"cat f >/dev/fd/1",
	"cat f >/dev//null",
	"cat f 1>/dev/null",
	"cat f >&-",
	"sort -o /dev/null f",
	"sort -o /dev/stdout f",
	"xxd f /dev/null",
	"uniq f /dev/null",
}

var separators = []string{" ; ", " | ", " && ", " || ", "\n", " & ", " |& ", ";", "|", "&&"}

// gen draws one command from its random source.
type gen struct{ r *rand.Rand }

func (g *gen) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func (g *gen) command() string {
	if g.chance(0.08) {
		return g.pick(templates)
	}
	if g.chance(0.25) {
		return g.mutate()
	}
	var b strings.Builder
	n := 1 + g.r.IntN(3)
	if g.chance(0.6) {
		n = 1
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(g.pick(separators))
		}
		b.WriteString(g.simple())
	}
	if g.chance(0.06) {
		b.WriteString(g.pick(ws(" # why| #$(touch F)|# x\n|  # sort -o OUT f")))
	}
	return b.String()
}

// simple returns one simple command: a tool and its words, some of them
// disguised, and sometimes a redirection.
func (g *gen) simple() string {
	t := tools[g.r.IntN(len(tools))]
	words := []string{t.name}
	k := g.r.IntN(3)
	for j := 0; j < k; j++ {
		switch {
		case len(t.writes) > 0 && g.chance(0.35):
			words = append(words, g.pick(t.writes))
		case len(t.reads) > 0 && g.chance(0.7):
			words = append(words, g.pick(t.reads))
		case g.chance(0.15):
			words = append(words, g.pick(ws("--|-|--help|--version|-x|--no-such|--o|-"+t.name[:1])))
		}
	}
	if len(t.operands) > 0 && g.chance(0.8) {
		words = append(words, g.pick(t.operands))
	} else if g.chance(0.2) {
		words = append(words, g.pick(files))
	}
	// disguise one word
	if len(words) > 1 && g.chance(0.45) {
		i := 1 + g.r.IntN(len(words)-1)
		words[i] = g.disguise(words[i])
	}
	s := strings.Join(words, " ")
	if g.chance(0.03) {
		s = g.pick(ws("GIT_PAGER='touch F' |PAGER='touch F' |LESSOPEN='|touch F' |GIT_DIR=. |x=1 ")) + s
	}
	if strings.HasPrefix(s, "$_") || strings.Contains(s, "$_") {
		s = "echo " + g.pick(ws("-oOUT|o/tmp/o|--output=OUT|-delete|-i|w OUT|--cursor-file=OUT")) + "; " + s
	}
	if g.chance(0.2) {
		s += g.pick(ws(" >/dev/null| 2>&1| 2>/dev/null| >OUT| >>OUT| <f| >/dev/null 2>&1| &>/dev/null| >&2| 2>OUT| <<<x| >/tmp/o"))
	}
	return s
}

// disguise rewrites one word (maybe several words joined by spaces) into a
// form the shell turns back into it, or into something near it: braces,
// quotes, globs, parameters, substitutions, zsh qualifiers.
func (g *gen) disguise(w string) string {
	first, rest, _ := strings.Cut(w, " ")
	if rest != "" {
		rest = " " + rest
	}
	d := first
	switch g.r.IntN(16) {
	case 0: // brace expansion rebuilding the word twice
		if len(first) > 2 {
			d = first[:2] + "{" + first[2:] + "," + first[2:] + "}"
		} else {
			d = "{" + first + "," + first + "}"
		}
	case 1: // $_ carries the word from a previous echo
		if len(first) > 1 && first[0] == '-' {
			d = "-$_"
		} else {
			d = "$_"
		}
	case 2:
		d = "'" + first + "'"
	case 3:
		d = "\"" + first + "\""
	case 4: // split quoting
		if len(first) > 1 {
			d = first[:1] + "'" + first[1:] + "'"
		}
	case 5:
		d = "\\" + first
	case 6: // a glob that may match a file named like an option
		if len(first) > 2 {
			d = first[:1] + "[" + first[1:2] + "]" + first[2:]
		} else {
			d = first + "*"
		}
	case 7:
		d = "$1" + first
	case 8:
		d = "$(echo " + first + ")"
	case 9:
		d = "<(echo " + first + ")"
	case 10:
		d = "$'" + first + "'"
	case 11: // zsh: a glob qualifier runs code; rarely, or it hides the rest
		if g.chance(0.3) {
			d = g.pick(ws("*(e:'touch F':)|*(e[touch F])|f(e:'touch F':)|*(e.touch\\ F.)"))
		} else {
			d = first + "(N)"
		}
	case 12:
		d = "${x:-" + first + "}"
	case 13:
		d = first + "$_"
	case 14:
		d = "--" + rest + " " + first
		rest = ""
	case 15:
		d = "-" + " " + first
	}
	return d + rest
}
