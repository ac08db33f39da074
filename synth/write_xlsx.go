package synth

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/beevik/etree"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/formats/xlsx"
	"github.com/xuri/excelize/v2"
)

const ctXlsxMetadata = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml"

// writeXlsx renders a workbook with excelize (real tables, charts, data
// validations), then re-packs the zip in a fixed order with fixed
// timestamps: excelize's own zip order depends on map iteration for some
// parts, and its core properties carry dates, which are set here to a
// constant.
func writeXlsx(s *Spec, e *env) ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetDocProps(&excelize.DocProperties{
		Title: s.Title, Creator: "editaudit corpus", LastModifiedBy: "editaudit corpus",
		Created: fixedDate, Modified: fixedDate,
	}); err != nil {
		return nil, fmt.Errorf("synth: xlsx properties: %w", err)
	}
	styles := map[string]int{}
	var spills []spillCell
	for i := range s.Xlsx.Sheets {
		sh := &s.Xlsx.Sheets[i]
		if i == 0 {
			if err := f.SetSheetName("Sheet1", sh.Name); err != nil {
				return nil, fmt.Errorf("synth: sheet %q: %w", sh.Name, err)
			}
		} else if _, err := f.NewSheet(sh.Name); err != nil {
			return nil, fmt.Errorf("synth: sheet %q: %w", sh.Name, err)
		}
		sp, err := writeSheet(f, sh, styles, e.images)
		if err != nil {
			return nil, fmt.Errorf("synth: sheet %q: %w", sh.Name, err)
		}
		for _, c := range sp {
			c.sheet = i + 1
			spills = append(spills, c)
		}
	}
	f.SetActiveSheet(0)
	buf, err := f.WriteToBuffer()
	if err != nil {
		return nil, fmt.Errorf("synth: xlsx: %w", err)
	}
	return repackXlsx(buf.Bytes(), spills, func(sheets []string) {
		for i, part := range sheets {
			if i < len(s.Xlsx.Sheets) {
				e.origins.sheet(part, s.Xlsx.Sheets[i].Name, fmt.Sprintf("$.xlsx.sheets[%d]", i))
			}
		}
	})
}

// spillCell is a dynamic-array formula cell that needs cm="1".
type spillCell struct {
	sheet int
	ref   string
}

func cellStyle(f *excelize.File, c *XCell, styles map[string]int) (int, error) {
	if !c.Bold && c.NumFmt == "" && c.Fill == "" {
		return 0, nil
	}
	key := fmt.Sprintf("%v|%s|%s", c.Bold, c.NumFmt, c.Fill)
	if id, ok := styles[key]; ok {
		return id, nil
	}
	st := &excelize.Style{}
	if c.Bold {
		st.Font = &excelize.Font{Bold: true}
	}
	if c.NumFmt != "" {
		nf := c.NumFmt
		st.CustomNumFmt = &nf
	}
	if c.Fill != "" {
		st.Fill = excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{strings.ToUpper(c.Fill)}}
	}
	id, err := f.NewStyle(st)
	if err != nil {
		return 0, err
	}
	styles[key] = id
	return id, nil
}

// writeSheet writes one sheet: its cells, then its layout (column widths,
// merges, tables, data validations), charts and images. It returns the
// spill cells, which need the dynamic-array metadata.
func writeSheet(f *excelize.File, sh *Sheet, styles map[string]int, images imageCache) ([]spillCell, error) {
	spills, err := writeCells(f, sh, styles)
	if err != nil {
		return nil, err
	}
	if err := writeLayout(f, sh); err != nil {
		return nil, err
	}
	if err := writeCharts(f, sh); err != nil {
		return nil, err
	}
	return spills, writeImages(f, sh, images)
}

// writeCells writes the values, formulas and styles of a sheet's cells.
func writeCells(f *excelize.File, sh *Sheet, styles map[string]int) ([]spillCell, error) {
	name := sh.Name
	var spills []spillCell
	for ri, row := range sh.Rows {
		for ci := range row {
			c := &row[ci]
			if c.Kind == "" {
				continue
			}
			ref := cellRef{ci + 1, ri + 1}.String()
			var err error
			switch c.Kind {
			case "text":
				err = f.SetCellStr(name, ref, c.Text)
			case "number":
				err = f.SetCellFloat(name, ref, c.Number, -1, 64)
			case "bool":
				err = f.SetCellBool(name, ref, c.Bool)
			case "formula", "rawFormula":
				formula := c.Formula
				if c.Kind == "formula" {
					if formula, err = fileFormula(c.Formula); err != nil {
						return nil, err
					}
				}
				spill := c.Spill
				if spill == "" && xlsx.SpillsArray(formula) {
					// A dynamic-array function: Excel spills it only with
					// the metadata (CodeDynamicArray); written as Excel and
					// XlsxWriter write one whose extent is not known yet,
					// ref = its own cell (Excel sizes the spill when it
					// calculates).
					spill = ref
				}
				if spill != "" {
					typ, sref := "array", spill
					err = f.SetCellFormula(name, ref, formula, excelize.FormulaOpts{Type: &typ, Ref: &sref})
					spills = append(spills, spillCell{ref: ref})
				} else {
					err = f.SetCellFormula(name, ref, formula)
				}
			}
			if err != nil {
				return nil, fmt.Errorf("cell %s: %w", ref, err)
			}
			id, err := cellStyle(f, c, styles)
			if err != nil {
				return nil, fmt.Errorf("cell %s style: %w", ref, err)
			}
			if id != 0 {
				if err := f.SetCellStyle(name, ref, ref, id); err != nil {
					return nil, fmt.Errorf("cell %s style: %w", ref, err)
				}
			}
		}
	}
	return spills, nil
}

// writeLayout writes a sheet's column widths, merges, tables and data
// validations.
func writeLayout(f *excelize.File, sh *Sheet) error {
	name := sh.Name
	for i, w := range sh.ColWidths {
		if w > 0 {
			if err := f.SetColWidth(name, colName(i+1), colName(i+1), w); err != nil {
				return err
			}
		}
	}
	for _, m := range sh.Merges {
		a, b, _ := strings.Cut(m, ":")
		if err := f.MergeCell(name, a, b); err != nil {
			return fmt.Errorf("merge %s: %w", m, err)
		}
	}
	for _, t := range sh.Tables {
		style := t.Style
		if style == "" {
			style = "TableStyleMedium2"
		}
		stripes := true
		if err := f.AddTable(name, &excelize.Table{Range: t.Ref, Name: t.Name, StyleName: style, ShowRowStripes: &stripes}); err != nil {
			return fmt.Errorf("table %s: %w", t.Name, err)
		}
	}
	for _, v := range sh.Validations {
		dv := excelize.NewDataValidation(true)
		dv.Sqref = v.Ref
		if err := dv.SetDropList(v.List); err != nil {
			return fmt.Errorf("validation %s: %w", v.Ref, err)
		}
		if err := f.AddDataValidation(name, dv); err != nil {
			return fmt.Errorf("validation %s: %w", v.Ref, err)
		}
	}
	return nil
}

// writeCharts adds a sheet's charts.
func writeCharts(f *excelize.File, sh *Sheet) error {
	for _, c := range sh.Charts {
		ch := &excelize.Chart{Type: chartType(c.Type)}
		if c.Title != "" {
			ch.Title = excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: c.Title}}}
		}
		w, h := c.Width, c.Height
		if w == 0 {
			w = 480
		}
		if h == 0 {
			h = 290
		}
		ch.Dimension = excelize.ChartDimension{Width: uint(w), Height: uint(h)}
		for _, se := range c.Series {
			ch.Series = append(ch.Series, excelize.ChartSeries{Name: se.Name, Categories: se.Categories, Values: se.Values})
		}
		if err := f.AddChart(sh.Name, c.Cell, ch); err != nil {
			return fmt.Errorf("chart at %s: %w", c.Cell, err)
		}
	}
	return nil
}

// writeImages anchors a sheet's images at their cells.
func writeImages(f *excelize.File, sh *Sheet, images imageCache) error {
	for i := range sh.Images {
		im := &sh.Images[i]
		pic, err := images.load(im)
		if err != nil {
			return err
		}
		opts := &excelize.GraphicOptions{AltText: im.Alt, LockAspectRatio: true, ScaleX: 1, ScaleY: 1}
		if im.Width > 0 || im.Height > 0 {
			cx, cy := pic.size(im)
			opts.ScaleX = float64(cx) / float64(pic.w*9525)
			opts.ScaleY = float64(cy) / float64(pic.h*9525)
		}
		if err := f.AddPictureFromBytes(sh.Name, im.Cell, &excelize.Picture{Extension: "." + pic.ext, File: pic.data, Format: opts}); err != nil {
			return fmt.Errorf("image at %s: %w", im.Cell, err)
		}
	}
	return nil
}

func chartType(t string) excelize.ChartType {
	switch t {
	case "bar":
		return excelize.Bar
	case "line":
		return excelize.Line
	case "pie":
		return excelize.Pie
	}
	return excelize.Col
}

// xlsxPartRank orders the parts of a re-packed workbook: content types,
// package rels, properties, workbook, then everything else by name.
func xlsxPartRank(name string) int {
	switch {
	case name == "[Content_Types].xml":
		return 0
	case name == "_rels/.rels":
		return 1
	case strings.HasPrefix(name, "docProps/"):
		return 2
	case name == "xl/workbook.xml":
		return 3
	case name == "xl/_rels/workbook.xml.rels":
		return 4
	}
	return 5
}

// repackXlsx rewrites excelize's zip deterministically and adds the
// dynamic-array metadata for spill cells: cm="1" on the cell, and
// xl/metadata.xml with the XLDAPR type, as Excel writes it (a dynamic-array
// formula without it shows only its top-left value as "=@…", DEFECTS.md).
func repackXlsx(in []byte, spills []spillCell, sheetParts func([]string)) ([]byte, error) {
	parts, _, err := readZip(in)
	if err != nil {
		return nil, fmt.Errorf("synth: excelize output: %w", err)
	}
	sheets, err := xlsxSheetParts(partsReader(parts))
	if err != nil {
		return nil, err
	}
	if sheetParts != nil {
		sheetParts(sheets)
	}
	if len(spills) > 0 {
		if err := addSpillMetadata(parts, sheets, spills); err != nil {
			return nil, err
		}
	}
	ct, err := canonicalContentTypes(parts)
	if err != nil {
		return nil, err
	}
	parts["[Content_Types].xml"] = ct
	names := make([]string, 0, len(parts))
	for n := range parts {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		ri, rj := xlsxPartRank(names[i]), xlsxPartRank(names[j])
		if ri != rj {
			return ri < rj
		}
		return names[i] < names[j]
	})
	out := make([]zipPart, 0, len(names))
	for _, n := range names {
		out = append(out, zipPart{name: n, data: parts[n]})
	}
	return writeZip(out)
}

const xlsxMetadataXML = xmlHeader + `<metadata xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">` +
	`<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes>` +
	`<futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata>` +
	`<cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>`

func addSpillMetadata(parts map[string][]byte, sheets []string, spills []spillCell) error {
	bySheet := map[int]map[string]bool{}
	for _, s := range spills {
		if bySheet[s.sheet] == nil {
			bySheet[s.sheet] = map[string]bool{}
		}
		bySheet[s.sheet][s.ref] = true
	}
	for n, refs := range bySheet {
		if n < 1 || n > len(sheets) {
			return fmt.Errorf("synth: no worksheet %d", n)
		}
		name := sheets[n-1]
		doc := etree.NewDocument()
		if err := doc.ReadFromBytes(parts[name]); err != nil {
			return fmt.Errorf("synth: %s: %w", name, err)
		}
		found := 0
		for _, c := range doc.FindElements("//sheetData/row/c") {
			if refs[c.SelectAttrValue("r", "")] {
				c.CreateAttr("cm", "1")
				found++
			}
		}
		if found != len(refs) {
			return fmt.Errorf("synth: %s: %d of %d spill cells found", name, found, len(refs))
		}
		data, err := doc.WriteToBytes()
		if err != nil {
			return err
		}
		parts[name] = data
	}
	var data []byte
	var err error
	parts["xl/metadata.xml"] = []byte(xlsxMetadataXML)
	// The workbook relationship and the content type.
	relsName := "xl/_rels/workbook.xml.rels"
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(parts[relsName]); err != nil {
		return fmt.Errorf("synth: %s: %w", relsName, err)
	}
	root := doc.Root()
	maxID := 0
	for _, r := range root.ChildElements() {
		if n, err := strconv.Atoi(strings.TrimPrefix(r.SelectAttrValue("Id", ""), "rId")); err == nil && n > maxID {
			maxID = n
		}
	}
	r := root.CreateElement("Relationship")
	r.CreateAttr("Id", "rId"+strconv.Itoa(maxID+1))
	r.CreateAttr("Type", relMetadata)
	r.CreateAttr("Target", "metadata.xml")
	data, err = doc.WriteToBytes()
	if err != nil {
		return err
	}
	parts[relsName] = data
	ctName := "[Content_Types].xml"
	doc = etree.NewDocument()
	if err := doc.ReadFromBytes(parts[ctName]); err != nil {
		return fmt.Errorf("synth: %s: %w", ctName, err)
	}
	o := doc.Root().CreateElement("Override")
	o.CreateAttr("PartName", "/xl/metadata.xml")
	o.CreateAttr("ContentType", ctXlsxMetadata)
	if data, err = doc.WriteToBytes(); err != nil {
		return err
	}
	parts[ctName] = data
	return nil
}

// xlsxSheetParts returns the sheet part names (worksheets and
// chartsheets) of excelize's output in workbook order, resolved through
// xl/workbook.xml and its relationships (ECMA-376 part 1 §18.2.19 sheet),
// never guessed from file names.
func xlsxSheetParts(read func(string) ([]byte, error)) ([]string, error) {
	wb, err := read("xl/workbook.xml")
	if err != nil {
		return nil, err
	}
	rb, err := read("xl/_rels/workbook.xml.rels")
	if err != nil {
		return nil, err
	}
	wdoc := etree.NewDocument()
	if err := wdoc.ReadFromBytes(wb); err != nil {
		return nil, fmt.Errorf("synth: xl/workbook.xml: %w", err)
	}
	rdoc := etree.NewDocument()
	if err := rdoc.ReadFromBytes(rb); err != nil {
		return nil, fmt.Errorf("synth: xl/_rels/workbook.xml.rels: %w", err)
	}
	targets := map[string]string{}
	for _, r := range rdoc.FindElements("//Relationship") {
		targets[r.SelectAttrValue("Id", "")] = formats.ResolveTarget("xl/workbook.xml", r.SelectAttrValue("Target", ""))
	}
	var out []string
	for _, sh := range wdoc.FindElements("//sheets/sheet") {
		id := ""
		for _, a := range sh.Attr {
			if a.Key == "id" && a.Space != "" {
				id = a.Value
			}
		}
		t, ok := targets[id]
		if !ok {
			return nil, fmt.Errorf("synth: sheet %q has no relationship %q", sh.SelectAttrValue("name", ""), id)
		}
		out = append(out, t)
	}
	return out, nil
}

// canonicalContentTypes rewrites [Content_Types].xml in a fixed order:
// excelize emits its image Defaults in map order, and declares a Default
// for every image format it knows (including "image/svg", which is not a
// registered type). Only Defaults for extensions present in the package
// are kept (plus rels and xml), sorted, then the Overrides sorted by part.
func canonicalContentTypes(parts map[string][]byte) ([]byte, error) {
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(parts["[Content_Types].xml"]); err != nil {
		return nil, fmt.Errorf("synth: excelize [Content_Types].xml: %w", err)
	}
	root := doc.Root()
	used := map[string]bool{"rels": true, "xml": true}
	for n := range parts {
		if i := strings.LastIndexByte(n, '.'); i >= 0 {
			used[strings.ToLower(n[i+1:])] = true
		}
	}
	var defs, overs []*etree.Element
	for _, el := range root.ChildElements() {
		root.RemoveChild(el)
		switch el.Tag {
		case "Default":
			if used[strings.ToLower(el.SelectAttrValue("Extension", ""))] {
				defs = append(defs, el)
			}
		case "Override":
			overs = append(overs, el)
		}
	}
	sort.SliceStable(defs, func(i, j int) bool {
		return defaultRank(defs[i].SelectAttrValue("Extension", "")) < defaultRank(defs[j].SelectAttrValue("Extension", ""))
	})
	sort.SliceStable(overs, func(i, j int) bool {
		return overs[i].SelectAttrValue("PartName", "") < overs[j].SelectAttrValue("PartName", "")
	})
	for _, el := range append(defs, overs...) {
		root.AddChild(el)
	}
	return doc.WriteToBytes()
}

// defaultRank orders Defaults: rels, xml, then by extension.
func defaultRank(ext string) string {
	switch strings.ToLower(ext) {
	case "rels":
		return "0"
	case "xml":
		return "1"
	}
	return "2" + strings.ToLower(ext)
}
