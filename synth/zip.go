package synth

import (
	"archive/zip"
	"bytes"
	"fmt"
	"time"
)

// maxPartBytes bounds one part read back from excelize's output.
const maxPartBytes = 256 << 20

// zipTime is the fixed modification time of every entry the writers
// create: the zip epoch, so that the same spec gives the same bytes.
func zipTime() time.Time { return time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC) }

// zipPart is one entry to write: name, content and whether to store it
// uncompressed (the hwpx mimetype).
type zipPart struct {
	name  string
	data  []byte
	store bool
}

// writeZip writes parts in the given order with fixed timestamps: the
// output is a function of the input only.
func writeZip(parts []zipPart) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	seen := make(map[string]bool, len(parts))
	for _, p := range parts {
		if seen[p.name] {
			return nil, fmt.Errorf("synth: duplicate zip entry %s", p.name)
		}
		seen[p.name] = true
		fh := &zip.FileHeader{Name: p.name, Method: zip.Deflate, Modified: zipTime()}
		if p.store {
			fh.Method = zip.Store
		}
		w, err := zw.CreateHeader(fh)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(p.data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
