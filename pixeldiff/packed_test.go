package pixeldiff

import (
	"bytes"
	"math/rand"
	"testing"
)

// TestPackRoundTrip: a packed raster unpacks to the same bytes — a text
// page (most rows white), rows of other colours, noise, a 1-pixel-wide
// raster — and a text page packs to its inked rows.
func TestPackRoundTrip(t *testing.T) {
	text := synthPage(a4W, a4H, 5, 1)
	bands := NewRaster(40, 30)
	fillRect(bands, 0, 5, 40, 9, 0x20)
	fillRect(bands, 0, 9, 40, 12, 0x20) // two rows of one colour in a row
	fillRect(bands, 0, 12, 40, 13, 0x80)
	fillRect(bands, 3, 20, 4, 22, 0x00) // inked rows between
	noise := NewRaster(33, 17)
	rand.New(rand.NewSource(1)).Read(noise.Pix)
	for name, r := range map[string]*Raster{"text": text, "bands": bands, "noise": noise, "narrow": NewRaster(1, 9), "empty": {W: 0, H: 0}} {
		p := Pack(r)
		got := p.Unpack()
		if got.W != r.W || got.H != r.H || !bytes.Equal(got.Pix, r.Pix) {
			t.Errorf("%s: unpacked raster differs", name)
		}
	}
	if p := Pack(text); p.Size() > len(text.Pix)*2/3 {
		t.Errorf("text page packs to %d of %d bytes", p.Size(), len(text.Pix))
	}
}

func BenchmarkPack(b *testing.B) {
	p := synthPage(a4W, a4H, 1, 3)
	b.Run("pack", func(b *testing.B) { loopCPU(b, func() { Pack(p) }) })
	pk := Pack(p)
	b.Run("unpack", func(b *testing.B) { loopCPU(b, func() { pk.Unpack() }) })
}
