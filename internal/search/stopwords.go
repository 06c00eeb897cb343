package search

import "sync"

// stopWords are the English function words a goal is phrased with ("how do
// I ...") that say nothing about which record governs it.
// They are made on first use: most commands never search.
var stopWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{
		"a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "can", "could",
		"did", "do", "does", "doing", "for", "from", "had", "has", "have", "how", "i",
		"if", "in", "into", "is", "it", "its", "me", "my", "of", "on", "or", "our",
		"should", "so", "that", "the", "their", "them", "then", "there", "these",
		"this", "those", "to", "was", "we", "were", "what", "when", "where", "which",
		"while", "who", "why", "will", "with", "would", "you", "your", "want", "need",
		"way", "some", "any", "all", "about", "am", "than", "too", "very", "just",
	} {
		m[w] = true
	}
	return m
})

func isStopWord(w string) bool { return stopWords()[w] }
