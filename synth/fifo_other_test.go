//go:build !unix

package synth_test

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs here") }
