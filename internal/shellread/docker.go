package shellread

import "strings"

// dockerGlobal are docker's own options (before the subcommand). -H and
// --host reach any daemon, on any host; --config names a directory whose
// plugins docker runs (compose is one: refused with it).
const dockerGlobal = `exact
-D --debug
--tls --tlsverify
--tlscacert= --tlscert= --tlskey=
-c= --context=
-l= --log-level=
--config=
-H= --host= !n
-v --version
--help`

// dockerTables are the reading subcommands (cobra: options and operands
// mixed, long options whole), by their path below docker.
var dockerTables map[string]string // made by loadTables

func makeDockerTables() map[string]string {
	return map[string]string{
		"ps":        "exact\n-a --all\n-f= --filter=\n--format=\n-n= --last=\n-l --latest\n--no-trunc\n-q --quiet\n-s --size\n--help",
		"logs":      "exact\n--details\n-f --follow\n--since=\n-n= --tail=\n-t --timestamps\n--until=\n--help",
		"images":    "exact\n-a --all\n--digests\n-f= --filter=\n--format=\n--no-trunc\n-q --quiet\n--tree\n--help",
		"inspect":   "exact\n-f= --format=\n-s --size\n--type=\n--help",
		"stats":     "exact\n-a --all\n--format=\n--no-stream\n--no-trunc\n--help",
		"top":       "exact\n--help",
		"version":   "exact\n-f= --format=\n--help",
		"info":      "exact\n-f= --format=\n--help",
		"port":      "exact\n--help",
		"diff":      "exact\n--help",
		"history":   "exact\n--format=\n-H --human\n--no-trunc\n--platform=\n-q --quiet\n--help",
		"compose":   "exact\n-f= --file=\n-p= --project-name=\n--project-directory=\n--env-file=\n--profile=\n--ansi=\n--progress=\n--parallel=\n--compatibility\n--all-resources\n--help\n--dry-run",
		"c.ps":      "exact\n-a --all\n--filter=\n--format=\n--no-trunc\n--orphans\n-q --quiet\n--services\n--status=\n--help",
		"c.config":  "exact\n--format=\n--hash=\n--images\n--no-consistency\n--no-interpolate\n--no-normalize\n--no-path-resolution\n--profiles\n-q --quiet\n--resolve-image-digests\n--services\n--variables\n--environment\n--volumes\n--help\n-o= --output= !w",
		"c.logs":    "exact\n-f --follow\n--index=\n--no-color\n--no-log-prefix\n--since=\n-n= --tail=\n-t --timestamps\n--until=\n--help",
		"c.ls":      "exact\n-a --all\n--filter=\n--format=\n-q --quiet\n--help",
		"c.images":  "exact\n--format=\n-q --quiet\n--help",
		"c.top":     "exact\n--help",
		"c.version": "exact\n-f= --format=\n--short\n--help",
	}
}

// dockerPaths maps each allowed subcommand path to its table.
var dockerPaths map[string]string // made by loadTables

func makeDockerPaths() map[string]string {
	return map[string]string{
		"ps": "ps", "logs": "logs", "inspect": "inspect", "images": "images", "stats": "stats", "top": "top",
		"version": "version", "info": "info", "port": "port", "diff": "diff",
		"container ls": "ps", "container list": "ps", "container ps": "ps", "container inspect": "inspect",
		"container logs": "logs", "container top": "top", "container port": "port", "container diff": "diff",
		"container stats": "stats", "image ls": "images", "image list": "images", "image inspect": "inspect",
		"image history": "history", "history": "history", "system info": "info",
		"compose ps": "c.ps", "compose config": "c.config", "compose logs": "c.logs", "compose ls": "c.ls",
		"compose images": "c.images", "compose top": "c.top", "compose version": "c.version",
	}
}

func loadDocker() {
	rules["docker"] = dockerOK
}

// dockerOK: docker's options up to the subcommand, the subcommand (and
// compose's options before its own), each part judged by its table.
func dockerOK(args []word) bool {
	rest, ok := leading(spec("docker "), args)
	if !ok || len(rest) == 0 || !rest[0].known() {
		return false
	}
	sub := rest[0].text
	rest = rest[1:]
	if sub == "compose" {
		for _, w := range args[:len(args)-len(rest)] {
			if strings.HasPrefix(w.text, "--config") {
				return false
			}
		}
		rest, ok = leading(spec("docker compose"), rest)
		if !ok {
			return false
		}
	}
	if sub == "container" || sub == "image" || sub == "compose" || sub == "system" {
		if len(rest) == 0 || !rest[0].known() {
			return false
		}
		sub += " " + rest[0].text
		rest = rest[1:]
	}
	table, ok := dockerPaths[sub]
	return ok && spec("docker "+table).judge(rest)
}

// leading parses the options before a subcommand with s (they end at the
// first operand) and returns the words from the subcommand on.
func leading(s *argSpec, args []word) ([]word, bool) {
	n := 0
	for n < len(args) && args[n].known() && strings.HasPrefix(args[n].text, "-") && args[n].text != "--" {
		t := args[n].text
		n++
		if strings.Contains(t, "=") {
			continue
		}
		var d optDef
		if strings.HasPrefix(t, "--") {
			d = s.long[t[2:]]
		} else if len(t) == 2 && t[1] < 128 {
			d = s.short[t[1]]
		} else {
			return nil, false
		}
		if d.arg == argRequired {
			n++
		}
	}
	if n > len(args) {
		return nil, false
	}
	p, ok := s.parse(args[:n], false)
	if !ok || !s.verdict(p) || len(p.operands) > 0 {
		return nil, false
	}
	return args[n:], true
}
