//go:build unix

package fsutil

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/editaudit/editaudit/internal/testdoc"
)

// specialFiles makes a FIFO, a socket and a folder in dir and returns them
// with the character device /dev/null, by name.
func specialFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	fifo := filepath.Join(dir, "pipe.docx")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock.docx")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	folder := filepath.Join(dir, "folder.docx")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link-to-pipe.docx")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"named pipe (FIFO)": fifo, "socket": sock, "folder": folder, "character device": "/dev/null", "named pipe (FIFO) via a link": link}
}

// TestRegularRefusesSpecialFiles: a FIFO (no writer: an open would block
// for ever), a socket, a folder, a device and a link to a FIFO are refused
// by every reader at once, naming what they are; nothing blocks.
func TestRegularRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	for kind, p := range specialFiles(t, dir) {
		t.Run(kind, func(t *testing.T) {
			done := make(chan struct{})
			go func() {
				defer close(done)
				_, err1 := ReadRegular(p, 1<<20)
				_, _, err2 := HashRegular(p, 0)
				_, err3 := SHA256File(p)
				f, _, err4 := OpenRegular(p)
				if f != nil {
					f.Close()
				}
				for i, err := range []error{err1, err2, err3, err4} {
					if !errors.Is(err, ErrNotRegular) {
						t.Errorf("reader %d: %v, want ErrNotRegular", i, err)
					}
				}
				want, _, _ := strings.Cut(kind, " via")
				if err1 != nil && !strings.Contains(err1.Error(), want) {
					t.Errorf("message %q does not name a %s", err1, want)
				}
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("a reader blocked on the special file")
			}
		})
	}
}

// TestReadRegularLimit: a sparse file far larger than the limit (and than
// this test's memory) is refused from its stat without a read; a file at
// the limit is read whole.
func TestReadRegularLimit(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.docx")
	testdoc.Sparse(t, big, 1<<40) // 1 TiB
	start := time.Now()
	if _, err := ReadRegular(big, 1<<20); !errors.Is(err, ErrTooLarge) {
		t.Errorf("1 TiB under a 1 MiB limit: %v", err)
	}
	if _, n, err := HashRegular(big, 1<<20); !errors.Is(err, ErrTooLarge) || n != 1<<40 {
		t.Errorf("hash of 1 TiB under a 1 MiB limit: %d %v", n, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Logf("refusing took %s (was it read?)", d)
	}
	small := filepath.Join(dir, "small.docx")
	if err := os.WriteFile(small, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadRegular(small, 1<<20); err != nil || len(b) != 1<<20 {
		t.Errorf("a file at the limit: %d bytes, %v", len(b), err)
	}
	if _, err := ReadRegular(small, 1<<20-1); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a file one byte over: %v", err)
	}
}
