package writerindex

import "os"

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
	_, err = f.Write(encodeWriters(root, 0, dirs))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
