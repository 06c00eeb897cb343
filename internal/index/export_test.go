package index

import (
	"bufio"
	"bytes"
	"encoding/gob"
	"os"
)

// Poison rewrites the index file at path in place (same mode, same owner)
// with every entry's kind set to kind: an index that would be believed
// would now give wrong answers.
func Poison(path, kind string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	br := bufio.NewReader(bytes.NewReader(b))
	header, err := br.ReadString('\n')
	if err != nil {
		return err
	}
	var fl file
	if err := gob.NewDecoder(br).Decode(&fl); err != nil {
		return err
	}
	for p, e := range fl.Entries {
		e.Meta.Rec.Kind = kind
		fl.Entries[p] = e
	}
	var out bytes.Buffer
	out.WriteString(header)
	if err := gob.NewEncoder(&out).Encode(fl); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(out.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
