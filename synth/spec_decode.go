package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

var (
	specType  = reflect.TypeFor[Spec]()
	xcellType = reflect.TypeFor[XCell]()
)

// decoder fills the spec types from generic JSON (decoded with UseNumber)
// by reflection, so that an unknown key or a wrong value type is reported
// with its JSON path and the rest of the spec is still decoded and checked:
// the value in error is left at its zero value. encoding/json stops at the
// first problem and names the key but not where it is.
type decoder struct {
	errs errList
}

func (d *decoder) fail(path, format string, a ...any) { d.errs.add(path, 0, format, a...) }

func (d *decoder) decode(path string, v any, rv reflect.Value, depth int) {
	if depth > maxShapeDepth {
		d.fail(path, "nested deeper than %d levels", maxShapeDepth)
		return
	}
	t := rv.Type()
	if t == xcellType {
		d.decodeXCell(path, v, rv, depth)
		return
	}
	if t.Kind() == reflect.Pointer {
		if v == nil {
			return
		}
		elem := reflect.New(t.Elem())
		d.decode(path, v, elem.Elem(), depth)
		rv.Set(elem)
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			d.fail(path, "expected an object, found %s", jsonKind(v))
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
				d.fail(path+"."+k, "unknown key %q (allowed: %s)", k, strings.Join(sortedKeys(fields), ", "))
				continue
			}
			d.decode(path+"."+k, obj[k], rv.FieldByIndex(f.Index), depth+1)
		}
	case reflect.Slice:
		if v == nil {
			return
		}
		arr, ok := v.([]any)
		if !ok {
			d.fail(path, "expected an array, found %s", jsonKind(v))
			return
		}
		s := reflect.MakeSlice(t, len(arr), len(arr))
		for i, e := range arr {
			d.decode(fmt.Sprintf("%s[%d]", path, i), e, s.Index(i), depth+1)
		}
		rv.Set(s)
	case reflect.String:
		s, ok := v.(string)
		if !ok {
			d.fail(path, "expected a string, found %s", jsonKind(v))
			return
		}
		rv.SetString(s)
	case reflect.Bool:
		b, ok := v.(bool)
		if !ok {
			d.fail(path, "expected true or false, found %s", jsonKind(v))
			return
		}
		rv.SetBool(b)
	case reflect.Int:
		n, ok := v.(json.Number)
		if !ok {
			d.fail(path, "expected an integer, found %s", jsonKind(v))
			return
		}
		i, err := strconv.ParseInt(n.String(), 10, 32)
		if err != nil {
			d.fail(path, "expected an integer, found %s", n)
			return
		}
		rv.SetInt(i)
	case reflect.Float64:
		n, ok := v.(json.Number)
		if !ok {
			d.fail(path, "expected a number, found %s", jsonKind(v))
			return
		}
		f, err := n.Float64()
		if err != nil {
			d.fail(path, "the number %s is out of range", n)
			return
		}
		rv.SetFloat(f)
	default:
		d.fail(path, "internal: no decoding rule for %s", t)
	}
}

// decodeXCell decodes the scalar forms of a worksheet cell or its object
// form.
func (d *decoder) decodeXCell(path string, v any, rv reflect.Value, depth int) {
	x := XCell{}
	switch v := v.(type) {
	case nil:
	case string:
		x.setString(v)
	case bool:
		x.Kind, x.Bool = "bool", v
	case json.Number:
		f, err := v.Float64()
		if err != nil {
			d.fail(path, "the number %s is out of range", v)
			return
		}
		x.Kind, x.Number = "number", f
	case map[string]any:
		var o xcellObject
		d.decode(path, v, reflect.ValueOf(&o).Elem(), depth)
		x.setObject(&o)
	default:
		d.fail(path, "expected a cell value (string, number, boolean, null or object), found %s", jsonKind(v))
		return
	}
	rv.Set(reflect.ValueOf(x))
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
		x.setString(s)
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
		x.setObject(&o)
	default:
		x.Kind = "number"
		return json.Unmarshal(b, &x.Number)
	}
	return nil
}

// setString sets the string form: a formula when it starts with "=".
func (x *XCell) setString(s string) {
	if f, ok := strings.CutPrefix(s, "="); ok {
		x.Kind, x.Formula = "formula", f
	} else {
		x.Kind, x.Text = "text", s
	}
}

// setObject sets the object form; two values make the kind "conflict".
func (x *XCell) setObject(o *xcellObject) {
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
	switch {
	case n > 1:
		x.Kind = "conflict"
	case n == 0:
		x.Kind = "novalue"
	}
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
