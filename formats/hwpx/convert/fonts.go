package convert

import "strings"

// The font families the converter maps Hancom's faces to. Hancom's own
// fonts (함초롬바탕, 한컴바탕, HY신명조, 휴먼명조…) are not free to install, so
// each face goes to the installed family of its kind: Korean serif
// (명조/바탕) faces to Noto Serif CJK KR, Korean sans (고딕/돋움/굴림) faces
// to Noto Sans CJK KR (setup installs fonts-noto-cjk), and the Latin faces
// with metric-compatible Liberation fonts (fonts-liberation2) to those.
const (
	famSerifKR = "Noto Serif CJK KR"
	famSansKR  = "Noto Sans CJK KR"
	famMonoKR  = "Noto Sans Mono CJK KR"
	famSerif   = "Liberation Serif"
	famSans    = "Liberation Sans"
	famMono    = "Liberation Mono"
)

var allFamilies = []struct{ name, generic, pitch string }{
	{famSerifKR, "roman", "variable"},
	{famSansKR, "swiss", "variable"},
	{famMonoKR, "modern", "fixed"},
	{famSerif, "roman", "variable"},
	{famSans, "swiss", "variable"},
	{famMono, "modern", "fixed"},
}

// Name fragments, matched on the lower-cased face name. Sans is tested
// before serif ("sans-serif" contains "serif").
var (
	monoWords  = []string{"courier", "consolas", "mono", "고정폭", "코딩"}
	sansWords  = []string{"고딕", "돋움", "굴림", "gothic", "dotum", "gulim", "sans", "arial", "helvetica", "verdana", "tahoma", "calibri", "segoe", "맑은", "malgun", "헤드라인", "그래픽", "pretendard", "나눔스퀘어", "나눔바른", "견고딕", "중고딕", "태고딕", "샘물", "엽서"}
	serifWords = []string{"명조", "바탕", "궁서", "batang", "myeong", "gungsuh", "serif", "times", "georgia", "garamond", "신명", "견명", "cambria", "book"}
	latinSerif = []string{"times", "georgia", "garamond", "cambria", "book antiqua", "palatino"}
	latinSans  = []string{"arial", "helvetica", "verdana", "tahoma", "calibri", "segoe"}
)

// mapFont picks the installed family for a Hancom face; latin is true for
// the face of the Latin script. kind is the face's familyType
// (FCAT_MYUNGJO, FCAT_GOTHIC…), used when the name tells nothing.
func mapFont(face, kind string, latin bool) string {
	f := strings.ToLower(face)
	has := func(words []string) bool {
		for _, w := range words {
			if strings.Contains(f, w) {
				return true
			}
		}
		return false
	}
	if latin {
		switch {
		case has(monoWords):
			return famMono
		case has(latinSans):
			return famSans
		case has(latinSerif):
			return famSerif
		}
	}
	switch {
	case has(monoWords):
		return famMonoKR
	case has(sansWords):
		return famSansKR
	case has(serifWords):
		return famSerifKR
	}
	switch strings.ToUpper(kind) {
	case "FCAT_GOTHIC", "FCAT_SSERIF":
		return famSansKR
	}
	// Hancom's default face is 함초롬바탕, a serif.
	return famSerifKR
}
