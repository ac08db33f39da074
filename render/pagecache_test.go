package render

import (
	"bytes"
	"sync"
	"testing"

	"github.com/editaudit/editaudit/pixeldiff"
)

// TestPageCache: a page put is got back with its own pixels (a copy: the
// caller's changes do not reach the cache), the least recently used page
// goes first when the budget is exceeded, a page larger than the budget
// is not kept, and the nil cache (a negative budget) keeps nothing.
func TestPageCache(t *testing.T) {
	page := func(shade byte) (*pixeldiff.Raster, pixeldiff.Hash) {
		r := pixeldiff.NewRaster(100, 40)
		for y := 10; y < 30; y++ { // 20 inked rows: 6,000 bytes packed
			for x := 0; x < 100; x += 2 {
				r.Pix[3*(y*100+x)] = shade
			}
		}
		return r, pixeldiff.Signature(r).Full
	}
	a, ka := page(1)
	b, kb := page(2)
	c, kc := page(3)
	size := pixeldiff.Pack(a).Size()
	pc := NewPageCache(2*size + size/2) // room for two pages
	pc.Put(ka, a)
	pc.Put(kb, b)
	got := pc.Get(ka) // a is now the most recent
	if got == nil || !bytes.Equal(got.Pix, a.Pix) {
		t.Fatal("page a not got back with its pixels")
	}
	got.Pix[0] = 77
	if again := pc.Get(ka); again.Pix[0] == 77 {
		t.Error("a change to a got raster reached the cache")
	}
	pc.Put(kc, c) // over budget: b, the least recently used, goes
	if pc.Get(kb) != nil {
		t.Error("b still cached after c was put over the budget")
	}
	if pc.Get(ka) == nil || pc.Get(kc) == nil {
		t.Error("a or c not cached")
	}
	st := pc.Stats()
	if st.Pages != 2 || st.Bytes != 2*size || st.Hits != 4 || st.Misses != 1 {
		t.Errorf("stats %+v", st)
	}
	small := NewPageCache(size / 2)
	small.Put(ka, a)
	if small.Get(ka) != nil {
		t.Error("a page larger than the whole budget was kept")
	}
	var none *PageCache = NewPageCache(-1)
	none.Put(ka, a)
	if none != nil || none.Get(ka) != nil || none.Stats() != (PageCacheStats{}) {
		t.Error("the nil cache kept a page")
	}
}

// TestPageCacheConcurrent: audits sharing a Renderer put and get pages at
// once (run under -race by .ci/run); every page got is the one put under
// its signature, and the budget holds.
func TestPageCacheConcurrent(t *testing.T) {
	pages := make([]*pixeldiff.Raster, 8)
	keys := make([]pixeldiff.Hash, len(pages))
	for i := range pages {
		r := pixeldiff.NewRaster(60, 30)
		for x := 0; x < 60; x += 3 {
			r.Pix[3*(15*60+x)] = byte(i)
		}
		pages[i], keys[i] = r, pixeldiff.Signature(r).Full
	}
	size := pixeldiff.Pack(pages[0]).Size()
	pc := NewPageCache(5 * size) // room for five of the eight
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < 200; n++ {
				i := (n*7 + g) % len(pages)
				if got := pc.Get(keys[i]); got != nil && !bytes.Equal(got.Pix, pages[i].Pix) {
					t.Errorf("page %d: another page's pixels", i)
					return
				}
				pc.Put(keys[i], pages[i])
			}
		}()
	}
	wg.Wait()
	if st := pc.Stats(); st.Bytes > 5*size || st.Pages > 5 || st.Hits == 0 {
		t.Errorf("stats %+v over the budget of 5 pages, or no hit", st)
	}
}
