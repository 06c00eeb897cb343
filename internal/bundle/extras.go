package bundle

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
)

// License is the text of the repository's LICENSE, which every bundle
// carries (TestLicenseMatchesRoot keeps the two equal).
const License = `MIT License

Copyright (c) 2026 The procedures-go authors

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
`

// LicenseID is the SPDX id a new plugin.json declares.
const LicenseID = "MIT"

// Readme is the README.md a bundle carries when its directory has none:
// what the plugin is, how it is installed and checked.
const Readme = `# procedures

The procedures plugin gives a coding agent procedural knowledge: record
stores it searches before it acts, digests a forked scout leaves for the
next one, and two gates that make the agent look before it acts and review
its work before it stops. Every hook runs one Go binary, picked for the
platform by the small POSIX sh launcher in bin/procedures.

Install it from its marketplace (a procedures-go clone, once bundled):

    claude plugin marketplace add <clone or owner/repo>
    claude plugin install procedures@procedures-go

Check an install, from any directory:

    procedures doctor

Made by procedures-go; licence: MIT (see LICENSE).
`

// Icon is the PNG a bundle carries at .claude-plugin/icon.png when it has
// none: a 512-pixel square, drawn here so the repository holds no binary.
func Icon() []byte {
	const size = 512
	img := image.NewPaletted(image.Rect(0, 0, size, size), color.Palette{
		color.RGBA{0x1d, 0x3b, 0x53, 0xff}, // ground
		color.RGBA{0xf2, 0xc1, 0x4e, 0xff}, // the steps
	})
	// Three steps rising to the right: a procedure, one step at a time.
	for i := range 3 {
		x0, x1 := 96+i*112, 96+(i+1)*112-16
		y0 := 352 - i*96
		for y := y0; y < 416; y++ {
			for x := x0; x < x1; x++ {
				img.SetColorIndex(x, y, 1)
			}
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err) // an in-memory image always encodes
	}
	return b.Bytes()
}

// extras are the files a bundle writes only where its directory has none:
// an operator's own README, LICENSE or icon stays.
func extras(dir string) []file {
	return []file{
		{filepath.Join(dir, "LICENSE"), []byte(License), 0o644},
		{filepath.Join(dir, "README.md"), []byte(Readme), 0o644},
		{filepath.Join(dir, ".claude-plugin", "icon.png"), Icon(), 0o644},
	}
}

// absent reports whether nothing (not even a dangling symlink) is at path.
func absent(path string) (bool, error) {
	_, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	return false, err
}

// A file is one file the bundle writes.
type file struct {
	path string
	data []byte
	mode os.FileMode
}
