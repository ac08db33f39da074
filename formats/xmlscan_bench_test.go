package formats

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/editaudit/editaudit/internal/testdoc"
)

// reportCPU adds CPU-time metrics: on a loaded machine (the benchmarks
// share two cores with other work) wall time says little, CPU time does.
func reportCPU(b *testing.B, start time.Duration, size int) {
	cpu := testdoc.CPUTime() - start
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	if cpu > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/cpu.Seconds()/1e6, "cpu-MB/s")
	}
}

// benchDocumentXML returns word/document.xml of a real file from
// $EDITAUDIT_CORPUS (skips without it).
func benchDocumentXML(b *testing.B) []byte {
	dir := os.Getenv("EDITAUDIT_CORPUS")
	if dir == "" {
		b.Skip("EDITAUDIT_CORPUS not set")
	}
	zr, err := zip.OpenReader(filepath.Join(dir, "docx", "oxsdk_table-2007.docx"))
	if err != nil {
		b.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name == "word/document.xml" {
			rc, err := f.Open()
			if err != nil {
				b.Fatal(err)
			}
			data, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				b.Fatal(err)
			}
			return data
		}
	}
	b.Fatal("no word/document.xml")
	return nil
}

// generatedPart builds a WordprocessingML-like part of about size bytes:
// paragraphs with runs, properties, attributes with and without prefixes,
// entities, tables, one element per line as many writers indent them.
func generatedPart(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n")
	b.WriteString(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="w14"><w:body>` + "\n")
	for i := 0; b.Len() < size; i++ {
		switch i % 7 {
		case 3:
			fmt.Fprintf(&b, "<w:tbl><w:tblPr><w:tblW w:w=\"5000\" w:type=\"pct\"/></w:tblPr><w:tr w:rsidR=\"%08X\"><w:tc><w:tcPr><w:tcW w:w=\"2500\" w:type=\"pct\"/></w:tcPr><w:p><w:r><w:t>cell %d &amp; more</w:t></w:r></w:p></w:tc></w:tr></w:tbl>\n", i*7919, i)
		case 5:
			fmt.Fprintf(&b, "<w:p w14:paraId=\"%08X\"><w:hyperlink r:id=\"rId%d\"><w:r><w:rPr><w:rStyle w:val=\"Hyperlink\"/></w:rPr><w:t xml:space=\"preserve\">Überschrift – link %d </w:t></w:r></w:hyperlink></w:p>\n", i*31337, i%40+1, i)
		default:
			fmt.Fprintf(&b, "<w:p w:rsidR=\"%08X\" w:rsidRDefault=\"00C12345\"><w:pPr><w:pStyle w:val=\"Normal\"/><w:spacing w:after=\"120\" w:line=\"276\" w:lineRule=\"auto\"/></w:pPr><w:r><w:rPr><w:b/><w:sz w:val=\"24\"/></w:rPr><w:t>Paragraph %d with some ordinary text in it, &quot;quoted&quot; too.</w:t></w:r></w:p>\n", i*104729, i)
		}
	}
	b.WriteString("</w:body></w:document>\n")
	return b.Bytes()
}

func benchScanXML(b *testing.B, data []byte) {
	lim := DefaultLimits()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	start := testdoc.CPUTime()
	for i := 0; i < b.N; i++ {
		// The handler ScanPart puts in front of every format's handler.
		rh := &refHandler{relNS: relNamespaces}
		res := ScanXML("word/document.xml", bytes.NewReader(data), lim, rh)
		if !res.Complete || len(res.Findings) != 0 {
			b.Fatalf("scan: complete %v, findings %+v", res.Complete, res.Findings)
		}
	}
	reportCPU(b, start, len(data))
}

// legacyRefHandler is refHandler for the old scanner's elements.
type legacyRefHandler struct{ refs []relRef }

func (h *legacyRefHandler) Start(e *lElement) {
	for _, a := range e.Attr {
		for _, ns := range relNamespaces {
			if a.Name.Space == ns {
				h.refs = append(h.refs, relRef{attr: "r:" + a.Name.Local, id: a.Value, loc: e.Locator(), line: e.Line, col: e.Column})
			}
		}
	}
}
func (h *legacyRefHandler) End(*lElement)          {}
func (h *legacyRefHandler) Text(*lElement, []byte) {}

func benchLegacyScanXML(b *testing.B, data []byte) {
	lim := DefaultLimits()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	start := testdoc.CPUTime()
	for i := 0; i < b.N; i++ {
		res := legacyScanXML("word/document.xml", bytes.NewReader(data), lim, &legacyRefHandler{}, true)
		if !res.Complete || len(res.Findings) != 0 {
			b.Fatalf("scan: complete %v, findings %+v", res.Complete, res.Findings)
		}
	}
	reportCPU(b, start, len(data))
}

// BenchmarkLegacyScanXMLDocument is the scanner as it was before
// xmltok.go (kept in xmltok_test.go) on the same part: the "before".
func BenchmarkLegacyScanXMLDocument(b *testing.B) { benchLegacyScanXML(b, benchDocumentXML(b)) }

// BenchmarkLegacyScanXMLGenerated5MB: the old scanner on the generated part.
func BenchmarkLegacyScanXMLGenerated5MB(b *testing.B) { benchLegacyScanXML(b, generatedPart(5<<20)) }

// BenchmarkScanXMLDocument scans word/document.xml (525 KB) of a real file.
func BenchmarkScanXMLDocument(b *testing.B) { benchScanXML(b, benchDocumentXML(b)) }

// BenchmarkScanXMLGenerated5MB scans a generated 5 MB part.
func BenchmarkScanXMLGenerated5MB(b *testing.B) { benchScanXML(b, generatedPart(5<<20)) }

// BenchmarkRawTokenDocument is encoding/xml's RawToken alone over the same
// part as BenchmarkScanXMLDocument: the floor the old scanner stood on.
func BenchmarkRawTokenDocument(b *testing.B) {
	data := benchDocumentXML(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	start := testdoc.CPUTime()
	defer func() { reportCPU(b, start, len(data)) }()
	for i := 0; i < b.N; i++ {
		d := xml.NewDecoder(bytes.NewReader(data))
		for {
			if _, err := d.RawToken(); err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
		}
	}
}
