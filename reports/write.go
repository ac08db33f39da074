package reports

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/editaudit/editaudit/audit"
)

// Output formats: the values of `--format` of audit and check.
const (
	FormatText  = "text"
	FormatJSON  = "json"
	FormatModel = "model"
	FormatHTML  = "html"
	FormatSARIF = "sarif"
)

// AuditFormats are the formats WriteAudit writes, CheckFormats those
// WriteCheck writes (in the order help texts list them).
var (
	AuditFormats = []string{FormatText, FormatJSON, FormatModel, FormatHTML, FormatSARIF}
	CheckFormats = []string{FormatText, FormatJSON, FormatModel, FormatHTML}
)

// ErrUnknownFormat is returned (wrapped) for a format a writer does not
// know.
var ErrUnknownFormat = errors.New("unknown format")

func unknownFormat(format string, known []string) error {
	return fmt.Errorf("reports: %w %q (known: %s)", ErrUnknownFormat, format, strings.Join(known, ", "))
}

// AuditOptions tune WriteAudit. The zero value is fine.
type AuditOptions struct {
	// HTML tunes the html format.
	HTML HTMLOptions
	// Model bounds the model format (its byte budget).
	Model ModelOptions
}

// WriteAudit writes r in format (`editaudit audit --format F`): text (the
// model feedback), json (editaudit.audit/v1), model (content blocks; the
// shown pages' JPEG bytes must be loaded), html (one self-contained page)
// or sarif. It is what the command prints, byte for byte.
func WriteAudit(w io.Writer, r *audit.Result, format string, opts AuditOptions) error {
	switch format {
	case FormatText:
		return WriteText(w, r)
	case FormatJSON:
		return WriteJSON(w, r)
	case FormatModel:
		return WriteModelWith(w, r, opts.Model)
	case FormatHTML:
		return WriteHTML(w, r, opts.HTML)
	case FormatSARIF:
		return WriteSARIF(w, r)
	}
	return unknownFormat(format, AuditFormats)
}
