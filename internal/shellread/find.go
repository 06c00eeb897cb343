package shellread

import (
	"path"
	"strings"
)

// findArity are find's primaries and operators (GNU findutils and macOS)
// with the number of words each takes. A primary not here is refused.
var findArity map[string]int // made by loadTables

func makeFindArity() map[string]int {
	return map[string]int{
		"-print": 0, "-print0": 0, "-ls": 0, "-prune": 0, "-quit": 0, "-true": 0, "-false": 0,
		"-empty": 0, "-depth": 0, "-d": 0, "-mount": 0, "-xdev": 0, "-follow": 0, "-noleaf": 0,
		"-nouser": 0, "-nogroup": 0, "-readable": 0, "-writable": 0, "-executable": 0,
		"-daystart": 0, "-ignore_readdir_race": 0, "-noignore_readdir_race": 0, "-not": 0, "-a": 0,
		"-and": 0, "-o": 0, "-or": 0, "-warn": 0, "-nowarn": 0, "-x": 0, "-s": 0,
		"-name": 1, "-iname": 1, "-path": 1, "-ipath": 1, "-wholename": 1, "-iwholename": 1,
		"-regex": 1, "-iregex": 1, "-lname": 1, "-ilname": 1, "-type": 1, "-xtype": 1, "-user": 1,
		"-group": 1, "-uid": 1, "-gid": 1, "-size": 1, "-perm": 1, "-mtime": 1, "-atime": 1,
		"-ctime": 1, "-mmin": 1, "-amin": 1, "-cmin": 1, "-newer": 1, "-anewer": 1, "-cnewer": 1,
		"-links": 1, "-inum": 1, "-samefile": 1, "-maxdepth": 1, "-mindepth": 1, "-fstype": 1,
		"-used": 1, "-printf": 1, "-context": 1, "-files0-from": 1, "-regextype": 1,
		"-Bmin": 1, "-Bnewer": 1, "-Btime": 1, "-flags": 1,
	}
}

// findWriters are the primaries that delete, run or write a file.
var findWriters = []string{"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprintf", "-fprint", "-fprint0", "-fls"}

// findOK judges find's own grammar: the options -H -L -P, -D with its
// debug list and -O with its level, then start paths, then an expression
// of listed primaries, each taking its words. Any word, wherever it
// stands, that is, or may expand to, a writing primary refuses it; a word
// whose text is not known may not stand where a primary can.
func findOK(args []word) bool {
	for _, w := range args {
		if w.dynamic || w.glob && w.text == "" { // a brace sequence or expansion: any text
			return false
		}
		for _, a := range findWriters {
			if w.text == a {
				return false
			}
			if w.glob {
				if m, err := path.Match(w.text, a); m || err != nil {
					return false
				}
			}
		}
	}
	i := 0
	for ; i < len(args); i++ { // the options
		t := args[i].text
		if t == "-H" || t == "-L" || t == "-P" || t == "-E" || t == "-X" || t == "-s" || t == "-x" {
			continue
		}
		if t == "-D" || t == "-O" || t == "-f" {
			i++
			continue
		}
		if strings.HasPrefix(t, "-O") && isDigits(t[2:]) || t == "--" {
			continue
		}
		break
	}
	for ; i < len(args); i++ { // paths, then the expression
		w := args[i]
		t := w.text
		if w.glob && w.lead { // may expand to a primary
			for p := range findArity {
				if m, _ := path.Match(t, p); m {
					return false
				}
			}
			continue
		}
		if len(t) < 2 || t[0] != '-' {
			continue // a path, or ( ) ! ,
		}
		n, ok := findArity[t]
		if !ok && strings.HasPrefix(t, "-newer") && len(t) <= 9 {
			n, ok = 1, true // -newerXY
		}
		if !ok {
			return false
		}
		i += n
	}
	return true
}
