package corpus

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
)

// Shard selects a deterministic subset of a run's pairs: shard K of N
// (1 ≤ K ≤ N) holds the pairs whose id hashes to K-1 modulo N. The zero
// Shard holds every pair. The N shards of one manifest are disjoint and
// together hold every pair, on any machine, whatever the manifest order.
type Shard struct {
	K, N int
}

// ParseShard reads "K/N" ("" is the zero Shard).
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	ks, ns, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, fmt.Errorf("corpus: shard %q: use K/N, e.g. 2/8", s)
	}
	k, err1 := strconv.Atoi(strings.TrimSpace(ks))
	n, err2 := strconv.Atoi(strings.TrimSpace(ns))
	if err1 != nil || err2 != nil || n < 1 || k < 1 || k > n || n > 1_000_000 {
		return Shard{}, fmt.Errorf("corpus: shard %q: K and N must be whole numbers with 1 ≤ K ≤ N", s)
	}
	return Shard{K: k, N: n}, nil
}

// String is "K/N", or "" for the zero Shard.
func (s Shard) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// Has reports whether the pair with this id belongs to the shard: the
// first 8 bytes of sha256(id), big-endian, modulo N, equal K-1.
func (s Shard) Has(id string) bool {
	if s.N <= 1 {
		return true
	}
	sum := sha256.Sum256([]byte(id))
	return binary.BigEndian.Uint64(sum[:8])%uint64(s.N) == uint64(s.K-1)
}

// Select returns the pairs of the shard, in their order.
func (s Shard) Select(pairs []Pair) []Pair {
	if s.N <= 1 {
		return pairs
	}
	var out []Pair
	for _, p := range pairs {
		if s.Has(p.ID) {
			out = append(out, p)
		}
	}
	return out
}
