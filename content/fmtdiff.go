package content

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/editaudit/editaudit/internal/plural"
)

// boolProp and valueProp name the formatting properties compared, in the
// order they are reported.
var boolProps = []struct {
	name string
	get  func(Format) bool
}{
	{"bold", func(f Format) bool { return f.Bold }},
	{"italic", func(f Format) bool { return f.Italic }},
	{"underline", func(f Format) bool { return f.Underline }},
	{"strikethrough", func(f Format) bool { return f.Strike }},
}

var valueProps = []struct {
	name, none string
	get        func(Format) string
	lossy      bool // going from a value to none loses emphasis
}{
	{"font", "the default font", func(f Format) string { return f.Font }, false},
	{"size", "the default size", func(f Format) string { return f.Size }, false},
	{"colour", "automatic", func(f Format) string { return f.Color }, true},
	{"highlight", "none", func(f Format) string { return f.Highlight }, true},
	{"style", "none", func(f Format) string { return f.Style }, false},
}

// boolStat counts the runs of the original that lost or gained a
// property.
type boolStat struct {
	lost, gained         int
	lastLost, lastGained int  // run index last counted
	lostToPlain          bool // every run that lost it became plain
}

// valueStat counts the runs per transition of a valued property.
type valueStat struct {
	counts map[[2]string]int
	order  [][2]string
	last   map[[2]string]int
}

// fmtDiff is the formatting difference of one unit.
type fmtDiff struct {
	bools  []boolStat
	values []valueStat
	styleA string // paragraph style before and after, when it changed
	styleB string
	style  bool
	any    bool
	// styleLabel and styleNone name Format.Style in descriptions
	// ("style", "none"; Excel: "number format", "General").
	styleLabel, styleNone string
}

func newFmtDiff() *fmtDiff {
	d := &fmtDiff{bools: make([]boolStat, len(boolProps)), values: make([]valueStat, len(valueProps))}
	for i := range d.bools {
		d.bools[i] = boolStat{lastLost: -1, lastGained: -1, lostToPlain: true}
	}
	return d
}

// styleName shows a paragraph or character style.
func styleName(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// compareFormats compares the formatting of ua and ub over the text they
// share (segments of byte offsets; nil for the whole text when equal).
func compareFormats(ua, ub *unit, fa, fb *formatTable, shared []segment) *fmtDiff {
	d := newFmtDiff()
	if ua.style != ub.style {
		d.style, d.styleA, d.styleB, d.any = true, ua.style, ub.style, true
	}
	if shared == nil {
		shared = []segment{{0, 0, len(ua.text)}}
	}
	startsA := runStarts(ua.runs)
	startsB := runStarts(ub.runs)
	for _, s := range shared {
		p := 0
		for p < s.n {
			ia := runAt(startsA, s.a+p)
			ib := runAt(startsB, s.b+p)
			if ia < 0 || ib < 0 {
				break
			}
			endA := startsA[ia] + int(ua.runs[ia].n)
			endB := startsB[ib] + int(ub.runs[ib].n)
			n := min(endA-(s.a+p), endB-(s.b+p), s.n-p)
			if n <= 0 {
				break
			}
			f1, f2 := fa.list[ua.runs[ia].f], fb.list[ub.runs[ib].f]
			if f1 != f2 && hasInk(ua.text[s.a+p:s.a+p+n]) {
				d.record(ia, f1, f2)
			}
			p += n
		}
	}
	return d
}

func (d *fmtDiff) record(ia int, f1, f2 Format) {
	for k, bp := range boolProps {
		v1, v2 := bp.get(f1), bp.get(f2)
		st := &d.bools[k]
		switch {
		case v1 && !v2:
			d.any = true
			if st.lastLost != ia {
				st.lost++
				st.lastLost = ia
			}
			if !f2.plain() {
				st.lostToPlain = false
			}
		case !v1 && v2:
			d.any = true
			if st.lastGained != ia {
				st.gained++
				st.lastGained = ia
			}
		}
	}
	for k, vp := range valueProps {
		v1, v2 := vp.get(f1), vp.get(f2)
		if v1 == v2 {
			continue
		}
		d.any = true
		st := &d.values[k]
		if st.counts == nil {
			st.counts, st.last = map[[2]string]int{}, map[[2]string]int{}
		}
		key := [2]string{v1, v2}
		if _, seen := st.counts[key]; !seen {
			st.order = append(st.order, key)
			st.last[key] = -1
		}
		if st.last[key] != ia {
			st.counts[key]++
			st.last[key] = ia
		}
	}
}

// lost reports whether the unit lost emphasis: a run lost bold, italic,
// underline or strikethrough, or its colour or highlight was reset.
func (d *fmtDiff) lost() bool {
	for _, b := range d.bools {
		if b.lost > 0 {
			return true
		}
	}
	for k, vp := range valueProps {
		if !vp.lossy {
			continue
		}
		for _, key := range d.values[k].order {
			if key[0] != "" && key[1] == "" {
				return true
			}
		}
	}
	return false
}

// describe returns the before and after properties and the detail
// ("3 bold runs became plain; font Arial → Calibri on 2 runs"); one and
// many name what is counted ("run", "runs").
func (d *fmtDiff) describe(one, many string) (before, after, detail string) {
	var bs, as, ds []string
	if d.style {
		bs = append(bs, "paragraph style "+styleName(d.styleA))
		as = append(as, "paragraph style "+styleName(d.styleB))
		ds = append(ds, fmt.Sprintf("paragraph style %s → %s", styleName(d.styleA), styleName(d.styleB)))
	}
	for k, bp := range boolProps {
		st := d.bools[k]
		if st.lost > 0 {
			bs = append(bs, bp.name)
			as = append(as, "not "+bp.name)
			if st.lostToPlain {
				ds = append(ds, fmt.Sprintf("%s became plain", plural.Of(st.lost, bp.name+" "+one, bp.name+" "+many)))
			} else {
				ds = append(ds, fmt.Sprintf("%s removed from %s", bp.name, plural.Of(st.lost, one, many)))
			}
		}
		if st.gained > 0 {
			bs = append(bs, "not "+bp.name)
			as = append(as, bp.name)
			ds = append(ds, fmt.Sprintf("%s added to %s", bp.name, plural.Of(st.gained, one, many)))
		}
	}
	for k, vp := range valueProps {
		st := d.values[k]
		if len(st.order) == 0 {
			continue
		}
		if vp.name == "style" && d.styleLabel != "" {
			vp.name, vp.none = d.styleLabel, d.styleNone
		}
		keys := append([][2]string(nil), st.order...)
		sort.SliceStable(keys, func(i, j int) bool { return st.counts[keys[i]] > st.counts[keys[j]] })
		show := func(v string) string {
			if v == "" {
				return vp.none
			}
			return v
		}
		var trans []string
		for i, key := range keys {
			if i == 2 {
				trans = append(trans, fmt.Sprintf("%d more", len(keys)-2))
				break
			}
			trans = append(trans, fmt.Sprintf("%s → %s on %s", show(key[0]), show(key[1]), plural.Of(st.counts[key], one, many)))
			if i == 0 {
				bs = append(bs, vp.name+" "+show(key[0]))
				as = append(as, vp.name+" "+show(key[1]))
			}
		}
		ds = append(ds, vp.name+" "+strings.Join(trans, ", "))
	}
	return strings.Join(bs, "; "), strings.Join(as, "; "), strings.Join(ds, "; ")
}

// runStarts returns the byte offset of each run.
func runStarts(runs []run) []int {
	out := make([]int, len(runs))
	off := 0
	for i, r := range runs {
		out[i] = off
		off += int(r.n)
	}
	return out
}

// runAt returns the run holding byte off, or -1.
func runAt(starts []int, off int) int {
	i := sort.SearchInts(starts, off+1) - 1
	if i < 0 {
		return -1
	}
	return i
}

// hasInk reports whether s has a character that is not whitespace:
// formatting of spaces alone is not reported.
func hasInk(s string) bool {
	for _, r := range s {
		if !unicode.IsSpace(r) && r != utf8.RuneError {
			return true
		}
	}
	return false
}
