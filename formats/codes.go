package formats

// Stable finding codes. They are a public interface (JSON, SARIF rule ids,
// injector expectations): add new ones, never rename. Each check's grade is
// set where it is emitted, with the evidence cited there; the grade here is
// the default, used by the catalog listing.
const (
	// CodeFileMissing: the document to judge is not there (no such file, a
	// folder, a FIFO or device): an agent's script that exited 0 without
	// saving (DESIGN.md "Gates").
	CodeFileMissing = "file.missing"

	// Package and zip level.
	CodeZipEmpty        = "zip.empty"     // zero-byte file
	CodeZipNotZip       = "zip.not-zip"   // no zip signature at all
	CodeZipTruncated    = "zip.truncated" // zip whose end was cut off
	CodeZipCentralDir   = "zip.bad-central-directory"
	CodeZipCRC          = "zip.crc"           // entry data does not match its CRC-32
	CodeZipEncrypted    = "zip.encrypted"     // OLE2 container holding an encrypted OOXML package
	CodeZipLegacy       = "zip.legacy-binary" // OLE2 container: legacy .doc/.xls/.ppt
	CodeZipOLE2         = "zip.ole2"          // OLE2 container of unknown content
	CodeZipEntryName    = "zip.bad-entry-name"
	CodeZipDuplicate    = "zip.duplicate-entry"
	CodeZipLimit        = "zip.limit" // a stated limit (entries, size, ratio) was exceeded
	CodeZipMethod       = "zip.unsupported-method"
	CodeZipNoEntries    = "zip.no-entries"
	CodePackageUnknown  = "package.unknown-format"
	CodeMainPartMissing = "package.main-part-missing"
	// CodeExtensionMismatch: the main part's content type is not the one
	// the file extension promises (a template saved as .docx).
	CodeExtensionMismatch = "package.extension-mismatch"
	// CodeOrphanPart: a part no relationship reaches; the application never
	// reads it. Findings inside it are graded as warnings.
	CodeOrphanPart = "package.orphan-part"

	// Content types ([Content_Types].xml), OPC part 2 §10.1.2.
	CodeCTMissing           = "ct.missing"
	CodeCTNoType            = "ct.no-type"
	CodeCTWrongMainType     = "ct.wrong-main-type"
	CodeCTOverrideMissing   = "ct.override-missing-part"
	CodeCTOverrideFolder    = "ct.override-folder"
	CodeCTOverrideSelf      = "ct.override-self"
	CodeCTDuplicateOverride = "ct.duplicate-override"
	CodeCTDuplicateDefault  = "ct.duplicate-default"

	// Relationships (.rels), OPC part 2 §9.3.
	CodeRelsTargetMissing = "rels.target-missing"
	CodeRelsUndefinedID   = "rels.undefined-id"
	CodeRelsDuplicateID   = "rels.duplicate-id"
	CodeRelsInvalidID     = "rels.invalid-id"
	CodeRelsMalformed     = "rels.malformed"
	CodeRelsOrphanPart    = "rels.orphan-part"
	CodeRelsDuplicateCore = "rels.duplicate-core-properties"
	// CodeRelsWrongType: an r:id/r:embed naming a relationship of a type
	// its element cannot use (refkinds.go).
	CodeRelsWrongType = "rels.wrong-type"

	// XML, for every part.
	CodeXMLNotWellFormed   = "xml.not-well-formed"
	CodeXMLIllegalChar     = "xml.illegal-char"
	CodeXMLDoctype         = "xml.doctype"
	CodeXMLTooDeep         = "xml.too-deep"
	CodeXMLTokenTooLarge   = "xml.token-too-large"
	CodeXMLTooManyFindings = "xml.too-many-findings"
	// CodeXMLMCPrefix: mc:Ignorable, mc:MustUnderstand or mc:Choice
	// Requires lists a prefix that is not declared (ECMA-376 Part 3).
	CodeXMLMCPrefix = "xml.mc-undeclared-prefix"
)
