package oracle

// An Example is one command of the adversarial sweep the gate must deny
// (issue 31), with what running it shows.
type Example struct {
	Cmd string
	// Writes names the shells in which the sandbox sees the command write,
	// run or connect ("bash", "zsh", "bash zsh"); empty where the sandbox
	// cannot show it (uid 65534 cannot set the clock or the NIS domain, a
	// daemon outside the namespace, a variable changed for later commands).
	Writes string
	// Layer is the part of the gate that refuses it: "shell" (the lexical
	// gate, the print-back, the structure of the command line) or
	// "program" (a program's own argument grammar).
	Layer string
}

// Examples are every command the issue gives, one or more per class.
var Examples = []Example{
	// the parser and the shells read the bytes differently
	{"ls # \\\ntouch F", "bash zsh", "shell"},
	{"echo a\r# >F", "bash zsh", "shell"},
	{"cat <<EOF\nx\nEO\\\nF\ntouch F\nEOF", "bash zsh", "shell"},
	{"cat <<EO\\\nF\nx\nEOF\ntouch F", "bash zsh", "shell"},
	{"echo \"$\\\n(touch F)\"", "bash", "shell"},
	{"echo x}\\\ntouch F", "", "shell"}, // the zsh form; this spelling alone writes nothing
	// value-taking options that swallow --
	{"sort -T -- -o F f", "bash zsh", "program"},
	{"rg -e -- --pre=touch x .", "bash zsh", "program"},
	{"git log --decorate-refs -- --output=F", "bash zsh", "program"},
	{"git config core.fsmonitor 'touch F' --get", "bash zsh", "program"},
	// option grammars that are not the program's own
	{"tree -Lo 1 F", "bash zsh", "program"},
	{"journalctl -n --cursor-file=F", "", "program"},
	{"xxd f -F", "bash zsh", "program"},
	{"find . -{d..d}elete", "bash zsh", "shell"},
	{"rg --hostname-bin=touch x", "", "program"},
	{"file -p f", "bash zsh", "program"},
	// state and network
	{"date 0101000030", "", "program"},
	{"hostname -y -- nis", "", "program"},
	{"cat < /dev/tcp/127.0.0.1/80", "bash", "shell"},
	{"getent hosts \"$USER.example\"", "bash zsh", "program"},
	{"docker -H tcp://127.0.0.1:7777 ps", "", "program"},
	{"printf abc%n PATH; ls", "", "program"},
	{"printf %d 'path[$(touch F)]'", "zsh", "program"},
	// the everyday forms of the issue that stay denied when they write
	{"[ -d sub ] && touch F", "bash zsh", "shell"},
	{"for f in *; do touch \"$f\"; done", "bash zsh", "shell"},
	{"PATH=. ls", "", "shell"},
}
