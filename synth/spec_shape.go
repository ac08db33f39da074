package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

var (
	specType  = reflect.TypeFor[Spec]()
	xcellType = reflect.TypeFor[XCell]()
)

// shapeChecker walks generic JSON (decoded with UseNumber) against the spec
// types, so that an unknown key or a wrong value type is reported with its
// JSON path. encoding/json's DisallowUnknownFields names the key but not
// where it is.
type shapeChecker struct {
	errs SpecErrors
}

func (c *shapeChecker) fail(path, format string, a ...any) {
	if len(c.errs) < maxSpecErrors {
		c.errs = append(c.errs, &SpecError{Path: path, Msg: fmt.Sprintf(format, a...)})
	}
}

func (c *shapeChecker) full() bool { return len(c.errs) >= maxSpecErrors }

func (c *shapeChecker) check(path string, v any, t reflect.Type, depth int) {
	if c.full() {
		return
	}
	if depth > maxShapeDepth {
		c.fail(path, "nested deeper than %d levels", maxShapeDepth)
		return
	}
	if t == xcellType {
		c.checkXCell(path, v, depth)
		return
	}
	if t.Kind() == reflect.Pointer {
		if v == nil {
			return
		}
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			c.fail(path, "expected an object, found %s", jsonKind(v))
			return
		}
		fields := jsonFields(t)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			f, ok := fields[k]
			if !ok {
				c.fail(path+"."+k, "unknown key %q (allowed: %s)", k, strings.Join(sortedKeys(fields), ", "))
				continue
			}
			c.check(path+"."+k, obj[k], f.Type, depth+1)
		}
	case reflect.Slice:
		if v == nil {
			return
		}
		arr, ok := v.([]any)
		if !ok {
			c.fail(path, "expected an array, found %s", jsonKind(v))
			return
		}
		for i, e := range arr {
			c.check(fmt.Sprintf("%s[%d]", path, i), e, t.Elem(), depth+1)
			if c.full() {
				return
			}
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			c.fail(path, "expected a string, found %s", jsonKind(v))
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			c.fail(path, "expected true or false, found %s", jsonKind(v))
		}
	case reflect.Int:
		n, ok := v.(json.Number)
		if !ok {
			c.fail(path, "expected an integer, found %s", jsonKind(v))
			return
		}
		if _, err := n.Int64(); err != nil {
			c.fail(path, "expected an integer, found %s", n)
		}
	case reflect.Float64:
		if _, ok := v.(json.Number); !ok {
			c.fail(path, "expected a number, found %s", jsonKind(v))
		}
	default:
		c.fail(path, "internal: no shape rule for %s", t)
	}
}

// checkXCell accepts the scalar forms of a worksheet cell or its object form.
func (c *shapeChecker) checkXCell(path string, v any, depth int) {
	switch v.(type) {
	case nil, string, bool, json.Number:
		return
	case map[string]any:
		c.check(path, v, reflect.TypeFor[xcellObject](), depth)
	default:
		c.fail(path, "expected a cell value (string, number, boolean, null or object), found %s", jsonKind(v))
	}
}

func jsonKind(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		return "the number " + v.String()
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// jsonFields maps the JSON key of every exported field of t to the field.
func jsonFields(t reflect.Type) map[string]reflect.StructField {
	m := make(map[string]reflect.StructField, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		m[name] = f
	}
	return m
}

func sortedKeys(m map[string]reflect.StructField) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// XCell is one worksheet cell. In JSON it is a string (a formula when it
// starts with "="), a number, a boolean, null (no cell) or an object with
// exactly one of text, number, bool, formula, rawFormula and optional
// formatting.
type XCell struct {
	// Kind is what the cell holds: "" (empty), "text", "number", "bool",
	// "formula" or "rawFormula".
	Kind   string
	Text   string
	Number float64
	Bool   bool
	// Formula is written as a person types it (without "="); the writer
	// adds the _xlfn./_xlpm. prefixes the file format needs. RawFormula is
	// written verbatim (to build deliberately defective files).
	Formula string
	// Spill is the range a dynamic-array formula spills into ("C2:D2");
	// the cell then carries dynamic-array metadata as Excel writes it.
	Spill string
	// Bold, NumFmt and Fill format the cell.
	Bold   bool
	NumFmt string
	Fill   string
}

// xcellObject is the object form of XCell in JSON.
type xcellObject struct {
	Text       *string  `json:"text,omitempty"`
	Number     *float64 `json:"number,omitempty"`
	Bool       *bool    `json:"bool,omitempty"`
	Formula    *string  `json:"formula,omitempty"`
	RawFormula *string  `json:"rawFormula,omitempty"`
	Spill      string   `json:"spill,omitempty"`
	Bold       bool     `json:"bold,omitempty"`
	NumFmt     string   `json:"numFmt,omitempty"`
	Fill       string   `json:"fill,omitempty"`
}

// UnmarshalJSON decodes the scalar or object form of a cell.
func (x *XCell) UnmarshalJSON(b []byte) error {
	*x = XCell{}
	b = bytes.TrimSpace(b)
	if len(b) == 0 || bytes.Equal(b, []byte("null")) {
		return nil
	}
	switch b[0] {
	case '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if f, ok := strings.CutPrefix(s, "="); ok {
			x.Kind, x.Formula = "formula", f
		} else {
			x.Kind, x.Text = "text", s
		}
	case 't', 'f':
		x.Kind = "bool"
		return json.Unmarshal(b, &x.Bool)
	case '{':
		var o xcellObject
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&o); err != nil {
			return err
		}
		x.Spill, x.Bold, x.NumFmt, x.Fill = o.Spill, o.Bold, o.NumFmt, o.Fill
		n := 0
		if o.Text != nil {
			x.Kind, x.Text = "text", *o.Text
			n++
		}
		if o.Number != nil {
			x.Kind, x.Number = "number", *o.Number
			n++
		}
		if o.Bool != nil {
			x.Kind, x.Bool = "bool", *o.Bool
			n++
		}
		if o.Formula != nil {
			x.Kind, x.Formula = "formula", strings.TrimPrefix(*o.Formula, "=")
			n++
		}
		if o.RawFormula != nil {
			x.Kind, x.Formula = "rawFormula", *o.RawFormula
			n++
		}
		if n > 1 {
			x.Kind = "conflict"
		}
	default:
		x.Kind = "number"
		return json.Unmarshal(b, &x.Number)
	}
	return nil
}

// MarshalJSON writes the object form (the scalar forms are shorthand).
func (x XCell) MarshalJSON() ([]byte, error) {
	var o xcellObject
	switch x.Kind {
	case "":
		if x.Spill == "" && !x.Bold && x.NumFmt == "" && x.Fill == "" {
			return []byte("null"), nil
		}
	case "text":
		o.Text = &x.Text
	case "number":
		o.Number = &x.Number
	case "bool":
		o.Bool = &x.Bool
	case "formula":
		o.Formula = &x.Formula
	case "rawFormula":
		o.RawFormula = &x.Formula
	default:
		return nil, fmt.Errorf("synth: cell kind %q", x.Kind)
	}
	o.Spill, o.Bold, o.NumFmt, o.Fill = x.Spill, x.Bold, x.NumFmt, x.Fill
	return json.Marshal(o)
}
