//go:build !unix

package fsx

// NonBlock is 0 where there are no FIFOs to guard against.
const NonBlock = 0

// NoFollow is 0 where open has no O_NOFOLLOW.
const NoFollow = 0
