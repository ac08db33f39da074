package audit

import (
	"github.com/editaudit/editaudit/formats"
)

// diffFindings splits findings into those the edit introduced and those it
// resolved. Findings are matched as multisets by their position-free key
// (code, part, anchor: formats.Finding.Key), because line, column and
// positional locators shift when the edit inserts content above a defect:
// two identical pre-existing defects plus a third identical one in the edit
// is exactly one new finding.
func diffFindings(before, after []formats.Finding) (added, resolved []formats.Finding) {
	count := make(map[string]int, len(before))
	for _, f := range before {
		count[f.Key()]++
	}
	for _, f := range after {
		k := f.Key()
		if count[k] > 0 {
			count[k]--
			continue
		}
		added = append(added, f)
	}
	// What is left in count was in the original and is gone now.
	for i := len(before) - 1; i >= 0; i-- {
		k := before[i].Key()
		if count[k] > 0 {
			count[k]--
			resolved = append(resolved, before[i])
		}
	}
	formats.Sort(added)
	formats.Sort(resolved)
	return added, resolved
}
