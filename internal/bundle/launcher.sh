#!/bin/sh
# procedures launcher: runs the procedures binary built for this platform,
# from the directory this script is in (bin/<os>-<arch>/procedures[.exe]).
# Usage: sh <plugin>/bin/procedures <command> [args...]
# The binary is told this directory in PROCEDURES_BIN_DIR, so the gates find
# the skills at <this directory>/../skills/<skill>/SKILL.md.
case $0 in
*/*) dir=${0%/*} ;;
*) dir=. ;;
esac
case $dir in
/*) ;;
*) dir=$PWD/$dir ;;
esac
set -- "$(uname -s -m 2>/dev/null)" "$@"
sys=${1% *} mach=${1##* }
shift
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
# fail says why on stderr and exits 0 for a hook (a hook never blocks a
# session) and 2 for anything else.
fail() {
	echo "procedures: $1" >&2
	case $cmd in
	@@HOOKS@@) exit 0 ;;
	esac
	exit 2
}
cmd=${1-}
case $cmd in
-*) ;;
*) cmd=${cmd%.exe} ;;
esac
if [ -z "$os" ] || [ -z "$arch" ] || [ ! -f "$bin" ]; then
	fail "no binary for this platform ($sys $mach); this bundle supports @@PLATFORMS@@"
fi
if [ ! -x "$bin" ] && ! chmod +x "$bin" 2>/dev/null; then
	# The exec bit was lost (a zip or copy install) and this user may not
	# restore it: run a private copy from the user's own cache.
	cache=${XDG_CACHE_HOME:-${HOME:-}/.cache}
	case $cache in
	/*) ;;
	*) cache=$(mktemp -d "${TMPDIR:-/tmp}/procedures.XXXXXX") || fail "cannot make a private copy of $bin" ;;
	esac
	copy=$cache/procedures/$os-$arch/$exe
	if [ ! -x "$copy" ] || ! cmp -s "$bin" "$copy"; then
		mkdir -p "${copy%/*}" && cp "$bin" "$copy.$$" && chmod 700 "$copy.$$" && mv -f "$copy.$$" "$copy" ||
			fail "cannot make $bin executable or copy it to $copy"
	fi
	bin=$copy
fi
PROCEDURES_BIN_DIR=$dir
export PROCEDURES_BIN_DIR
exec "$bin" "$@"
