package convert

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/ctxio"
)

// node is one element of a parsed part, or a text node (name == ""). The
// tree keeps mixed content in order: <hp:t>a<hp:tab/>b</hp:t> has three
// children. Names are local names; HWPX readers match by local name, since
// writers differ in prefixes and in namespace versions (2011, 2016).
type node struct {
	name  string
	attrs []attr
	kids  []*node
	text  string
}

type attr struct{ name, value string }

// attr returns the value of the attribute with local name n, "" when absent.
func (n *node) attr(name string) string {
	if n == nil {
		return ""
	}
	for _, a := range n.attrs {
		if a.name == name {
			return a.value
		}
	}
	return ""
}

// has reports whether the attribute is present.
func (n *node) has(name string) bool {
	if n == nil {
		return false
	}
	for _, a := range n.attrs {
		if a.name == name {
			return true
		}
	}
	return false
}

// int returns an integer attribute, def when absent or not a number. Values
// are clamped to ±1e9 so that arithmetic on hostile sizes cannot overflow.
func (n *node) int(name string, def int) int {
	s := n.attr(name)
	if s == "" {
		return def
	}
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		// Hancom writes the "none" reference as 4294967295; other unsigned
		// values parse as uint.
		u, err2 := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err2 != nil {
			return def
		}
		if u > 1e9 {
			return def
		}
		v = int64(u)
	}
	if v > 1e9 {
		v = 1e9
	}
	if v < -1e9 {
		v = -1e9
	}
	return int(v)
}

// child returns the first child element with local name n, looking through
// hp:switch (its hp:case first, then hp:default) the way a reader that
// knows the case's namespace does.
func (n *node) child(name string) *node {
	if n == nil {
		return nil
	}
	for _, k := range n.kids {
		if k.name == name {
			return k
		}
	}
	for _, k := range n.kids {
		if k.name == "switch" {
			if c := k.switchChild(name); c != nil {
				return c
			}
		}
	}
	return nil
}

// switchChild resolves one hp:switch: the first hp:case holding the
// element, else hp:default's, marked as coming from the default branch.
func (n *node) switchChild(name string) *node {
	for _, c := range n.kids {
		if c.name == "case" {
			for _, k := range c.kids {
				if k.name == name {
					return k
				}
			}
		}
	}
	for _, c := range n.kids {
		if c.name == "default" {
			for _, k := range c.kids {
				if k.name == name {
					return &node{name: k.name, attrs: append([]attr{{name: "\x00default", value: "1"}}, k.attrs...), kids: k.kids}
				}
			}
		}
	}
	return nil
}

// children returns the child elements named name (hp:switch resolved).
func (n *node) children(name string) []*node {
	if n == nil {
		return nil
	}
	var out []*node
	for _, k := range n.kids {
		switch k.name {
		case name:
			out = append(out, k)
		case "switch":
			if c := k.switchChild(name); c != nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// fromDefault reports a node taken from hp:default of an hp:switch.
func (n *node) fromDefault() bool { return n.has("\x00default") }

// treeBuilder builds the tree from the scanner's events.
type treeBuilder struct {
	formats.NopHandler
	root  *node
	stack []*node
	nodes int
	max   int
	over  bool
}

func (b *treeBuilder) Start(e *formats.Element) {
	b.nodes++
	if b.max > 0 && b.nodes > b.max {
		b.over = true
	}
	n := &node{name: e.Name.Local}
	if len(e.Attr) > 0 {
		n.attrs = make([]attr, 0, len(e.Attr))
		for _, a := range e.Attr {
			n.attrs = append(n.attrs, attr{name: a.Name.Local, value: a.Value})
		}
	}
	if len(b.stack) == 0 {
		if b.root == nil {
			b.root = n
		}
	} else if !b.over {
		p := b.stack[len(b.stack)-1]
		p.kids = append(p.kids, n)
	}
	b.stack = append(b.stack, n)
}

func (b *treeBuilder) End(*formats.Element) {
	if len(b.stack) > 0 {
		b.stack = b.stack[:len(b.stack)-1]
	}
}

func (b *treeBuilder) Text(_ *formats.Element, t []byte) {
	if len(b.stack) == 0 || b.over {
		return
	}
	p := b.stack[len(b.stack)-1]
	// Only text inside hp:t (and a few text-bearing elements) matters;
	// whitespace between elements is dropped to keep the tree small.
	if strings.TrimSpace(string(t)) == "" && p.name != "t" {
		return
	}
	if k := len(p.kids); k > 0 && p.kids[k-1].name == "" {
		p.kids[k-1].text += string(t)
		return
	}
	p.kids = append(p.kids, &node{text: string(t)})
}

// maxNodes bounds the elements kept from one part: far above any real
// section (the largest real one has about 60,000), low enough that a hostile
// part cannot make the converter hold millions of nodes.
const maxNodes = 2_000_000

// parsePart reads one XML part into a tree under the package's limits
// (depth, token size, entry size, no DTD). A part that is not well-formed
// keeps what was read before the error: the result is best-effort, and the
// problem is returned as a note.
func parsePart(ctx context.Context, p *formats.Package, part string) (*node, string, error) {
	rc, err := p.OpenPart(part)
	if err != nil {
		return nil, "", fmt.Errorf("reading %s: %w", part, err)
	}
	defer rc.Close()
	b := &treeBuilder{max: maxNodes}
	res := formats.ScanXML(part, ctxio.Reader(ctx, rc), p.Limits, b)
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	if b.root == nil {
		msg := "no XML root element"
		for _, f := range res.Findings {
			if f.Grade == formats.Fatal {
				msg = f.Message
				break
			}
		}
		return nil, "", fmt.Errorf("%s: %s", part, msg)
	}
	note := ""
	if !res.Complete {
		note = fmt.Sprintf("%s is not complete XML; what was read before the error is shown", part)
		for _, f := range res.Findings {
			if f.Grade == formats.Fatal {
				note = fmt.Sprintf("%s: %s; what was read before it is shown", part, f.Message)
				break
			}
		}
	}
	if b.over {
		note = fmt.Sprintf("%s has more than %d elements; the rest is not shown", part, maxNodes)
	}
	return b.root, note, nil
}
