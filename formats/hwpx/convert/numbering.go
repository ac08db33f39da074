package convert

import (
	"strconv"
	"strings"
)

// counters keeps the paragraph numbering state of one document: numbering
// id → the current number of each level (1-based levels).
type counters map[int]*[11]int

// next advances level (1..10) of numbering id and returns the prefix text
// the paragraph head shows, "" when the numbering has no head there.
func (c counters) next(nm *numbering, id, level int) string {
	if nm == nil || level < 1 || level > 10 {
		return ""
	}
	st := c[id]
	if st == nil {
		st = &[11]int{}
		c[id] = st
	}
	head, ok := nm.heads[level]
	if !ok {
		return ""
	}
	if st[level] == 0 {
		st[level] = head.start
	} else {
		st[level]++
	}
	for l := level + 1; l < len(st); l++ {
		st[l] = 0
	}
	t := head.text
	var b strings.Builder
	for i := 0; i < len(t); i++ {
		if t[i] == '^' && i+1 < len(t) {
			d := t[i+1]
			lv := 0
			switch {
			case d >= '1' && d <= '9':
				lv = int(d - '0')
			case d == 'N' || d == 'n':
				lv = level
			}
			if lv > 0 {
				v := st[lv]
				if v == 0 {
					v = 1
				}
				f := head.format
				if h, ok := nm.heads[lv]; ok {
					f = h.format
				}
				b.WriteString(formatNumber(v, f))
				i++
				continue
			}
		}
		b.WriteByte(t[i])
	}
	return b.String()
}

// formatNumber writes n in an OWPML number format (HWPX NumberType).
func formatNumber(n int, format string) string {
	seq := func(set []string) string {
		if n < 1 {
			return strconv.Itoa(n)
		}
		return set[(n-1)%len(set)]
	}
	switch strings.ToUpper(format) {
	case "CIRCLED_DIGIT":
		if n >= 1 && n <= 20 {
			return string(rune('①' + n - 1))
		}
	case "ROMAN_CAPITAL":
		return roman(n)
	case "ROMAN_SMALL":
		return strings.ToLower(roman(n))
	case "LATIN_CAPITAL":
		return seq(strings.Split("ABCDEFGHIJKLMNOPQRSTUVWXYZ", ""))
	case "LATIN_SMALL":
		return seq(strings.Split("abcdefghijklmnopqrstuvwxyz", ""))
	case "CIRCLED_LATIN_SMALL":
		return seq(strings.Split("ⓐⓑⓒⓓⓔⓕⓖⓗⓘⓙⓚⓛⓜⓝⓞⓟⓠⓡⓢⓣⓤⓥⓦⓧⓨⓩ", ""))
	case "CIRCLED_LATIN_CAPITAL":
		return seq(strings.Split("ⒶⒷⒸⒹⒺⒻⒼⒽⒾⒿⓀⓁⓂⓃⓄⓅⓆⓇⓈⓉⓊⓋⓌⓍⓎⓏ", ""))
	case "HANGUL_SYLLABLE":
		return seq(strings.Split("가나다라마바사아자차카타파하", ""))
	case "CIRCLED_HANGUL_SYLLABLE":
		return seq(strings.Split("㉮㉯㉰㉱㉲㉳㉴㉵㉶㉷㉸㉹㉺㉻", ""))
	case "HANGUL_JAMO":
		return seq(strings.Split("ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ", ""))
	case "CIRCLED_HANGUL_JAMO":
		return seq(strings.Split("㉠㉡㉢㉣㉤㉥㉦㉧㉨㉩㉪㉫㉬㉭", ""))
	case "IDEOGRAPH":
		return seq(strings.Split("一二三四五六七八九十", ""))
	case "CIRCLED_IDEOGRAPH":
		return seq(strings.Split("㊀㊁㊂㊃㊄㊅㊆㊇㊈㊉", ""))
	}
	return strconv.Itoa(n)
}

func roman(n int) string {
	if n < 1 || n > 3999 {
		return strconv.Itoa(n)
	}
	vals := []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
	syms := []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}
	var b strings.Builder
	for i, v := range vals {
		for n >= v {
			b.WriteString(syms[i])
			n -= v
		}
	}
	return b.String()
}
