package content

// Status values of Result.Status (DESIGN.md, "Content diff").
const (
	// StatusOK: every part was read on both sides and compared.
	StatusOK = "ok"
	// StatusPartial: some part (or a whole file) could not be read on one
	// side; it was left out of the comparison on both sides, and Message
	// names it. The changes listed are real; changes inside the parts left
	// out are unknown.
	StatusPartial = "partial"
	// StatusOff: the content diff was not asked for.
	StatusOff = "off"
)

// Kind is what happened to a unit.
type Kind string

// The kinds of change (DESIGN.md, "Content diff").
const (
	// KindText: a unit's text changed (Before, After, Diff).
	KindText Kind = "text"
	// KindFormat: a unit's run formatting or paragraph style changed
	// (Before and After describe the properties that changed, Detail
	// counts the runs, Text is the unit's text).
	KindFormat Kind = "format"
	// KindCell: a worksheet cell's value, formula or type changed.
	KindCell Kind = "cell"
	// KindInserted: a unit (or a sheet) only the edited file has (After).
	KindInserted Kind = "inserted"
	// KindDeleted: a unit (or a sheet) only the original has (Before).
	KindDeleted Kind = "deleted"
	// KindMoved: a unit whose text is unchanged but that sits elsewhere
	// (From is where it was, Where where it is now).
	KindMoved Kind = "moved"
)

// Op is one piece of a word-level diff.
type Op struct {
	// Op is "=" (kept), "-" (deleted) or "+" (inserted).
	Op string `json:"op"`
	// Text is the piece; a long kept piece is shortened to its ends around
	// "…".
	Text string `json:"text"`
}

// Change is one difference between the original and the edited file.
type Change struct {
	Kind Kind `json:"kind"`
	// Part is the package part that holds the unit ("word/document.xml",
	// "ppt/slides/slide4.xml", "xl/worksheets/sheet1.xml",
	// "Contents/section0.xml"): the edited file's part, the original's for
	// a deleted unit.
	Part string `json:"part"`
	// Where locates the unit for people (DESIGN.md forms): "body paragraph
	// 12", "body table 2, row 3, cell 1", "slide 4, shape 'Title 1'",
	// "Sheet1!B4", "section 1, paragraph 3". It numbers the edited file's
	// units, the original's for a deleted unit.
	Where string `json:"where"`
	// Before and After: the text (text, inserted, deleted, moved), the
	// cell's formula or value (cell), or the changed formatting properties
	// (format). Long text is shortened around the change with "…".
	Before string `json:"before"`
	After  string `json:"after"`
	// From is the original's location of a moved unit.
	From string `json:"from,omitempty"`
	// Detail says in words what changed: "replaced \"line\" with \"blue\"",
	// "3 bold runs became plain", "type number → text", "sheet renamed".
	Detail string `json:"detail,omitempty"`
	// Text is the unit's text, for a format change (shortened).
	Text string `json:"text,omitempty"`
	// Diff is the word-level diff of a text change, with context.
	Diff []Op `json:"diff,omitempty"`
	// Lost is true for a format change that removed emphasis the original
	// had: bold, italic, underline, strikethrough, highlight or colour.
	Lost bool `json:"lost,omitempty"`
}

// Summary counts what the diff found, over every change (also those cut
// from Changes by the cap). Units are paragraphs (Word, PowerPoint, Hangul;
// a table cell's paragraph is a unit) or cells (Excel, non-empty or
// formatted ones).
type Summary struct {
	// UnitsBefore and UnitsAfter are the units compared in each file
	// (parts left out for a parse failure are not counted).
	UnitsBefore int `json:"units_before"`
	UnitsAfter  int `json:"units_after"`
	// Unchanged units: same text, same formatting, same place.
	Unchanged int `json:"unchanged"`
	// Changed is the number of original units the edit touched: text,
	// formatting or cell changed, deleted or moved.
	Changed int `json:"changed"`
	// Text, Format and Cells count units whose text, formatting or cell
	// content changed (a unit can count in Text and Format).
	Text   int `json:"text"`
	Format int `json:"format"`
	Cells  int `json:"cells"`
	// Inserted, Deleted and Moved count units.
	Inserted int `json:"inserted"`
	Deleted  int `json:"deleted"`
	Moved    int `json:"moved"`
	// FormattingLost counts units that lost emphasis (see Change.Lost).
	FormattingLost int `json:"formatting_lost"`
	// ChangedShare is Changed / UnitsBefore (0 when there were none): the
	// collateral-damage measure of a corpus run.
	ChangedShare float64 `json:"changed_share"`
	// Sheets added, removed and renamed (Excel).
	SheetsAdded   int `json:"sheets_added,omitempty"`
	SheetsRemoved int `json:"sheets_removed,omitempty"`
	SheetsRenamed int `json:"sheets_renamed,omitempty"`
}

// Result is the content diff of one edit: the "content" object of the
// audit JSON (DESIGN.md, "Content diff").
type Result struct {
	// Status is StatusOK, StatusPartial or StatusOff.
	Status string `json:"status"`
	// Message says what was left out (partial) or why nothing was compared.
	Message string `json:"message,omitempty"`
	// Changes in document order (parts in reading order, then position),
	// at most Options.MaxChanges of them.
	Changes []Change `json:"changes"`
	// Summary counts every change, listed or not.
	Summary Summary `json:"summary"`
	// Truncated is the number of changes found but not listed.
	Truncated int `json:"truncated"`
}

// Off returns the Result of a diff that was not asked for.
func Off() *Result {
	return &Result{Status: StatusOff, Message: "the content diff was not asked for (--content off)", Changes: []Change{}}
}
