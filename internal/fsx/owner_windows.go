//go:build windows

package digest

import "io/fs"

// ownedByMe cannot check ownership on Windows (no uid); the directory's ACL
// is left to its parent, like every other file of the user.
func ownedByMe(fs.FileInfo) bool { return true }

// trustedLink: no uid to compare on Windows; links are followed.
func trustedLink(fs.FileInfo) bool { return true }

// sharedWritable: no group/other permission bits to trust on Windows.
func sharedWritable(fs.FileInfo) bool { return false }
