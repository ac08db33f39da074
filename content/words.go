package content

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// token is one word, space run or punctuation mark of a unit's text, as a
// byte range.
type token struct{ start, end int }

// isIdeograph: scripts written without spaces between words, where each
// character is its own token (Han, Hiragana, Katakana).
func isIdeograph(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r)
}

// tokenize splits s into words (letters, digits and marks), runs of
// whitespace, and single other characters.
func tokenize(s string) []token {
	var out []token
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		start := i
		i += n
		switch {
		case unicode.IsSpace(r):
			for i < len(s) {
				r2, n2 := utf8.DecodeRuneInString(s[i:])
				if !unicode.IsSpace(r2) {
					break
				}
				i += n2
			}
		case isIdeograph(r):
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			for i < len(s) {
				r2, n2 := utf8.DecodeRuneInString(s[i:])
				if !(unicode.IsLetter(r2) || unicode.IsDigit(r2) || unicode.IsMark(r2)) || isIdeograph(r2) {
					break
				}
				i += n2
			}
		}
		out = append(out, token{start, i})
	}
	return out
}

// tokenHash compares tokens by their normalised text (all whitespace is
// one space).
func tokenHash(s string, t token) uint64 {
	w := s[t.start:t.end]
	r, _ := utf8.DecodeRuneInString(w)
	if unicode.IsSpace(r) {
		return hashString(" ")
	}
	return hashString(normalize(w))
}

// segment is a stretch of text the two versions share: a[a:a+n] == b[b:b+n]
// as tokens.
type segment struct{ a, b, n int }

// wordDiff is the word-level diff of two texts.
type wordDiff struct {
	ops []Op // full, unclipped
	// shared are the byte stretches kept (for the formatting comparison).
	shared []segment
}

// diffWords diffs a and b word by word. Whitespace-only stretches kept
// between two changes are folded into the changes, so "the quick brown
// fox" → "the slow red fox" is one replacement, not two.
func diffWords(a, b string) wordDiff {
	ta, tb := tokenize(a), tokenize(b)
	ha := make([]uint64, len(ta))
	for i, t := range ta {
		ha[i] = tokenHash(a, t)
	}
	hb := make([]uint64, len(tb))
	for j, t := range tb {
		hb[j] = tokenHash(b, t)
	}
	matches := commonSubsequence(ha, hb)
	// Runs of matched tokens.
	type span struct{ ai, aj, bi, bj int } // token ranges a[ai:aj] == b[bi:bj]
	var spans []span
	for _, m := range matches {
		if n := len(spans); n > 0 && spans[n-1].aj == m.i && spans[n-1].bj == m.j {
			spans[n-1].aj++
			spans[n-1].bj++
			continue
		}
		spans = append(spans, span{m.i, m.i + 1, m.j, m.j + 1})
	}
	// Fold whitespace-only spans between changes into the changes.
	kept := spans[:0]
	for k, s := range spans {
		before := k > 0 || s.ai > 0 || s.bi > 0
		after := k < len(spans)-1 || s.aj < len(ta) || s.bj < len(tb)
		if before && after && allSpace(a, ta[s.ai:s.aj]) {
			continue
		}
		kept = append(kept, s)
	}
	spans = kept
	var wd wordDiff
	emit := func(op, text string) {
		if text == "" {
			return
		}
		if n := len(wd.ops); n > 0 && wd.ops[n-1].Op == op {
			wd.ops[n-1].Text += text
			return
		}
		wd.ops = append(wd.ops, Op{Op: op, Text: text})
	}
	byteAt := func(toks []token, i, total int) int {
		if i < len(toks) {
			return toks[i].start
		}
		return total
	}
	pa, pb := 0, 0
	for _, s := range spans {
		emit("-", a[byteAt(ta, pa, len(a)):byteAt(ta, s.ai, len(a))])
		emit("+", b[byteAt(tb, pb, len(b)):byteAt(tb, s.bi, len(b))])
		as, ae := byteAt(ta, s.ai, len(a)), byteAt(ta, s.aj, len(a))
		bs := byteAt(tb, s.bi, len(b))
		emit("=", a[as:ae])
		wd.shared = append(wd.shared, segment{as, bs, ae - as})
		pa, pb = s.aj, s.bj
	}
	emit("-", a[byteAt(ta, pa, len(a)):])
	emit("+", b[byteAt(tb, pb, len(b)):])
	return wd
}

func allSpace(s string, toks []token) bool {
	for _, t := range toks {
		r, _ := utf8.DecodeRuneInString(s[t.start:])
		if !unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// Clipping of a text change's context.
const (
	contextRunes = 40  // kept text shown on each side of a change
	changeRunes  = 300 // longest inserted or deleted piece shown
	textRunes    = 300 // longest before/after text before it is shortened
)

// clipOps shortens the kept pieces of a diff to their context and long
// changed pieces to changeRunes.
func clipOps(ops []Op) []Op {
	out := make([]Op, len(ops))
	for k, o := range ops {
		t := o.Text
		switch {
		case o.Op != "=":
			t = clipMiddle(t, changeRunes)
		case k == 0 && len(ops) > 1:
			t = clipEnd(t, contextRunes)
		case k == len(ops)-1 && len(ops) > 1:
			t = clip(t, contextRunes)
		default:
			t = clipMiddle(t, 2*contextRunes+1)
		}
		out[k] = Op{Op: o.Op, Text: t}
	}
	return out
}

// sideText is the before (or after) text of a diff, shortened around the
// changes when longer than textRunes.
func sideText(ops []Op, side string) string {
	var full strings.Builder
	for _, o := range ops {
		if o.Op == "=" || o.Op == side {
			full.WriteString(o.Text)
		}
	}
	if utf8.RuneCountInString(full.String()) <= textRunes {
		return full.String()
	}
	var b strings.Builder
	for _, o := range clipOps(ops) {
		if o.Op == "=" || o.Op == side {
			b.WriteString(o.Text)
		}
	}
	return b.String()
}

// describeOps says in words what a text diff did.
func describeOps(ops []Op) string {
	var parts []string
	for k := 0; k < len(ops); k++ {
		o := ops[k]
		switch o.Op {
		case "-":
			if k+1 < len(ops) && ops[k+1].Op == "+" {
				parts = append(parts, fmt.Sprintf("replaced %q with %q", quoteText(o.Text), quoteText(ops[k+1].Text)))
				k++
				continue
			}
			parts = append(parts, fmt.Sprintf("deleted %q", quoteText(o.Text)))
		case "+":
			parts = append(parts, fmt.Sprintf("inserted %q", quoteText(o.Text)))
		}
	}
	switch {
	case len(parts) == 0:
		return "whitespace changed"
	case len(parts) > 3:
		return fmt.Sprintf("%d edits: %s; …", len(parts), strings.Join(parts[:3], "; "))
	}
	return strings.Join(parts, "; ")
}

// quoteText prepares a piece for %q: one line, trimmed, at most 60 runes.
func quoteText(s string) string {
	t := strings.TrimSpace(oneLine(s))
	if t == "" && s != "" {
		return s // a whitespace change: show it as it is
	}
	return clipMiddle(t, 60)
}
