package shellread

// The option tables of the programs that report on the system: who and
// where the session runs, disk and memory use, processes and the journal
// (part of optionTables, see makeOptionTables).

// systemTables are the tables of the programs that report who and where the session runs.
func systemTables() map[string]string {
	return map[string]string{
		"whoami": `gnu
--help
--version`,
		"uname": `gnu
-a --all
-s --kernel-name
-n --nodename
-r --kernel-release
-v --kernel-version
-m --machine
-p --processor
-i --hardware-platform
-o --operating-system
--help
--version`,
		"id": `gnu
-a
-Z --context
-g --group
-G --groups
-n --name
-r --real
-u --user
-z --zero
-p -P -F -A -M # macOS
--help
--version`,
		"uptime": `gnu
-p --pretty
-h --help
-s --since
-V --version`,
		"hostname": `gnu
-a --alias
-A --all-fqdns
-b --boot !s
-d --domain
-f --fqdn --long
-F= --file= !s
-i --ip-address
-I --all-ip-addresses
-s --short
-y --yp --nis
-h --help
-V --version
-v --verbose`,
		"getent": `gnu
-A --no-addrconfig
-i --no-idn
-s= --service= !n
--help
--usage
-V --version`,
		"date": `gnu
-d= --date=
--debug
-f= --file=
-I --iso-8601?
--resolution
-R --rfc-email
--rfc-3339=
-r= --reference=
-s= --set= !s
-u --utc --universal
-j -n # macOS: -j does not set the clock
-v= -z= # macOS: adjust, output zone
--help
--version`,
		"seq": `gnu
-f= --format=
-s= --separator=
-t= # macOS: terminator
-w --equal-width
--help
--version`,
	}
}

// diskTables are the tables of the programs that report disk and memory use.
func diskTables() map[string]string {
	return map[string]string{
		"du": `gnu
-0 --null
-a --all
--apparent-size
-B= --block-size=
-b --bytes
-c --total
-D --dereference-args
-d= --max-depth=
--files0-from=
-H
-h --human-readable
--inodes
-k
-L --dereference
-l --count-links
-m
-P --no-dereference
-S --separate-dirs
--si
-s --summarize
-t= --threshold=
--time?
--time-style=
-X= --exclude-from=
--exclude=
-x --one-file-system
-g -A -I= -n # macOS
--help
--version`,
		"df": `gnu
-a --all
-B= --block-size=
-h --human-readable
-H --si
-i --inodes
-k
-l --local
--no-sync
--output?
-P --portability
--sync
--total
-t= --type=
-T --print-type
-x= --exclude-type=
-v
-c -g -m -n -Y # macOS
--help
--version`,
		"free": `gnu
-b --bytes
--kilo
--mega
--giga
--tera
--peta
-k --kibi
-m --mebi
-g --gibi
--tebi
--pebi
-h --human
--si
-l --lohi
-t --total
-v --committed
-s= --seconds=
-c= --count=
-w --wide
--help
-V --version`,
	}
}

// processTables are the tables of the programs that list processes and the journal.
func processTables() map[string]string {
	return map[string]string{
		"pgrep": `gnu
-d= --delimiter=
-l --list-name
-a --list-full
-v --inverse
-w --lightweight
-c --count
-f --full
-g= --pgroup=
-G= --group=
-i --ignore-case
-n --newest
-o --oldest
-O= --older=
-P= --parent=
-s= --session=
-t= --terminal=
-u= --euid=
-U= --uid=
-x --exact
-F= --pidfile=
-L --logpidfile
-r= --runstates=
-A --ignore-ancestors
--cgroup=
--ns=
--nslist=
-q -S -I # macOS
-h --help
-V --version`,
		"pstree": `gnu
-a --arguments
-A --ascii
-c --compact-not
-C= --color=
-g --show-pgids
-G --vt100
-h --highlight-all
-H= --highlight-pid=
-l --long
-n --numeric-sort
-N= --ns-sort=
-p --show-pids
-s --show-parents
-S --ns-changes
-t --thread-names
-T --hide-threads
-u --uid-changes
-U --unicode
-V --version
-Z --security-context`,
		"journalctl": `gnu
-NUM
--system
--user
-M= --machine=
-m --merge
-D= --directory=
--file=
--root=
--image= !s
--namespace=
-S= --since=
-U= --until=
-c= --cursor=
--after-cursor=
--cursor-file= !w
-b? --boot?
-u= --unit=
--user-unit=
-t= --identifier=
-T= --exclude-identifier=
-p= --priority=
--facility=
-g= --grep=
--case-sensitive?
-k --dmesg
-o= --output=
--output-fields=
-n? --lines?
-r --reverse
--show-cursor
--utc
-x --catalog
--no-hostname
--no-full --full -l
-a --all
-f --follow
--no-tail
-q --quiet
--no-pager
-e --pager-end
--interval= !w
--verify-key=
--force !w
-h --help
--version
-N --fields
-F= --field=
--list-boots
--disk-usage
--vacuum-size= --vacuum-files= --vacuum-time= !s
--verify
--sync --relinquish-var --smart-relinquish-var --flush --rotate !s
--header
--list-catalog
--dump-catalog
--update-catalog !w
--setup-keys !w
--new-id128`,
	}
}
