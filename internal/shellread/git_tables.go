package shellread

// gitTables are the option tables of git's reading subcommands, written
// from each one's manual page and --git-completion-helper (git 2.39 on
// Debian 12; git on macOS 15 is 2.39 too). " ; " separates options on
// one line. --output writes, --ext-diff and grep's -O and
// --open-files-in-pager run a program.
var gitTables map[string]string // made by loadTables

func makeGitTables() map[string]string {
	return mergeTables(gitHistoryTables(), gitRefTables(), gitDiffTables())
}

// gitHistoryTables are the tables of git's history and status readers.
func gitHistoryTables() map[string]string {
	return map[string]string{
		"status": `gnu
-s ; --short ; -b ; --branch ; --show-stash ; --porcelain? ; --long ; -v ; --verbose ; -u?
--untracked-files? ; --ignore-submodules? ; --ignored? ; -z ; --column? ; --no-column
--ahead-behind ; --no-ahead-behind ; --renames ; --no-renames ; --find-renames? ; --null
--no-verbose ; --no-short ; --no-branch ; --no-show-stash ; --no-porcelain ; --no-long
--no-null ; --no-untracked-files ; --no-ignored ; --no-ignore-submodules ; -h`,
		"log": `gnu
--follow ; --no-decorate ; --decorate? ; --decorate-refs= ; --decorate-refs-exclude=
--clear-decorations ; --source ; --mailmap ; --no-mailmap ; --use-mailmap ; --no-use-mailmap
--full-diff ; --log-size ; -L= ; -n= ; --max-count= ; --skip= ; --since= ; --after=
--since-as-filter= ; --until= ; --before= ; --author= ; --committer= ; --grep-reflog= ; --grep=
--all-match ; --invert-grep ; -i ; --regexp-ignore-case ; --basic-regexp ; -E
--extended-regexp ; -F ; --fixed-strings ; -P ; --perl-regexp ; --remove-empty ; --merges
--no-merges ; --min-parents= ; --max-parents= ; --no-min-parents ; --no-max-parents
--first-parent ; --exclude-first-parent-only ; --not ; --all ; --branches? ; --tags?
--remotes? ; --glob= ; --exclude= ; --exclude-hidden= ; --reflog ; --alternate-refs
--single-worktree ; --ignore-missing ; --bisect ; --stdin ; --cherry-mark ; --cherry-pick
--left-only ; --right-only ; --cherry ; -g ; --walk-reflogs ; --merge ; --boundary
--simplify-by-decoration ; --show-pulls ; --full-history ; --dense ; --sparse
--simplify-merges ; --ancestry-path? ; --date-order ; --author-date-order ; --topo-order
--reverse ; --no-walk? ; --do-walk ; --pretty? ; --format= ; --abbrev-commit
--no-abbrev-commit ; --oneline ; --encoding= ; --expand-tabs= ; --no-expand-tabs ; --notes?
--no-notes ; --show-notes? ; --standard-notes ; --no-standard-notes ; --show-signature
--relative-date ; --date= ; --parents ; --children ; --left-right ; --graph
--show-linear-break? ; -p ; -u ; --patch ; -s ; --no-patch ; --diff-merges= ; --no-diff-merges
-m ; --remerge-diff ; -c ; --cc ; --combined-all-paths ; -U= ; --unified= ; --output= !w
--output-indicator-new= ; --output-indicator-old= ; --output-indicator-context= ; --raw
--patch-with-raw ; -t ; --indent-heuristic ; --no-indent-heuristic ; --minimal ; --patience
--histogram ; --anchored= ; --diff-algorithm= ; --stat? ; --compact-summary ; --numstat
--shortstat ; -X? ; --dirstat? ; --cumulative ; --dirstat-by-file? ; --summary
--patch-with-stat ; -z ; --name-only ; --name-status ; --submodule? ; --color? ; --no-color
--color-moved? ; --no-color-moved ; --color-moved-ws= ; --no-color-moved-ws ; --word-diff?
--word-diff-regex= ; --color-words? ; --no-renames ; --rename-empty ; --no-rename-empty
--check ; --ws-error-highlight= ; --full-index ; --binary ; --abbrev? ; -B? ; --break-rewrites?
-M? ; --find-renames? ; -C? ; --find-copies? ; --find-copies-harder ; -D ; --irreversible-delete
-l= ; --diff-filter= ; -S= ; -G= ; --find-object= ; --pickaxe-all ; --pickaxe-regex ; -O=
--skip-to= ; --rotate-to= ; -R ; --relative? ; --no-relative ; -a ; --text ; --ignore-cr-at-eol
--ignore-space-at-eol ; -b ; --ignore-space-change ; -w ; --ignore-all-space
--ignore-blank-lines ; -I= ; --ignore-matching-lines= ; --inter-hunk-context= ; -W
--function-context ; --ext-diff !x ; --no-ext-diff ; --textconv ; --no-textconv
--ignore-submodules? ; --src-prefix= ; --dst-prefix= ; --no-prefix ; --line-prefix=
--ita-invisible-in-index ; --quiet ; --no-quiet ; --no-source ; --no-decorate-refs
--no-decorate-refs-exclude ; -h ; -NUM`,
		"show": `gnu
--pretty? ; --format= ; --abbrev-commit ; --no-abbrev-commit ; --oneline ; --encoding=
--expand-tabs= ; --no-expand-tabs ; --notes? ; --no-notes ; --show-notes? ; --standard-notes
--no-standard-notes ; --show-signature ; -p ; -u ; --patch ; -s ; --no-patch ; --diff-merges=
--no-diff-merges ; -m ; --remerge-diff ; -c ; --cc ; --combined-all-paths ; -U= ; --unified=
--output= !w ; --output-indicator-new= ; --output-indicator-old= ; --output-indicator-context=
--raw ; --patch-with-raw ; -t ; --indent-heuristic ; --no-indent-heuristic ; --minimal
--patience ; --histogram ; --anchored= ; --diff-algorithm= ; --stat? ; --compact-summary
--numstat ; --shortstat ; -X? ; --dirstat? ; --cumulative ; --dirstat-by-file? ; --summary
--patch-with-stat ; -z ; --name-only ; --name-status ; --submodule? ; --color? ; --no-color
--color-moved? ; --no-color-moved ; --color-moved-ws= ; --no-color-moved-ws ; --word-diff?
--word-diff-regex= ; --color-words? ; --no-renames ; --rename-empty ; --no-rename-empty
--check ; --ws-error-highlight= ; --full-index ; --binary ; --abbrev? ; -B? ; --break-rewrites?
-M? ; --find-renames? ; -C? ; --find-copies? ; --find-copies-harder ; -D ; --irreversible-delete
-l= ; --diff-filter= ; -S= ; -G= ; --find-object= ; --pickaxe-all ; --pickaxe-regex ; -O=
--skip-to= ; --rotate-to= ; -R ; --relative? ; --no-relative ; -a ; --text ; --ignore-cr-at-eol
--ignore-space-at-eol ; -b ; --ignore-space-change ; -w ; --ignore-all-space
--ignore-blank-lines ; -I= ; --ignore-matching-lines= ; --inter-hunk-context= ; -W
--function-context ; --ext-diff !x ; --no-ext-diff ; --textconv ; --no-textconv
--ignore-submodules? ; --src-prefix= ; --dst-prefix= ; --no-prefix ; --line-prefix=
--ita-invisible-in-index ; --quiet ; --source ; --use-mailmap ; --clear-decorations
--decorate-refs= ; --decorate-refs-exclude= ; --decorate ; --no-quiet ; --no-source
--no-use-mailmap ; --no-mailmap ; --no-decorate-refs ; --no-decorate-refs-exclude
--no-decorate ; -h ; -NUM`,
		"blame": `gnu
-b ; --root ; --show-stats ; -L= ; -l ; -t ; -S= ; --reverse= ; --first-parent ; -p
--porcelain ; --line-porcelain ; --incremental ; --encoding= ; --contents= ; --date=
--progress ; --no-progress ; -M? ; -C? ; --ignore-rev= ; --ignore-revs-file= ; --color-lines
--color-by-age ; -c ; --score-debug ; -f ; --show-name ; -n ; --show-number ; -s ; -e
--show-email ; -w ; --abbrev= ; --minimal ; --no-incremental ; --no-root ; --no-show-stats
--no-score-debug ; --no-show-name ; --no-show-number ; --no-porcelain ; --no-line-porcelain
--no-show-email ; --no-ignore-rev ; --no-ignore-revs-file ; --no-color-lines ; --no-color-by-age
--no-minimal ; --no-contents ; --no-abbrev ; -h`,
		"describe": `gnu
--dirty? ; --broken? ; --all ; --tags ; --contains ; --abbrev= ; --candidates= ; --exact-match
--debug ; --long ; --match= ; --exclude= ; --always ; --first-parent ; --no-contains
--no-debug ; --no-all ; --no-tags ; --no-long ; --no-first-parent ; --no-abbrev
--no-exact-match ; --no-candidates ; --no-match ; --no-exclude ; --no-always ; --no-dirty
--no-broken ; -h`,
		"shortlog": `gnu
-n ; --numbered ; -s ; --summary ; -e ; --email ; --format? ; --date= ; --group= ; -c
--committer ; -w? ; --max-count= ; --skip= ; --since= ; --after= ; --since-as-filter= ; --until=
--before= ; --author= ; --grep-reflog= ; --grep= ; --all-match ; --invert-grep ; -i
--regexp-ignore-case ; --basic-regexp ; -E ; --extended-regexp ; -F ; --fixed-strings ; -P
--perl-regexp ; --remove-empty ; --merges ; --no-merges ; --min-parents= ; --max-parents=
--no-min-parents ; --no-max-parents ; --first-parent ; --exclude-first-parent-only ; --not
--all ; --branches? ; --tags? ; --remotes? ; --glob= ; --exclude= ; --exclude-hidden= ; --reflog
--alternate-refs ; --single-worktree ; --ignore-missing ; --bisect ; --stdin ; --cherry-mark
--cherry-pick ; --left-only ; --right-only ; --cherry ; -g ; --walk-reflogs ; --merge
--boundary ; --simplify-by-decoration ; --show-pulls ; --full-history ; --dense ; --sparse
--simplify-merges ; --ancestry-path? ; --no-committer ; --no-numbered ; --no-summary
--no-email ; --no-group ; -h ; -NUM`,
		"whatchanged": `gnu
--quiet ; --source ; --use-mailmap ; --clear-decorations ; --decorate-refs=
--decorate-refs-exclude= ; --decorate ; --no-quiet ; --no-source ; --no-use-mailmap
--no-mailmap ; --no-decorate-refs ; --no-decorate-refs-exclude ; --no-decorate ; -h ; -NUM`,
	}
}

// gitRefTables are the tables of git's revision, ref, index and object readers.
func gitRefTables() map[string]string {
	return map[string]string{
		"rev-list": `gnu
-n= ; --max-count= ; --skip= ; --since= ; --after= ; --since-as-filter= ; --until= ; --before=
--max-age= ; --min-age= ; --author= ; --committer= ; --grep-reflog= ; --grep= ; --all-match
--invert-grep ; -i ; --regexp-ignore-case ; --basic-regexp ; -E ; --extended-regexp ; -F
--fixed-strings ; -P ; --perl-regexp ; --remove-empty ; --merges ; --no-merges ; --min-parents=
--max-parents= ; --no-min-parents ; --no-max-parents ; --first-parent
--exclude-first-parent-only ; --not ; --all ; --branches? ; --tags? ; --remotes? ; --glob=
--exclude= ; --exclude-hidden= ; --reflog ; --alternate-refs ; --single-worktree
--ignore-missing ; --stdin ; --quiet ; --disk-usage= ; --cherry-mark ; --cherry-pick
--left-only ; --right-only ; --cherry ; -g ; --walk-reflogs ; --merge ; --boundary
--use-bitmap-index ; --progress= ; --simplify-by-decoration ; --show-pulls ; --full-history
--dense ; --sparse ; --simplify-merges ; --ancestry-path? ; --bisect ; --bisect-vars
--bisect-all ; --date-order ; --author-date-order ; --topo-order ; --reverse ; --objects
--in-commit-order ; --objects-edge ; --objects-edge-aggressive ; --indexed-objects ; --unpacked
--object-names ; --no-object-names ; --filter= ; --no-filter ; --filter-provided-objects
--filter-print-omitted ; --missing= ; --exclude-promisor-objects ; --no-walk? ; --do-walk
--pretty? ; --format= ; --abbrev-commit ; --no-abbrev-commit ; --oneline ; --encoding=
--expand-tabs= ; --no-expand-tabs ; --show-signature ; --relative-date ; --date= ; --header
--no-commit-header ; --commit-header ; --parents ; --children ; --timestamp ; --left-right
--graph ; --show-linear-break? ; --count ; --patch ; --no-patch ; --unified ; --function-context
--raw ; --patch-with-raw ; --patch-with-stat ; --numstat ; --shortstat ; --dirstat
--cumulative ; --dirstat-by-file ; --check ; --summary ; --name-only ; --name-status ; --stat
--stat-width= ; --stat-name-width= ; --stat-graph-width= ; --stat-count= ; --compact-summary
--binary ; --full-index ; --color ; --ws-error-highlight= ; --abbrev ; --src-prefix=
--dst-prefix= ; --line-prefix= ; --no-prefix ; --inter-hunk-context= ; --output-indicator-new=
--output-indicator-old= ; --output-indicator-context= ; --break-rewrites ; --find-renames
--irreversible-delete ; --find-copies ; --find-copies-harder ; --no-renames ; --rename-empty
--follow ; --minimal ; --ignore-all-space ; --ignore-space-change ; --ignore-space-at-eol
--ignore-cr-at-eol ; --ignore-blank-lines ; --ignore-matching-lines= ; --indent-heuristic
--patience ; --histogram ; --diff-algorithm= ; --anchored= ; --word-diff ; --word-diff-regex=
--color-words ; --color-moved ; --color-moved-ws= ; --relative ; --text ; --exit-code
--ext-diff !x ; --textconv ; --ignore-submodules ; --submodule ; --ita-invisible-in-index
--ita-visible-in-index ; --pickaxe-all ; --pickaxe-regex ; --rotate-to= ; --skip-to=
--find-object= ; --diff-filter= ; --output= !w ; --no-function-context ; --no-compact-summary
--no-full-index ; --no-color ; --no-abbrev ; --no-find-copies-harder ; --no-rename-empty
--no-follow ; --no-minimal ; --no-ignore-matching-lines ; --no-indent-heuristic
--no-color-moved ; --no-color-moved-ws ; --no-relative ; --no-text ; --no-exit-code ; --no-quiet
--no-ext-diff ; --no-textconv ; -h ; -NUM`,
		"ls-files": `gnu
-c ; --cached ; -d ; --deleted ; -m ; --modified ; -o ; --others ; -i ; --ignored ; -s ; --stage
--directory ; --no-empty-directory ; -u ; --unmerged ; -k ; --killed ; -z ; --deduplicate ; -x=
--exclude= ; -X= ; --exclude-from= ; --exclude-per-directory= ; --exclude-standard
--error-unmatch ; --with-tree= ; -t ; -v ; -f ; --full-name ; --recurse-submodules ; --abbrev?
--debug ; --eol ; --sparse ; --format= ; --empty-directory ; --resolve-undo ; --no-cached
--no-deleted ; --no-modified ; --no-others ; --no-ignored ; --no-stage ; --no-killed
--no-directory ; --no-eol ; --no-unmerged ; --no-resolve-undo ; --no-exclude-per-directory
--no-recurse-submodules ; --no-error-unmatch ; --no-with-tree ; --no-abbrev ; --no-debug
--no-deduplicate ; --no-sparse ; -h`,
		"ls-tree": `gnu
-d ; -r ; -t ; -l ; --long ; -z ; --name-only ; --name-status ; --object-only ; --abbrev?
--full-name ; --full-tree ; --format= ; --no-full-name ; --no-full-tree ; --no-abbrev ; -h`,
		"cat-file": `gnu
-t ; -s ; -e ; -p ; --mailmap ; --no-mailmap ; --use-mailmap ; --no-use-mailmap ; --textconv
--filters ; --path= ; --batch= ; --batch-check= ; --batch-command= ; --batch-all-objects
--buffer ; --unordered ; --allow-unknown-type ; --follow-symlinks ; -z ; --no-allow-unknown-type
--no-buffer ; --no-follow-symlinks ; --no-unordered ; --no-path ; -h`,
		"show-ref": `gnu
--head ; --heads ; --tags ; -d ; --dereference ; -s ; --hash? ; --verify ; --abbrev? ; -q
--quiet ; --exclude-existing? ; --no-tags ; --no-heads ; --no-verify ; --no-head
--no-dereference ; --no-hash ; --no-abbrev ; --no-quiet ; -h`,
		"grep": `gnu
--cached ; --no-index ; --untracked ; --no-exclude-standard ; --exclude-standard
--recurse-submodules ; -a ; --text ; --textconv ; --no-textconv ; -i ; --ignore-case ; -I
--max-depth= ; -r ; --recursive ; --no-recursive ; -w ; --word-regexp ; -v ; --invert-match ; -H
--full-name ; -E ; --extended-regexp ; -G ; --basic-regexp ; -P ; --perl-regexp ; -F
--fixed-strings ; -n ; --line-number ; --column ; -l ; --files-with-matches ; --name-only ; -L
--files-without-match ; -O? !x ; --open-files-in-pager? !x ; -z ; --null ; -o ; --only-matching
-c ; --count ; --color? ; --no-color ; --break ; --heading ; -p ; --show-function ; -C=
--context= ; -A= ; --after-context= ; -B= ; --before-context= ; -W ; --function-context ; -m=
--max-count= ; --threads= ; -f= ; -e ; --and ; --or ; --not ; --all-match ; -q ; --quiet
--index ; --no-cached ; --no-untracked ; --no-recurse-submodules ; --no-invert-match
--no-ignore-case ; --no-word-regexp ; --no-text ; --no-extended-regexp ; --no-basic-regexp
--no-fixed-strings ; --no-perl-regexp ; --no-line-number ; --no-column ; --no-full-name
--no-files-with-matches ; --no-name-only ; --no-files-without-match ; --no-only-matching
--no-count ; --no-break ; --no-heading ; --no-context ; --no-before-context ; --no-after-context
--no-threads ; --no-show-function ; --no-function-context ; --no-or ; --no-quiet
--no-all-match ; --no-max-count ; -h`,
		"for-each-ref": `gnu
--count= ; --sort= ; --format= ; --color? ; --shell ; --perl ; --python ; --tcl ; --points-at=
--merged? ; --no-merged? ; --contains? ; --no-contains? ; --ignore-case ; --no-shell ; --no-perl
--no-python ; --no-tcl ; --no-count ; --no-format ; --no-color ; --no-sort ; --no-points-at
--no-ignore-case ; -h`,
		"merge-base": `gnu
--octopus ; --independent ; --is-ancestor ; --fork-point ; -a ; --all ; --no-all ; -h`,
		"show-branch": `gnu
-r ; --remotes ; -a ; --all ; --current ; --topo-order ; --date-order ; --sparse ; --more=
--list ; --merge-base ; --independent ; --no-name ; --sha1-name ; --topics ; -g ; --reflog?
--color? ; --no-color ; --name ; --no-all ; --no-remotes ; --no-more ; --no-list ; --no-current
--no-sha1-name ; --no-merge-base ; --no-independent ; --no-topo-order ; --no-topics
--no-sparse ; --no-date-order ; -h`,
		"name-rev": `gnu
--tags ; --refs= ; --exclude= ; --all ; --annotate-stdin ; --stdin ; --name-only
--no-undefined ; --always ; --undefined ; --no-name-only ; --no-tags ; --no-refs ; --no-exclude
--no-all ; --no-stdin ; --no-annotate-stdin ; --no-always ; -h`,
		"count-objects": `gnu
-v ; --verbose ; -H ; --human-readable ; --no-verbose ; --no-human-readable ; -h`,
		"check-ignore": `gnu
-q ; --quiet ; -v ; --verbose ; --stdin ; -z ; -n ; --non-matching ; --no-index ; --index
--no-quiet ; --no-verbose ; --no-stdin ; --no-non-matching ; -h`,
		"var": `gnu
-l ; -h`,
	}
}

// gitDiffOptions are the options git's four diff commands share, in the
// order their manual pages list them; each command's own follow.
const gitDiffOptions = `-p ; -u ; --patch ; -s ; --no-patch ; -U= ; --unified= ; --output= !w ; --output-indicator-new=
--output-indicator-old= ; --output-indicator-context= ; --raw ; --patch-with-raw
--indent-heuristic ; --no-indent-heuristic ; --minimal ; --patience ; --histogram ; --anchored=
--diff-algorithm= ; --stat? ; --compact-summary ; --numstat ; --shortstat ; -X? ; --dirstat?
--cumulative ; --dirstat-by-file? ; --summary ; --patch-with-stat ; -z ; --name-only
--name-status ; --submodule? ; --color? ; --no-color ; --color-moved? ; --no-color-moved
--color-moved-ws= ; --no-color-moved-ws ; --word-diff? ; --word-diff-regex= ; --color-words?
--no-renames ; --rename-empty ; --no-rename-empty ; --check ; --ws-error-highlight=
--full-index ; --binary ; --abbrev? ; -B? ; --break-rewrites? ; -M? ; --find-renames? ; -C?
--find-copies? ; --find-copies-harder ; -D ; --irreversible-delete ; -l= ; --diff-filter= ; -S=
-G= ; --find-object= ; --pickaxe-all ; --pickaxe-regex ; -O= ; --skip-to= ; --rotate-to= ; -R
--relative? ; --no-relative ; -a ; --text ; --ignore-cr-at-eol ; --ignore-space-at-eol ; -b
--ignore-space-change ; -w ; --ignore-all-space ; --ignore-blank-lines ; -I=
--ignore-matching-lines= ; --inter-hunk-context= ; -W ; --function-context ; --exit-code
--quiet ; --ext-diff !x ; --no-ext-diff ; --textconv ; --no-textconv ; --ignore-submodules?
--src-prefix= ; --dst-prefix= ; --no-prefix ; --line-prefix= ; --ita-invisible-in-index`

// gitDiffTables are the tables of git's diff commands.
func gitDiffTables() map[string]string {
	return map[string]string{
		"diff": "gnu\n" + gitDiffOptions + ` ; -1
-2 ; -3 ; -0 ; --stat-width= ; --stat-name-width= ; --stat-graph-width= ; --stat-count=
--follow ; --ita-visible-in-index ; --no-function-context ; --no-compact-summary
--no-full-index ; --no-abbrev ; --no-find-copies-harder ; --no-follow ; --no-minimal
--no-ignore-matching-lines ; --no-text ; --no-exit-code ; --no-quiet ; --cached ; --staged
--merge-base ; --no-index ; -h`,
		"diff-tree": "gnu\n" + gitDiffOptions + ` ; -r
-t ; --root ; --merge-base ; --stdin ; -m ; -v ; --pretty? ; --format= ; --abbrev-commit
--no-abbrev-commit ; --oneline ; --encoding= ; --expand-tabs= ; --no-expand-tabs ; --notes?
--no-notes ; --show-notes? ; --standard-notes ; --no-standard-notes ; --show-signature
--no-commit-id ; -c ; --cc ; --combined-all-paths ; --always ; --stat-width=
--stat-name-width= ; --stat-graph-width= ; --stat-count= ; --follow ; --ita-visible-in-index
--no-function-context ; --no-compact-summary ; --no-full-index ; --no-abbrev
--no-find-copies-harder ; --no-follow ; --no-minimal ; --no-ignore-matching-lines ; --no-text
--no-exit-code ; --no-quiet ; -h`,
		"diff-index": "gnu\n" + gitDiffOptions + `
--cached ; --merge-base ; -m ; --stat-width= ; --stat-name-width= ; --stat-graph-width=
--stat-count= ; --follow ; --ita-visible-in-index ; --no-function-context ; --no-compact-summary
--no-full-index ; --no-abbrev ; --no-find-copies-harder ; --no-follow ; --no-minimal
--no-ignore-matching-lines ; --no-text ; --no-exit-code ; --no-quiet ; -h`,
		"diff-files": "gnu\n" + gitDiffOptions + ` ; -1
-2 ; -3 ; -0 ; -c ; --cc ; -q ; --stat-width= ; --stat-name-width= ; --stat-graph-width=
--stat-count= ; --follow ; --ita-visible-in-index ; --no-function-context ; --no-compact-summary
--no-full-index ; --no-abbrev ; --no-find-copies-harder ; --no-follow ; --no-minimal
--no-ignore-matching-lines ; --no-text ; --no-exit-code ; --no-quiet ; -h`,
	}
}
