package pixeldiff

import (
	"encoding/json"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

func jsonRoundTrip(s PageSig) (PageSig, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return PageSig{}, err
	}
	var out PageSig
	err = json.Unmarshal(b, &out)
	return out, err
}

func TestSignature(t *testing.T) {
	p3 := synthPage(a4W, a4H, 1, 3)
	p4 := synthPage(a4W, a4H, 1, 4) // same content, other page number
	word := clone(p3)
	fillRect(word, 300, 600, 360, 640, 0xff)
	other := synthPage(a4W, a4H, 2, 3)

	b := synthBands
	s3, s4, sw, so := Signature(p3), Signature(p4), Signature(word), Signature(other)
	if !reflect.DeepEqual(s3, Signature(clone(p3))) {
		t.Error("signature is not deterministic")
	}
	if s3.Masked(b) != s4.Masked(b) || s3.Full == s4.Full {
		t.Errorf("page-number change: masked equal %v (want true), full equal %v (want false)", s3.Masked(b) == s4.Masked(b), s3.Full == s4.Full)
	}
	if s3.Masked(Bands{}) == s4.Masked(Bands{}) {
		t.Error("page-number change: equal hashes without bands")
	}
	if s3.Masked(b) == sw.Masked(b) || s3.Full == sw.Full {
		t.Error("a body change left a hash unchanged")
	}
	if d := s3.PHashDistance(s4); d != 0 {
		t.Errorf("perceptual hash sees the header: distance %d", d)
	}
	// Pages of text are told apart by their lines.
	shared := func(x, y PageSig) int {
		lx, ly := sortedCopy(x.bandLines(b)), sortedCopy(y.bandLines(b))
		return 100 * commonSorted(lx, ly) / max(len(lx), len(ly))
	}
	if n := len(s3.Lines); n < 50 {
		t.Fatalf("%d lines on a page of text", n)
	}
	if got := shared(s3, s4); got != 100 {
		t.Errorf("renumbered page shares %d%% of its lines outside the bands", got)
	}
	if got := shared(s3, sw); got < 90 {
		t.Errorf("page with one word changed shares %d%% of its lines", got)
	}
	if got := shared(s3, so); got > 5 {
		t.Errorf("different page shares %d%% of its lines", got)
	}
	// Pictures are told apart by the perceptual hash.
	pic := func(seed int64, shift int) *Raster {
		r := NewRaster(a4W, a4H)
		rng := rand.New(rand.NewSource(seed))
		for i := 0; i < 6; i++ {
			x, y := rng.Intn(600), 200+rng.Intn(600)
			fillRect(r, x+shift, y, x+shift+100+rng.Intn(150), y+80+rng.Intn(150), byte(rng.Intn(200)))
		}
		return r
	}
	p1, p1b, p2 := Signature(pic(1, 0)), Signature(pic(1, 6)), Signature(pic(2, 0))
	dn, df := p1.PHashDistance(p1b), p1.PHashDistance(p2)
	t.Logf("picture phash distance: shifted %d, other %d", dn, df)
	if dn > DefaultMaxPHashDistance || df <= DefaultMaxPHashDistance {
		t.Errorf("phash distance: shifted picture %d (want ≤ %d), other picture %d (want more)", dn, DefaultMaxPHashDistance, df)
	}
	// The bands apply as Bands.On decides on the pixels.
	for _, bb := range []Bands{b, {Top: 40}, {Top: 60, Bottom: 20}, {Top: 120}, {Top: 400, Bottom: 400}} {
		t1, b1 := bb.On(p3)
		t2, b2 := s3.BandsOn(bb)
		if t1 != t2 || b1 != b2 {
			t.Errorf("bands %+v: On %d/%d, BandsOn %d/%d", bb, t1, b1, t2, b2)
		}
	}
	// A band between the header and the body masks the same as any other
	// band in the same gap; a band through the header masks nothing.
	if s3.Masked(Bands{Top: 60, Bottom: 101}) != s3.Masked(b) {
		t.Error("bands in the same gap gave different masked hashes")
	}
	if s3.Masked(Bands{Top: 40}) != s3.Masked(Bands{}) {
		t.Error("a band through content was applied")
	}
	// The full hash does not depend on bands and equals for equal pixels.
	if Signature(clone(p3)).Full != s3.Full {
		t.Error("full hash not reproducible")
	}
}

func TestHashText(t *testing.T) {
	var h Hash
	h[0], h[31] = 0xab, 0x01
	b, _ := h.MarshalText()
	if !strings.HasPrefix(string(b), "ab") || len(b) != 64 {
		t.Fatalf("MarshalText = %s", b)
	}
	var g Hash
	if err := g.UnmarshalText(b); err != nil || g != h {
		t.Fatalf("UnmarshalText: %v, %v", g, err)
	}
	if err := g.UnmarshalText([]byte("abc")); err == nil {
		t.Error("short hash accepted")
	}
	if err := g.UnmarshalText([]byte(strings.Repeat("zz", 32))); err == nil {
		t.Error("non-hex hash accepted")
	}
}
