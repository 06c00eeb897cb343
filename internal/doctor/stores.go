package doctor

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/procedures-go/procedures/internal/config"
	"github.com/procedures-go/procedures/internal/turnstate"
)

// MaxSessions caps the digest sessions a summary tracks; digests of further
// sessions are counted in the totals only.
const MaxSessions = 1000

// shownSessions is how many sessions get a line of their own: the most
// recently written.
const shownSessions = 10

// checkStores adds the Stores findings.
func checkStores(r *Report, o *Options) {
	add := func(f Finding) { f.Section = SectionStores; r.add(f) }
	home := o.Settings.Home
	def, dir := turnState(o.Settings.TurnState, o.TurnStateDefault)
	from := "the default"
	tsSet := o.Settings.TurnState.Dir != ""
	if tsSet {
		from = "$TURN_STATE_DIR"
	} else if dir != def {
		from = "the shared-host fallback"
	}
	add(dirFinding("turn-state dir", dir, from, false, o))
	if !tsSet {
		if dir != def {
			add(Finding{Status: Warn, Subject: "shared-host fallback",
				Reason: fmt.Sprintf("in effect: %s %s, so the hooks use %s: safe on a shared host; the fix gives the hooks a directory of your own (or have the owner remove %s)", def, whyNotMine(def), dir, def) + inShell,
				Fix:    pointAt(config.TurnStateDirVar, ownDir(home, "turn-state"), ownDir(home, "turn-state")),
				Data:   map[string]any{"fallback": true, "default": def, "dir": dir}})
		} else {
			add(Finding{Status: OK, Subject: "shared-host fallback",
				Reason: fmt.Sprintf("not in effect: %s is yours or not there yet", def),
				Data:   map[string]any{"fallback": false, "default": def, "dir": dir}})
		}
	}

	// The digest store, as the digest commands select it (TURN_STATE_DIR
	// pinned to the directory found above, so a test's default holds).
	dc := o.Settings.Digest
	ddir := turnstate.DigestDir(dc, turnstate.Dir{Path: dir})
	dfrom := "$TURN_STATE_DIR/digests"
	if dc.Dir != "" {
		dfrom = "$SESSION_DIGEST_DIR"
	} else if !tsSet {
		dfrom = "the turn-state dir"
	}
	df := dirFinding("digest dir", ddir, dfrom, true, o)
	add(df)
	if df.Status != Fail {
		for _, f := range digestCounts(ddir, dc, o.Now) {
			add(f)
		}
	}

	checkCorpus(r, o)
}

// whyNotMine says why the default turn-state directory is not used.
func whyNotMine(def string) string {
	fi, err := os.Lstat(def)
	switch {
	case err != nil:
		return "cannot be examined (" + cause(err).Error() + ")"
	case fi.Mode()&fs.ModeSymlink != 0:
		return "is a symlink"
	case !fi.IsDir():
		return "is not a directory"
	}
	if uid, ok := owner(fi); ok {
		return fmt.Sprintf("is owned by uid %d, not you", uid)
	}
	return "is not yours"
}

// dirFinding describes a store directory: missing (and whether it can be
// created), or its owner and mode. A directory another user owns is a
// warning, or a failure when strict (the digest writer refuses it).
func dirFinding(subject, path, from string, strict bool, o *Options) Finding {
	elsewhere := func() string {
		name, own := config.TurnStateDirVar, ownDir(o.Settings.Home, "turn-state")
		if strict {
			name, own = config.DigestDirVar, ownDir(o.Settings.Home, "digests")
		}
		return pointAt(name, own, own)
	}
	f := Finding{Subject: subject, Data: map[string]any{"path": path, "from": from}}
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		anc := existingAncestor(path)
		if err := access(anc, accessW|accessX); err != nil {
			f.Status, f.Reason = Fail, fmt.Sprintf("%s (%s) is missing and cannot be created: %s is not writable", path, from, anc)
			f.Fix = elsewhere()
			if mine(anc) && isDir(anc) {
				f.Fix = "chmod u+wx -- " + shellQuote(anc)
			}
			f.Reason += envNote(f.Fix)
			return f
		}
		f.Status, f.Reason = OK, fmt.Sprintf("%s (%s): not created yet; the first hook creates it", path, from)
		f.Data["exists"] = false
		return f
	}
	if err != nil || !fi.IsDir() {
		f.Status, f.Reason = Fail, fmt.Sprintf("%s (%s) is not a directory", path, from)
		if err != nil {
			f.Reason = fmt.Sprintf("%s (%s): %v", path, from, cause(err))
		}
		f.Fix = elsewhere()
		if err == nil {
			f.Fix = setAside(path, o.Now) // the first hook makes the directory
		}
		f.Reason += envNote(f.Fix)
		return f
	}
	f.Data["exists"] = true
	f.Data["mode"] = fmt.Sprintf("%04o", fi.Mode().Perm())
	who := "owner unknown"
	if uid, ok := owner(fi); ok {
		f.Data["uid"] = uid
		who = fmt.Sprintf("owner uid %d", uid)
		if ownedByMe(fi) {
			who += " (you)"
		}
	}
	f.Reason = fmt.Sprintf("%s (%s): %s, mode %04o", path, from, who, fi.Mode().Perm())
	switch {
	case !ownedByMe(fi) && strict:
		f.Status, f.Fix = Fail, elsewhere()
		f.Reason += "; not yours, so nothing is stored (store-unwritable): the hooks never write into another user's directory" + inShell
	case access(path, accessW|accessX) != nil:
		f.Status, f.Fix = Fail, "chmod u+rwx -- "+shellQuote(path)
		f.Reason += "; not writable by you"
	case !ownedByMe(fi):
		f.Status, f.Fix = Warn, elsewhere()
		f.Reason += "; not yours: the fix gives the hooks a directory of your own" + inShell
	default:
		f.Status = OK
	}
	return f
}

// existingAncestor is the nearest ancestor of path that exists.
func existingAncestor(path string) string {
	for d := filepath.Dir(path); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil || d == filepath.Dir(d) {
			return d
		}
	}
}

type sessionCount struct {
	key                   string
	files, expired, empty int
	newest                time.Time
}

// digestCounts counts the store's digests per session, with expired and
// zero-byte counts, reading the directory in batches.
func digestCounts(dir string, s config.Digest, now time.Time) []Finding {
	d, err := os.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return []Finding{{Status: Warn, Subject: "digests", Reason: fmt.Sprintf("%s cannot be read: %v", dir, cause(err))}}
	}
	defer d.Close()
	sessions := map[string]*sessionCount{}
	var total sessionCount
	others := 0
	for {
		entries, err := d.ReadDir(256)
		for _, e := range entries {
			i := strings.Index(e.Name(), ".digest.")
			if i <= 0 || !e.Type().IsRegular() {
				continue
			}
			fi, err := e.Info()
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			key := e.Name()[:i]
			sc := sessions[key]
			if sc == nil && len(sessions) < MaxSessions {
				sc = &sessionCount{key: key}
				sessions[key] = sc
			}
			for _, c := range []*sessionCount{sc, &total} {
				if c == nil {
					others++
					continue
				}
				c.files++
				if expired(s.TTLDays, fi.ModTime(), now) {
					c.expired++
				}
				if fi.Size() == 0 {
					c.empty++
				}
				if fi.ModTime().After(c.newest) {
					c.newest = fi.ModTime()
				}
			}
		}
		if err == io.EOF || len(entries) == 0 {
			break
		}
		if err != nil {
			return []Finding{{Status: Warn, Subject: "digests", Reason: fmt.Sprintf("%s: %v", dir, err)}}
		}
	}
	st, fix := OK, ""
	if total.empty > 0 {
		st, fix = Warn, emptyDigestsFix(dir, "*")
	}
	out := []Finding{{Status: st, Subject: "digests",
		Reason: fmt.Sprintf("%d in %d sessions (%d expired, %d empty); TTL %s, replay cap %d%s", total.files, len(sessions),
			total.expired, total.empty, ttlText(s.TTLDays), s.Keep, emptyNote(total.empty)),
		Fix:  fix,
		Data: map[string]any{"files": total.files, "sessions": len(sessions), "expired": total.expired, "empty": total.empty}}}
	list := make([]*sessionCount, 0, len(sessions))
	for _, sc := range sessions {
		list = append(list, sc)
	}
	slices.SortFunc(list, func(a, b *sessionCount) int {
		return cmp.Or(b.newest.Compare(a.newest), strings.Compare(a.key, b.key))
	})
	for i, sc := range list {
		if i == shownSessions {
			out = append(out, Finding{Status: OK, Subject: "digests of other sessions",
				Reason: fmt.Sprintf("%d more sessions not shown", len(list)-shownSessions)})
			break
		}
		st, fix := OK, ""
		if sc.empty > 0 {
			st, fix = Warn, emptyDigestsFix(dir, globQuote(sc.key)+".digest.*")
		}
		out = append(out, Finding{Status: st, Subject: "digests of " + sc.key,
			Reason: fmt.Sprintf("%d (%d expired, %d empty), newest %s%s", sc.files, sc.expired, sc.empty, sc.newest.UTC().Format(time.RFC3339), emptyNote(sc.empty)),
			Fix:    fix,
			Data:   map[string]any{"session": sc.key, "files": sc.files, "expired": sc.expired, "empty": sc.empty}})
	}
	if others > 0 {
		out = append(out, Finding{Status: OK, Subject: "digests beyond the session cap",
			Reason: fmt.Sprintf("%d digests of sessions beyond the first %d", others, MaxSessions)})
	}
	return out
}

// expired is the digest store's expiry rule: more than ttlDays whole days
// old (a negative TTL never expires, nor does a future mtime).
func expired(ttlDays int64, mtime, now time.Time) bool {
	if ttlDays < 0 {
		return false
	}
	age := now.Sub(mtime)
	return age >= 0 && int64(age/(24*time.Hour)) > ttlDays
}

func ttlText(days int64) string {
	if days < 0 {
		return "none"
	}
	return fmt.Sprintf("%d days", days)
}

// checkCorpus adds the corpus roots each command would use, and one
// lint-frontmatter summary.
func checkCorpus(r *Report, o *Options) {
	now := o.Now
	add := func(f Finding) { f.Section = SectionStores; r.add(f) }
	type use struct {
		root  string
		users []string
	}
	var roots []*use
	for _, c := range config.RootCommands {
		cr := o.Settings.Roots[c]
		root, from := cr.Root, cr.From
		if !cr.HomeSet {
			add(Finding{Status: Warn, Subject: "corpus root of " + c,
				Reason: "HOME is not set, and neither is a root variable: query-records exits 1, the others use /.claude" + inShell,
				Fix:    "export HOME=" + shellQuote(homeDir(o.Settings.Home))})
		}
		user := c + " (" + from + ")"
		if i := slices.IndexFunc(roots, func(u *use) bool { return u.root == root }); i >= 0 {
			roots[i].users = append(roots[i].users, user)
		} else {
			roots = append(roots, &use{root, []string{user}})
		}
	}
	for _, u := range roots {
		f := Finding{Subject: "corpus root " + u.root, Data: map[string]any{"root": u.root, "commands": u.users}}
		fi, err := os.Stat(u.root)
		switch {
		case err == nil && fi.IsDir():
			f.Status, f.Reason = OK, "a directory, used by "+strings.Join(u.users, ", ")
		case err == nil:
			f.Status, f.Reason = Warn, "not a directory, used by "+strings.Join(u.users, ", ")
			f.Fix = setAside(u.root, now) + " && mkdir -p -- " + shellQuote(u.root)
			f.Reason += ": the fix sets it aside and makes an empty store there (or point CODEX_ROOT at your store)"
		default:
			f.Status, f.Reason = Warn, fmt.Sprintf("%v, used by %s: queries return nothing, the frontmatter check never fires", cause(err), strings.Join(u.users, ", "))
			f.Fix = "mkdir -p -- " + shellQuote(u.root)
			f.Reason += ": the fix makes an empty store there (or point CODEX_ROOT at your store)"
		}
		add(f)
	}

	root := o.Settings.Roots["lint-frontmatter"].Root
	linted, errs, warns, err := lintSummary(root)
	lintCmd := selfCmd(o) + " lint-frontmatter"
	f := Finding{Subject: "lint-frontmatter", Data: map[string]any{"root": root}}
	switch {
	case err != nil:
		f.Status, f.Reason = Warn, fmt.Sprintf("%v: nothing linted", err)
		f.Fix = "mkdir -p -- " + shellQuote(root)
		if _, err := os.Stat(root); err == nil {
			f.Fix = setAside(root, now) + " && " + f.Fix
		}
	case errs > 0:
		f.Status, f.Reason = Fail, fmt.Sprintf("%d errors, %d warnings in %d records under %s", errs, warns, linted, root)
		f.Fix = lintCmd
		f.Reason += ": the fix lists them, to correct in the records"
	case warns > 0:
		f.Status, f.Reason = Warn, fmt.Sprintf("0 errors, %d warnings in %d records under %s", warns, linted, root)
		f.Fix = lintCmd
		f.Reason += ": the fix lists them"
	default:
		f.Status, f.Reason = OK, fmt.Sprintf("0 errors, 0 warnings in %d records under %s", linted, root)
	}
	if err == nil {
		f.Data["linted"], f.Data["errors"], f.Data["warnings"] = linted, errs, warns
	}
	add(f)
}

// emptyNote explains the fix for empty digests, when there are some.
func emptyNote(empty int) string {
	if empty == 0 {
		return ""
	}
	return ": the writer never stores an empty digest, so something else wrote them; the reader skips them, the fix removes them"
}

// emptyDigestsFix is the command that removes the zero-byte digests named
// by the find pattern name ("*" for every session) directly in dir.
func emptyDigestsFix(dir, name string) string {
	if name == "*" {
		name = "*.digest.*"
	}
	return "find " + shellQuote(dir+"/.") + " ! -name . -prune -type f -name " + shellQuote(name) + " -size 0 -exec rm -f -- {} +"
}
