package plural

import "testing"

func TestPlural(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Of(0, "finding", "findings"), "0 findings"},
		{Of(1, "finding", "findings"), "1 finding"},
		{Of(2, "finding", "findings"), "2 findings"},
		{Word(1, "is", "are"), "is"},
		{Metric(1, "tables"), "1 table"},
		{Metric(3, "tables"), "3 tables"},
		{Metric(1, "nested_tables"), "1 nested_table"},
		{Metric(1, "cells"), "1 cell"},
	} {
		if tc.got != tc.want {
			t.Errorf("%q, want %q", tc.got, tc.want)
		}
	}
}
