//go:build windows

package fsx

import "io/fs"

// OwnedByMe cannot check ownership on Windows (no uid); the directory's ACL
// is left to its parent, like every other file of the user.
func OwnedByMe(fs.FileInfo) bool { return true }

// TrustedLink: no uid to compare on Windows; links are followed.
func TrustedLink(fs.FileInfo) bool { return true }

// SharedWritable: no group/other permission bits to trust on Windows.
func SharedWritable(fs.FileInfo) bool { return false }
