package render

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// prefetch is a conversion started ahead of the Render or RenderSigs call
// that uses it (Renderer.Prefetch).
type prefetch struct {
	size    int64
	mod     time.Time
	done    chan struct{}
	cv      converted
	err     error
	cancel  context.CancelFunc
	claimed bool
}

// prefetches are a Renderer's conversions started ahead, by absolute path.
type prefetches struct {
	mu sync.Mutex
	m  map[string]*prefetch
}

// Prefetch starts converting docPath now, so that the Render or RenderSigs
// call for it that follows finds its PDF ready or in the making instead of
// starting the conversion then: an audit asks for the edited file's PDF
// while the original's is being made, and the converter works on both at
// once (one batch, or two warm processes). release forgets the
// conversion: call it when that call has been made or will not be; an
// unclaimed conversion is then cancelled and its PDF removed. A second
// Prefetch of a path already prefetched does nothing (its release too).
// The file must not change in between (a changed size or modification
// time makes the later call convert it again).
func (r *Renderer) Prefetch(ctx context.Context, docPath string) (release func()) {
	abs, err1 := filepath.Abs(docPath)
	info, err2 := os.Stat(docPath)
	if r == nil || r.Converter == nil || err1 != nil || err2 != nil {
		return func() {}
	}
	r.pre.mu.Lock()
	defer r.pre.mu.Unlock()
	if r.pre.m == nil {
		r.pre.m = map[string]*prefetch{}
	}
	if _, ok := r.pre.m[abs]; ok {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	pf := &prefetch{size: info.Size(), mod: info.ModTime(), done: make(chan struct{}), cancel: cancel}
	r.pre.m[abs] = pf
	go func() {
		pf.cv, pf.err = r.convertDoc(ctx, docPath)
		close(pf.done)
	}()
	return func() {
		r.pre.mu.Lock()
		if r.pre.m[abs] == pf {
			delete(r.pre.m, abs)
		}
		claimed := pf.claimed
		pf.claimed = true // nobody may claim it any more
		r.pre.mu.Unlock()
		if claimed {
			return
		}
		pf.cancel()
		go func() {
			<-pf.done
			if pf.cv.pdf != "" {
				os.Remove(pf.cv.pdf)
			}
		}()
	}
}

// convertPDF returns docPath's PDF: the prefetched one when there is one
// for this file, else a new conversion (convertDoc).
func (r *Renderer) convertPDF(ctx context.Context, docPath string) (converted, error) {
	if pf := r.claim(docPath); pf != nil {
		defer pf.cancel()
		select {
		case <-pf.done:
			return pf.cv, pf.err
		case <-ctx.Done():
			go func() { // the PDF arrives later: nobody takes it
				<-pf.done
				if pf.cv.pdf != "" {
					os.Remove(pf.cv.pdf)
				}
			}()
			return converted{}, ctx.Err()
		}
	}
	return r.convertDoc(ctx, docPath)
}

// claim takes the unclaimed prefetch of docPath, if it is of the file as it
// is now.
func (r *Renderer) claim(docPath string) *prefetch {
	abs, err := filepath.Abs(docPath)
	if err != nil {
		return nil
	}
	r.pre.mu.Lock()
	defer r.pre.mu.Unlock()
	pf := r.pre.m[abs]
	if pf == nil || pf.claimed {
		return nil
	}
	if info, err := os.Stat(docPath); err != nil || info.Size() != pf.size || !info.ModTime().Equal(pf.mod) {
		return nil
	}
	pf.claimed = true
	return pf
}
