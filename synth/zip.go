package synth

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/crc32"
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
		if p.store {
			fh.Method = zip.Store
		}
		if !p.store && int64(len(p.data)) > lim.RatioFloor {
			if err := writeBounded(zw, fh, p.data, lim.MaxRatio*3/4); err != nil {
				return nil, err
			}
			continue
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

// writeBounded writes one large entry deflated at archive/zip's own level
// (5), or at the fastest level, or stored: the first whose ratio of
// uncompressed to compressed size is at most maxRatio.
func writeBounded(zw *zip.Writer, fh *zip.FileHeader, data []byte, maxRatio int64) error {
	rawHeader(fh)
	fh.CRC32 = crc32.ChecksumIEEE(data)
	fh.UncompressedSize64 = uint64(len(data))
	for _, level := range []int{5, flate.BestSpeed} {
		var c bytes.Buffer
		fw, err := flate.NewWriter(&c, level)
		if err != nil {
			return err
		}
		if _, err := fw.Write(data); err != nil {
			return err
		}
		if err := fw.Close(); err != nil {
			return err
		}
		if c.Len() > 0 && int64(len(data))/int64(c.Len()) <= maxRatio {
			fh.Method = zip.Deflate
			fh.CompressedSize64 = uint64(c.Len())
			w, err := zw.CreateRaw(fh)
			if err != nil {
				return err
			}
			_, err = w.Write(c.Bytes())
			return err
		}
	}
	fh.Method = zip.Store
	fh.CompressedSize64 = uint64(len(data))
	w, err := zw.CreateRaw(fh)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// rawHeader sets the fields CreateHeader fills in and CreateRaw leaves
// alone: the versions (2.0, deflate), the MS-DOS date and time from
// Modified and the extended timestamp (Info-ZIP's 0x5455 field), so that
// every entry carries the same header whichever way it was written.
func rawHeader(fh *zip.FileHeader) {
	const zipVersion20 = 20
	fh.CreatorVersion = fh.CreatorVersion&0xff00 | zipVersion20
	fh.ReaderVersion = zipVersion20
	t := fh.Modified.UTC()
	fh.ModifiedDate = uint16(t.Day() + int(t.Month())<<5 + (t.Year()-1980)<<9)
	fh.ModifiedTime = uint16(t.Second()/2 + t.Minute()<<5 + t.Hour()<<11)
	extra := make([]byte, 9)
	binary.LittleEndian.PutUint16(extra[0:], 0x5455)
	binary.LittleEndian.PutUint16(extra[2:], 5)
	extra[4] = 1
	binary.LittleEndian.PutUint32(extra[5:], uint32(fh.Modified.Unix()))
	fh.Extra = append(fh.Extra, extra...)
}
