package shellread

import (
	"strings"
	"sync"
)

// envNameOK reports whether a VAR=value prefix may name the variable: an
// upper-case name (letters, digits, underscores) that is not on the deny
// list. The list refuses every variable that decides where a shell or a
// program finds code, configuration, a pager, an editor, a helper program,
// a socket or a host, or where it writes; and, by the words a name holds,
// whole families of them (any *PATH*, *CONF*, *DIR*, *FILE*, *OPT*, …),
// since a new variable of such a family is as likely to load code as the
// old ones.
func envNameOK(name string) bool {
	if !nameOf(name, 'A', 'Z', 64) || envDenied[name] {
		return false
	}
	for _, p := range envDeniedPrefixes {
		if strings.HasPrefix(name, p) {
			return false
		}
	}
	for _, s := range envDeniedWords {
		if strings.Contains(name, s) {
			return false
		}
	}
	return true
}

// nameOf reports whether s is a shell name of at most max bytes whose
// letters all lie in lo…hi, starting with one: digits and underscores
// follow.
func nameOf(s string, lo, hi byte, max int) bool {
	if s == "" || s[0] < lo || s[0] > hi || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(lo <= c && c <= hi || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// envDeniedText holds whole names: the shells' own (bash, zsh) and the common
// programs' ones that a prefix or word below does not already cover.
var envDeniedText = `ENV IFS PS1 PS2 PS3 PS4 SHELLOPTS BASHOPTS CDPATH FPATH GLOBIGNORE EXECIGNORE
	INPUTRC STTY NULLCMD READNULLCMD TMPPREFIX TMPSUFFIX TERM TERMCAP TERMINFO TZDIR MAIL MAILCHECK
	POSIXLY_CORRECT EDITOR VISUAL PAGER BROWSER SHELL HOME USER LOGNAME TIMEFMT TIMEFORMAT WORDCHARS
	KEYTIMEOUT POSTEDIT FIGNORE PSVAR PROMPT PROMPT2 PROMPT3 PROMPT4 RPROMPT RPS1 RPS2 SPROMPT
	REPORTTIME REPORTMEMORY LISTMAX ZBEEP OLDPWD PWD OPTIND OPTARG SECONDS RANDOM SRANDOM LINENO
	FUNCNEST HOSTALIASES LOCALDOMAIN RES_OPTIONS NOTIFY_SOCKET LISTEN_FDS LISTEN_PID COLORTERM
	DISPLAY WAYLAND_DISPLAY MANWIDTH FCEDIT TMOUT`

// envDeniedPrefixesText holds families of variables named by their program.
var envDeniedPrefixesText = `LD_ BASH ZSH ZDOT ZLE HIST PS GIT LESS SYSTEMD DOCKER COMPOSE BUILDKIT TMUX SSH GPG
	GNUPG XDG DBUS PYTHON PERL RUBY GEM BUNDLE NODE NPM YARN JAVA JDK GO CGO CC CXX CPP
	MAKE MALLOC GLIBC GCONV NLS I18N KRB5 OPENSSL SSL CURL WGET RIPGREP RG_ JQ YQ FZF FD_
	SUDO PROCEDURES CLAUDE ANTHROPIC GATE_ TURN_ KUBE HELM AWS GOOGLE AZURE VAULT NIX GUIX
	CARGO RUST DEBIAN DPKG APT PIP VIRTUAL CONDA LOCALE TZ_ MANPAGER MANOPT GROFF TEXINPUTS
	EMACS VIM NVIM EXINIT MYVIMRC ASAN UBSAN LSAN TSAN MSAN VALGRIND DYLD GZIP BZIP XZ ZSTD
	LZ TAPE TAR`

// envDeniedWordsText holds the words that name code, configuration or a place
// to write or connect to anywhere in a variable's name.
var envDeniedWordsText = `PATH LIB CONF CFG DIR HOME FILE OPT PAGER EDIT SHELL PROXY HOST CMD COMMAND PROG EXEC
	PRELOAD PLUGIN MODULE SOCK PASS TMP TEMP ENV RC LOAD HOOK SCRIPT BIN TERM DEBUG TRACE
	LOG OUTPUT DUMP CACHE DATA STATE RUNTIME URL ADDR SERVER REMOTE CRED TOKEN KEY AUTH
	CERT PORT INIT PROFILE STARTUP INCLUDE IMPORT HELPER DRIVER BACKEND FILTER DIFF MERGE
	EXTERNAL TOOL RUNNER WRAPPER LAUNCH SPAWN SANDBOX SECURE INTERP EVAL POLICY CTRL
	CONTROL MAGIC DB MIME ICON THEME STYLE`

// The shell layer's tables are made on first use (loadShellTables, from
// Judge), not at start-up: every command links this package.
var (
	shellTablesOnce                   sync.Once
	envDenied                         map[string]bool
	envDeniedPrefixes, envDeniedWords []string
	zshSpecials                       map[string]bool
	unaryTests, binaryTests, intTests map[string]bool
)

func loadShellTables() {
	shellTablesOnce.Do(func() {
		envDenied = set(envDeniedText)
		envDeniedPrefixes = strings.Fields(envDeniedPrefixesText)
		envDeniedWords = strings.Fields(envDeniedWordsText)
		zshSpecials = set(zshSpecialsText)
		unaryTests = set("-b -c -d -e -f -g -h -k -L -n -p -r -s -S -t -u -w -x -z -G -N -O")
		binaryTests = set("= == != -nt -ot -ef")
		intTests = set("-eq -ne -lt -le -gt -ge")
	})
}
