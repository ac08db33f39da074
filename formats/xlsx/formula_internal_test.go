package xlsx

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTokenize(t *testing.T) {
	kinds := func(f string) string {
		var b []string
		for _, tk := range tokenize(f) {
			b = append(b, map[tokKind]string{tokOp: "op", tokSpace: "sp", tokString: "str", tokSheet: "sheet",
				tokBracket: "br", tokError: "err", tokNumber: "num", tokWord: "w", tokFunc: "fn", tokOpen: "(",
				tokClose: ")", tokComma: ",", tokSemi: ";", tokBraceOpen: "{", tokBraceClose: "}"}[tk.Kind]+":"+tk.Text)
		}
		return strings.Join(b, " ")
	}
	for _, c := range []struct{ in, want string }{
		{`SUM(A1:B2)`, `fn:SUM (:( w:A1 op:: w:B2 ):)`},
		{`IF(A1="a;b""c",1,2)`, `fn:IF (:( w:A1 op:= str:"a;b""c" ,:, num:1 ,:, num:2 ):)`},
		{`'My ''Sheet'''!$A$1+1.5E+3`, `sheet:'My ''Sheet''' op:! w:$A$1 op:+ num:1.5E+3`},
		{`Table1[[#This Row],[a;b]]`, `w:Table1 br:[[#This Row],[a;b]]`},
		{`T[['[x'],[y]]`, `w:T br:[['[x'],[y]]`},
		{`[1]Sheet1!A1`, `br:[1] w:Sheet1 op:! w:A1`},
		{`{1,2;3,4}`, `{:{ num:1 ,:, num:2 ;:; num:3 ,:, num:4 }:}`},
		{`IFERROR(1/0,#N/A)+#REF!`, `fn:IFERROR (:( num:1 op:/ num:0 ,:, err:#N/A ):) op:+ err:#REF!`},
		{`_xlfn._xlws.SORT(A1:A3)`, `fn:_xlfn._xlws.SORT (:( w:A1 op:: w:A3 ):)`},
		{`A1 B1`, `w:A1 sp:  w:B1`},
		{`SUMME(Ä1)`, `fn:SUMME (:( w:Ä1 ):)`},
		{`"unterminated`, `str:"unterminated`},
		{`1:1`, `num:1 op:: num:1`},
	} {
		if got := kinds(c.in); got != c.want {
			t.Errorf("tokenize(%s)\n got  %s\n want %s", c.in, got, c.want)
		}
	}
}

func TestAnalyze(t *testing.T) {
	names := map[string]bool{"MYFN": true}
	for _, c := range []struct {
		in      string
		fixed   string
		outer   string
		future  []string
		bind    []string
		use     []string
		semis   int
		locales int
	}{
		{in: `SUM(A1:A3)`, fixed: `SUM(A1:A3)`, outer: "SUM"},
		{in: `SUM(A1)+1`, fixed: `SUM(A1)+1`},
		{in: ` _xlfn.UNIQUE(A1:A3) `, fixed: ` _xlfn.UNIQUE(A1:A3) `, outer: "UNIQUE"},
		{in: `XLOOKUP(1,A:A,B:B)`, fixed: `_xlfn.XLOOKUP(1,A:A,B:B)`, outer: "XLOOKUP", future: []string{"XLOOKUP"}},
		{in: `SORT(FILTER(A:A,B:B))`, fixed: `_xlfn._xlws.SORT(_xlfn._xlws.FILTER(A:A,B:B))`, outer: "SORT", future: []string{"SORT", "FILTER"}},
		{in: `"XLOOKUP(1)"&Sheet1!A1`, fixed: `"XLOOKUP(1)"&Sheet1!A1`},
		{in: `MYFN(1)+[1]!CONCAT(2)`, fixed: `MYFN(1)+[1]!CONCAT(2)`},
		{in: `_xlfn.LET(x,1,y,x+1,x*y)`, fixed: `_xlfn.LET(_xlpm.x,1,_xlpm.y,_xlpm.x+1,_xlpm.x*_xlpm.y)`, outer: "LET", bind: []string{"x", "y"}, use: []string{"x", "y"}},
		{in: `_xlfn.LET(_xlpm.x,{1,2;3,4},SUM(_xlpm.x))`, fixed: `_xlfn.LET(_xlpm.x,{1,2;3,4},SUM(_xlpm.x))`, outer: "LET"},
		{in: `_xlfn.LET(_xlpm.a,1,_xlpm.a)+a1`, fixed: `_xlfn.LET(_xlpm.a,1,_xlpm.a)+a1`},
		{in: `_xlfn.MAP(A1:A3,_xlfn.LAMBDA(_xlpm.v,v*2))`, fixed: `_xlfn.MAP(A1:A3,_xlfn.LAMBDA(_xlpm.v,_xlpm.v*2))`, outer: "MAP", use: []string{"v"}},
		{in: `SUMME(A1;A2)`, fixed: `SUM(A1,A2)`, outer: "SUMME", semis: 1, locales: 1},
		{in: `TEXTVERKETTEN(",";1;A:A)`, fixed: `_xlfn.TEXTJOIN(",",1,A:A)`, outer: "TEXTVERKETTEN", semis: 2, locales: 1},
	} {
		a := analyze(c.in, names)
		if a.fixed != c.fixed || a.outer != c.outer || !reflect.DeepEqual(a.future, c.future) ||
			!reflect.DeepEqual(a.badBind, c.bind) || !reflect.DeepEqual(a.badUse, c.use) || len(a.semis) != c.semis || len(a.localized) != c.locales {
			t.Errorf("analyze(%s) = fixed %q outer %q future %v bind %v use %v semis %d localized %v", c.in, a.fixed, a.outer, a.future, a.badBind, a.badUse, len(a.semis), a.localized)
		}
	}
}

// TestLocalizedNamesAreNotEnglish keeps the localized table disjoint from
// the English function names, and its targets real English functions.
func TestLocalizedNamesAreNotEnglish(t *testing.T) {
	for loc, en := range localizedFunctions {
		if builtinFunctions[loc] || futureFunctions[loc] {
			t.Errorf("localized name %s is an English function name", loc)
		}
		if !builtinFunctions[en] && !futureFunctions[en] {
			t.Errorf("localized name %s maps to %s, which is not a known function", loc, en)
		}
		if loc != strings.ToUpper(loc) {
			t.Errorf("localized name %s is not upper case", loc)
		}
	}
	for w := range worksheetOnly {
		if !futureFunctions[w] {
			t.Errorf("%s is worksheet-only but not a future function", w)
		}
	}
	for w := range arrayFunctions {
		if !futureFunctions[w] {
			t.Errorf("%s is an array function but not a future function", w)
		}
	}
	for _, w := range []string{"XLOOKUP", "XMATCH", "FILTER", "SORT", "SORTBY", "UNIQUE", "SEQUENCE", "RANDARRAY", "LET", "LAMBDA",
		"MAP", "REDUCE", "SCAN", "MAKEARRAY", "BYROW", "BYCOL", "ISOMITTED", "TEXTSPLIT", "TEXTBEFORE", "TEXTAFTER", "VSTACK",
		"HSTACK", "TOCOL", "TOROW", "WRAPROWS", "WRAPCOLS", "TAKE", "DROP", "CHOOSEROWS", "CHOOSECOLS", "EXPAND", "IFS",
		"SWITCH", "MAXIFS", "MINIFS", "CONCAT", "TEXTJOIN", "STDEV.S", "STDEV.P", "AGGREGATE", "DAYS", "IFNA", "XOR"} {
		if !futureFunctions[w] || builtinFunctions[w] {
			t.Errorf("%s must be a future function", w)
		}
	}
}

func TestNames(t *testing.T) {
	for s, bad := range map[string]bool{"Table1": false, "_x": false, `\x`: false, "Sales.2024": false, "Données": false,
		"": true, "My Table": true, "1Table": true, "A1": true, "XFD1048576": true, "R1C1": true, "r": true, "C": true, "RC": true,
		"XFE1": false, "Tab-le": true, strings.Repeat("a", 256): true} {
		if got := nameProblem(s) != ""; got != bad {
			t.Errorf("nameProblem(%q) = %q", s, nameProblem(s))
		}
	}
	for s, ok := range map[string]bool{"1": true, "-1.5": true, "1E+10": true, ".5": true, " 2 ": true, "1.": true,
		"": false, "1,5": false, "28.01.2007": false, "NaN": false, "INF": false, "1e": false, "0x10": false, "abc": false} {
		if isNumber(s) != ok {
			t.Errorf("isNumber(%q) = %v", s, !ok)
		}
	}
	if n := excelTextLen("a_x000D_b_xZZZZ_😀"); n != 1+1+1+7+2 {
		t.Errorf("excelTextLen = %d", n)
	}
}

// FuzzAnalyze: any formula text is tokenized and analyzed without a panic,
// the tokens cover the text exactly, and the fix keeps strings intact.
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{`SUM(A1;B1)`, `_xlfn.LET(x,1,x)`, `T[['[x'],[y]]`, `{1;2}`, `"a""b`, `'q''!A1`, `#N/A`, `ÄÖ(1`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b strings.Builder
		for _, tk := range tokenize(s) {
			b.WriteString(tk.Text)
		}
		if b.String() != s {
			t.Fatalf("tokens do not cover %q: %q", s, b.String())
		}
		a := analyze(s, map[string]bool{})
		if utf8.ValidString(s) && !utf8.ValidString(a.fixed) {
			t.Fatalf("fix of %q is not valid UTF-8: %q", s, a.fixed)
		}
	})
}
