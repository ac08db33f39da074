// Package plural writes counts in English text output: "1 table", "2
// tables", "0 findings". It owns nothing else and imports no editaudit
// package (only the standard library); every package that prints counts
// may import it.
package plural

import (
	"strconv"
	"strings"
)

// Word is one when n is 1 and many otherwise.
func Word(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Of is n followed by the noun in the right number: Of(1, "table",
// "tables") is "1 table".
func Of(n int, one, many string) string {
	return strconv.Itoa(n) + " " + Word(n, one, many)
}

// Metric is n followed by a structure metric's name (a plural count key
// such as "tables" or "nested_tables"), singular when n is 1: Metric(1,
// "rows") is "1 row".
func Metric(n int, key string) string {
	return Of(n, strings.TrimSuffix(key, "s"), key)
}
