package render

import (
	"container/list"
	"sync"

	"github.com/editaudit/editaudit/pixeldiff"
)

// DefaultPageCacheBytes bounds a Renderer's page cache when Config leaves
// it 0: about 60 packed A4 text pages at 100 dpi.
const DefaultPageCacheBytes = 64 << 20

// PageCache keeps page rasters an originals' audits draw again and again —
// in an agent's loop every round compares the edited file's changed pages
// with the same original's — packed (pixeldiff.Pack) and addressed by the
// page's exact signature (PageSig.Full, a hash of every pixel), so a hit
// is the page's own pixels whatever document or PDF it came from. Least
// recently used pages go first when the cache is over its byte budget.
// Safe for concurrent use; the nil cache keeps nothing.
type PageCache struct {
	mu    sync.Mutex
	max   int
	size  int
	order *list.List // of *cachedPage, most recent first
	pages map[pixeldiff.Hash]*list.Element
	hits  int64
	miss  int64
}

type cachedPage struct {
	key pixeldiff.Hash
	p   *pixeldiff.Packed
}

// NewPageCache returns a cache of at most maxBytes of packed pages; nil
// (no cache) when maxBytes ≤ 0.
func NewPageCache(maxBytes int) *PageCache {
	if maxBytes <= 0 {
		return nil
	}
	return &PageCache{max: maxBytes, order: list.New(), pages: map[pixeldiff.Hash]*list.Element{}}
}

// Get returns a new copy of the raster whose signature is full, or nil.
func (c *PageCache) Get(full pixeldiff.Hash) *pixeldiff.Raster {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	e := c.pages[full]
	if e == nil {
		c.miss++
		c.mu.Unlock()
		return nil
	}
	c.hits++
	c.order.MoveToFront(e)
	p := e.Value.(*cachedPage).p
	c.mu.Unlock()
	return p.Unpack()
}

// Put keeps r as the raster whose signature is full (a page larger than
// the whole budget is not kept).
func (c *PageCache) Put(full pixeldiff.Hash, r *pixeldiff.Raster) {
	if c == nil || r == nil {
		return
	}
	c.mu.Lock()
	if e := c.pages[full]; e != nil {
		c.order.MoveToFront(e)
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	p := pixeldiff.Pack(r) // outside the lock: ~1 ms a page
	if p.Size() > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.pages[full]; e != nil { // put meanwhile
		c.order.MoveToFront(e)
		return
	}
	c.pages[full] = c.order.PushFront(&cachedPage{full, p})
	c.size += p.Size()
	for c.size > c.max {
		e := c.order.Back()
		cp := e.Value.(*cachedPage)
		c.order.Remove(e)
		delete(c.pages, cp.key)
		c.size -= cp.p.Size()
	}
}

// PageCacheStats are a cache's counters.
type PageCacheStats struct {
	Pages, Bytes int
	Hits, Misses int64
}

// Stats returns the cache's counters (zero for the nil cache).
func (c *PageCache) Stats() PageCacheStats {
	if c == nil {
		return PageCacheStats{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return PageCacheStats{Pages: len(c.pages), Bytes: c.size, Hits: c.hits, Misses: c.miss}
}
