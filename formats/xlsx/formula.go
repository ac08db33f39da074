package xlsx

import (
	"fmt"
	"sort"
	"strings"

	"github.com/editaudit/editaudit/formats"
)

// analysis is what one formula's tokens say about the checks.
type analysis struct {
	// semis are the ';' tokens outside array constants.
	semis []token
	// badBind are LET/LAMBDA names bound without _xlpm.; badUse the
	// names (bound with or without it) used without it.
	badBind, badUse []string
	// future are functions newer than Excel 2007 written without _xlfn.;
	// xlws those written _xlfn.X where Excel writes _xlfn._xlws.X.
	future, xlws []string
	// localized pairs a localized function name with its English name.
	localized [][2]string
	// outer is the upper-case, prefix-free name of the function whose call
	// is the whole formula ("" when the formula is anything else).
	outer string
	// fixed is the formula with every repair applied.
	fixed string
	// dangling is the binary operator the formula ends with ("" when it
	// does not): no operand follows it, so the formula cannot be parsed.
	dangling string
}

// edit replaces f[pos:pos+del] with ins.
type edit struct {
	pos, del int
	ins      string
}

// frame is an open parenthesis while walking the tokens.
type frame struct {
	fn    string  // upper-case prefix-free function name; "" for a plain "("
	at    int     // index of the function token (or the "(")
	depth int     // brace depth at the "("
	args  [][]int // non-space token indices of each argument
}

// splitPrefix strips the storage prefixes of a function name (MS-XLSX
// §2.2.2: _xlfn. for future functions, _xlfn._xlws. for worksheet-only
// ones, _xlpm. for LET/LAMBDA parameters, _xll. for add-in functions,
// _xludf. for user-defined ones, _xleta. for eta-reduced lambdas).
func splitPrefix(name string) (prefix, base string) {
	u := strings.ToUpper(name)
	for _, p := range []string{"_XLFN._XLWS.", "_XLFN.", "_XLWS.", "_XLPM.", "_XLL.", "_XLUDF.", "_XLETA."} {
		if strings.HasPrefix(u, p) {
			return p, u[len(p):]
		}
	}
	return "", u
}

// analyze tokenizes formula f and works out every formula-level defect.
// names are the workbook's defined names (upper case): a defined name may
// be called like a function (a named LAMBDA).
func analyze(f string, names map[string]bool) analysis {
	var a analysis
	toks := tokenize(f)
	var edits []edit

	// Pass 1: the call structure. LET(name1, value1, …, calculation) binds
	// its odd arguments but the last; LAMBDA(param1, …, calculation) binds
	// all but the last.
	// first and last are the first and last non-space tokens; firstClose
	// the ")" closing a call that starts at first.
	first, last, firstClose := -1, -1, -1
	for i, t := range toks {
		if t.Kind != tokSpace {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	var bound map[string]bool // names bound by LET/LAMBDA (nil: none)
	var bindTok map[int]bool  // token indices of the bindings
	var stack []*frame
	for i, t := range toks {
		switch t.Kind {
		case tokOpen:
			fr := &frame{at: i, depth: t.Depth, args: [][]int{nil}}
			if i > 0 && toks[i-1].Kind == tokFunc {
				_, fr.fn = splitPrefix(toks[i-1].Text)
				fr.at = i - 1
			}
			stack = append(stack, fr)
			continue
		case tokComma:
			if n := len(stack); n > 0 && stack[n-1].depth == t.Depth {
				stack[n-1].args = append(stack[n-1].args, nil)
				continue
			}
		case tokClose:
			if n := len(stack); n > 0 {
				fr := stack[n-1]
				stack = stack[:n-1]
				if fr.at == first {
					firstClose = i
				}
				last := len(fr.args) - 1
				for ai, arg := range fr.args {
					if ai == last || len(arg) != 1 || toks[arg[0]].Kind != tokWord {
						continue
					}
					if (fr.fn == "LET" && ai%2 == 0) || fr.fn == "LAMBDA" {
						w := toks[arg[0]].Text
						p, base := splitPrefix(w)
						if p != "_XLPM." {
							base = strings.ToUpper(w)
							a.badBind = appendOnce(a.badBind, w)
							edits = append(edits, edit{pos: toks[arg[0]].Pos, ins: "_xlpm."})
						}
						if bound == nil {
							bound, bindTok = map[string]bool{}, map[int]bool{}
						}
						bound[base] = true
						bindTok[arg[0]] = true
					}
				}
				continue
			}
		}
		if n := len(stack); n > 0 && t.Kind != tokSpace {
			fr := stack[n-1]
			fr.args[len(fr.args)-1] = append(fr.args[len(fr.args)-1], i)
		}
	}

	// Pass 2: names and function calls.
	for i, t := range toks {
		qualified := i > 0 && toks[i-1].Kind == tokOp && toks[i-1].Text == "!"
		switch t.Kind {
		case tokSemi:
			// ';' separates rows only inside an array constant {1,2;3,4}
			// (§18.17.2.2); anywhere else it is a localized argument
			// separator the file format does not have.
			if t.Depth == 0 {
				a.semis = append(a.semis, t)
				edits = append(edits, edit{pos: t.Pos, del: 1, ins: ","})
			}
		case tokWord:
			if qualified || bindTok[i] {
				continue
			}
			if p, _ := splitPrefix(t.Text); p == "" && bound[strings.ToUpper(t.Text)] {
				a.badUse = appendOnce(a.badUse, t.Text)
				edits = append(edits, edit{pos: t.Pos, ins: "_xlpm."})
			}
		case tokFunc:
			if qualified {
				continue
			}
			p, base := splitPrefix(t.Text)
			switch {
			case p == "" && bound[base]:
				// A LET-bound LAMBDA called by its bare name.
				a.badUse = appendOnce(a.badUse, t.Text)
				edits = append(edits, edit{pos: t.Pos, ins: "_xlpm."})
			case p == "" && names[base]:
				// A named LAMBDA (or a macro) called like a function.
			case p == "" && futureFunctions[base]:
				a.future = appendOnce(a.future, base)
				edits = append(edits, edit{pos: t.Pos, ins: futurePrefix(base)})
			case p == "" && !builtinFunctions[base] && localizedFunctions[base] != "":
				en := localizedFunctions[base]
				a.localized = append(a.localized, [2]string{t.Text, en})
				if futureFunctions[en] {
					en = futurePrefix(en) + en
				}
				edits = append(edits, edit{pos: t.Pos, del: len(t.Text), ins: en})
			case p == "_XLFN." && worksheetOnly[base]:
				a.xlws = appendOnce(a.xlws, base)
				edits = append(edits, edit{pos: t.Pos + len("_xlfn."), ins: "_xlws."})
			}
		}
	}

	// The outermost call: the first and last non-space tokens are a
	// function name and its closing parenthesis.
	if first >= 0 && toks[first].Kind == tokFunc && firstClose == last {
		_, a.outer = splitPrefix(toks[first].Text)
	}
	if last >= 0 && toks[last].Kind == tokOp && strings.Contains("=<>&+-*/^", toks[last].Text) && toks[last].Text != "" {
		a.dangling = toks[last].Text
	}
	a.fixed = apply(f, edits)
	return a
}

// futurePrefix is the prefix a future function is stored with.
func futurePrefix(base string) string {
	if worksheetOnly[base] {
		return "_xlfn._xlws."
	}
	return "_xlfn."
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// apply performs non-overlapping edits on f.
func apply(f string, edits []edit) string {
	if len(edits) == 0 {
		return f
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].pos < edits[j].pos })
	var b strings.Builder
	at := 0
	for _, e := range edits {
		if e.pos < at {
			continue
		}
		b.WriteString(f[at:e.pos])
		b.WriteString(e.ins)
		at = e.pos + e.del
	}
	b.WriteString(f[at:])
	return b.String()
}

// formulaSite says where a formula lives, for findings.
type formulaSite struct {
	part, locator string
	locFn         func() string // computes locator lazily when set
	line, col     int
	// where names the place for people and anchors: "Sheet1!B3",
	// "defined name Rate", "conditional format on Sheet1!A1:A9".
	where string
}

// checkFormula reports the formula-level defects of text at site and
// returns the analysis (the caller checks cell-only rules with it).
func (in *inspector) checkFormula(site formulaSite, text string) analysis {
	a := analyze(text, in.definedNames)
	if len(a.semis)+len(a.localized)+len(a.badBind)+len(a.badUse)+len(a.future)+len(a.xlws) == 0 && a.dangling == "" {
		return a
	}
	shown := clip(text, 160)
	anchor := site.where + " =" + clip(text, 200)
	fix := "write the formula as: " + clip(a.fixed, 400)
	add := func(code string, g formats.Grade, msg string) {
		loc := site.locator
		if site.locFn != nil {
			loc = site.locFn()
		}
		in.add(formats.Finding{Code: code, Grade: g, Part: site.part, Line: site.line, Column: site.col,
			Locator: loc, Anchor: anchor, Message: msg, Fix: fix})
	}
	if a.dangling != "" {
		// CellRules (CodeFormulaSyntax): XlsxWriter#962, PHP_XLSXWriter#147:
		// text starting with "=" written as a formula; Excel cannot parse it
		// and repairs the workbook.
		loc := site.locator
		if site.locFn != nil {
			loc = site.locFn()
		}
		in.add(formats.Finding{Code: CodeFormulaSyntax, Grade: formats.Fatal, Part: site.part, Line: site.line, Column: site.col,
			Locator: loc, Anchor: anchor,
			Message: fmt.Sprintf("%s: the formula =%s ends with the operator %q, so it cannot be parsed; this is usually text that starts with \"=\" written as a formula, and Excel reports unreadable content and repairs the workbook", site.where, shown, a.dangling),
			Fix:     "if the text is not a formula, store it as a string cell (t=\"inlineStr\" or a shared string; openpyxl: cell.data_type = \"s\"); otherwise complete the expression after the operator"})
	}
	if len(a.semis) > 0 {
		// DEFECTS.md (confirmed): a file stores formulas with "," between
		// arguments (§18.17.2); ";" is the separator of some localized UIs
		// and Excel removes the formula while repairing the workbook.
		add(CodeSeparator, formats.Fatal, fmt.Sprintf(
			"%s: the formula =%s uses ';' as argument separator (first at character %d); files store formulas with ',' (the ';' of localized Excel versions is not part of the file format), so Excel cannot parse it and removes it while repairing the workbook",
			site.where, shown, a.semis[0].Pos+1))
	}
	if len(a.localized) > 0 {
		// DEFECTS.md (confirmed): function names are stored in English;
		// a localized name is unknown to the parser and the formula is
		// removed in the repair.
		var parts []string
		for _, l := range a.localized {
			parts = append(parts, l[0]+" (English "+l[1]+")")
		}
		if in.macros {
			// In a macro-enabled workbook a call of an unknown name can be a
			// VBA user-defined function, stored by its bare name: not fatal.
			add(CodeLocalized, formats.Warning, fmt.Sprintf(
				"%s: the formula =%s calls %s: the name of a localized Excel function; files store English function names only, so unless the workbook's VBA project defines a function of this name, Excel cannot read the formula and removes it while repairing the workbook",
				site.where, shown, strings.Join(parts, ", ")))
		} else {
			add(CodeLocalized, formats.Fatal, fmt.Sprintf(
				"%s: the formula =%s calls %s: a localized function name; files store English function names only, so Excel cannot read the formula and removes it while repairing the workbook",
				site.where, shown, strings.Join(parts, ", ")))
		}
	}
	if len(a.badBind)+len(a.badUse) > 0 {
		// xlsx.let-without-xlpm. Excel stores LET/LAMBDA parameter names as
		// _xlpm.name, both where bound and where used (MS-XLSX §2.2.2;
		// XlsxWriter docs "The Excel 365 LAMBDA() function"). Evidence is
		// disputed in public: one production pipeline reports Excel will
		// not open the workbook, exceljs#2838 reports a repair that removes
		// the formula, others #NAME?. DEFECTS.md grades it fatal.
		var names []string
		for _, n := range append(append([]string(nil), a.badBind...), a.badUse...) {
			names = appendOnce(names, n)
		}
		add(CodeLetXlpm, formats.Fatal, fmt.Sprintf(
			"%s: the formula =%s names LET/LAMBDA parameters without the _xlpm. prefix (%s); Excel stores them as _xlpm.name wherever they are bound or used. Reported effects differ (Excel refusing the workbook, a repair that removes the formula as in exceljs#2838, or #NAME?); treat it as breaking the file",
			site.where, shown, strings.Join(names, ", ")))
	}
	if len(a.future) > 0 {
		// Microsoft support, "Issue: An _xlfn. prefix is displayed in front
		// of a formula"; MS-XLSX §2.2.3: functions added after Excel 2007
		// are stored with _xlfn. (FILTER, SORT and PY with _xlfn._xlws.).
		// Without it Excel treats the name as unknown: #NAME? (SILENT).
		var stored []string
		for _, f := range a.future {
			stored = append(stored, futurePrefix(f)+f)
		}
		add(CodeFuturePrefix, formats.Error, fmt.Sprintf(
			"%s: the formula =%s calls %s without the storage prefix; functions newer than Excel 2007 are stored as %s, and without it Excel shows #NAME? in the cell",
			site.where, shown, strings.Join(a.future, ", "), strings.Join(stored, ", ")))
	}
	if len(a.xlws) > 0 {
		// MS-XLSX §2.2.3 lists FILTER, PY and SORT only as _xlfn._xlws.X.
		// What Excel does with _xlfn.FILTER is not documented: warning.
		add(CodeXlwsPrefix, formats.Warning, fmt.Sprintf(
			"%s: the formula =%s writes %s with _xlfn. only; Excel stores these worksheet-only functions as _xlfn._xlws.NAME and may not recognise the shorter form",
			site.where, shown, strings.Join(a.xlws, ", ")))
	}
	return a
}
