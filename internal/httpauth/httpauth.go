// Package httpauth is the access rule of editaudit's HTTP servers (`serve`
// and `mcp --http`): a server listens on loopback unless given a bearer
// token, and a token is checked in constant time. It is one rule in one
// place so that the two servers cannot drift apart. It imports no
// editaudit package (only the standard library).
package httpauth

import (
	"crypto/sha256"
	"crypto/subtle"
	"net"
	"net/http"
	"strings"
)

// Loopback reports whether host (of a listen address) is reachable from
// this machine only: 127.0.0.0/8, ::1 or localhost. An empty host listens
// on every interface and is not loopback.
func Loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Authorized reports whether r carries "Authorization: Bearer TOKEN" with
// the given token; an empty token authorizes every request. The sha256
// digests are compared in constant time, so neither the token's bytes nor
// its length leak through the answer's timing.
func Authorized(r *http.Request, token string) bool {
	if token == "" {
		return true
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return false
	}
	a := sha256.Sum256([]byte(strings.TrimSpace(got)))
	b := sha256.Sum256([]byte(token))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// Challenge is the WWW-Authenticate value of a 401 answer (RFC 6750 §3).
const Challenge = `Bearer realm="editaudit"`
