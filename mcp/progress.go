package mcp

import (
	"context"
	"fmt"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// heartbeat is how often a call in progress says so again: clients reset
// their request timeout on a progress notification (the TypeScript SDK's
// resetTimeoutOnProgress), and LibreOffice on a long document takes more
// than the 60 s many clients wait by default.
const heartbeat = 2 * time.Second

// progress sends notifications/progress for one call when the client gave
// a progressToken: at each step, and every heartbeat while a step lasts,
// the message saying the step and its seconds so far. Progress counts the
// notifications (it must increase; the total is not known in advance).
type progress struct {
	ctx   context.Context
	ss    *sdk.ServerSession
	token any

	mu      sync.Mutex
	n       float64
	msg     string
	since   time.Time
	stopped bool
	done    chan struct{}
}

func startProgress(ctx context.Context, req *sdk.CallToolRequest) *progress {
	p := &progress{ctx: ctx, done: make(chan struct{})}
	if req != nil && req.Params != nil {
		p.token = req.Params.GetProgressToken()
	}
	if req != nil {
		p.ss = req.Session
	}
	if p.token == nil || p.ss == nil {
		p.stopped = true
		return p
	}
	go p.beat()
	return p
}

// step says what the call does now.
func (p *progress) step(format string, a ...any) {
	p.mu.Lock()
	p.msg, p.since = fmt.Sprintf(format, a...), time.Now()
	p.mu.Unlock()
	p.send(false)
}

func (p *progress) send(beat bool) {
	p.mu.Lock()
	if p.stopped || p.msg == "" {
		p.mu.Unlock()
		return
	}
	p.n++
	msg := p.msg
	if beat {
		msg = fmt.Sprintf("%s (%.0f s)", p.msg, time.Since(p.since).Seconds())
	}
	// Sent under the lock, so that none follows stop (and so the result).
	// A client that went away is the call's ctx's business.
	_ = p.ss.NotifyProgress(p.ctx, &sdk.ProgressNotificationParams{ProgressToken: p.token, Progress: p.n, Message: msg})
	p.mu.Unlock()
}

func (p *progress) beat() {
	t := time.NewTicker(heartbeat)
	defer t.Stop()
	for {
		select {
		case <-p.done:
			return
		case <-p.ctx.Done():
			return
		case <-t.C:
			p.send(true)
		}
	}
}

// stop ends the notifications: none is sent after the result.
func (p *progress) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
	select {
	case <-p.done:
	default:
		close(p.done)
	}
}
