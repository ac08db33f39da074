package docx

// Finding codes of the Word checks. They are a public interface (JSON,
// SARIF rule ids): add new ones, never rename. The grade of each is set
// where it is emitted, next to the evidence behind it.
const (
	// CodeTcNoFinalP: a w:tc whose last block is not a w:p (a nested table,
	// nothing at all). Fatal.
	CodeTcNoFinalP = "docx.tc-no-final-p"
	// CodeTrNoTc: a w:tr without any w:tc. Fatal.
	CodeTrNoTc = "docx.tr-no-tc"
	// CodeTblNoRows: a w:tbl without any w:tr. Warning.
	CodeTblNoRows = "docx.tbl-no-rows"
	// CodeRunContentOutsideRun: run content (w:t, w:br, w:drawing, w:tab…)
	// directly in a paragraph instead of inside a w:r. Fatal.
	CodeRunContentOutsideRun = "docx.run-content-outside-run"
	// CodeTblInP: a w:tbl inside a w:p. Fatal.
	CodeTblInP = "docx.tbl-in-p"
	// CodeNumMissingAbstract: a w:num whose w:abstractNumId names no
	// w:abstractNum of the numbering part. Fatal.
	CodeNumMissingAbstract = "docx.num-missing-abstract"
	// CodeDocPrDuplicateShape: two drawings share a wp:docPr/@id and one of
	// them is a text box or shape. Error.
	CodeDocPrDuplicateShape = "docx.docpr-duplicate-id"
	// CodeMultipleBody: a w:document with more than one w:body. Warning.
	CodeMultipleBody = "docx.multiple-body"
	// CodePropOrder: a property element (w:pPr, w:rPr, w:tblPr, w:tcPr,
	// w:sectPr) whose children are out of schema order, or a property
	// element duplicated or out of place. Warning.
	CodePropOrder = "docx.prop-order"
)
