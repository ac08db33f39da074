package audit

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/plural"
)

// maxWhere bounds the places named for one shrunk metric.
const maxWhere = 3

// diffStructure reports every metric that went down, before → after, and
// where: the sites (tables, cells, slides, sheets) that lost the most of
// it. Growth is not damage and is not reported. A metric that a part which
// did not parse contributes to, on either side, is unknown and never
// reported as shrunk: a broken part's partial count is not a loss.
func diffStructure(before, after *formats.Report) Structure {
	s := Structure{Before: copyCounts(before.Counts), After: copyCounts(after.Counts), Shrunk: []Shrink{}}
	unknown := map[string]bool{}
	for _, r := range []*formats.Report{before, after} {
		ms, all := r.UnknownMetrics()
		if all {
			for _, c := range []formats.Counts{before.Counts, after.Counts} {
				for k := range c {
					unknown[k] = true
				}
			}
		}
		for k := range ms {
			unknown[k] = true
		}
		for _, p := range r.NotCounted {
			if !slices.Contains(s.NotCounted, p) {
				s.NotCounted = append(s.NotCounted, p)
			}
		}
	}
	s.Incomplete = len(s.NotCounted) > 0
	for k := range unknown {
		s.Unknown = append(s.Unknown, k)
	}
	sort.Strings(s.Unknown)
	for _, m := range before.Counts.Keys() {
		b, a := before.Counts[m], after.Counts[m]
		if a >= b || unknown[m] {
			continue
		}
		s.Shrunk = append(s.Shrunk, Shrink{Metric: m, Before: b, After: a, Where: where(m, before.Sites, after.Sites)})
	}
	return s
}

func copyCounts(c formats.Counts) formats.Counts {
	out := formats.Counts{}
	for k, v := range c {
		out[k] = v
	}
	return out
}

type siteKey struct{ part, where string }

// where names the sites that lost metric m, largest loss first. Sites are
// matched by part and name; a site missing from the edited file lost all
// of it ("slide 4 removed").
func where(m string, before, after []formats.Site) string {
	idx := make(map[siteKey]formats.Site, len(after))
	byPart := map[string][]formats.Site{}
	for _, s := range after {
		idx[siteKey{s.Part, s.Where}] = s
		byPart[s.Part] = append(byPart[s.Part], s)
	}
	type loss struct {
		site    formats.Site
		n       int
		removed bool
		order   int
	}
	var losses []loss
	for i, s := range before {
		b := s.Counts[m]
		if b == 0 {
			continue
		}
		a, ok := idx[siteKey{s.Part, s.Where}]
		if !ok {
			// A part with exactly one site on both sides (a slide) keeps
			// its identity when renumbering changed its name.
			if same := byPart[s.Part]; len(same) == 1 && countSites(before, s.Part) == 1 {
				a, ok = same[0], true
			}
		}
		switch {
		case !ok && len(byPart[s.Part]) == 0:
			losses = append(losses, loss{s, b, true, i}) // the whole part is gone
		case !ok:
			// The site is no longer listed (a cell without nested tables
			// is not a site): it holds none of m now.
			losses = append(losses, loss{s, b, false, i})
		case a.Counts[m] < b:
			losses = append(losses, loss{s, b - a.Counts[m], false, i})
		}
	}
	if len(losses) == 0 {
		return ""
	}
	// Report the most specific places: drop a site whose loss is entirely
	// explained by a more specific site named inside it ("body table 3"
	// when "body table 3, row 2, cell 2" lost the same amount).
	sort.SliceStable(losses, func(i, j int) bool {
		if losses[i].n != losses[j].n {
			return losses[i].n > losses[j].n
		}
		return len(losses[i].site.Where) > len(losses[j].site.Where)
	})
	var kept []loss
	for _, l := range losses {
		covered := false
		for _, k := range kept {
			if k.site.Part == l.site.Part && k.n >= l.n && strings.HasPrefix(k.site.Where, l.site.Where) {
				covered = true
				break
			}
		}
		if !covered {
			kept = append(kept, l)
		}
	}
	var parts []string
	for i, l := range kept {
		if i == maxWhere {
			parts = append(parts, "and "+plural.Of(len(kept)-maxWhere, "more place", "more places"))
			break
		}
		name := l.site.Where
		if name == "" {
			name = l.site.Part
		}
		if l.removed {
			parts = append(parts, fmt.Sprintf("%s removed (%s)", name, plural.Metric(l.n, m)))
		} else {
			parts = append(parts, fmt.Sprintf("%s: %s removed", name, plural.Metric(l.n, m)))
		}
	}
	return strings.Join(parts, "; ")
}

func countSites(ss []formats.Site, part string) int {
	n := 0
	for _, s := range ss {
		if s.Part == part {
			n++
		}
	}
	return n
}
