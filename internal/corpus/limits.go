package corpus

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/procedures-go/procedures/internal/frontmatter"
)

// Read limits. Queries and lints read a record only as far as they need,
// and never more than MaxFrontmatter bytes of it; a record is dumped whole
// only up to MaxDump bytes. With at most eight readers at a time, a scan
// holds a few MiB whatever the corpus holds (a 2 GB file included).
const (
	// MaxFrontmatter is the most read of a record's head: its frontmatter
	// and first body line. A record whose frontmatter does not close
	// within it matches no query (like a 0-byte file: it is not even
	// counted for ranking) and is a lint finding.
	MaxFrontmatter = 1 << 20
	// MaxDump is the largest record that [Corpus.ReadFile] (so [Corpus.Cat])
	// returns: 16 MiB. A larger one is a *TooLargeError.
	MaxDump = 16 << 20
)

// ErrNotRegular reports a listed record that is no longer a regular file
// when it is opened (a FIFO or device swapped in after the scan). It is
// never waited on.
var ErrNotRegular = errors.New("not a regular file")

// ErrChanged is the error [Corpus.ReadFile] reports for a path that is no
// longer the file the scan listed (a symlink, or another file renamed or
// linked over it since).
var ErrChanged = errors.New("not the file the scan listed (replaced since)")

// ErrTooLarge matches (with errors.Is) a *TooLargeError.
var ErrTooLarge = errors.New("record too large")

// TooLargeError refuses to dump a record above [MaxDump] bytes. It matches
// [ErrScan] too: the record could not be read whole.
type TooLargeError struct {
	Path string // relative to the root
	Size int64  // the size seen (at least MaxDump+1)
}

func (e *TooLargeError) Error() string {
	return e.Path + ": record is " + strconv.FormatInt(e.Size, 10) +
		" bytes, above the 16 MiB (" + strconv.Itoa(MaxDump) + "-byte) dump limit"
}

func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge || target == ErrScan }

// crlf is a CRLF line end. Records with CRLF line ends are read as if they
// had LF ones, by queries and lints alike.
var crlf = []byte("\r\n")

// normalizeCRLF returns content with every CRLF turned into LF, appending to
// dst when there is one; otherwise content itself.
func normalizeCRLF(dst, content []byte) []byte {
	if !bytes.Contains(content, crlf) {
		return content
	}
	for {
		i := bytes.Index(content, crlf)
		if i < 0 {
			return append(dst, content...)
		}
		dst = append(append(dst, content[:i]...), '\n')
		content = content[i+2:]
	}
}

// fenceDecided reports whether a prefix of a file already decides its
// frontmatter: there is none, or its closing fence is complete.
func fenceDecided(b []byte) bool {
	if b = completeLines(b); len(b) == 0 {
		return false
	}
	b = normalizeCRLF(nil, b)
	present, terminated, _, _ := frontmatter.SplitFences(b)
	return !present || terminated
}

// completeLines cuts b after its last LF.
func completeLines(b []byte) []byte {
	return b[:bytes.LastIndexByte(b, '\n')+1]
}

// ReadFrontmatterHead reads the head of the file name into buf as far as
// its frontmatter is decided (see fenceDecided): never more than
// MaxFrontmatter bytes, never waiting on a FIFO. capped reports a head cut
// at MaxFrontmatter before that; then only its complete lines count.
func ReadFrontmatterHead(name string, buf []byte) (_ []byte, capped bool, _ error) {
	return readHead(name, buf, fenceDecided)
}
