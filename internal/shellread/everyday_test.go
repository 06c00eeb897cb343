package shellread

import "testing"

// everyday are read-only commands an agent runs every day. None of them
// changes anything; the classifier may deny some (a false denial), but the
// share it allows must never drop (issue 15: "False denials do not grow").
var everyday = []string{
	// git
	"git status", "git status --short", "git status -sb", "git status --porcelain",
	"git log", "git log --oneline", "git log --oneline -20", "git log -p -1", "git log --stat -3",
	"git log --graph --oneline --all", "git log --format='%H %s' -5", "git log main..HEAD",
	"git log -- README.md", "git log --since=yesterday --author=me", "git show", "git show HEAD",
	"git show --stat HEAD~1", "git show HEAD:README.md", "git diff", "git diff --cached",
	"git diff --stat", "git diff HEAD~1 -- go.mod", "git diff main...HEAD --name-only",
	"git branch --list", "git branch -a", "git branch -vv", "git branch --show-current",
	"git branch --list 'feat/*'", "git tag -l", "git tag --list 'v1.*'", "git remote -v",
	"git rev-parse HEAD", "git rev-parse --show-toplevel", "git rev-parse --abbrev-ref HEAD",
	"git ls-files", "git ls-files -m", "git blame README.md", "git blame -L 10,20 main.go",
	"git stash list", "git worktree list", "git config --get user.name", "git config --list",
	"git shortlog -sn", "git describe --tags", "git grep -n TODO", "git -C /work/main status",
	"git --no-pager log -3",
	// listing and reading files
	"ls", "ls -la", "ls -lah /tmp", "ls -1 internal", "ls -R docs", "ls -lt | head",
	"cat README.md", "cat go.mod go.sum", "cat -n main.go", "head README.md", "head -n 50 main.go",
	"head -c 100 f.bin", "tail -n 20 log.txt", "tail -f /var/log/syslog", "wc -l main.go",
	"wc -c *.go", "wc -l internal/*/*.go", "nl main.go", "stat go.mod", "file main.go",
	"du -sh .", "du -sh * | sort -h", "df -h", "tree -L 2", "tree -d internal", "pwd",
	"realpath .", "readlink -f /usr/bin/go", "basename /a/b/c.txt", "dirname /a/b/c.txt",
	// searching
	"grep -rn TODO .", "grep -rn 'func main' --include='*.go' .", "grep -c error log.txt",
	"grep -E 'a|b' f", "grep -v '^#' config", "grep -l pattern *.go", "rg TODO", "rg -n 'fn main'",
	"rg -l foo internal", "rg --type go 'ReadOnly'", "rg -i error -g '*.log'",
	"find . -name '*.go'", "find . -type f -name '*.md'", "find internal -maxdepth 1 -type d",
	"find . -newer go.mod -type f", "find . -size +1M", "find /tmp -mtime -1 -print",
	// text tools
	"jq . package.json", "jq -r .name package.json", "jq '.items[] | .id' data.json",
	"jq -c 'select(.ok)' log.jsonl", "cat data.json | jq keys", "sed -n 1,20p main.go",
	"sed -n '/func/p' main.go", "sed -n '10,$p' f", "sed 's/a/b/g' f", "sort f", "sort -u f",
	"sort -rn counts.txt", "sort -t: -k2 f", "uniq -c f", "cut -d: -f1 /etc/passwd",
	"tr a-z A-Z < f", "diff a.txt b.txt", "diff -u a b", "cmp a b", "column -t f",
	"comm -12 a b", "xxd f.bin | head", "hexdump -C f.bin | head", "md5sum f", "sha256sum go.sum",
	"strings binary | grep version", "seq 1 10", "echo hello", "printf '%s\\n' a b",
	// environment and processes
	"whoami", "id", "uname -a", "date", "date -u +%s", "uptime", "ps aux", "ps aux | grep go",
	"pgrep -l go", "which go", "type go", "hostname", "free -m", "env | sort", "echo $HOME",
	"echo $PATH | tr : '\\n'", "docker ps", "docker ps -a", "docker logs web", "docker images",
	"systemctl status nginx", "systemctl --user status claude-agents", "journalctl -u nginx -n 50",
	"tmux ls", "tmux capture-pane -p -t main",
	// pipelines
	"cat f | sort | uniq -c | sort -rn | head", "git log --oneline | wc -l", "ls | wc -l",
	"grep -rn TODO . | wc -l", "ps aux | grep -v grep | grep node", "git diff --stat | tail -1",
	"cat log.jsonl | jq -r .msg | sort | uniq -c", "find . -name '*.go' | xargs wc -l",
	"ls 2>/dev/null | head -5", "git status && git log --oneline -3",
	"awk '{print $1}' f", "awk -F: '{print $1}' /etc/passwd", "awk 'NR==1' f",
	// trailing comments
	"git status # why", "ls -la  # look first", "git log --oneline -5 # recent history",
	"cat README.md # read the docs", "grep -rn TODO . # find todos", "wc -l main.go # size",
}

// everydayAllowed is how many of everyday the classifier allowed when the
// list was written (154 before issue 15; 160 once trailing comments were
// allowed, 162 with git branch/tag --list patterns, 167, all, once awk, env
// and xargs were judged). It may only grow.
const everydayAllowed = 167

func TestEverydayAllowedShare(t *testing.T) {
	if len(everyday) < 120 {
		t.Fatalf("the everyday list holds %d commands, want at least 120", len(everyday))
	}
	allowed := 0
	for _, c := range everyday {
		if ReadOnly(c) {
			allowed++
		} else {
			t.Logf("denied: %q", c)
		}
	}
	t.Logf("allowed %d of %d", allowed, len(everyday))
	if allowed < everydayAllowed {
		t.Errorf("allowed %d of %d everyday read-only commands, fewer than the %d allowed before", allowed, len(everyday), everydayAllowed)
	}
}
