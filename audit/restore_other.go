//go:build !linux

package audit

// exchange cannot swap two names atomically here: the caller checks and
// renames instead.
func exchange(a, b string) (bool, error) { return false, nil }
