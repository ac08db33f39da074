//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package corpus

// lockRun is a no-op where flock(2) is missing: do not point two runs at
// one folder there.
func lockRun(string) (func(), error) { return func() {}, nil }
