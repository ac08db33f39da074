package formats

// Format is the kind of document, detected from the package content, never
// from the file extension.
type Format string

// The formats editaudit knows. Unknown is a file that is not a package of
// any of them (its findings say why).
const (
	DOCX    Format = "docx"
	PPTX    Format = "pptx"
	XLSX    Format = "xlsx"
	HWPX    Format = "hwpx"
	Unknown Format = "unknown"
)

// Ext returns the usual file extension of the format, with the dot.
func (f Format) Ext() string {
	switch f {
	case DOCX, PPTX, XLSX, HWPX:
		return "." + string(f)
	}
	return ".bin"
}
