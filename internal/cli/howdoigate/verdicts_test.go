package howdoigate

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/procedures-go/procedures/internal/cli/hooktest"
	"github.com/procedures-go/procedures/internal/cli/turnstatereset"
	"github.com/procedures-go/procedures/internal/gate"
)

// verdict is one Bash command and whether the armed gate denies it.
type verdict struct {
	deny    bool
	command string
}

const deny, allow = true, false

// bashVerdicts are the classifier's verdicts on Bash commands through the
// whole hook, grouped by the scenario (testdata/script/<name>.txtar) that
// pins the same rule's command-line shape with one denied and one allowed
// call, and whose first line names the docs/differences.md row or issue the
// group comes from. The rows were copied mechanically from those scenarios,
// which fed each command as its own payload.
var bashVerdicts = []struct {
	scenario string
	rows     []verdict
}{
	{"how-do-i-gate_bash_empty_or_unparsable", []verdict{
		{deny, ``},
		{deny, ` `},
		{deny, "\t\n"},
		{deny, `|`},
		{deny, `;`},
		{deny, `&&`},
		{deny, `ls |`},
		{deny, `ls ;; ls`},
		{allow, `ls;`},
	}},
	{"how-do-i-gate_bash_reads_pass", []verdict{
		{allow, `echo hi > /dev/null`},
		{allow, `ls /nope 2> /dev/null`},
		{allow, `echo hi >>/dev/null`},
		{allow, `ls 3>&1`},
		{allow, `git -C /repo status`},
		{allow, `git config --get user.name`},
		{allow, `grep 'a|b' f`},
		{allow, `echo "a;b"`},
		{allow, `git stash list`},
		{allow, `tmux -L sock ls`},
		{allow, `docker --context x ps`},
		{deny, `git -C /repo commit -m x`},
		{deny, `git stash pop`},
		{deny, `tmux -L sock kill-server`},
	}},
	{"how-do-i-gate_bash_writes_refused", []verdict{
		{deny, `./cat x`},
		{deny, `/tmp/evil/cat x`},
		{deny, `sort '-o' out in`},
		{deny, `sed "-i" s/a/b/ f`},
		{deny, `find . '-delete'`},
		{deny, `sed -ni p f`},
		{deny, `sed -Ei s/a/b/ f`},
		{deny, `sort -uo out in`},
		{deny, `yq -ie .a f`},
		{deny, `sed -n 'w out' f`},
		{deny, `sed 's/a/b/w out' f`},
		{deny, `git diff --output=/tmp/x`},
		{deny, `git log --output=/tmp/x`},
		{deny, `rg --pre cat x`},
		{deny, `tree -o out`},
		{deny, `hostname evil`},
		{deny, `file -C -m m`},
		{deny, `echo hi >/dev/nullx`},
		{allow, `sed -n 1,20p /etc/hosts`},
	}},
	{"how-do-i-gate_brace_expansion_option", []verdict{
		{deny, `sort --{output,output}=F f`},
		{deny, `find . -{delete,true}`},
		{deny, `sed --{in-place,in-place} s/a/b/ f`},
		{allow, `cat {a,b}.txt`},
	}},
	{"how-do-i-gate_builtin_subscript_eval", []verdict{
		{deny, `printf -v 'a[$(touch F)]' x`},
		{deny, `test -v 'a[$(touch F)]'`},
		{allow, `printf '%s' a`},
	}},
	{"how-do-i-gate_git_stash_m_list", []verdict{
		{deny, `git stash -m list`},
		{allow, `git stash list`},
	}},
	{"how-do-i-gate_global_option_value", []verdict{
		{deny, `git --shallow-file log stash`},
		{deny, `docker --config ps run x`},
		{deny, `systemctl --root=R -p status enable foo`},
		{allow, `git -C /repo status`},
	}},
	{"how-do-i-gate_operands_after_dashdash", []verdict{
		{deny, `git branch -- b`},
		{deny, `git tag -- t`},
		{deny, `git config -- core.fsmonitor 'touch F'`},
		{allow, `git log -- README.md`},
	}},
	{"how-do-i-gate_program_option_grammar", []verdict{
		{deny, `sort -T -- -o F f`},
		{deny, `rg -e -- --pre=rm x .`},
		{deny, `git log --decorate-refs -- --output=F`},
		{deny, `git config core.fsmonitor CMD --get`},
		{deny, `tree -Lo 1 F`},
		{deny, `journalctl -n --cursor-file=F`},
		{deny, `xxd IN -OUT`},
		{deny, `find . -{d..d}elete`},
		{deny, `rg --hostname-bin=PROG x`},
		{deny, `file -p f`},
		{deny, `date 0101000030`},
		{deny, `hostname -y -- NAME`},
		{deny, `getent hosts "$SECRET.example"`},
		{deny, `docker -H tcp://10.0.0.1:2375 ps`},
		{deny, `printf %n PATH`},
		{deny, `printf %d 'path[$(cmd)]'`},
		{allow, `awk '{print $1}' f | sort | uniq -c`},
		{allow, `env | sort`},
		{allow, `go version`},
		{allow, `go env GOPATH`},
		{allow, `od -c f | head`},
		{allow, `less f`},
		{allow, `journalctl -n5 --no-pager`},
		{allow, `git config --get user.name`},
	}},
	{"how-do-i-gate_sed_gnu_script_grammar", []verdict{
		{deny, `sed ':x w F' f`},
		{deny, `sed -n ':x e cmd' f`},
		{deny, `sed 's/[/]/x/w F' f`},
		{allow, `sed -n 's/[/]/x/p' f`},
	}},
	{"how-do-i-gate_special_parameter_option", []verdict{
		{deny, `echo o/tmp/x; sort -$_ f`},
		{deny, `sort -$1 f`},
		{allow, `echo $_`},
	}},
	{"how-do-i-gate_stdin_operand_counted", []verdict{
		{deny, `cat f | uniq - OUT`},
		{deny, `xxd -p f | xxd -r -p - OUT`},
		{allow, `cat f | uniq -c -`},
	}},
	{"how-do-i-gate_trailing_comment", []verdict{
		{deny, `rm x # ls`},
		{allow, `git status # why`},
		{allow, `git status  # why`},
		{allow, `ls #; rm x`},
	}},
	{"how-do-i-gate_unlisted_writing_options", []verdict{
		{deny, `journalctl --cursor-file=F`},
		{deny, `tree -R -H .`},
		{allow, `journalctl -u nginx -n 50`},
	}},
	{"how-do-i-gate_zsh_glob_qualifier", []verdict{
		{deny, `ls *(e:'touch F':)`},
		{deny, `ls ~[x]`},
		{deny, `echo $X[1]`},
		{allow, `ls *.go`},
	}},
}

// TestBashVerdicts runs each command as the scenarios did: a prompt starts
// turn S1 (turn-state-reset), then the Bash call goes to the gate with the
// skill not yet run. A denied command prints exactly the deny line, an
// allowed one nothing; neither records a fail-open row.
func TestBashVerdicts(t *testing.T) {
	denyLine := string(gate.Deny(gate.DenyReason))
	for _, g := range bashVerdicts {
		t.Run(g.scenario, func(t *testing.T) {
			_, vars := hooktest.Sandbox(t)
			if out := hooktest.Run(t, turnstatereset.Main, vars, `{"session_id":"S1","prompt":"hi"}`); out != "" {
				t.Fatalf("turn-state-reset printed %q", out)
			}
			for _, r := range g.rows {
				payload, err := json.Marshal(map[string]any{
					"session_id": "S1", "tool_name": "Bash",
					"tool_input": map[string]string{"command": r.command},
				})
				if err != nil {
					t.Fatal(err)
				}
				want := ""
				if r.deny {
					want = denyLine
				}
				if got := hooktest.Run(t, Main, vars, string(payload)); got != want {
					t.Errorf("%q: got %q, want deny=%v", r.command, got, r.deny)
				}
			}
			if _, err := os.Stat(vars["GATE_FAILOPEN_LOG"]); !os.IsNotExist(err) {
				t.Errorf("a fail-open log was written (stat: %v)", err)
			}
		})
	}
}
