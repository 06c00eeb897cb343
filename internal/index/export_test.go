package index

import (
	"os"

	"github.com/procedures-go/procedures/internal/corpus"
)

// Poison rewrites the index file at path in place (same mode, same owner)
// with every entry's kind set to kind: an index that would be believed
// would now give wrong answers.
func Poison(path, kind string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	header := magic + " " + itoa(Version) + "\n"
	root, stores, entries, err := decode(b[len(header):])
	if err != nil {
		return err
	}
	full := map[string]entry{}
	for p, e := range entries {
		m := corpus.DecodeMeta(p, e.meta, false)
		m.Rec.Kind = kind
		full[p] = entry{St: e.St, meta: corpus.AppendMeta(nil, m)}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(encode(root, stores, full))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// PoisonWriters rewrites the writers' index at path in place (same mode,
// same owner) with every record's id set to "rec-1".
func PoisonWriters(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	d := &fixed{b: b[len(writersMagic+" 1\n"):]}
	root := string(d.take(d.u32()))
	dirs, err := decodeWriters(b, root)
	if err != nil {
		return err
	}
	for _, wd := range dirs {
		files := wd.decoded()
		for i := range files {
			files[i].id = "rec-1"
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(encodeWriters(root, dirs))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
