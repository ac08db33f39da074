package mutate

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"
)

// Limits on packages the injectors open. Injector input is normally a file
// synth made, but the CLI accepts any file.
const (
	maxZipEntries   = 20000
	maxZipPartBytes = 256 << 20
)

// zipTime is the modification time of an entry an injector adds: the zip
// epoch, so that the same input gives the same bytes.
func zipTime() time.Time { return time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC) }

// zpkg is a package opened for editing. Entries keep their order; an entry
// that is not changed is copied raw (the compressed bytes and header
// fields are preserved), so an injector changes exactly what it says.
type zpkg struct {
	entries  []*zent
	storeAll bool // write every entry stored (uncompressed)
}

type zent struct {
	name    string
	file    *zip.File // the original entry, nil for a new one
	data    []byte    // new content when changed or new
	changed bool
	removed bool
}

// ErrNotZip is returned when an injector's input is not a readable zip.
var ErrNotZip = errors.New("mutate: input is not a readable zip package")

func openPkg(in []byte) (*zpkg, error) {
	zr, err := zip.NewReader(bytes.NewReader(in), int64(len(in)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, fmt.Errorf("%w: %v", ErrNotZip, err)
	}
	if len(zr.File) > maxZipEntries {
		return nil, fmt.Errorf("mutate: %d zip entries exceed the cap of %d", len(zr.File), maxZipEntries)
	}
	p := &zpkg{}
	for _, f := range zr.File {
		p.entries = append(p.entries, &zent{name: f.Name, file: f})
	}
	return p, nil
}

func (p *zpkg) find(name string) *zent {
	for _, e := range p.entries {
		if e.name == name && !e.removed {
			return e
		}
	}
	return nil
}

func (p *zpkg) has(name string) bool { return p.find(name) != nil }

// names lists the present entries in order.
func (p *zpkg) names() []string {
	var ns []string
	for _, e := range p.entries {
		if !e.removed {
			ns = append(ns, e.name)
		}
	}
	return ns
}

// read returns an entry's content (capped).
func (p *zpkg) read(name string) ([]byte, error) {
	e := p.find(name)
	if e == nil {
		return nil, fmt.Errorf("mutate: the package has no part %s", name)
	}
	if e.changed || e.file == nil {
		return e.data, nil
	}
	rc, err := e.file.Open()
	if err != nil {
		return nil, fmt.Errorf("mutate: open %s: %w", name, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, maxZipPartBytes+1))
	if err != nil {
		return nil, fmt.Errorf("mutate: read %s: %w", name, err)
	}
	if len(data) > maxZipPartBytes {
		return nil, fmt.Errorf("mutate: part %s exceeds the cap of %d bytes", name, maxZipPartBytes)
	}
	return data, nil
}

// set replaces an entry's content, or appends a new entry. Setting the
// content an entry already has leaves it untouched (copied raw).
func (p *zpkg) set(name string, data []byte) {
	if e := p.find(name); e != nil {
		if cur, err := p.read(name); err == nil && bytes.Equal(cur, data) {
			return
		}
		e.data, e.changed = data, true
		return
	}
	p.entries = append(p.entries, &zent{name: name, data: data, changed: true})
}

// remove deletes an entry; it reports whether the entry existed.
func (p *zpkg) remove(name string) bool {
	e := p.find(name)
	if e == nil {
		return false
	}
	e.removed = true
	return true
}

// bytes writes the package: untouched entries raw, changed ones with their
// original header (method, time) and new content, new ones deflated at the
// fixed time.
func (p *zpkg) bytes() ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range p.entries {
		if e.removed {
			continue
		}
		if p.storeAll {
			data, err := p.read(e.name)
			if err != nil {
				return nil, err
			}
			fh := &zip.FileHeader{Name: e.name, Method: zip.Store, Modified: zipTime()}
			if e.file != nil {
				fh.Modified = e.file.Modified
			}
			w, err := zw.CreateHeader(fh)
			if err != nil {
				return nil, err
			}
			if _, err := w.Write(data); err != nil {
				return nil, err
			}
			continue
		}
		switch {
		case e.file != nil && !e.changed:
			fh := e.file.FileHeader
			w, err := zw.CreateRaw(&fh)
			if err != nil {
				return nil, err
			}
			r, err := e.file.OpenRaw()
			if err != nil {
				return nil, err
			}
			if _, err := io.Copy(w, r); err != nil {
				return nil, err
			}
		default:
			fh := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: zipTime()}
			if e.file != nil {
				fh.Method = e.file.Method
				fh.Modified = e.file.Modified
				if fh.Method != zip.Store {
					fh.Method = zip.Deflate
				}
			}
			w, err := zw.CreateHeader(fh)
			if err != nil {
				return nil, err
			}
			if _, err := w.Write(e.data); err != nil {
				return nil, err
			}
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
