// Package audit compares an edited document against the snapshot of its
// original: new findings only, structure that shrank, pages that changed; it
// applies the gate (block only on a new fatal finding) and can restore the
// original atomically.
package audit
