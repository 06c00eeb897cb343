package shellread

import (
	"strings"
	"testing"
)

type verdict struct {
	cmd  string
	want bool
}

func judge(t *testing.T, group string, cases []verdict) {
	t.Helper()
	for _, c := range cases {
		if got := ReadOnly(c.cmd); got != c.want {
			t.Errorf("%s: ReadOnly(%q) = %v, want %v", group, c.cmd, got, c.want)
		}
	}
}

const A, D = true, false

// The bash original's read-only verdicts, kept.
func TestUpstreamVerdicts(t *testing.T) {
	// Destructive Bash merely mentioning the surface is refused.
	judge(t, "destructive mention", []verdict{{"rm -rf references/procedures/", D}})
	// Tmux capture-pane piped through grep and tail is a look.
	judge(t, "tmux capture-pane piped", []verdict{{"tmux capture-pane -t amzcart2 -p -S -60 | grep -v boring | tail -40", A}})
	// A plain file read through Bash is a look.
	judge(t, "plain file read", []verdict{{"cat /home/u/notes/2026-08-09.md", A}})
	// Input redirection reads.
	judge(t, "input redirection", []verdict{{"wc -l < decisions.jsonl", A}, {"tail -4 decisions.jsonl | jq -r .id", A}})
	// Read-only subcommands of multiplexers are looks.
	judge(t, "read-only subcommands", []verdict{{"git status --short", A}, {"systemctl --user status claude-agents", A}, {"docker ps -a", A}})
	// A writing subcommand of an allowed multiplexer is refused.
	judge(t, "writing subcommands", []verdict{{"git commit -m x", D}, {"tmux send-keys -t agent hi Enter", D},
		{"docker exec c rm -rf /", D}, {"systemctl --user restart claude-agents", D}})
	// Redirection to a file is a write.
	judge(t, "redirection to a file", []verdict{{"grep foo bar > out", D}, {"cat x >> y", D}})
	// A pipeline is judged whole.
	judge(t, "pipeline judged whole", []verdict{{"cat x | tee y", D}, {"cat x | xargs rm", D}})
	// Command substitution reaching a mutator is refused.
	judge(t, "command substitution", []verdict{{"echo $(rm -rf /tmp/x)", D}, {"cat `rm -rf /tmp/x`", D}})
	// A chained verification sweep is a look, separators and all.
	judge(t, "chained verification sweep", []verdict{{"echo $CLAUDE_CODE_SESSION_ID; cd /home/admin/.claude && git rev-parse --short HEAD && git branch --show-current && git status --porcelain | wc -l; git worktree list; git log --oneline -1 main; git show --stat main", A}})
	// A listing git subcommand reads, an operand makes it write.
	judge(t, "listing git subcommands", []verdict{{"git worktree list", A}, {"git worktree add ../x main", D},
		{"git branch -D main", D}, {"git tag v1", D}, {"git stash", D}})
	// Discarding output is not writing.
	judge(t, "discarded output", []verdict{{"ls /nope 2>/dev/null | wc -l", A}})
	// Sequencing and backgrounding cannot smuggle a second command.
	judge(t, "sequencing and backgrounding", []verdict{{"ls; rm -rf /tmp/x", D}, {"ls && rm -rf /tmp/x", D},
		{"ls || rm -rf /tmp/x", D}, {"rm -rf /tmp/x &", D}})
	// Sed edits in place but reads with -n.
	judge(t, "sed", []verdict{{"sed -n 1,20p /etc/hosts", A}, {"sed -i s/a/b/ /etc/hosts", D}})
	// Find is a reader until an action primary turns it into a writer.
	judge(t, "find", []verdict{{"find /var/log -name *.log", A}, {"find /var/log -name *.log -delete", D}})
	// An interpreter is unjudgeable, so it fails closed.
	judge(t, "interpreters", []verdict{{"python3 -c import json", D}, {"bash script.sh", D}})
	// A VAR=value prefix is judged with the command it prefixes (changed by
	// issue 31); a variable that changes how programs load or run stays
	// refused.
	judge(t, "env-assignment prefix", []verdict{{"FOO=1 cat /etc/hosts", A}, {"PATH=/tmp cat /etc/hosts", D},
		{"LD_PRELOAD=/tmp/x.so cat /etc/hosts", D}, {"FOO=1 rm /etc/hosts", D}})
	// An unknown command is not assumed harmless; the empty command is refused.
	judge(t, "unknown and empty commands", []verdict{{"frobnicate --all", D}, {"", D}})
	// Git options that hand execution to an external program are refused.
	judge(t, "git external programs", []verdict{{"git grep -Otouch foo", D}, {"git grep --open-files-in-pager=touch foo", D},
		{"git diff --ext-diff", D}, {"git --config-env=core.pager=EVIL log", D}, {"git grep foo", A}})
	// Write-capable modes of listed readers are refused.
	judge(t, "write-capable modes", []verdict{{"sort -o out in", D}, {"uniq in out", D}, {"xxd -r in out", D},
		{"yq -i .a=1 f.yml", D}, {"date -s 20260101", D}, {"ip link set eth0 down", D}, {"ip addr", D}})
	// The read-only modes of those readers stay allowed.
	judge(t, "read-only modes", []verdict{{"sort in", A}, {"uniq -c in", A}, {"cat f.yml | yq .a", A}, {"date -u", A}})
}

// The observed sample table. Samples whose verdict the parser
// changes are marked with the decided difference (write holes closed,
// false denies fixed, separator-only commands refused).
func TestSampleTable(t *testing.T) {
	judge(t, "kept", []verdict{
		{"ls", A}, {"cat f | sort | uniq -c | sort -rn | head", A}, {"ls /nope 2>/dev/null | wc -l", A},
		{"echo hi >/dev/null", A}, {"echo hi &>/dev/null", A}, {"wc -l < f", A}, {`cat <<< "x"`, A},
		{"ls |& grep x", A}, {"git branch --show-current", A}, {"git config --list", A},
		{"git status -O", D}, {"systemctl", D}, {"{ ls; }", D}, {"(ls)", D},
		{"! ls", D}, {"sed --in-place s/a/b/ f", D}, {"yq -i . f", D},
	})
	judge(t, "changed by parsing the command (now refused)", []verdict{
		{"git diff --output=/tmp/x", D}, {"sed -ni p f", D}, {"sort -uo out in", D}, {"./cat x", D},
		{"echo hi >/dev/nullx", D},
	})
	judge(t, "changed by issue 31 (env judges the command it runs: now allowed)", []verdict{{"env ls", A}})
	judge(t, "changed by issue 15 (comments are not commands: now allowed)", []verdict{{"ls #; rm x", A}})
	judge(t, "changed by issue 31 (a harmless VAR=value prefix: now allowed)", []verdict{{"FOO=1 ls", A}})
	judge(t, "changed: separator-only commands (now refused)", []verdict{{" ", D}, {"|", D}})
	judge(t, "changed: reads upstream denied (now allowed)", []verdict{
		{"echo hi > /dev/null", A}, {"echo hi >>/dev/null", A}, {"ls 3>&1", A}, {"git -C /repo status", A},
		{"git stash list", A}, {"tmux -L sock ls", A}, {"docker --context x ps", A},
		{"grep 'a|b' f", A}, {`echo "a;b"`, A},
	})
}

// The rules the parser-based classifier adds (issue: "The read-only shell
// classifier is built on mvdan.cc/sh/v3/syntax").
func TestParserRules(t *testing.T) {
	judge(t, "fails closed", []verdict{
		{"ls 'unclosed", D}, // a parse error
		{"echo hi > out", D}, {"echo hi >> out", D}, {"echo hi >| out", D}, {"echo hi &> out", D},
		{"echo hi &>> out", D}, {"ls 2> err", D}, {"ls 1>out", D}, {"ls 2>&3", D}, {"ls >&-", D},
		{"ls >&out", D}, {"cat <> f", D}, {"ls {fd}>/dev/null", D},
		{"echo $(ls)", D}, {"echo `ls`", D}, {"cat <(ls)", D}, {"diff <(ls) <(ls -a)", D}, {"echo \"$(rm x)\"", D},
		{"echo ${X:=1}", D}, {"echo ${X[$(rm x)]}", D}, {"echo $((x=1))", D}, {"echo $((i++))", D},
		{"echo $((x))", D}, {"echo ${#X}", D}, {"echo ${X/a/b}", D},
		{"FOO=1", D},
		{"(ls)", D}, {"{ ls; }", D}, {"f() { ls; }", D}, {"case x in x) ls;; esac", D}, {"(( 1 ))", D}, {"declare x=1", D}, {"export X=1", D}, {"let x=1", D},
		{"time ls", D}, {"coproc ls", D},
		{"$CMD x", D}, {"'cat' x", D}, {`\cat x`, D}, {"c*t x", D},
		{"./cat x", D}, {"/bin/cat x", D}, {"/tmp/evil/cat x", D},
		{"cat <<EOF\n$(rm x)\nEOF", D}, {"cat <<< $(rm x)", D},
		{"ls\x00", D},
	})
	judge(t, "read-only compound commands (issue 31)", []verdict{
		{"if true; then ls; fi", A}, {"for f in a; do cat $f; done", A}, {"while true; do ls; done", A},
		{"[[ -f x ]]", A},
	})
	judge(t, "quote removal", []verdict{
		{"sort '-o' out", D}, {`sed "-i" s/a/b/ f`, D}, {"find . '-delete'", D}, {`sed \-i s/a/b/ f`, D},
		{`find . -de"le"te`, D}, {"git diff '--output=x'", D},
	})
	judge(t, "combined short flags", []verdict{
		{"sed -ni p f", D}, {"sed -Ei s/a/b/ f", D}, {"sort -uo out in", D}, {"yq -ie .a f", D},
		{"sed -nE p f", A}, {"sort -rn f", A},
	})
	judge(t, "more writers", []verdict{
		{"sed -n 'w out' f", D}, {"sed '1W out' f", D}, {"sed 's/a/b/w out' f", D}, {"sed 's/a/b/gw out' f", D},
		{"sed 's/a/b/e' f", D}, {"sed '1e rm x' f", D}, {"sed -e p -e 'w x' f", D}, {"sed --expression='w x' f", D},
		{"sed -f script.sed f", D}, {"sed --file=s f", D},
		{"git diff --output=x", D}, {"git log --output x", D}, {"git show --output=x", D},
		{"rg --pre cat foo", D}, {"rg --pre=cat foo", D}, {"tree -o out", D}, {"tree -ao out", D},
		{"hostname evil", D}, {"hostname -F f", D}, {"file -C", D}, {"file -C -m magic", D},
		{"ss -K", D}, {"tmux -c 'rm x' ls", D}, {"tmux -f evil.conf ls", D}, {"tmux ls \\; kill-server", D},
		{"tmux display-message -p '#(rm x)'", D}, {"git -c core.pager=evil log", D}, {"git --exec-path=/tmp log", D},
		{"sort --compress-program=rm f", D}, {"sort --out=x f", D}, {"sed --in=.bak s/a/b/ f", D},
		{"journalctl --vacuum-size=1", D}, {"journalctl --rotate", D}, {"journalctl --rot", D},
		{"git branch --del x", D}, {"git config --unset x", D}, {"git config user.name x", D},
		{"git config -e", D}, {"date --set=x", D},
	})
	judge(t, "readers stay readers", []verdict{
		{"sed -n '/warning/p' f", A}, {"sed 's/new/old/g' f", A}, {"sed -e 's/a/b/' -e '/x/d' f", A},
		{"sed -n '$p' f", A}, {"sed '1,/^$/d; s/x/y/2' f", A}, {"sed -n '/a/,/b/{p;}' f", A},
		{"git log -p --stat", A}, {"git --no-pager log", A}, {"git config --get user.name", A},
		{"git config --get-regexp 'user.*'", A}, {"git branch -a", A}, {"git branch -vv", A},
		{"git tag -l", A}, {"git remote -v", A}, {"git log -- *.go", A},
		{"rg foo", A}, {"rg --pre-glob '*.gz' foo", A}, {"tree -L 2", A}, {"hostname", A}, {"hostname -f", A},
		{"file x", A}, {"ss -tlnp", A}, {"tmux -S /tmp/s list-panes", A}, {"journalctl --user -u x --since today", A},
		{"echo $HOME ${USER}", A}, {"echo $((1+2))", A}, {"cat <<'EOF'\n$(not run)\nEOF", A},
		{"cat <<EOF\nplain $HOME\nEOF", A}, {"ls\nwc -l f", A}, {"ls &", A}, {"ls 2>&1 | head", A},
		{"ls >&2", A}, {"ls 0<&3", A}, {"echo hi >'/dev/null'", A}, {"cat f 2> /dev/null", A},
	})
	judge(t, "unknown words with option-sensitive readers", []verdict{
		{"sort *", D}, {"sort $X f", D}, {"sed p *", D}, {"sed p -- *", A}, {"sed $S f", D}, {"uniq f*", D}, {"find . *", D},
		{"find . -name $N", D}, {"file *", D}, {"file -- *", A}, {"cat *", A}, {"echo $'\\x2di'", A},
		{"sort $'-o' f", D}, {"tmux $X", D}, {"git $X", D}, {"docker $X", D},
	})
}

// A 20-stage pipeline, the size the speed budget is about.
var pipeline20 = "cat f" + strings.Repeat(" | grep -v x", 18) + " | wc -l"

func TestPipeline20(t *testing.T) {
	if strings.Count(pipeline20, "|") != 19 || !ReadOnly(pipeline20) {
		t.Fatalf("the 20-stage pipeline must be read-only: %q", pipeline20)
	}
}

func BenchmarkReadOnly20Stages(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		ReadOnly(pipeline20)
	}
}

// typical are calls of the size an agent makes every minute: one to three
// commands, the options of each judged.
var typical = []string{
	"git status --short", "git log --oneline -20", "grep -rn TODO . | wc -l", "sed -n 1,20p main.go",
	"sort -u f | head", "find . -name '*.go' -type f", "cat README.md", "ls -la", "jq -r .name package.json",
	"git diff --stat HEAD~1 -- go.mod", "rg -n 'fn main' src", "tree -L 2", "date -u +%s",
}

func BenchmarkReadOnlyTypical(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range typical {
			ReadOnly(c)
		}
	}
}
