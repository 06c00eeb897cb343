// Package lint is the frontmatter lint of the record stores: the rules a
// record must meet (the required keys, an id declared once across the
// stores, links that name existing ids, a project of the right shape),
// checked over a whole corpus ([LintCorpus]), over named paths against it
// ([LintTargets], [LintTargetsWith] with an id resolver such as the
// writers' index), or over content not yet written ([LintContent],
// [LintRecord]).
//
// It returns findings, each with a stable rule name and a severity; the
// wording a person reads is internal/lintmsg's. lint-frontmatter,
// enforce-frontmatter, log-record (before it writes) and doctor run it. A
// record is read no further than its first MiB, and frontmatter is read
// as YAML with the line-by-line reading of the bash original as fallback.
package lint
