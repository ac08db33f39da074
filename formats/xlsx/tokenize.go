package xlsx

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind classifies the tokens of a formula as stored in a file
// (ISO/IEC 29500-1 §18.17.2, formula grammar; MS-XLSX §2.2.2).
type tokKind int

const (
	tokOp         tokKind = iota // an operator or punctuation character
	tokSpace                     // whitespace (the intersection operator)
	tokString                    // "text", with "" inside
	tokSheet                     // 'quoted sheet name'
	tokBracket                   // [...]: a structured reference or external book index
	tokError                     // #REF!, #N/A, …
	tokNumber                    // 1.5E+3
	tokWord                      // a name, cell reference, TRUE/FALSE…
	tokFunc                      // a word directly followed by "(": a function name
	tokOpen                      // (
	tokClose                     // )
	tokComma                     // ,
	tokSemi                      // ;
	tokBraceOpen                 // {
	tokBraceClose                // }
)

// token is one lexical unit; Pos is its byte offset in the formula.
type token struct {
	Kind tokKind
	Text string
	Pos  int
	// Depth is the brace depth (array constant nesting) at the token.
	Depth int
}

// errorLiterals are the error values a formula can hold (§18.17.2.3 plus
// the dynamic-array era ones).
var errorLiterals = []string{"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A",
	"#GETTING_DATA", "#SPILL!", "#CALC!", "#FIELD!", "#BLOCKED!", "#BUSY!", "#CONNECT!", "#UNKNOWN!", "#PYTHON!"}

// tokenize splits a formula into tokens. It never fails: unterminated
// strings or brackets run to the end of the text. Strings, quoted sheet
// names and bracketed references are single tokens, so separators and
// names inside them are never mistaken for formula syntax.
func tokenize(f string) []token {
	var toks []token
	depth := 0
	emit := func(k tokKind, start, end int) {
		toks = append(toks, token{Kind: k, Text: f[start:end], Pos: start, Depth: depth})
	}
	i := 0
	for i < len(f) {
		c := f[i]
		start := i
		switch {
		case c == '"':
			i = quotedEnd(f, i, '"')
			emit(tokString, start, i)
		case c == '\'':
			i = quotedEnd(f, i, '\'')
			emit(tokSheet, start, i)
		case c == '[':
			i = bracketEnd(f, i)
			emit(tokBracket, start, i)
		case c == '#':
			n := 1
			for _, e := range errorLiterals {
				if len(f)-i >= len(e) && strings.EqualFold(f[i:i+len(e)], e) {
					n = len(e)
					break
				}
			}
			i += n
			if n > 1 {
				emit(tokError, start, i)
			} else {
				emit(tokOp, start, i)
			}
		case c == ' ' || c == '\n' || c == '\r' || c == '\t':
			for i < len(f) && (f[i] == ' ' || f[i] == '\n' || f[i] == '\r' || f[i] == '\t') {
				i++
			}
			emit(tokSpace, start, i)
		case c == '(':
			i++
			emit(tokOpen, start, i)
		case c == ')':
			i++
			emit(tokClose, start, i)
		case c == ',':
			i++
			emit(tokComma, start, i)
		case c == ';':
			i++
			emit(tokSemi, start, i)
		case c == '{':
			i++
			emit(tokBraceOpen, start, i)
			depth++
		case c == '}':
			if depth > 0 {
				depth--
			}
			i++
			emit(tokBraceClose, start, i)
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(f) && f[i+1] >= '0' && f[i+1] <= '9':
			i = numberEnd(f, i)
			// A digit run followed by word characters is a word (a row
			// range such as 1:1 stays a number; "2A" is not real anyway).
			if i < len(f) && isWordStart(f, i) {
				i = wordEnd(f, i)
				emit(tokWord, start, i)
			} else {
				emit(tokNumber, start, i)
			}
		case isWordStart(f, i):
			i = wordEnd(f, i)
			if i < len(f) && f[i] == '(' {
				emit(tokFunc, start, i)
			} else {
				emit(tokWord, start, i)
			}
		default:
			_, size := utf8.DecodeRuneInString(f[i:])
			i += size
			emit(tokOp, start, i)
		}
	}
	return toks
}

// quotedEnd returns the index after the closing quote q of a literal
// starting at i (a doubled quote is an escaped one).
func quotedEnd(f string, i int, q byte) int {
	i++
	for i < len(f) {
		if f[i] == q {
			if i+1 < len(f) && f[i+1] == q {
				i += 2
				continue
			}
			return i + 1
		}
		i++
	}
	return len(f)
}

// bracketEnd returns the index after the bracket that closes the one at
// i. Brackets nest (Table1[[#This Row],[Col]]) and "'" escapes the next
// character inside them (§18.17.6.3 structured references).
func bracketEnd(f string, i int) int {
	d := 0
	for i < len(f) {
		switch f[i] {
		case '\'':
			i++
		case '[':
			d++
		case ']':
			d--
			if d == 0 {
				return i + 1
			}
		}
		i++
	}
	return len(f)
}

func numberEnd(f string, i int) int {
	for i < len(f) && (f[i] >= '0' && f[i] <= '9' || f[i] == '.') {
		i++
	}
	if i < len(f) && (f[i] == 'e' || f[i] == 'E') {
		j := i + 1
		if j < len(f) && (f[j] == '+' || f[j] == '-') {
			j++
		}
		if j < len(f) && f[j] >= '0' && f[j] <= '9' {
			for j < len(f) && f[j] >= '0' && f[j] <= '9' {
				j++
			}
			return j
		}
	}
	return i
}

// isWordStart: names start with a letter, "_", "\" or "$" (absolute
// references); name characters add digits, ".", "?" (MS-XLSX §2.2.2).
func isWordStart(f string, i int) bool {
	r, _ := utf8.DecodeRuneInString(f[i:])
	return unicode.IsLetter(r) || r == '_' || r == '\\' || r == '$'
}

func wordEnd(f string, i int) int {
	for i < len(f) {
		r, size := utf8.DecodeRuneInString(f[i:])
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '\\' || r == '$' || r == '.' || r == '?') {
			break
		}
		i += size
	}
	return i
}
