package synth

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/beevik/etree"
	"github.com/editaudit/editaudit/render"
)

// Recalculation: the workbook synth wrote carries formulas without values
// (excelize computes none). LibreOffice loads it with every formula
// recalculated and saves it as xlsx (render.XLSXRecalc); the values it
// computed are then copied into synth's own file as the cells' cached
// values (<v>, with t="str", "b" or "e" for text, booleans and errors), so
// the output keeps its own deterministic structure (tables, charts,
// dynamic-array metadata, which LibreOffice's rewrite would change) and
// readers that do not calculate — previews, parsers, a model reading the
// XML — see the results.

// cellValue is a computed value as an xlsx cell stores it.
type cellValue struct{ t, v string }

// maxNotedCells bounds the cells a recalculation note names.
const maxNotedCells = 10

// recalcWorkbook writes data to doc, has LibreOffice recalculate it, and
// returns data with the computed values of its formula cells, and a note
// on the cells LibreOffice could not compute (#NAME?: a function it does
// not know), which keep no value.
func recalcWorkbook(ctx context.Context, exp render.Exporter, doc string, data []byte) ([]byte, []string, error) {
	if err := os.WriteFile(doc, data, 0o600); err != nil {
		return nil, nil, fmt.Errorf("synth: %w", err)
	}
	out, err := exp.ConvertTo(ctx, doc, render.XLSXRecalc)
	if err != nil {
		return nil, nil, fmt.Errorf("synth: recalculation: %w", err)
	}
	defer os.Remove(out)
	computed, err := os.ReadFile(out)
	if err != nil {
		return nil, nil, fmt.Errorf("synth: recalculation: %w", err)
	}
	values, err := workbookValues(computed)
	if err != nil {
		return nil, nil, fmt.Errorf("synth: reading LibreOffice's recalculated workbook: %w", err)
	}
	return injectValues(data, values)
}

// readZip reads every entry of a zip into memory.
func readZip(data []byte) (map[string][]byte, []string, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, nil, err
	}
	parts := map[string][]byte{}
	var order []string
	for _, zf := range zr.File {
		rc, err := zf.Open()
		if err != nil {
			return nil, nil, err
		}
		b, err := io.ReadAll(io.LimitReader(rc, maxPartBytes))
		rc.Close()
		if err != nil {
			return nil, nil, err
		}
		parts[zf.Name] = b
		order = append(order, zf.Name)
	}
	return parts, order, nil
}

// partsReader reads parts of an unpacked package by name.
func partsReader(parts map[string][]byte) func(string) ([]byte, error) {
	return func(n string) ([]byte, error) {
		if b, ok := parts[n]; ok {
			return b, nil
		}
		return nil, fmt.Errorf("synth: no part %s", n)
	}
}

// workbookValues reads the values of every formula cell of a workbook,
// per sheet in workbook order: sheet index → cell reference → value.
func workbookValues(data []byte) ([]map[string]cellValue, error) {
	parts, _, err := readZip(data)
	if err != nil {
		return nil, err
	}
	sheets, err := xlsxSheetParts(partsReader(parts))
	if err != nil {
		return nil, err
	}
	var sst []string
	if b, ok := parts["xl/sharedStrings.xml"]; ok {
		doc := etree.NewDocument()
		if err := doc.ReadFromBytes(b); err != nil {
			return nil, err
		}
		for _, si := range doc.FindElements("//si") {
			var s strings.Builder
			for _, t := range si.FindElements(".//t") {
				s.WriteString(t.Text())
			}
			sst = append(sst, s.String())
		}
	}
	out := make([]map[string]cellValue, len(sheets))
	for i, name := range sheets {
		doc := etree.NewDocument()
		if err := doc.ReadFromBytes(parts[name]); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		m := map[string]cellValue{}
		for _, c := range doc.FindElements("//sheetData/row/c") {
			if c.SelectElement("f") == nil {
				continue
			}
			v := c.SelectElement("v")
			if v == nil {
				continue
			}
			cv := cellValue{t: c.SelectAttrValue("t", "n"), v: v.Text()}
			if cv.t == "s" {
				k, err := strconv.Atoi(cv.v)
				if err != nil || k < 0 || k >= len(sst) {
					continue
				}
				cv = cellValue{t: "str", v: sst[k]}
			}
			m[c.SelectAttrValue("r", "")] = cv
		}
		out[i] = m
	}
	return out, nil
}

// injectValues sets the cached value of every formula cell of data that
// has one in values, and notes those that have none or #NAME?.
func injectValues(data []byte, values []map[string]cellValue) ([]byte, []string, error) {
	parts, order, err := readZip(data)
	if err != nil {
		return nil, nil, err
	}
	sheets, err := xlsxSheetParts(partsReader(parts))
	if err != nil {
		return nil, nil, err
	}
	names, err := xlsxSheetNames(parts["xl/workbook.xml"])
	if err != nil {
		return nil, nil, err
	}
	var missing []string
	total := 0
	for i, name := range sheets {
		doc := etree.NewDocument()
		if err := doc.ReadFromBytes(parts[name]); err != nil {
			return nil, nil, fmt.Errorf("synth: %s: %w", name, err)
		}
		changed := false
		for _, c := range doc.FindElements("//sheetData/row/c") {
			if c.SelectElement("f") == nil {
				continue
			}
			total++
			ref := c.SelectAttrValue("r", "")
			var cv cellValue
			ok := false
			if i < len(values) {
				cv, ok = values[i][ref]
			}
			if !ok || (cv.t == "e" && cv.v == "#NAME?") {
				if i < len(names) {
					missing = append(missing, names[i]+"!"+ref)
				}
				continue
			}
			for _, v := range c.SelectElements("v") {
				c.RemoveChild(v)
			}
			switch cv.t {
			case "str", "b", "e":
				c.CreateAttr("t", cv.t)
			default:
				c.RemoveAttr("t")
			}
			c.CreateElement("v").SetText(cv.v)
			changed = true
		}
		if changed {
			if parts[name], err = doc.WriteToBytes(); err != nil {
				return nil, nil, err
			}
		}
	}
	out := make([]zipPart, 0, len(order))
	for _, n := range order {
		out = append(out, zipPart{name: n, data: parts[n]})
	}
	packed, err := writeZip(out)
	if err != nil {
		return nil, nil, err
	}
	var notes []string
	if len(missing) > 0 {
		shown := missing // in sheet and row order
		if len(shown) > maxNotedCells {
			shown = shown[:maxNotedCells]
		}
		more := ""
		if n := len(missing) - len(shown); n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		notes = append(notes, fmt.Sprintf("recalc: %d of %d formula cells keep no cached value: LibreOffice could not compute them (#NAME?: a function it does not know, or a cell that depends on one): %s%s",
			len(missing), total, strings.Join(shown, ", "), more))
	}
	return packed, notes, nil
}

// xlsxSheetNames lists the sheet names of xl/workbook.xml in order.
func xlsxSheetNames(wb []byte) ([]string, error) {
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(wb); err != nil {
		return nil, fmt.Errorf("synth: xl/workbook.xml: %w", err)
	}
	var names []string
	for _, sh := range doc.FindElements("//sheets/sheet") {
		names = append(names, sh.SelectAttrValue("name", ""))
	}
	return names, nil
}
