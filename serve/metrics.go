package serve

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/editaudit/editaudit/render"
)

// latencyBuckets are the upper bounds (seconds) of the request latency
// histogram: a warm audit is well under a second, a cold one with a large
// deck a minute.
var latencyBuckets = []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120}

// metrics is what GET /metrics exposes, in the Prometheus text exposition
// format 0.0.4, written here (a dozen series do not justify the client
// library and its dependencies).
type metrics struct {
	mu       sync.Mutex
	requests map[[2]string]uint64 // {endpoint, code} → count
	latency  map[string]*histogram
	verdicts map[[2]string]uint64
}

type histogram struct {
	counts []uint64 // per bucket, not cumulative; one more for +Inf
	sum    float64
	n      uint64
}

func newMetrics() *metrics {
	return &metrics{requests: map[[2]string]uint64{}, latency: map[string]*histogram{},
		verdicts: map[[2]string]uint64{}}
}

func (m *metrics) request(endpoint string, code int, d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests[[2]string{endpoint, strconv.Itoa(code)}]++
	h := m.latency[endpoint]
	if h == nil {
		h = &histogram{counts: make([]uint64, len(latencyBuckets)+1)}
		m.latency[endpoint] = h
	}
	s := d.Seconds()
	i := sort.SearchFloat64s(latencyBuckets, s) // first bound ≥ s
	h.counts[i]++
	h.sum += s
	h.n++
}

func (m *metrics) verdict(endpoint string, blocked bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v := "passed"
	if blocked {
		v = "blocked"
	}
	m.verdicts[[2]string{endpoint, v}]++
}

// gauges are the values read when /metrics is asked.
type gauges struct {
	queued, running, ready int64
	// pool is the converter's own accounting when it keeps one.
	pool *render.PoolStats
	// pages is the renderer's page cache (nil: no renderer).
	pages *render.PageCacheStats
}

// write writes the exposition text, series in a fixed order.
func (m *metrics) write(w io.Writer, g gauges) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	var b strings.Builder
	family := func(name, typ, help string) {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
	}
	family("editaudit_http_requests_total", "counter", "HTTP requests answered, by endpoint and status code (499: the client went away).")
	keys := make([][2]string, 0, len(m.requests))
	for k := range m.requests {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	for _, k := range keys {
		fmt.Fprintf(&b, "editaudit_http_requests_total{endpoint=%q,code=%q} %d\n", k[0], k[1], m.requests[k])
	}
	family("editaudit_http_request_duration_seconds", "histogram", "Time from the request's arrival to the end of its answer, upload and queueing included.")
	eps := make([]string, 0, len(m.latency))
	for e := range m.latency {
		eps = append(eps, e)
	}
	sort.Strings(eps)
	for _, e := range eps {
		h := m.latency[e]
		var cum uint64
		for i, le := range latencyBuckets {
			cum += h.counts[i]
			fmt.Fprintf(&b, "editaudit_http_request_duration_seconds_bucket{endpoint=%q,le=%q} %d\n", e, strconv.FormatFloat(le, 'g', -1, 64), cum)
		}
		fmt.Fprintf(&b, "editaudit_http_request_duration_seconds_bucket{endpoint=%q,le=\"+Inf\"} %d\n", e, h.n)
		fmt.Fprintf(&b, "editaudit_http_request_duration_seconds_sum{endpoint=%q} %s\n", e, strconv.FormatFloat(h.sum, 'g', -1, 64))
		fmt.Fprintf(&b, "editaudit_http_request_duration_seconds_count{endpoint=%q} %d\n", e, h.n)
	}
	family("editaudit_verdicts_total", "counter", "Audits and checks answered 200, by endpoint and verdict (blocked: a new fatal finding; for check any fatal finding).")
	vk := make([][2]string, 0, len(m.verdicts))
	for k := range m.verdicts {
		vk = append(vk, k)
	}
	sort.Slice(vk, func(i, j int) bool { return vk[i][0]+vk[i][1] < vk[j][0]+vk[j][1] })
	for _, k := range vk {
		fmt.Fprintf(&b, "editaudit_verdicts_total{endpoint=%q,verdict=%q} %d\n", k[0], k[1], m.verdicts[k])
	}
	if g.pool != nil {
		family("editaudit_conversions_total", "counter", "Documents LibreOffice converted to PDF (ok) or reported unconvertible (failed: timeout, crash, no PDF...).")
		fmt.Fprintf(&b, "editaudit_conversions_total{result=\"ok\"} %d\n", g.pool.Converted)
		fmt.Fprintf(&b, "editaudit_conversions_total{result=\"failed\"} %d\n", g.pool.Failed)
		family("editaudit_libreoffice_starts_total", "counter", "LibreOffice processes started for conversions.")
		fmt.Fprintf(&b, "editaudit_libreoffice_starts_total %d\n", g.pool.Runs)
		family("editaudit_libreoffice_restarts_total", "counter", "LibreOffice processes killed (hung past the deadline, over the memory cap, cancelled) and replaced by a fresh one.")
		fmt.Fprintf(&b, "editaudit_libreoffice_restarts_total %d\n", g.pool.Killed)
		family("editaudit_libreoffice_cpu_seconds_total", "counter", "User and system CPU time of the LibreOffice processes that have exited.")
		fmt.Fprintf(&b, "editaudit_libreoffice_cpu_seconds_total %s\n", strconv.FormatFloat(g.pool.CPU.Seconds(), 'g', -1, 64))
	}
	if g.pages != nil {
		family("editaudit_page_cache_lookups_total", "counter", "Originals' pages an audit compared, found in the page cache (hit) or drawn from the stored PDF (miss).")
		fmt.Fprintf(&b, "editaudit_page_cache_lookups_total{result=\"hit\"} %d\n", g.pages.Hits)
		fmt.Fprintf(&b, "editaudit_page_cache_lookups_total{result=\"miss\"} %d\n", g.pages.Misses)
		family("editaudit_page_cache_bytes", "gauge", "Memory held by the page cache of originals' page rasters (packed).")
		fmt.Fprintf(&b, "editaudit_page_cache_bytes %d\n", g.pages.Bytes)
	}
	family("editaudit_queue_depth", "gauge", "Requests admitted and waiting for a worker.")
	fmt.Fprintf(&b, "editaudit_queue_depth %d\n", g.queued)
	family("editaudit_requests_in_progress", "gauge", "Requests being worked on (at most --workers).")
	fmt.Fprintf(&b, "editaudit_requests_in_progress %d\n", g.running)
	family("editaudit_ready", "gauge", "1 when the renderer is warm and the server is not shutting down (what /healthz answers).")
	fmt.Fprintf(&b, "editaudit_ready %d\n", g.ready)
	_, err := io.WriteString(w, b.String())
	return err
}

// poolStats is the accounting of a converter that keeps one (the batch
// Pool).
func poolStats(c render.Converter) *render.PoolStats {
	if p, ok := c.(interface{ Stats() render.PoolStats }); ok {
		st := p.Stats()
		return &st
	}
	return nil
}
