package synth

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"time"

	"github.com/editaudit/editaudit/formats"
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
// output is a function of the input only. A large part that deflates
// beyond the compression ratio editaudit's own reader accepts
// (formats.Limits MaxRatio for entries over RatioFloor, its zip-bomb
// guard: a fatal zip.limit finding) is deflated at the fastest level, or
// stored, instead: a table of 100,000 identical cells is legitimate and
// compresses 239:1.
func writeZip(parts []zipPart) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	seen := make(map[string]bool, len(parts))
	lim := formats.DefaultLimits()
	for _, p := range parts {
		if seen[p.name] {
			return nil, fmt.Errorf("synth: duplicate zip entry %s", p.name)
		}
		seen[p.name] = true
		fh := &zip.FileHeader{Name: p.name, Method: zip.Deflate, Modified: zipTime()}
		level := zipLevel
		if p.store {
			fh.Method = zip.Store
		} else if int64(len(p.data)) > lim.RatioFloor {
			var err error
			if level, err = boundedLevel(p.data, lim.MaxRatio*3/4); err != nil {
				return nil, err
			}
			if level == flate.NoCompression {
				fh.Method = zip.Store
			}
		}
		zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, level) })
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

// zipLevel is archive/zip's own deflate level.
const zipLevel = 5

// boundedLevel is the deflate level for data: archive/zip's own, or the
// fastest, whichever first keeps the ratio of uncompressed to compressed
// size at most maxRatio; flate.NoCompression (store it) when neither does.
func boundedLevel(data []byte, maxRatio int64) (int, error) {
	for _, level := range []int{zipLevel, flate.BestSpeed} {
		var c countWriter
		fw, err := flate.NewWriter(&c, level)
		if err != nil {
			return 0, err
		}
		if _, err := fw.Write(data); err != nil {
			return 0, err
		}
		if err := fw.Close(); err != nil {
			return 0, err
		}
		if c.n > 0 && int64(len(data))/c.n <= maxRatio {
			return level, nil
		}
	}
	return flate.NoCompression, nil
}

// countWriter counts the bytes written to it.
type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}
