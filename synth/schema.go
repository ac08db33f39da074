package synth

import (
	_ "embed" // the spec's source, for its doc comments
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strings"
	"sync"
)

// The JSON Schema (2020-12) of a spec, generated from the Go types by
// reflection: every struct a $defs entry (recursive types by $ref), the
// JSON names and required keys from the json tags (a key without
// omitempty is required), descriptions from the doc comments of spec.go,
// and what the types cannot say — caps (maxItems, maxLength, maximum),
// enums, patterns — from schemaRules, which names the same constants the
// validator enforces. A Block is a oneOf of one-key objects, a worksheet
// cell a oneOf of its scalar and object forms. The root is a plain object
// without combinators, as model APIs require of a tool's input_schema.
// The validator stays the authority for what a schema cannot express
// (which body goes with which format, merges, references).

//go:embed spec.go
var specSource string

//go:embed spec_decode.go
var decodeSource string

// rule is what a field's schema adds to its type's.
type rule map[string]any

// schemaRules are keyed "Type.Field" (Go names); "Type.Field[]" applies
// to the items of an array field.
func schemaRules(o Options) map[string]rule {
	color := rule{"pattern": "^[0-9A-Fa-f]{6}$"}
	cell := rule{"pattern": "^\\$?[A-Za-z]{1,3}\\$?[1-9][0-9]{0,6}$"}
	rng := rule{"pattern": "^\\$?[A-Za-z]{1,3}\\$?[1-9][0-9]{0,6}(:\\$?[A-Za-z]{1,3}\\$?[1-9][0-9]{0,6})?$"}
	text := rule{"maxLength": MaxTextLen}
	src := rule{"pattern": "^artifact:[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$"}
	if o.Fixtures {
		src = rule{"pattern": "^(artifact:[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}|builtin:[a-z]+)$"}
	}
	return map[string]rule{
		"Spec.Format":            {"enum": []string{"docx", "pptx", "xlsx", "hwpx"}},
		"Spec.Title":             {"maxLength": MaxTitleLen},
		"DocxSpec.Header":        {"maxItems": MaxBlocks},
		"DocxSpec.Footer":        {"maxItems": MaxBlocks},
		"DocxSpec.Body":          {"minItems": 1, "maxItems": MaxBlocks},
		"PageSpec.Size":          {"enum": []string{"A4", "Letter"}},
		"PageSpec.MarginMM":      {"minimum": 0, "maximum": 60},
		"Heading.Level":          {"minimum": 1, "maximum": 6},
		"Heading.Text":           text,
		"Heading.Runs":           {"maxItems": MaxRuns},
		"Paragraph.Text":         text,
		"Paragraph.Runs":         {"maxItems": MaxRuns},
		"Paragraph.Align":        {"enum": []string{"left", "center", "right", "justify"}},
		"Paragraph.Level":        {"minimum": 0, "maximum": 4},
		"Run.Text":               text,
		"Run.Size":               {"minimum": 0, "maximum": 400},
		"Run.Color":              color,
		"Run.Field":              {"enum": []string{"PAGE", "NUMPAGES"}},
		"Table.Widths":           {"maxItems": MaxCells},
		"Table.Widths[]":         {"exclusiveMinimum": 0, "maximum": 1e6},
		"Table.HeaderRows":       {"minimum": 0, "maximum": MaxRows},
		"Table.Rows":             {"minItems": 1, "maxItems": MaxRows},
		"Row.Cells":              {"minItems": 1, "maxItems": MaxCells},
		"Cell.Text":              text,
		"Cell.Blocks":            {"maxItems": MaxBlocks},
		"Cell.Span":              {"minimum": 0, "maximum": MaxCells},
		"Cell.VMerge":            {"enum": []string{"restart", "continue"}},
		"Cell.Shade":             color,
		"List.Items":             {"minItems": 1, "maxItems": MaxListItems},
		"ListItem.Text":          text,
		"ListItem.Runs":          {"maxItems": MaxRuns},
		"ListItem.Level":         {"minimum": 0, "maximum": 8},
		"Image.Src":              src,
		"Image.Data":             {"maxLength": (MaxImageBytes + 2) / 3 * 4},
		"Image.Width":            {"minimum": 0, "maximum": MaxImagePoints},
		"Image.Height":           {"minimum": 0, "maximum": MaxImagePoints},
		"Image.Alt":              text,
		"Image.Align":            {"enum": []string{"left", "center", "right"}},
		"Image.Cell":             cell,
		"Chart.Type":             {"enum": []string{"col", "bar", "line", "pie"}},
		"Chart.Title":            text,
		"Chart.Categories":       {"minItems": 1, "maxItems": MaxChartPoints},
		"Chart.Categories[]":     text,
		"Chart.Series":           {"minItems": 1, "maxItems": MaxChartSeries},
		"Chart.Width":            {"minimum": 0, "maximum": MaxImagePoints},
		"Chart.Height":           {"minimum": 0, "maximum": MaxImagePoints},
		"ChartSeries.Name":       {"minLength": 1, "maxLength": MaxTextLen},
		"ChartSeries.Values":     {"minItems": 1, "maxItems": MaxChartPoints},
		"PptxSpec.Size":          {"enum": []string{"16:9", "4:3"}},
		"PptxSpec.Slides":        {"minItems": 1, "maxItems": MaxSlides},
		"Slide.Title":            text,
		"Slide.Body":             {"maxItems": MaxSlideParas},
		"Slide.Notes":            text,
		"XlsxSpec.Sheets":        {"minItems": 1, "maxItems": MaxSheets},
		"Sheet.Name":             {"minLength": 1, "maxLength": 31, "pattern": "^[^\\[\\]:*?/\\\\']([^\\[\\]:*?/\\\\]*[^\\[\\]:*?/\\\\'])?$"},
		"Sheet.Rows":             {"maxItems": MaxSheetRows},
		"Sheet.Rows[]":           {"maxItems": MaxSheetCols},
		"Sheet.ColWidths":        {"maxItems": MaxSheetCols},
		"Sheet.ColWidths[]":      {"minimum": 0, "maximum": 255},
		"Sheet.Merges":           {"maxItems": MaxSheetItems},
		"Sheet.Merges[]":         rng,
		"Sheet.Tables":           {"maxItems": MaxSheetItems},
		"Sheet.Charts":           {"maxItems": MaxSheetItems},
		"Sheet.Validations":      {"maxItems": MaxSheetItems},
		"Sheet.Images":           {"maxItems": MaxSheetItems},
		"XTable.Name":            {"minLength": 1, "maxLength": 255, "pattern": "^[A-Za-z_\\\\][A-Za-z0-9_.\\\\]*$"},
		"XTable.Ref":             rng,
		"XChart.Type":            {"enum": []string{"col", "bar", "line", "pie"}},
		"XChart.Title":           text,
		"XChart.Cell":            cell,
		"XChart.Width":           {"minimum": 0, "maximum": 4000},
		"XChart.Height":          {"minimum": 0, "maximum": 4000},
		"XChart.Series":          {"minItems": 1, "maxItems": MaxChartSeries},
		"XSeries.Name":           {"maxLength": 255},
		"XSeries.Categories":     {"maxLength": 255},
		"XSeries.Values":         {"minLength": 1, "maxLength": 255},
		"XValidation.Ref":        rng,
		"XValidation.List":       {"minItems": 1, "maxItems": MaxValidationList},
		"XValidation.List[]":     {"minLength": 1, "pattern": "^[^,\"]+$"},
		"HwpxSpec.Sections":      {"minItems": 1, "maxItems": MaxSections},
		"HSection.Blocks":        {"minItems": 1, "maxItems": MaxBlocks},
		"xcellObject.Text":       text,
		"xcellObject.Formula":    {"minLength": 1, "maxLength": MaxFormulaLen},
		"xcellObject.RawFormula": {"minLength": 1, "maxLength": MaxFormulaLen},
		"xcellObject.Spill":      rng,
		"xcellObject.NumFmt":     {"maxLength": 255},
		"xcellObject.Fill":       color,
	}
}

// fixtureFields are left out of the schema unless Options.Fixtures.
var fixtureFields = map[string]bool{"Image.Data": true, "xcellObject.RawFormula": true}

// Schema is the JSON Schema of a spec from outside (Options{}): images as
// artifact handles only, no raw formulas. It is what `editaudit synth
// --schema` prints and a model tool's input_schema.
func Schema() []byte { return SchemaFor(Options{}) }

// SchemaFor is the JSON Schema of the specs o accepts (with Fixtures:
// builtin images, inline data and rawFormula cells too).
func SchemaFor(o Options) []byte {
	g := &schemaGen{rules: schemaRules(o), fixtures: o.Fixtures, defs: map[string]any{}, docs: specDocs()}
	root := g.object(specType)
	root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	root["title"] = "editaudit document spec"
	root["description"] = "A document as data: exactly one of docx, pptx, xlsx, hwpx, the one format names. " +
		"editaudit synth writes it deterministically and reports every problem with its JSON path. " +
		"Images are \"artifact:ID\" handles of files in the artifacts folder; never paths or URLs."
	root["$defs"] = g.defs
	b, err := json.MarshalIndent(root, "", " ")
	if err != nil {
		panic("synth: schema: " + err.Error()) // only maps, strings and numbers
	}
	return append(b, '\n')
}

type schemaGen struct {
	rules    map[string]rule
	fixtures bool
	defs     map[string]any
	docs     map[string]string
}

// ref returns a $ref to the definition of struct type t, generating it on
// first use (the entry is reserved first: types are recursive).
func (g *schemaGen) ref(t reflect.Type) map[string]any {
	name := defName(t)
	if _, ok := g.defs[name]; !ok {
		g.defs[name] = nil
		g.defs[name] = g.object(t)
	}
	return map[string]any{"$ref": "#/$defs/" + name}
}

func defName(t reflect.Type) string {
	if t == reflect.TypeFor[xcellObject]() {
		return "CellObject"
	}
	return t.Name()
}

// object is the schema of a struct: its properties, the required ones,
// nothing else; a Block is a oneOf of one-key objects.
func (g *schemaGen) object(t reflect.Type) map[string]any {
	if t == reflect.TypeFor[Block]() {
		return g.block(t)
	}
	props := map[string]any{}
	var required []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "" || name == "-" {
			continue
		}
		key := t.Name() + "." + f.Name
		if fixtureFields[key] && !g.fixtures {
			continue
		}
		props[name] = g.field(t, f)
		if !strings.Contains(opts, "omitempty") {
			required = append(required, name)
		}
	}
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	if d := g.docs[t.Name()]; d != "" {
		s["description"] = d
	}
	if t == reflect.TypeFor[xcellObject]() {
		var one []any
		for _, k := range []string{"text", "number", "bool", "formula", "rawFormula"} {
			if k == "rawFormula" && !g.fixtures {
				continue
			}
			one = append(one, map[string]any{"required": []string{k}})
		}
		s["oneOf"] = one
		s["description"] = "A cell with formatting: exactly one of text, number, bool, formula (as typed in Excel, \"=\" optional)."
	}
	return s
}

// block is the schema of a Block: exactly one of its keys.
func (g *schemaGen) block(t reflect.Type) map[string]any {
	var one []any
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		var val map[string]any
		if f.Type.Kind() == reflect.Bool {
			val = map[string]any{"const": true}
		} else {
			val = g.field(t, f)
		}
		if d := g.docs[t.Name()+"."+f.Name]; d != "" {
			val["description"] = d
		}
		one = append(one, map[string]any{"type": "object", "properties": map[string]any{name: val}, "required": []string{name}, "additionalProperties": false})
	}
	return map[string]any{"description": g.docs["Block"], "oneOf": one}
}

// field is the schema of field f of struct t, with its rules.
func (g *schemaGen) field(t reflect.Type, f reflect.StructField) map[string]any {
	key := t.Name() + "." + f.Name
	s := g.typeSchema(f.Type, key)
	for k, v := range g.rules[key] {
		s[k] = v
	}
	if d := g.docs[key]; d != "" {
		s["description"] = d // beside a $ref too: 2020-12 allows it
	}
	return s
}

// typeSchema is the schema of a Go type; key names the field for the
// rules of array items.
func (g *schemaGen) typeSchema(t reflect.Type, key string) map[string]any {
	if t == xcellType {
		return map[string]any{"oneOf": []any{
			map[string]any{"type": "string", "maxLength": MaxTextLen, "description": "text, or a formula when it starts with \"=\""},
			map[string]any{"type": "number"},
			map[string]any{"type": "boolean"},
			map[string]any{"type": "null", "description": "an empty cell"},
			g.ref(reflect.TypeFor[xcellObject]()),
		}}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return g.typeSchema(t.Elem(), key)
	case reflect.Struct:
		return g.ref(t)
	case reflect.Slice:
		items := g.typeSchema(t.Elem(), key+"[]")
		for k, v := range g.rules[key+"[]"] {
			items[k] = v
		}
		return map[string]any{"type": "array", "items": items}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int:
		return map[string]any{"type": "integer"}
	case reflect.Float64:
		return map[string]any{"type": "number"}
	}
	return map[string]any{}
}

// specDocs reads the doc comments of the spec types and their fields from
// the embedded source: "Type" and "Type.Field" → the comment as one line.
var specDocs = sync.OnceValue(func() map[string]string {
	docs := map[string]string{}
	fset := token.NewFileSet()
	for _, src := range []string{specSource, decodeSource} {
		f, err := parser.ParseFile(fset, "spec.go", src, parser.ParseComments)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, sp := range gd.Specs {
				ts := sp.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				docs[ts.Name.Name] = oneLine(doc)
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, fl := range st.Fields.List {
					for _, n := range fl.Names {
						docs[ts.Name.Name+"."+n.Name] = oneLine(fl.Doc)
					}
				}
			}
		}
	}
	return docs
})

// oneLine joins a comment group into one line.
func oneLine(c *ast.CommentGroup) string {
	if c == nil {
		return ""
	}
	return strings.Join(strings.Fields(c.Text()), " ")
}
