package shellread

// moreTables are the option tables of the programs issue 31 opened (the
// listing forms, the pagers, the wrappers), and ripgrep and fd (clap: long
// options whole, values attached or the next word).
var moreTables map[string]string // made by loadTables

func makeMoreTables() map[string]string {
	return mergeTables(ripgrepTables(), fdTables(), archiveTables(), pagerTables(), wrapperTables())
}

// ripgrepTables is the table of ripgrep.
func ripgrepTables() map[string]string {
	return map[string]string{
		"rg": `exact
-NUM
-A= --after-context=
--auto-hybrid-regex --no-auto-hybrid-regex
-B= --before-context=
--binary --no-binary
--block-buffered --no-block-buffered
-b --byte-offset --no-byte-offset
-s --case-sensitive
--color= --colors=
--column --no-column
-C= --context=
--context-separator= --no-context-separator
-c --count
--count-matches
--crlf --no-crlf
--debug --trace
--dfa-size-limit=
--max-filesize=
-E= --encoding= --no-encoding
--engine=
-e= --regexp=
-f= --file=
--field-context-separator= --field-match-separator=
--files
-l --files-with-matches
--files-without-match
-F --fixed-strings --no-fixed-strings
-L --follow --no-follow
-g= --glob=
--glob-case-insensitive --no-glob-case-insensitive
-h --help
--heading --no-heading
--hidden --no-hidden --no-hidden
--iglob=
-i --ignore-case
--ignore-file=
--ignore-file-case-insensitive --no-ignore-file-case-insensitive
--include-zero --no-include-zero
-v --invert-match --no-invert-match
--json --no-json
--line-buffered --no-line-buffered
-n --line-number
-N --no-line-number
-x --line-regexp
-M= --max-columns=
--max-columns-preview --no-max-columns-preview
-m= --max-count=
--max-depth= -d= --maxdepth=
--mmap --no-mmap
-U --multiline --no-multiline
--multiline-dotall --no-multiline-dotall
--no-config
-I --no-filename --with-filename -H
--no-ignore --no-ignore-dot --no-ignore-exclude --no-ignore-files --no-ignore-global
--no-ignore-messages --no-ignore-parent --no-ignore-vcs --ignore --ignore-dot --ignore-exclude
--ignore-files --ignore-global --ignore-messages --ignore-parent --ignore-vcs
--no-messages --messages
--no-pcre2-unicode --pcre2-unicode --no-unicode --unicode
--no-require-git --require-git
-0 --null
--null-data
--one-file-system --no-one-file-system
-o --only-matching
--passthru --passthrough
--path-separator=
-P --pcre2 --no-pcre2
--pcre2-version
--pre-glob=
-p --pretty
-q --quiet
--regex-size-limit=
-r= --replace=
-z --search-zip --no-search-zip
-S --smart-case
--sort= --sortr=
--sort-files --no-sort-files
--stats --no-stats
-a --text --no-text
-j= --threads=
--trim --no-trim
-t= --type= -T= --type-not= --type-add= --type-clear=
--type-list
-u --unrestricted
-V --version
--vimgrep
-w --word-regexp
--no-context-separator
--generate= --files-with-matches --hyperlink-format= --include-zero --stop-on-nonmatch
--pre= --no-pre !x # runs a program on every file
--hostname-bin= !x # runs a program for the host name`,
	}
}

// fdTables is the table of fd (Debian names it fdfind).
func fdTables() map[string]string {
	return map[string]string{
		"fdfind": `exact
-H --hidden --no-hidden
-I --no-ignore --ignore
--no-ignore-vcs --ignore-vcs --no-ignore-parent --no-global-ignore-file
-u --unrestricted
-s --case-sensitive
-i --ignore-case
-g --glob
--regex
-F --fixed-strings
--and=
-a --absolute-path --relative-path
-l --list-details
-L --follow --no-follow
-p --full-path
-0 --print0
-d= --max-depth= --maxdepth=
--min-depth= --exact-depth=
-E= --exclude=
--prune
-t= --type=
-e= --extension=
-S= --size=
--changed-within= --changed-before= --change-newer-than= --newer= --changed-after=
--change-older-than= --older=
-o= --owner=
--batch-size=
--ignore-file=
-c= --color=
-j= --threads=
--max-results=
-1
-q --quiet
--show-errors
--base-directory=
--path-separator=
--search-path=
--strip-cwd-prefix
--one-file-system --mount --xdev
--format= --hyperlink?
-h --help
-V --version
-x= --exec= -X= --exec-batch= !x`,
	}
}

// archiveTables are the tables of the archive and encoding readers.
func archiveTables() map[string]string {
	return map[string]string{
		"tar": `gnu
-t --list
-A --catenate --concatenate -c --create --delete -r --append -u --update -x --extract --get !w
-d --diff --compare
--test-label
--check-device --no-check-device
-g= --listed-incremental= !w
-G --incremental
--hole-detection= --ignore-failed-read --level= --no-seek -n --seek --occurrence?
--sparse-version= -S --sparse
--add-file=
-C= --directory=
--exclude= --exclude-backups --exclude-caches --exclude-caches-all --exclude-caches-under
--exclude-ignore= --exclude-ignore-recursive= --exclude-tag= --exclude-tag-all= --exclude-tag-under=
--exclude-vcs --exclude-vcs-ignores
--no-null --no-recursion --no-unquote --no-verbatim-files-from --null --recursion
-T= --files-from=
--unquote --verbatim-files-from
-X= --exclude-from=
--anchored --ignore-case --no-anchored --no-ignore-case --no-wildcards --no-wildcards-match-slash
--wildcards --wildcards-match-slash
--keep-directory-symlink --keep-newer-files -k --keep-old-files --no-overwrite-dir --one-top-level?
--overwrite --overwrite-dir --recursive-unlink --remove-files --skip-old-files -U --unlink-first -W --verify
--ignore-command-error --no-ignore-command-error
-O --to-stdout
--to-command= !x
--atime-preserve? !w
--clamp-mtime --delay-directory-restore --group= --group-map= --mode= --mtime= -m --touch
--no-delay-directory-restore --no-same-owner --no-same-permissions --numeric-owner --owner= --owner-map=
-p --preserve-permissions --same-permissions --same-owner --sort= -s --preserve-order --same-order
--acls --no-acls --no-selinux --no-xattrs --selinux --xattrs --xattrs-exclude= --xattrs-include=
--force-local
-f= --file=
-F= --info-script= --new-volume-script= !x
-L= --tape-length=
-M --multi-volume
--rmt-command= --rsh-command= !x
--volno-file= !w
-b= --blocking-factor=
-B --read-full-records
-i --ignore-zeros
--record-size=
-H= --format=
--old-archive --portability --pax-option= --posix
-V= --label=
-a --auto-compress
-I= --use-compress-program= !x
-j --bzip2 -J --xz --lzip --lzma --lzop --no-auto-compress --zstd -z --gzip --gunzip --ungzip
-Z --compress --uncompress
--backup? --hard-dereference -h --dereference
-K= --starting-file=
--newer-mtime= -N= --newer= --after-date=
--one-file-system -P --absolute-names --suffix= --strip-components= --transform= --xform=
--checkpoint?
--checkpoint-action= !x
--full-time
--index-file= !w
-l --check-links --no-quote-chars= --quote-chars= --quoting-style= -R --block-number
--show-defaults --show-omitted-dirs --show-snapshot-field-ranges --show-transformed-names
--show-stored-names --totals? --utc -v --verbose --warning= -w --interactive --confirmation
-o --help --restrict --usage --version
-q --fast-read --include= --options= --chroot -y -s= # macOS bsdtar`,
		"gzip": `gnu
-NUM
-c --stdout --to-stdout
-d --decompress --uncompress
-f --force
-h --help
-k --keep
-l --list
-L --license
-n --no-name
-N --name
-q --quiet
-r --recursive
--rsyncable
-S= --suffix=
--synchronous
-t --test
-v --verbose
-V --version
--fast --best`,
		"base64": `gnu
-d -D --decode
-i --ignore-garbage
-w= --wrap=
-b= --break= # macOS
--input=
-o= --output= !w # macOS
-h --help
--version`,
		"od": `gnu
-A= --address-radix=
--endian=
-j= --skip-bytes=
-N= --read-bytes=
-S --strings?
-t= --format=
-v --output-duplicates
-w --width?
--traditional
-a -b -c -d -f -i -l -o -s -x -B -D -e -F -H -I -L -O -X
--help
--version`,
	}
}

// pagerTables are the tables of the pagers and the kernel log.
func pagerTables() map[string]string {
	return map[string]string{
		"dmesg": `gnu
-C --clear -c --read-clear -D --console-off -E --console-on !s
-n= --console-level= !s
-F= --file=
-f= --facility=
-H --human
-J --json
-k --kernel
-L --color?
-l= --level=
-P --nopager
-p --force-prefix
-r --raw
--noescape
-S --syslog
-s= --buffer-size=
-u --userspace
-w --follow
-W --follow-new
-x --decode
-d --show-delta
-e --reltime
-T --ctime
-t --notime
--time-format= --since= --until=
-h --help
-V --version`,
		"more": `gnu
-d --silent
-f --logical
-l --no-pause
-c --print-over
-p --clean-print
-e --exit-on-eof
-s --squeeze
-u --plain
-n= --lines=
-NUM
-h --help
-V --version`,
		"less": `gnu
-a -A -B -c -C -d -e -E -f -F -g -G -i -I -J -K -L -m -M -n -N -q -Q -r -R -s -S -u -U -V -w -W -X -~
-b= -h= -j= -x= -y= -z= -D= -p= -P= -t= -T= -#=
--file-size --follow-name --incsearch --line-num-width= --mouse --no-keypad --no-histdups
--rscroll= --save-marks --status-col-width= --use-backslash --use-color --wheel-lines=
--quit-at-eof --QUIT-AT-EOF --quit-if-one-screen --ignore-case --IGNORE-CASE --LONG-PROMPT
--line-numbers --LINE-NUMBERS --RAW-CONTROL-CHARS --raw-control-chars --chop-long-lines --no-init
--squeeze-blank-lines --pattern= --prompt= --tabs= --help --version --quiet --silent
-k= --lesskey-file= --lesskey-src= --lesskey-content= -o= -O= --log-file= --LOG-FILE= !x`,
	}
}

// wrapperTables are the tables of the programs that run another program.
func wrapperTables() map[string]string {
	return map[string]string{
		"xargs": `stop
-0 --null
-a= --arg-file=
-d= --delimiter=
-E=
-e --eof?
-I= -i --replace? !x # the command's words are rewritten from input
-L= --max-lines=
-l?
-n= --max-args=
-o --open-tty
-P= --max-procs=
-p --interactive
--process-slot-var= !x # sets a variable the command runs with
-r --no-run-if-empty
-s= --max-chars=
--show-limits
-t --verbose
-x --exit
-S= # macOS
-J= -R= !x # macOS: -J and -R rewrite the command's words like -I
--help
--version`,
		"env": `stop
-i --ignore-environment
-0 --null
-u= --unset=
-C= --chdir=
-S= --split-string= !x # splits a string into the command and its words
-P= !x # macOS: the directories the command is looked up in
--block-signal? --default-signal? --ignore-signal? --list-signal-handling
-v --debug
--help
--version`,
		"nice": `stop
-NUM
-n= --adjustment=
--help
--version`,
		"time": `stop
-o= --output= !w
-a --append
-f= --format=
-p --portability
-v --verbose
-q --quiet
-l # macOS
-h # macOS
--help
-V --version`,
	}
}
