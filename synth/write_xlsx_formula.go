package synth

import (
	"fmt"
	"strings"
	"sync"
)

// Formulas in a spec are written as a person types them in Excel
// ("XLOOKUP(A2,B:B,C:C)", "LET(x,A1*2,x+1)"). The file format stores
// functions newer than Excel 2007 with a prefix ("_xlfn.XLOOKUP",
// "_xlfn._xlws.FILTER") and LET/LAMBDA parameter names as "_xlpm.x"
// wherever they are bound or used ([MS-XLSX] 2.2.2 Formulas; without the
// prefixes Excel shows #NAME? or, for LET, repairs the formula away —
// DEFECTS.md). fileFormula adds exactly those prefixes.

// futurePrefixes maps a function name to the prefix the file needs.
var futurePrefixes = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, n := range strings.Fields(`ACOT ACOTH AGGREGATE ARABIC BASE BETA.DIST BETA.INV BINOM.DIST BINOM.DIST.RANGE BINOM.INV
		BITAND BITLSHIFT BITOR BITRSHIFT BITXOR CEILING.MATH CEILING.PRECISE CHISQ.DIST CHISQ.DIST.RT CHISQ.INV
		CHISQ.INV.RT CHISQ.TEST COMBINA CONCAT CONFIDENCE.NORM CONFIDENCE.T COT COTH COVARIANCE.P COVARIANCE.S CSC
		CSCH DAYS DECIMAL ENCODEURL ERF.PRECISE ERFC.PRECISE EXPON.DIST F.DIST F.DIST.RT F.INV F.INV.RT F.TEST
		FILTERXML FLOOR.MATH FLOOR.PRECISE FORECAST.ETS FORECAST.ETS.CONFINT FORECAST.ETS.SEASONALITY
		FORECAST.ETS.STAT FORECAST.LINEAR FORMULATEXT GAMMA GAMMA.DIST GAMMA.INV GAMMALN.PRECISE GAUSS
		HYPGEOM.DIST IFNA IFS IMCOSH IMCOT IMCSC IMCSCH IMSEC IMSECH IMSINH IMTAN ISFORMULA ISOWEEKNUM
		LOGNORM.DIST LOGNORM.INV MAXIFS MINIFS MODE.MULT MODE.SNGL MUNIT NEGBINOM.DIST NORM.DIST NORM.INV
		NORM.S.DIST NORM.S.INV NUMBERVALUE PDURATION PERCENTILE.EXC PERCENTILE.INC PERCENTRANK.EXC
		PERCENTRANK.INC PERMUTATIONA PHI POISSON.DIST QUARTILE.EXC QUARTILE.INC RANK.AVG RANK.EQ RRI SEC SECH
		SHEET SHEETS SKEW.P STDEV.P STDEV.S SWITCH T.DIST T.DIST.2T T.DIST.RT T.INV T.INV.2T T.TEST TEXTJOIN
		UNICHAR UNICODE VAR.P VAR.S WEBSERVICE WEIBULL.DIST XOR Z.TEST
		XLOOKUP XMATCH SEQUENCE RANDARRAY UNIQUE SORTBY LET LAMBDA MAP REDUCE SCAN BYROW BYCOL MAKEARRAY
		ISOMITTED TEXTBEFORE TEXTAFTER TEXTSPLIT VSTACK HSTACK TAKE DROP CHOOSEROWS CHOOSECOLS EXPAND TOCOL
		TOROW WRAPROWS WRAPCOLS ARRAYTOTEXT VALUETOTEXT IMAGE GROUPBY PIVOTBY PERCENTOF TRIMRANGE
		REGEXTEST REGEXEXTRACT REGEXREPLACE STOCKHISTORY`) {
		m[n] = "_xlfn."
	}
	m["FILTER"] = "_xlfn._xlws."
	m["SORT"] = "_xlfn._xlws."
	return m
})

// ftok is one formula token.
type ftok struct {
	kind byte // 'i' identifier, '(' , ')', ',', 's' string, 'q' quoted sheet, '[' structured ref, 'o' other
	text string
}

func tokenizeFormula(f string) ([]ftok, error) {
	var toks []ftok
	for i := 0; i < len(f); {
		c := f[i]
		switch {
		case c == '"':
			j := i + 1
			for {
				if j >= len(f) {
					return nil, fmt.Errorf("formula %q: unterminated string", f)
				}
				if f[j] == '"' {
					if j+1 < len(f) && f[j+1] == '"' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			toks = append(toks, ftok{'s', f[i : j+1]})
			i = j + 1
		case c == '\'':
			j := i + 1
			for {
				if j >= len(f) {
					return nil, fmt.Errorf("formula %q: unterminated sheet name", f)
				}
				if f[j] == '\'' {
					if j+1 < len(f) && f[j+1] == '\'' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			toks = append(toks, ftok{'q', f[i : j+1]})
			i = j + 1
		case c == '[':
			depth, j := 0, i
			for ; j < len(f); j++ {
				if f[j] == '[' {
					depth++
				} else if f[j] == ']' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if j >= len(f) {
				return nil, fmt.Errorf("formula %q: unterminated [", f)
			}
			toks = append(toks, ftok{'[', f[i : j+1]})
			i = j + 1
		case c == '(' || c == ')' || c == ',':
			toks = append(toks, ftok{c, string(c)})
			i++
		case isNameStart(c):
			j := i + 1
			for j < len(f) && isNameChar(f[j]) {
				j++
			}
			toks = append(toks, ftok{'i', f[i:j]})
			i = j
		default:
			toks = append(toks, ftok{'o', string(c)})
			i++
		}
	}
	return toks, nil
}

func isNameStart(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' || c == '\\' || c >= 0x80
}

func isNameChar(c byte) bool {
	return isNameStart(c) || c >= '0' && c <= '9' || c == '.' || c == '$'
}

// stripPrefixes removes _xlfn., _xlws. and _xlpm. from a name.
func stripPrefixes(name string) string {
	for {
		low := strings.ToLower(name)
		switch {
		case strings.HasPrefix(low, "_xlfn."), strings.HasPrefix(low, "_xlws."), strings.HasPrefix(low, "_xlpm."):
			name = name[6:]
		default:
			return name
		}
	}
}

// fileFormula converts a formula as typed (without "=") to its file form.
func fileFormula(f string) (string, error) {
	toks, err := tokenizeFormula(f)
	if err != nil {
		return "", err
	}
	// match[i] is the index of the ')' closing the '(' at i.
	match := make([]int, len(toks))
	var stack []int
	for i, t := range toks {
		switch t.kind {
		case '(':
			stack = append(stack, i)
		case ')':
			if len(stack) == 0 {
				return "", fmt.Errorf("formula %q: unbalanced parentheses", f)
			}
			match[stack[len(stack)-1]] = i
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		return "", fmt.Errorf("formula %q: unbalanced parentheses", f)
	}
	var b strings.Builder
	if err := rewriteRange(&b, toks, match, 0, len(toks), nil); err != nil {
		return "", fmt.Errorf("formula %q: %w", f, err)
	}
	return b.String(), nil
}

// rewriteRange writes toks[start:end]; scope holds the LET/LAMBDA names
// bound around this range (lower case).
func rewriteRange(b *strings.Builder, toks []ftok, match []int, start, end int, scope map[string]bool) error {
	for i := start; i < end; i++ {
		t := toks[i]
		if t.kind != 'i' {
			b.WriteString(t.text)
			continue
		}
		afterSheet := i > 0 && toks[i-1].kind == 'o' && toks[i-1].text == "!"
		if i+1 < end && toks[i+1].kind == '(' {
			j := match[i+1]
			if err := rewriteCall(b, toks, match, i, j, scope); err != nil {
				return err
			}
			i = j
			continue
		}
		nextIsSheet := i+1 < end && toks[i+1].kind == 'o' && toks[i+1].text == "!"
		base := stripPrefixes(t.text)
		if !afterSheet && !nextIsSheet && scope[strings.ToLower(base)] {
			b.WriteString("_xlpm." + base)
			continue
		}
		b.WriteString(t.text)
	}
	return nil
}

// rewriteCall writes the call whose name is toks[i] and whose ')' is at j.
func rewriteCall(b *strings.Builder, toks []ftok, match []int, i, j int, scope map[string]bool) error {
	base := stripPrefixes(toks[i].text)
	upper := strings.ToUpper(base)
	if p, ok := futurePrefixes()[upper]; ok {
		b.WriteString(p + upper)
	} else {
		b.WriteString(toks[i].text)
	}
	b.WriteByte('(')
	// Split the arguments at top-level commas.
	var args [][2]int
	s := i + 2
	for k := i + 2; k < j; k++ {
		switch toks[k].kind {
		case '(':
			k = match[k]
		case ',':
			args = append(args, [2]int{s, k})
			s = k + 1
		}
	}
	args = append(args, [2]int{s, j})
	inner := scope
	bindAt := map[int]bool{} // argument indexes that are parameter names
	switch upper {
	case "LET":
		if len(args) < 3 || len(args)%2 == 0 {
			return fmt.Errorf("LET takes name, value pairs and a final calculation")
		}
		for a := 0; a < len(args)-1; a += 2 {
			bindAt[a] = true
		}
	case "LAMBDA":
		for a := 0; a < len(args)-1; a++ {
			bindAt[a] = true
		}
	}
	if len(bindAt) > 0 {
		inner = map[string]bool{}
		for k := range scope {
			inner[k] = true
		}
	}
	for a, r := range args {
		if a > 0 {
			b.WriteByte(',')
		}
		if bindAt[a] {
			name, lead, trail, ok := singleName(toks[r[0]:r[1]])
			if !ok {
				return fmt.Errorf("%s argument %d must be a name", upper, a+1)
			}
			base := stripPrefixes(name)
			b.WriteString(lead + "_xlpm." + base + trail)
			// LET binds a name for the arguments after it; LAMBDA for its body.
			inner[strings.ToLower(base)] = true
			continue
		}
		if err := rewriteRange(b, toks, match, r[0], r[1], inner); err != nil {
			return err
		}
	}
	b.WriteByte(')')
	return nil
}

// singleName reports whether toks is one identifier, possibly surrounded by
// spaces, and returns it with the spaces.
func singleName(toks []ftok) (name, lead, trail string, ok bool) {
	for _, t := range toks {
		switch {
		case t.kind == 'i' && name == "":
			name = t.text
		case t.kind == 'o' && t.text == " ":
			if name == "" {
				lead += " "
			} else {
				trail += " "
			}
		default:
			return "", "", "", false
		}
	}
	return name, lead, trail, name != ""
}
