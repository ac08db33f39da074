package serve

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxFieldBytes caps one text form field.
const maxFieldBytes = 1024

// form says which fields an endpoint takes.
type form struct {
	files  []string // file fields
	fields []string // text fields
}

func (f form) kind(name string) (file, known bool) {
	for _, n := range f.files {
		if n == name {
			return true, true
		}
	}
	for _, n := range f.fields {
		if n == name {
			return false, true
		}
	}
	return false, false
}

func (f form) names() string {
	all := append(append([]string(nil), f.files...), f.fields...)
	return strings.Join(all, ", ")
}

// upload is one file of a request, streamed to the request's folder.
type upload struct {
	// Name is the client's file name (base name only, "" when none was
	// sent); it only labels the document in the report.
	Name string
	// Path is the file the server wrote, under a name it chose.
	Path   string
	Size   int64
	SHA256 string
}

// request is a parsed multipart request: its uploads, its text fields,
// and the private folder holding the uploads (removed by cleanup).
type request struct {
	dir    string
	files  map[string]*upload
	fields map[string]string
}

func (r *request) has(name string) bool {
	_, field := r.fields[name]
	return r.files[name] != nil || field
}

func (r *request) cleanup() {
	if r != nil && r.dir != "" {
		_ = os.RemoveAll(r.dir)
	}
}

// Error is an answer of the service other than a report, sent as JSON
// (api/openapi.yaml, schema Error): the HTTP status, a stable code
// (bad_content_type, missing_field, bad_field, bad_upload, too_large,
// unauthorized, not_found, method_not_allowed, not_in_store, busy,
// shutting_down, renderer_unavailable, render_failed, internal), the form
// field it is about, and a message for people. Client returns it as the
// error of a refused request.
type Error struct {
	Status  int    `json:"status"`
	Code    string `json:"code"`
	Field   string `json:"field,omitempty"`
	Message string `json:"error"`
	// RetryAfter (seconds) is sent as the Retry-After header with 503.
	RetryAfter int `json:"retry_after,omitempty"`
}

func (e *Error) Error() string {
	return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message)
}

func badField(field, format string, a ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Code: "bad_field", Field: field, Message: fmt.Sprintf(format, a...)}
}

// readForm streams the multipart body of r into a new private folder under
// root: each file field to a file named by the server (the field's name
// and the upload's extension when it is a plain one), each text field into
// memory (at most maxFieldBytes). The whole body is limited to maxBytes
// (413). Unknown and repeated fields are refused (400 naming the field).
// On error the folder is already removed.
func readForm(w http.ResponseWriter, r *http.Request, root string, maxBytes int64, spec form) (*request, error) {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "multipart/form-data" {
		got := ct
		if got == "" {
			got = "none"
		}
		return nil, &Error{Status: http.StatusBadRequest, Code: "bad_content_type", Field: "Content-Type",
			Message: fmt.Sprintf("Content-Type must be multipart/form-data (got %s); send the files as form fields %s", got, spec.names())}
	}
	if r.ContentLength > maxBytes {
		return nil, tooLarge(maxBytes)
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBytes)
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, &Error{Status: http.StatusBadRequest, Code: "bad_content_type", Field: "Content-Type", Message: "malformed multipart/form-data: " + err.Error()}
	}
	dir, err := os.MkdirTemp(root, "req-")
	if err != nil {
		return nil, err
	}
	req := &request{dir: dir, files: map[string]*upload{}, fields: map[string]string{}}
	ok := false
	defer func() {
		if !ok {
			req.cleanup()
		}
	}()
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, bodyErr(err, maxBytes, "")
		}
		name := p.FormName()
		isFile, known := spec.kind(name)
		switch {
		case name == "":
			return nil, badField("", "a multipart part has no form field name (Content-Disposition: form-data; name=…)")
		case !known:
			return nil, badField(name, "unknown field %q; this endpoint takes %s", name, spec.names())
		case req.has(name):
			return nil, badField(name, "field %q given twice", name)
		}
		if !isFile {
			b, err := io.ReadAll(io.LimitReader(p, maxFieldBytes+1))
			if err != nil {
				return nil, bodyErr(err, maxBytes, name)
			}
			if len(b) > maxFieldBytes {
				return nil, badField(name, "field %q is longer than %d bytes", name, maxFieldBytes)
			}
			if !utf8.Valid(b) {
				return nil, badField(name, "field %q is not UTF-8 text", name)
			}
			req.fields[name] = strings.TrimSpace(string(b))
			continue
		}
		up := &upload{Name: clientName(p.FileName()), Path: filepath.Join(dir, name+plainExt(p.FileName()))}
		if err := spool(up, p); err != nil {
			return nil, bodyErr(err, maxBytes, name)
		}
		req.files[name] = up
	}
	ok = true
	return req, nil
}

// spool copies one file part to up.Path, hashing it on the way.
func spool(up *upload, src io.Reader) error {
	f, err := os.OpenFile(up.Path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), src)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	up.Size, up.SHA256 = n, hex.EncodeToString(h.Sum(nil))
	return err
}

func tooLarge(limit int64) *Error {
	return &Error{Status: http.StatusRequestEntityTooLarge, Code: "too_large",
		Message: fmt.Sprintf("the request is larger than the upload limit of %s (the server's --max-upload-mb)", mib(limit))}
}

// bodyErr turns an error reading the body into the answer: 413 past the
// limit, otherwise 400 (a broken or truncated upload).
func bodyErr(err error, limit int64, field string) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		e := tooLarge(limit)
		e.Field = field
		return e
	}
	var ae *Error
	if errors.As(err, &ae) {
		return ae
	}
	return &Error{Status: http.StatusBadRequest, Code: "bad_upload", Field: field, Message: "reading the upload: " + err.Error()}
}

func mib(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// clientName is the base name of the client's file name, for reports only;
// control characters and names longer than 255 bytes are cut.
func clientName(name string) string {
	name = strings.ReplaceAll(name, "\\", "/")
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return -1
		}
		return r
	}, name)
	if name == "." || name == ".." {
		return ""
	}
	if len(name) > 255 {
		name = name[:255]
		for !utf8.ValidString(name) {
			name = name[:len(name)-1]
		}
	}
	return name
}

// plainExt is the upload's extension when it is a plain one (a dot and up
// to 8 ASCII letters or digits, lowercased): LibreOffice and the format
// detection read it. Anything else gives no extension.
func plainExt(name string) string {
	ext := strings.ToLower(filepath.Ext(clientName(name)))
	if len(ext) < 2 || len(ext) > 9 {
		return ""
	}
	for _, c := range ext[1:] {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return ""
		}
	}
	return ext
}
