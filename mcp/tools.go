package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The input schemas of the tools but synth (whose schema is the spec's).
// Every argument is checked again by the tool itself, with messages that
// name the argument.
const (
	pathProp  = `{"type":"string","minLength":1,"description":"Path of the document (.docx, .pptx, .xlsx, .hwpx) under the server's allowed folders; a relative path is taken from the first one."}`
	bytesProp = `{"type":"integer","minimum":65536,"description":"Byte budget of the whole answer, text and base64 images (default 4194304, 4 MiB): images that do not fit are downscaled, then left out, and the text says so."}`

	checkInput = `{"type":"object","additionalProperties":false,"required":["path"],"properties":{
"path":` + pathProp + `,
"show":{"type":"integer","minimum":0,"maximum":20,"description":"How many of the first pages to attach as images (default 20; 0: none, and nothing is rendered)."},
"model_bytes":` + bytesProp + `}}`

	auditInput = `{"type":"object","additionalProperties":false,"required":["edited"],"properties":{
"original":{"type":"string","minLength":1,"description":"Path of the original document, as it was before the edit (or give original_sha256)."},
"original_sha256":{"type":"string","pattern":"^[0-9a-fA-F]{64}$","description":"The sha256 the baseline tool returned for the original, when the original file itself has been overwritten."},
"edited":{"type":"string","minLength":1,"description":"Path of the edited document."},
"restore":{"type":"boolean","description":"When the edit is blocked (a new fatal defect: Office would refuse or repair the file), put the original's bytes back at edited, atomically; the rejected file is kept beside it as NAME.rejected.EXT."},
"show":{"type":"integer","minimum":0,"maximum":20,"description":"How many changed pages to attach as before/after images (default 3; 0: none)."},
"model_bytes":` + bytesProp + `}}`

	renderInput = `{"type":"object","additionalProperties":false,"required":["path"],"properties":{
"path":` + pathProp + `,
"show":{"type":"integer","minimum":0,"maximum":20,"description":"How many of the first pages to attach as images (default 20; 0: none)."},
"model_bytes":` + bytesProp + `}}`

	baselineInput = `{"type":"object","additionalProperties":false,"required":["path"],"properties":{"path":` + pathProp + `}}`
)

// The output schemas: what structuredContent holds (a client such as the
// TypeScript SDK checks it against them).
const (
	findingsProp = `"findings":{"type":"array","items":{"type":"object","required":["code","grade","message"]}}`

	checkOutput = `{"type":"object","required":["schema","path","format","sha256","fatal","findings","counts","pages"],"properties":{
"schema":{"const":"editaudit.check/v1"},"path":{"type":"string"},"format":{"type":"string"},"sha256":{"type":"string"},"fatal":{"type":"boolean"},` + findingsProp + `,"counts":{"type":"object"},
"pages":{"type":"object","required":["status","count","attached"],"properties":{"status":{"enum":["ok","off","unsupported","failed"]},"message":{"type":"string"},"count":{"type":"integer"},"attached":{"type":"array","items":{"type":"integer"}}}}}}`

	tallyProp   = `{"type":"object","required":["total","fatal","error","warning","info"]}`
	auditOutput = `{"type":"object","required":["schema","original","edited","blocked","restored","new_findings","preexisting","structure","pages","content","feedback","counts"],"properties":{
"schema":{"const":"editaudit.audit/v1"},"blocked":{"type":"boolean"},"restored":{"type":"boolean"},"rejected":{"type":"string"},"new_findings":{"type":"array"},"feedback":{"type":"string"},
"pages":{"type":"object","required":["status"]},"content":{"type":"object","required":["status","changes"]},
"counts":{"type":"object","required":["new_findings","preexisting","resolved","shrunk","content_changes","pages_changed","pages_inserted","pages_deleted","images"],"properties":{"new_findings":` + tallyProp + `,"preexisting":` + tallyProp + `,"images":{"type":"integer"}}}}}`

	synthOutput = `{"type":"object","required":["schema","status"],"properties":{
"schema":{"const":"editaudit.synth/v1"},"status":{"enum":["ok","error"]},"path":{"type":"string"},"sha256":{"type":"string"},"format":{"type":"string"},"pages":{"type":["integer","null"]},"notes":{"type":"array","items":{"type":"string"}},
"errors":{"type":"array","items":{"type":"object","required":["path","message"],"properties":{"path":{"type":"string"},"message":{"type":"string"},"cap":{"type":"integer"}}}},"more":{"type":"integer"}}}`

	renderOutput = `{"type":"object","required":["schema","path","sha256","status","count","pages","toolchain_key","attached"],"properties":{
"schema":{"const":"editaudit.pages/v1"},"status":{"enum":["ok","failed","unsupported"]},"count":{"type":"integer"},
"pages":{"type":"array","items":{"type":"object","required":["page","width_pt","height_pt","width_px","height_px","sha256"]}},"attached":{"type":"array","items":{"type":"integer"}}}}`

	baselineOutput = `{"type":"object","required":["schema","sha256","name","format","stored","findings","pages"],"properties":{
"schema":{"const":"editaudit.baseline/v1"},"sha256":{"type":"string"},"stored":{"enum":["stored","already stored"]},"findings":{"type":"integer"},
"pages":{"type":"object","required":["status","count"]}}}`
)

// addTools registers the five tools.
func (s *Server) addTools() {
	yes, no := true, false
	s.addTool(&sdk.Tool{Name: "check", Title: "Check a document",
		Description: `Validates a document on its own (one you just wrote, or one you are about to edit): every defect that keeps Word, Excel, PowerPoint or Hangul from opening it (fatal) or makes it show wrong things (error), with part, line:column and how to fix it; its structure counts; and its first pages as images. Returns the verdict and findings as text, the pages as images, and editaudit.check/v1 as structured content.`,
		InputSchema: json.RawMessage(checkInput), OutputSchema: json.RawMessage(checkOutput),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no}}, s.check)
	s.addTool(&sdk.Tool{Name: "audit", Title: "Audit an edit",
		Description: `What did the edit break? Compares edited with its original and reports only what the edit introduced: new defects that keep the application from opening the file (a new fatal one blocks), structure that shrank (tables, rows, slides…), the text that changed as a redline ([-old-]{+new+}) with where, and the pages that changed as before/after images. Problems the original already had are summarised, never blamed on the edit. With restore: true a blocked edit is undone (the original put back atomically). Returns the feedback and page images as content; blocked, counts and the whole editaudit.audit/v1 object as structured content.`,
		InputSchema: json.RawMessage(auditInput), OutputSchema: json.RawMessage(auditOutput),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: &yes, OpenWorldHint: &no}}, s.auditTool)
	schema, err := synthSchema()
	if err != nil {
		panic(err) // the spec schema is built from the code: a test catches this
	}
	s.addTool(&sdk.Tool{Name: "synth", Title: "Write a document from a spec",
		Description: fmt.Sprintf(`Writes a new Word, PowerPoint, Excel or Hangul document from a spec: the arguments are the spec itself (format, then the docx, pptx, xlsx or hwpx body) plus out, the path to write. The writer is deterministic and the file is checked by editaudit before it is handed back. A spec with problems writes nothing and returns every problem at once, each with its JSON path ($.docx.body[3].table.rows[0]) and the cap it exceeds, so all can be fixed in one go. Images are "artifact:ID" handles of files in the server's --artifacts folder. A document renders to at most %d pages.`, maxPagesShown),
		InputSchema: schema, OutputSchema: json.RawMessage(synthOutput),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: &yes, IdempotentHint: true, OpenWorldHint: &no}}, s.synthTool)
	s.addTool(&sdk.Tool{Name: "render", Title: "Show a document's pages",
		Description: `Draws a document's pages with LibreOffice and returns the first ones as images, with pages.json (editaudit.pages/v1: page sizes in points and pixels, a hash of each page's pixels — equal hashes mean identical pages — and the rendering toolchain) as structured content.`,
		InputSchema: json.RawMessage(renderInput), OutputSchema: json.RawMessage(renderOutput),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no}}, s.renderTool)
	s.addTool(&sdk.Tool{Name: "baseline", Title: "Store an original",
		Description: `Stores the snapshot of an original before you edit it (findings, structure, rendered pages) in the server's store and returns its sha256: audit can then name the original by original_sha256, even after the file was overwritten in place, and skips the original's rendering.`,
		InputSchema: json.RawMessage(baselineInput), OutputSchema: json.RawMessage(baselineOutput),
		Annotations: &sdk.ToolAnnotations{IdempotentHint: true, DestructiveHint: &no, OpenWorldHint: &no}}, s.baselineTool)
}

func sha256Of(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
