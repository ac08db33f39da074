package formats

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// EscapeName makes a file name or path printable in JSON without losing
// bytes. A Linux file name may be any bytes, but a JSON string is UTF-8
// (RFC 8259 §8.1): encoding/json replaces each invalid byte with U+FFFD,
// so two different names could print the same and none could be found
// again. A valid UTF-8 name is returned unchanged; in any other, every
// byte that is not part of a valid UTF-8 sequence is written %XX and
// every '%' as %25, which is reversible.
func EscapeName(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, "%%%02X", s[i])
		case r == '%':
			b.WriteString("%25")
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
