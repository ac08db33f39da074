package httpauth

import (
	"net/http/httptest"
	"testing"
)

func TestLoopback(t *testing.T) {
	for _, tc := range []struct {
		host string
		want bool
	}{
		{"127.0.0.1", true}, {"127.8.9.10", true}, {"::1", true}, {"localhost", true}, {"LocalHost", true},
		{"", false}, {"0.0.0.0", false}, {"::", false}, {"192.168.1.2", false}, {"example.com", false}, {"localhost.example.com", false},
	} {
		if got := Loopback(tc.host); got != tc.want {
			t.Errorf("Loopback(%q) = %v, want %v", tc.host, got, tc.want)
		}
	}
}

func TestAuthorized(t *testing.T) {
	for _, tc := range []struct {
		token, header string
		want          bool
	}{
		{"", "", true},
		{"", "Bearer anything", true},
		{"s3cret", "Bearer s3cret", true},
		{"s3cret", "Bearer  s3cret ", true},
		{"s3cret", "", false},
		{"s3cret", "s3cret", false},
		{"s3cret", "Basic s3cret", false},
		{"s3cret", "Bearer s3cre", false},
		{"s3cret", "Bearer s3cret2", false},
		{"s3cret", "bearer s3cret", false},
	} {
		r := httptest.NewRequest("POST", "/", nil)
		if tc.header != "" {
			r.Header.Set("Authorization", tc.header)
		}
		if got := Authorized(r, tc.token); got != tc.want {
			t.Errorf("token %q, Authorization %q: %v, want %v", tc.token, tc.header, got, tc.want)
		}
	}
}
