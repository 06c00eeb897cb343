package corpus

import (
	"slices"
	"unsafe"
)

// The structural filter of a [Query] (Kind, ID, Project, LinksTo) is
// decided by one predicate, [Query.admits], whatever a record is read
// from: a parsed head (the cold scan and the search's), a [Record] (the
// index's metadata and the search index), or an encoded [FileMeta]
// (decodeFor, which decodes only the fields the filter compares).

// filtered reports whether q has a structural filter.
func (q *Query) filtered() bool {
	return q.Kind != "" || q.ID != "" || q.Project != "" || q.LinksTo != ""
}

// admits reports whether a record with these scalars passes every
// non-empty structural filter of q: kind and id equal, project equal or its
// part after the last "/" equal, and, for a LinksTo filter, hasLink(LinksTo)
// (one of the record's link tokens equals it). Values compare as literal
// bytes. hasLink is called only for a LinksTo filter.
func (q *Query) admits(id, kind, project string, hasLink func(token string) bool) bool {
	if q.Kind != "" && kind != q.Kind || q.ID != "" && id != q.ID {
		return false
	}
	if q.Project != "" && project != q.Project && project[lastSlash(project)+1:] != q.Project {
		return false
	}
	return q.LinksTo == "" || hasLink(q.LinksTo)
}

// structural is [Query.admits] for a parsed head.
func (v *recView) structural(q Query) bool {
	if !q.filtered() {
		return true
	}
	return q.admits(transient(v.scalar("id")), transient(v.scalar("kind")), transient(v.scalar("project")),
		func(token string) bool {
			found := false
			v.eachLink(func(t []byte) { found = found || string(t) == token })
			return found
		})
}

// structural is [Query.admits] for a record.
func (r *Record) structural(q Query) bool {
	return q.admits(r.ID, r.Kind, r.Project, func(token string) bool { return slices.Contains(r.Links, token) })
}

// transient is b as a string without a copy, for a comparison that ends
// before b's bytes change.
func transient(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

func lastSlash(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return i
		}
	}
	return -1
}
