// Package searchbench is the labelled known-item benchmark of
// query-records' rankings: a converter that turns a public documentation
// set into records, the goals (one per target record, phrased the way an
// agent states a task), and a runner that reports R@1, R@5, R@10, MRR@10
// and the empty-output rate of --search, --keyword and an SQLite FTS5 BM25
// baseline side by side. See docs/search.md for the corpus, how to fetch
// it and the figures.
package searchbench
