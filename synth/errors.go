package synth

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// SpecError is one problem in a spec, located by its JSON path
// ("$.docx.body[3].table.rows[2].cells[1]"). Cap is the cap the value
// exceeds, when a cap is what it breaks (0 otherwise).
type SpecError struct {
	Path string
	Msg  string
	Cap  int
}

func (e *SpecError) Error() string { return "synth: spec " + e.Path + ": " + e.Msg }

// SpecErrors is every problem found in a spec: the first MaxListedErrors in
// document order, and how many more there are. It is the error Parse,
// Check and Build return for an invalid spec.
type SpecErrors struct {
	Errors []*SpecError
	// More counts the problems found beyond the listed ones.
	More int
}

func (l *SpecErrors) Error() string {
	var b strings.Builder
	for i, e := range l.Errors {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(e.Error())
	}
	if l.More > 0 {
		fmt.Fprintf(&b, "; and %d more", l.More)
	}
	return b.String()
}

// maxKeptErrors bounds the errors held while a spec is checked: enough to
// sort and list the first MaxListedErrors; past it they are only counted.
const maxKeptErrors = 10000

// errList collects the errors of one pass.
type errList struct {
	list    []*SpecError
	dropped int
}

func (l *errList) add(path string, cap int, format string, a ...any) {
	if len(l.list) >= maxKeptErrors {
		l.dropped++
		return
	}
	l.list = append(l.list, &SpecError{Path: path, Msg: fmt.Sprintf(format, a...), Cap: cap})
}

// mergeErrors joins the decoder's type errors and the validator's errors:
// a validator error at a path where the decoder already found a wrong key
// or type, or at the object holding such a key (an "empty block" whose
// only key was misspelt), says the same thing again and is left out. The
// result is sorted in document order and capped; nil when there is none.
func mergeErrors(decode, validate *errList) error {
	var all []*SpecError
	dropped := 0
	typed := map[string]bool{}
	if decode != nil {
		all = append(all, decode.list...)
		dropped += decode.dropped
		for _, e := range decode.list {
			typed[e.Path] = true
			if parent, ok := parentPath(e.Path); ok {
				typed[parent] = true
			}
		}
	}
	if validate != nil {
		dropped += validate.dropped
		for _, e := range validate.list {
			if !typed[e.Path] {
				all = append(all, e)
			}
		}
	}
	if len(all) == 0 && dropped == 0 {
		return nil
	}
	sort.SliceStable(all, func(i, j int) bool { return pathLess(all[i].Path, all[j].Path) })
	se := &SpecErrors{More: dropped}
	if len(all) > MaxListedErrors {
		se.More += len(all) - MaxListedErrors
		all = all[:MaxListedErrors]
	}
	se.Errors = all
	return se
}

// parentPath is the path of the object that holds the last key of p
// ("$.a.b[2].c" → "$.a.b[2]"); ok is false when p ends in an index.
func parentPath(p string) (string, bool) {
	if strings.HasSuffix(p, "]") {
		return "", false
	}
	i := strings.LastIndexByte(p, '.')
	if i <= 0 {
		return "", false
	}
	return p[:i], true
}

// pathLess orders JSON paths in document order: segment by segment, array
// indexes by number ("[2]" before "[10]"), keys by name, a path before
// the paths inside it.
func pathLess(a, b string) bool {
	sa, sb := splitPath(a), splitPath(b)
	for i := 0; i < len(sa) && i < len(sb); i++ {
		if sa[i] == sb[i] {
			continue
		}
		na, ea := strconv.Atoi(sa[i])
		nb, eb := strconv.Atoi(sb[i])
		switch {
		case ea == nil && eb == nil:
			return na < nb
		case ea == nil:
			return true
		case eb == nil:
			return false
		}
		return sa[i] < sb[i]
	}
	return len(sa) < len(sb)
}

// splitPath splits "$.a[3].b" into "a", "3", "b".
func splitPath(p string) []string {
	p = strings.TrimPrefix(p, "$")
	return strings.FieldsFunc(p, func(r rune) bool { return r == '.' || r == '[' || r == ']' })
}
