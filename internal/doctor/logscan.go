package doctor

import (
	"errors"
	"fmt"
	"os"

	"github.com/procedures-go/procedures/internal/fsx"
)

// ErrNotRegular reports a log path that exists but is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// openLog opens the log at path for reading without waiting (a FIFO there
// is refused, not read) and checks that what was opened is a regular file.
func openLog(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|fsx.NonBlock, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, fi.Mode().Type())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
