package shellread

// optionTables are the option tables of the programs judged by their own
// parser, in parseSpec's language, written from each program's --help and
// manual page for Debian 12 and macOS 15 (the union where they differ; a
// letter whose argument differs between the two is listed the way that
// takes more). TestTablesMatchHelp checks them against --help on the
// machine: an option a new version adds is unknown, so refused, until it
// is listed here with its effect.
var optionTables map[string]string // made by loadTables

func makeOptionTables() map[string]string {
	return mergeTables(textViewTables(), textFilterTables(), compareTables(), pathTables(),
		systemTables(), diskTables(), processTables(), contentTables(), listingTables())
}

// textViewTables are the tables of the programs that print a file or part of it.
func textViewTables() map[string]string {
	return map[string]string{
		"cat": `gnu
-A --show-all
-b --number-nonblank
-e
-E --show-ends
-n --number
-s --squeeze-blank
-t
-T --show-tabs
-u
-v --show-nonprinting
-l # macOS: lock the output
--help
--version`,
		"head": `gnu
-NUM
-c= --bytes=
-n= --lines=
-q --quiet --silent
-v --verbose
-z --zero-terminated
--help
--version`,
		"tail": `gnu
-NUM
-c= --bytes=
-f? --follow?
-F
-n= --lines=
--max-unchanged-stats=
--pid=
-q --quiet --silent
--retry
-s= --sleep-interval=
-v --verbose
-z --zero-terminated
-r # macOS: reverse
-b= # macOS: blocks
--help
--version`,
		"nl": `gnu
-b= --body-numbering=
-d= --section-delimiter=
-f= --footer-numbering=
-h= --header-numbering=
-i= --line-increment=
-l= --join-blank-lines=
-n= --number-format=
-p --no-renumber
-s= --number-separator=
-v= --starting-line-number=
-w= --number-width=
--help
--version`,
		"wc": `gnu
-c --bytes
-m --chars
-l --lines
--files0-from=
-L --max-line-length
-w --words
--total=
--help
--version`,
	}
}

// textFilterTables are the tables of the programs that cut, translate or lay out lines.
func textFilterTables() map[string]string {
	return map[string]string{
		"cut": `gnu
-b= --bytes=
-c= --characters=
-d= --delimiter=
-f= --fields=
-n
-w # macOS: whitespace
--complement
-s --only-delimited
--output-delimiter=
-z --zero-terminated
--help
--version`,
		"tr": `gnu
-c -C --complement
-d --delete
-s --squeeze-repeats
-t --truncate-set1
-u # macOS: unbuffered
--help
--version`,
		"rev": `gnu
-0 --zero
-h --help
-V --version`,
		"column": `gnu
-t --table
-n= --table-name=
-O= --table-order=
-N= --table-columns=
-l= --table-columns-limit=
-E= --table-noextreme=
-d --table-noheadings
-e --table-header-repeat
-H= --table-hide=
-R= --table-right=
-T= --table-truncate=
-W= --table-wrap=
-L --keep-empty-lines
-J --json
-r= --tree=
-i= --tree-id=
-p= --tree-parent=
-c= --output-width=
-o= --output-separator=
-s= --separator=
-x --fillrows
-h --help
-V --version`,
		"comm": `gnu
-1
-2
-3
-i # macOS: ignore case
--check-order
--nocheck-order
--output-delimiter=
--total
-z --zero-terminated
--help
--version`,
	}
}

// compareTables are the tables of the programs that compare, sort or count lines.
func compareTables() map[string]string {
	return map[string]string{
		"diff": `gnu
--normal
-q --brief
-s --report-identical-files
-c
-C= --context?
-u
-U= --unified?
-e --ed
-f --forward-ed
-n --rcs
-y --side-by-side
-W= --width=
--left-column
--suppress-common-lines
-p --show-c-function
-F= --show-function-line=
--label=
-t --expand-tabs
-T --initial-tab
--tabsize=
--suppress-blank-empty
-l --paginate !x
-r --recursive
--no-dereference
-N --new-file
--unidirectional-new-file
--ignore-file-name-case
--no-ignore-file-name-case
-x= --exclude=
-X= --exclude-from=
-S= --starting-file=
--from-file=
--to-file=
-i --ignore-case
-E --ignore-tab-expansion
-Z --ignore-trailing-space
-b --ignore-space-change
-w --ignore-all-space
-B --ignore-blank-lines
-I= --ignore-matching-lines=
-a --text
--strip-trailing-cr
-D= --ifdef=
--old-group-format= --new-group-format= --unchanged-group-format= --changed-group-format=
--line-format= --old-line-format= --new-line-format= --unchanged-line-format=
-d --minimal
--horizon-lines=
--speed-large-files
--color?
--palette=
--no-ignore-file-name-case
--help
-v --version`,
		"cmp": `gnu
-b --print-bytes
-i= --ignore-initial=
-l --verbose
-n= --bytes=
-s --quiet --silent
-h # macOS: do not follow links
-x -z # macOS
--help
-v --version`,
		"sort": `gnu
-b --ignore-leading-blanks
-d --dictionary-order
-f --ignore-case
-g --general-numeric-sort
-i --ignore-nonprinting
-M --month-sort
-h --human-numeric-sort
-n --numeric-sort
-R --random-sort
--random-source=
-r --reverse
--sort=
-V --version-sort
--batch-size=
-c --check?
-C
--compress-program= !x
--debug
--files0-from=
-k= --key=
-m --merge
-o= --output= !w
-s --stable
-S= --buffer-size=
-t= --field-separator=
-T= --temporary-directory=
--parallel=
-u --unique
-z --zero-terminated
--help
--version`,
		"uniq": `gnu
-c --count
-d --repeated
-D --all-repeated?
-f= --skip-fields=
--group?
-i --ignore-case
-s= --skip-chars=
-u --unique
-z --zero-terminated
-w= --check-chars=
--help
--version`,
	}
}

// pathTables are the tables of the programs that name or describe a path.
func pathTables() map[string]string {
	return map[string]string{
		"basename": `gnu
-a --multiple
-s= --suffix=
-z --zero
--help
--version`,
		"dirname": `gnu
-z --zero
--help
--version`,
		"realpath": `gnu
-e --canonicalize-existing
-m --canonicalize-missing
-L --logical
-P --physical
-q --quiet
--relative-to=
--relative-base=
-s --strip --no-symlinks
-z --zero
--help
--version`,
		"readlink": `gnu
-f --canonicalize
-e --canonicalize-existing
-m --canonicalize-missing
-n --no-newline
-q --quiet
-s --silent
-v --verbose
-z --zero
--help
--version`,
		"stat": `gnu
-L --dereference
-f= --file-system # macOS -f takes a format; judged the way that takes more
--cached=
-c= --format=
--printf=
-t --terse
-x -s -r -l -q -n # macOS
-F
-t= # macOS: the time format
--help
--version`,
		"file": `gnu
--help
-v --version
-m= --magic-file=
-z --uncompress
-Z --uncompress-noreport
-b --brief
-c --checking-printout
-e= --exclude=
--exclude-quiet=
-f= --files-from=
-F= --separator=
-i --mime
--apple
--extension
--mime-type
--mime-encoding
-k --keep-going
-l --list
-L --dereference
-h --no-dereference
-n --no-buffer
-N --no-pad
-0 --print0
-p --preserve-date !w
-P= --parameter=
-r --raw
-s --special-files
-S --no-sandbox !x
-C --compile !w
-d --debug
-D -I -M= # macOS`,
	}
}

// contentTables are the tables of the programs that search or dump file contents.
func contentTables() map[string]string {
	return map[string]string{
		"grep": `gnu
-NUM
-E --extended-regexp
-F --fixed-strings
-G --basic-regexp
-P --perl-regexp
-e= --regexp=
-f= --file=
-i -y --ignore-case
--no-ignore-case
-w --word-regexp
-x --line-regexp
-z --null-data
-s --no-messages
-v --invert-match
-V --version
--help
-m= --max-count=
-b --byte-offset
-n --line-number
--line-buffered
-H --with-filename
-h --no-filename
--label=
-o --only-matching
-q --quiet --silent
--binary-files=
-a --text
-I
-d= --directories=
-D= --devices=
-r --recursive
-R --dereference-recursive
--include=
--exclude=
--exclude-from=
--exclude-dir=
-L --files-without-match
-l --files-with-matches
-c --count
-T --initial-tab
-Z --null
-B= --before-context=
-A= --after-context=
-C= --context=
--group-separator=
--no-group-separator
--color? --colour?
-U --binary
-J -O -p -S --null # macOS
-u --unix-byte-offsets`,
		"md5sum": `gnu
-b --binary
-c --check
--tag
-t --text
-z --zero
--ignore-missing
--quiet
--status
--strict
-w --warn
--help
--version`,
		"hexdump": `gnu
-b --one-byte-octal
-c --one-byte-char
-C --canonical
-d --two-bytes-decimal
-o --two-bytes-octal
-x --two-bytes-hex
-L --color?
-e= --format=
-f= --format-file=
-n= --length=
-s= --skip=
-v --no-squeezing
-h --help
-V --version`,
		"strings": `gnu
-NUM
-a --all
-d --data
-f --print-file-name
-n= --bytes=
-t= --radix=
-w --include-all-whitespace
-o
-T= --target=
-e= --encoding=
-U= --unicode=
-s= --output-separator=
-h --help
-v -V --version`,
	}
}

// listingTables are the tables of the programs that list directories.
func listingTables() map[string]string {
	return map[string]string{
		"ls": `gnu
-a --all
-A --almost-all
--author
-b --escape
--block-size=
-B --ignore-backups
-c
-C
--color?
-d --directory
-D --dired
-f
-F --classify?
--file-type
--format=
--full-time
-g
--group-directories-first
-G --no-group
-h --human-readable
--si
-H --dereference-command-line
--dereference-command-line-symlink-to-dir
--hide=
--hyperlink?
--indicator-style=
-i --inode
-I= --ignore=
-k --kibibytes
-l
-L --dereference
-m
-n --numeric-uid-gid
-N --literal
-o
-p
-q --hide-control-chars
--show-control-chars
-Q --quote-name
--quoting-style=
-r --reverse
-R --recursive
-s --size
-S
--sort=
--time=
--time-style=
-t
-T= --tabsize=
-u
-U
-v
-w= --width=
-x
-X
-Z --context
--zero
-1
-e -O -P -W -@ -% -, -y # macOS
--help
--version`,
		"tree": `exact
-a -d -l -f -x -i -s -h -u -g -D -F -q -N -Q -p -C -n -r -t -c -U -v -A -S -J -X -Z
--noreport --dirsfirst --du --prune --gitignore --inodes --device --si --matchdirs --ignore-case
--filesfirst --nolinks --version --help --metafirst --fflinks --info --condense
-L> -P> -I>
--charset= --filelimit= --timefmt= --sort= --gitfile= --hintro= --houtro= --infofile=
-H> -T>
-o> -R --fromfile !w # -o writes a file, -R with -H an index into every directory`,
	}
}

// mergeTables joins the per-family tables of one maker into one map. A
// program listed in two families is a mistake a single map literal would
// not compile, so it panics (every test that judges a command builds the
// tables).
func mergeTables(parts ...map[string]string) map[string]string {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	m := make(map[string]string, n)
	for _, p := range parts {
		for k, v := range p {
			if _, dup := m[k]; dup {
				panic("shellread: option table " + k + " listed twice")
			}
			m[k] = v
		}
	}
	return m
}
