#!/bin/sh
# procedures launcher: runs the procedures binary built for this platform,
# from the directory this script is in (bin/<os>-<arch>/procedures[.exe]).
# Usage: sh <plugin>/bin/procedures <command> [args...]
#    or, sourced in the caller's own shell (hooks.json: one sh less per call),
#        set -- <plugin>/bin/procedures <command> [args...]; . "$1"
# The binary is told this directory in PROCEDURES_BIN_DIR, so the gates find
# the skills at <this directory>/../skills/<skill>/SKILL.md.
# self is this script's path: $0 when run (this file is named procedures),
# else $1, which the sourcing line sets (zsh, sourcing, sets $0 to it too).
# Sourced, the script runs in the caller's shell: nothing below uses $0, and
# it always ends in exec or exit.
if [ "${1-}" = "$0" ]; then
	self=$1
	shift
else
	case ${0##*/} in
	procedures) self=$0 ;;
	*)
		self=${1-}
		[ "$#" -eq 0 ] || shift
		;;
	esac
fi
case $self in
*/*) dir=${self%/*} ;;
*) dir=. ;;
esac
case $dir in
/*) ;;
*) dir=$PWD/$dir ;;
esac
# pick sets os, arch, exe and bin from sys and mach, as uname -s -m
# names them.
pick() {
	case $sys in
	Linux) os=linux ;;
	Darwin) os=darwin ;;
	MINGW* | MSYS* | CYGWIN*) os=windows ;;
	*) os= ;;
	esac
	case $mach in
	x86_64 | amd64) arch=amd64 ;;
	aarch64 | arm64) arch=arm64 ;;
	*) arch= ;;
	esac
	exe=procedures
	[ "$os" = windows ] && exe=procedures.exe
	bin=$dir/$os-$arch/$exe
}
# On Linux the kernel names itself in /proc, read with the read builtin (no
# fork, where uname costs one per hook call). Only the two answers a bundle
# has a Linux binary for are taken, and only when that binary is there;
# anything else (no /proc, a kernel without kernel/arch, macOS, a Windows
# shell, another answer, a bundle without that binary) asks uname, as before.
sys= mach=
{ read -r sys </proc/sys/kernel/ostype && read -r mach </proc/sys/kernel/arch; } 2>/dev/null || sys=
case $sys/$mach in
Linux/x86_64 | Linux/aarch64) pick ;;
*) bin= ;;
esac
if [ -z "$bin" ] || [ ! -f "$bin" ]; then
	set -- "$(uname -s -m 2>/dev/null)" "$@"
	sys=${1% *} mach=${1##* }
	shift
	pick
fi
# fail says why on stderr. For a hook it also appends a fail-open row
# (why: binary-unrunnable, the hook as gate) to $GATE_FAILOPEN_LOG, else
# $HOME/.claude/gate-failopen.jsonl, when that file can be appended to
# without blocking (a FIFO is left alone), and exits 0: a hook never blocks
# a session, and a gate that cannot run is never silent. Anything else
# exits 2.
fail() {
	echo "procedures: $1" >&2
	case $cmd in
	@@HOOKS@@)
		log=${GATE_FAILOPEN_LOG:-${HOME-}/.claude/gate-failopen.jsonl}
		if [ ! -p "$log" ] && [ -d "${log%/*}" ]; then
			ts=$(date -u +%Y-%m-%dT%H:%M:%SZ 2>/dev/null) || ts=
			[ -n "$ts" ] || ts=unknown
			printf '{"ts":"%s","gate":"%s","why":"@@WHY_UNRUNNABLE@@","session_id":""}\n' "$ts" "$cmd" 2>/dev/null >>"$log"
		fi
		exit 0
		;;
	esac
	exit 2
}
# carried lists the platforms whose binary this bundle holds.
carried() {
	have=
	for p in @@PLATFORM_WORDS@@; do
		case $p in
		windows-*) [ -f "$dir/$p/procedures.exe" ] ;;
		*) [ -f "$dir/$p/procedures" ] ;;
		esac && have="$have${have:+, }$p"
	done
	echo "${have:-none}"
}
cmd=${1-}
case $cmd in
-*) ;;
*) cmd=${cmd%.exe} ;;
esac
if [ -z "$self" ]; then
	fail "no binary: sourced without this script's path in \$1 (set -- <plugin>/bin/procedures <command>; . \"\$1\")"
fi
if [ -z "$os" ] || [ -z "$arch" ]; then
	fail "no binary for this platform ($sys $mach); this bundle carries: $(carried)"
fi
if [ ! -f "$bin" ]; then
	fail "no binary for this platform ($sys $mach): $bin is missing; this bundle carries: $(carried)"
fi
# mine succeeds when this user owns $1 and neither group nor others may
# write it: only such a file or directory is trusted to hold a copy.
mine() {
	[ -O "$1" ] && [ "$(find "$1" -prune ! -perm -020 ! -perm -002 2>/dev/null)" = "$1" ]
}
PROCEDURES_BIN_DIR=$dir
export PROCEDURES_BIN_DIR
if [ ! -x "$bin" ] && ! chmod +x "$bin" 2>/dev/null; then
	# The exec bit was lost (a zip or copy install) and this user may not
	# restore it: run a private copy. It is kept, and reused while it matches,
	# in the user's own cache ($XDG_CACHE_HOME, else $HOME/.cache) when every
	# part of it is the user's and not writable by others; else it is made in
	# a fresh mktemp -d directory and removed once the command ends.
	cache=${XDG_CACHE_HOME-}
	case $cache in
	/*) ;;
	*) case ${HOME-} in
		/?*) cache=$HOME/.cache ;;
		*) cache= ;;
		esac ;;
	esac
	copy=
	if [ -n "$cache" ] && (umask 077 && mkdir -p "$cache/procedures/$os-$arch") 2>/dev/null &&
		mine "$cache/procedures" && mine "$cache/procedures/$os-$arch"; then
		copy=$cache/procedures/$os-$arch/$exe
		if [ ! -f "$copy" ] || [ -h "$copy" ] || ! mine "$copy" || [ ! -x "$copy" ] || ! cmp -s "$bin" "$copy"; then
			rm -f "$copy.$$" && cp "$bin" "$copy.$$" && chmod 700 "$copy.$$" && mv -f "$copy.$$" "$copy" || copy=
		fi
		[ -n "$copy" ] && mine "$copy" || copy=
	fi
	if [ -n "$copy" ]; then
		exec "$copy" "$@"
	fi
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/procedures.XXXXXX") || fail "cannot make $bin executable or a private copy of it"
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
	if cp "$bin" "$tmp/$exe" && chmod 700 "$tmp/$exe"; then
		"$tmp/$exe" "$@"
		exit
	fi
	fail "cannot make $bin executable or copy it to $tmp"
fi
exec "$bin" "$@"
