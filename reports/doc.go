// Package reports writes audit and check results: text (the model
// feedback), JSON, model content blocks, HTML, SARIF, and corpus summaries.
package reports
