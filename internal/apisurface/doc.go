// Package apisurface holds no code: its tests pin what the public packages
// (records, digest, hookio, failopen) show another Go tool, the number of
// exported names, no environment reads, no command-line wording, and
// that a separate module can use them.
package apisurface
