// Package ctxio makes long reads cancellable: a Reader that stops with
// ctx's error once ctx is done. It owns nothing else and imports no
// editaudit package (only the standard library), so every package that
// scans parts may use it.
package ctxio

import (
	"context"
	"io"
)

// Reader returns r that fails with ctx.Err() at the first Read after ctx
// is done (a scan of a large part stops within one buffer).
func Reader(ctx context.Context, r io.Reader) io.Reader { return &reader{ctx: ctx, r: r} }

type reader struct {
	ctx context.Context
	r   io.Reader
}

func (c *reader) Read(b []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(b)
}
