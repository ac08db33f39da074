package xlsx

// Finding codes of the Excel checks. They are a public interface (JSON,
// SARIF rule ids): add new ones, never rename. The grade each is emitted
// with, and the evidence behind it, is stated where it is emitted; the
// summary here follows ../shared/docs/DEFECTS.md ("Excel (.xlsx)").
const (
	// CodeNoSheets: workbook.xml lists no sheet (fatal: Excel needs at
	// least one visible sheet; ECMA-376 §18.2.20 CT_Sheets has minOccurs 1).
	CodeNoSheets = "xlsx.no-sheets"
	// CodeSheetName: a sheet name Excel does not accept (over 31 UTF-16
	// units, one of : \ / ? * [ ], blank, leading or trailing apostrophe).
	CodeSheetName = "xlsx.sheet-name-invalid"
	// CodeSheetNameDup: two sheet names equal when compared
	// case-insensitively.
	CodeSheetNameDup = "xlsx.sheet-name-duplicate"
	// CodeSSTIndex: a t="s" cell whose value is not an index into the
	// shared string table.
	CodeSSTIndex = "xlsx.sst-index"
	// CodeNumericText: a numeric cell (no t, or t="n") whose <v> is not a
	// number.
	CodeNumericText = "xlsx.numeric-cell-text"
	// CodeTextTooLong: cell text over 32,767 characters.
	CodeTextTooLong = "xlsx.cell-text-too-long"
	// CodeMergeOverlap: two merged ranges share cells.
	CodeMergeOverlap = "xlsx.merge-overlap"
	// CodeMergeInTable: a merged range intersects a table.
	CodeMergeInTable = "xlsx.merge-in-table"
	// CodeTableOverlap: a table overlaps another table or the sheet's
	// autoFilter.
	CodeTableOverlap = "xlsx.table-overlap"
	// CodeTableNameDup: two tables share a name (workbook-wide,
	// case-insensitive).
	CodeTableNameDup = "xlsx.table-name-duplicate"
	// CodeTableName: a table name that is not a valid Excel name.
	CodeTableName = "xlsx.table-name-invalid"
	// CodeTableNameDefined: a table name equal to a workbook-level defined
	// name (warning: unverified).
	CodeTableNameDefined = "xlsx.table-name-conflict"
	// CodeTableID: two tables share an id.
	CodeTableID = "xlsx.table-id-duplicate"
	// CodeTableColumns: the table's ref width, tableColumns/@count and
	// the number of tableColumn elements disagree.
	CodeTableColumns = "xlsx.table-columns-mismatch"
	// CodeTableColumnDup: two columns of one table share a name.
	CodeTableColumnDup = "xlsx.table-column-duplicate"
	// CodeTableRef: a table whose ref is not a cell range.
	CodeTableRef = "xlsx.table-ref-invalid"
	// CodeCellOrder: cells of a row not in ascending column order.
	CodeCellOrder = "xlsx.cell-order"
	// CodeRowOrder: rows not in ascending order.
	CodeRowOrder = "xlsx.row-order"
	// CodeCellRow: a cell whose reference names another row than its
	// <row> (warning: unverified).
	CodeCellRow = "xlsx.cell-row-mismatch"
	// CodeChildOrder: worksheet children out of CT_Worksheet order.
	CodeChildOrder = "xlsx.sheet-child-order"
	// CodeLetXlpm: a name bound by LET or LAMBDA written without _xlpm.
	CodeLetXlpm = "xlsx.let-without-xlpm"
	// CodeFuturePrefix: a function newer than Excel 2007 without _xlfn.
	CodeFuturePrefix = "xlsx.future-function-prefix"
	// CodeXlwsPrefix: FILTER, SORT or PY with _xlfn. but without _xlws.
	CodeXlwsPrefix = "xlsx.xlws-prefix"
	// CodeDynamicArray: a dynamic-array formula without spill metadata.
	CodeDynamicArray = "xlsx.dynamic-array-no-metadata"
	// CodeCellMetadata: a cell's cm points past xl/metadata.xml's
	// cellMetadata.
	CodeCellMetadata = "xlsx.cm-out-of-range"
	// CodeSeparator: a formula with ; as argument separator.
	CodeSeparator = "xlsx.formula-separator"
	// CodeLocalized: a formula calling a localized function name.
	CodeLocalized = "xlsx.formula-localized"
	// CodeCalcManual: calcPr/@calcMode="manual".
	CodeCalcManual = "xlsx.calc-manual"
	// CodeDVListTooLong: a literal list data validation over 255
	// characters.
	CodeDVListTooLong = "xlsx.dv-list-too-long"
	// CodeDVTextTooLong: a data validation prompt or error message over
	// 255 characters (titles over 32: warning).
	CodeDVTextTooLong = "xlsx.dv-text-too-long"
	// CodeTooMany: more findings of one code in one part than are listed.
	CodeTooMany = "xlsx.too-many-findings"
	// CodeStyleUndefined: an index into a styles.xml list (cellXfs, fonts,
	// fills, borders, cellStyleXfs, dxfs) past its end (StyleRefKinds).
	CodeStyleUndefined = "xlsx.style-undefined"
	// CodeSheetID: a sheet's sheetId missing, not a positive number, or
	// used by another sheet. Fatal.
	CodeSheetID = "xlsx.sheet-id-invalid"
	// CodeDefinedNameSheet: a defined name scoped to a sheet that does not
	// exist (localSheetId), or whose formula names a missing sheet. Fatal.
	CodeDefinedNameSheet = "xlsx.defined-name-sheet"
	// CodeTableHeader: a table's header cell whose text differs from its
	// tableColumn name (fatal), or is empty (warning).
	CodeTableHeader = "xlsx.table-header-mismatch"
	// CodeEmptyContainer: a worksheet container that must hold at least
	// one child and holds none (<mergeCells/>, <hyperlinks/>…).
	CodeEmptyContainer = "xlsx.empty-container"
	// CodeRefOutOfRange: a cell, row, range or column beyond XFD1048576.
	// Fatal.
	CodeRefOutOfRange = "xlsx.ref-out-of-range"
	// CodeRefInvalid: a mergeCell whose ref is empty or not a range. Fatal.
	CodeRefInvalid = "xlsx.ref-invalid"
	// CodePivotCache: a pivot table whose cacheId names no pivotCache of
	// workbook.xml. Fatal.
	CodePivotCache = "xlsx.pivot-cache-undefined"
)

// Codes of the calculation and formula-syntax rules (calc.go), found by the
// held-out evaluation (docs/validation.md).
const (
	// CodeFormulaSyntax: a formula that cannot be parsed (it ends with an
	// operator: text starting with "=" written as a formula).
	CodeFormulaSyntax = "xlsx.formula-syntax"
	// CodeSharedFormula: shared-formula cells whose master (the cell with
	// the formula text and ref) is gone.
	CodeSharedFormula = "xlsx.shared-formula-orphan"
	// CodeCalcChain: xl/calcChain.xml lists a cell that holds no formula or
	// a sheet the workbook does not have.
	CodeCalcChain = "xlsx.calc-chain-stale"
	// CodeActiveTab: workbookView activeTab or firstSheet past the last
	// sheet.
	CodeActiveTab = "xlsx.active-tab-out-of-range"
)
