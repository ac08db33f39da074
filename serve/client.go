package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/internal/fsutil"
)

// Client calls an editaudit service (`editaudit audit --server URL`).
type Client struct {
	// URL is the service's base URL (http://127.0.0.1:8787).
	URL string
	// Token is sent as the bearer token when not empty.
	Token string
	// HTTP is the client used (nil: http.DefaultClient).
	HTTP *http.Client
}

// AuditRequest is one audit asked of the service.
type AuditRequest struct {
	// Original and Edited are the files' paths; they are streamed, never
	// read whole into memory, and never written.
	Original, Edited string
	// OriginalName and EditedName are what the report calls the files
	// ("" names each by its path as given, as the command does).
	OriginalName, EditedName string
	// Format, Render and Content are the form fields of that name (""
	// leaves the service's default: text, auto, on).
	Format, Render, Content string
	// Show is the number of changed pages given as images (0: none), sent
	// only when ShowSet.
	Show    int
	ShowSet bool
	// ModelBytes is the byte budget of the model format (0: the service's
	// default, reports.DefaultModelBytes).
	ModelBytes int
}

// Answer is a report the service answered.
type Answer struct {
	// Body is the report, byte for byte what the command prints.
	Body []byte
	// ContentType is the report's media type.
	ContentType string
	// Blocked is the X-Editaudit-Blocked verdict.
	Blocked bool
	// Note is the X-Editaudit-Note the service added ("" when none).
	Note string
}

// Audit asks the service for the audit of req. The original is first named
// by its sha256 only (original_sha256): a service that has its snapshot
// needs just the edited file; otherwise (404 not_in_store) the original is
// uploaded too. A refused request is an *Error; a service that cannot be
// reached is the transport's error.
func (c *Client) Audit(ctx context.Context, req AuditRequest) (*Answer, error) {
	sha, err := fsutil.SHA256File(req.Original)
	if err != nil {
		return nil, err
	}
	fields := [][2]string{{"format", req.Format}, {"render", req.Render}, {"content", req.Content},
		{"original_name", orPath(req.OriginalName, req.Original)}, {"edited_name", orPath(req.EditedName, req.Edited)}}
	if req.ShowSet {
		fields = append(fields, [2]string{"show", strconv.Itoa(req.Show)})
	}
	if req.ModelBytes > 0 {
		fields = append(fields, [2]string{"model_bytes", strconv.Itoa(req.ModelBytes)})
	}
	files := [][2]string{{"edited", req.Edited}}
	ans, err := c.post(ctx, PathAudit, append(fields, [2]string{"original_sha256", sha}), files)
	var e *Error
	if errors.As(err, &e) && e.Code == "not_in_store" {
		return c.post(ctx, PathAudit, fields, append(files, [2]string{"original", req.Original}))
	}
	return ans, err
}

func orPath(name, path string) string {
	if name != "" {
		return name
	}
	return path
}

// post sends fields (name, value; empty values left out) and files (name,
// path) as multipart/form-data, streamed.
func (c *Client) post(ctx context.Context, path string, fields, files [][2]string) (*Answer, error) {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		pw.CloseWithError(writeParts(mw, fields, files))
	}()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(c.URL, "/")+path, pr)
	if err != nil {
		pr.Close()
		return nil, err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		pr.Close()
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		e := &Error{}
		if json.Unmarshal(body, e) != nil || e.Code == "" {
			e = &Error{Code: "http", Message: strings.TrimSpace(string(body))}
		}
		e.Status = resp.StatusCode
		if ra, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
			e.RetryAfter = ra
		}
		return nil, e
	}
	return &Answer{Body: body, ContentType: resp.Header.Get("Content-Type"),
		Blocked: resp.Header.Get("X-Editaudit-Blocked") == "true", Note: resp.Header.Get("X-Editaudit-Note")}, nil
}

func writeParts(mw *multipart.Writer, fields, files [][2]string) error {
	for _, f := range fields {
		if f[1] == "" {
			continue
		}
		if err := mw.WriteField(f[0], f[1]); err != nil {
			return err
		}
	}
	for _, f := range files {
		if err := copyPart(mw, f[0], f[1]); err != nil {
			return err
		}
	}
	return mw.Close()
}

func copyPart(mw *multipart.Writer, field, path string) error {
	in, err := os.Open(path)
	if err != nil {
		return err
	}
	defer in.Close()
	w, err := mw.CreateFormFile(field, filepath.Base(path))
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, in); err != nil {
		return fmt.Errorf("sending %s: %w", path, err)
	}
	return nil
}
