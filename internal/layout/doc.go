// Package layout holds no code: its test keeps the import graph as the
// package doc comments say it is. Every package's doc comment says what
// it must not import; the test's table of forbidden imports is checked
// against both the imports (go/build) and those doc comments, and it
// writes the table of who imports whom in docs/architecture.md (go test
// ./internal/layout -update). Its other test keeps the relative links of
// every Markdown file whole (files and #anchors). It imports no editaudit
// package.
package layout
