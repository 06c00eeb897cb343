package gate

import (
	"bufio"
	"errors"
	"io"
)

// forwardActivity is the reader TurnActivity replaced: it reads the whole
// transcript front to back. It stays as the oracle the backward reader is
// compared with.
func forwardActivity(r io.Reader) Activity {
	br := bufio.NewReaderSize(r, 64<<10)
	used := false
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) <= MaxLine {
			line = append(line, chunk...)
		} else {
			line = line[:0]
			for errors.Is(err, bufio.ErrBufferFull) { // drop the rest of the line
				_, err = br.ReadSlice('\n')
			}
			chunk = nil
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && err != io.EOF {
			return Undetermined
		}
		if len(line) > 0 {
			switch lineEffect(line) {
			case toolUse:
				used = true
			case newPrompt:
				used = false
			}
		}
		line = line[:0]
		if err == io.EOF {
			break
		}
	}
	if used {
		return Used
	}
	return Idle
}
