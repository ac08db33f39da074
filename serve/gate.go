package serve

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// gate admits at most workers+queue requests (the rest are answered 503
// before their upload is read) and lets workers of them work at once; the
// others wait, in arrival order, for a worker.
type gate struct {
	workers  chan struct{}
	max      int64
	admitted atomic.Int64
	waiting  atomic.Int64
	running  atomic.Int64

	mu   sync.Mutex
	mean time.Duration // moving mean of the time a request holds a worker
}

func newGate(workers, queue int) *gate {
	return &gate{workers: make(chan struct{}, workers), max: int64(workers + queue)}
}

// admit reserves a place; false when workers and queue are all taken.
func (g *gate) admit() bool {
	if g.admitted.Add(1) > g.max {
		g.admitted.Add(-1)
		return false
	}
	return true
}

func (g *gate) leave() { g.admitted.Add(-1) }

// acquire waits for a worker (or ctx) and returns the func that frees it.
func (g *gate) acquire(ctx context.Context) (func(), error) {
	g.waiting.Add(1)
	select {
	case g.workers <- struct{}{}:
		g.waiting.Add(-1)
	case <-ctx.Done():
		g.waiting.Add(-1)
		return nil, ctx.Err()
	}
	g.running.Add(1)
	start := time.Now()
	return func() {
		g.observe(time.Since(start))
		g.running.Add(-1)
		<-g.workers
	}, nil
}

func (g *gate) observe(d time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.mean == 0 {
		g.mean = d
		return
	}
	g.mean = (g.mean*7 + d) / 8
}

// retryAfter estimates, in whole seconds (1–300), when a place is likely
// free: the queue ahead worked off by the workers at the recent mean time
// per request.
func (g *gate) retryAfter() int {
	g.mu.Lock()
	mean := g.mean
	g.mu.Unlock()
	if mean == 0 {
		mean = time.Second
	}
	ahead := float64(g.waiting.Load()+g.running.Load()) / float64(cap(g.workers))
	s := int(math.Ceil(mean.Seconds() * max(ahead, 1)))
	return min(max(s, 1), 300)
}
