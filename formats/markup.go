package formats

// MarkupRule is one XML- or package-level rule (the defects the held-out
// evaluation of docs/validation.md found uncaught), for docs/validation.md:
// what triggers it, its code and grade, and the evidence behind the grade.
type MarkupRule struct {
	Code     string
	Grade    Grade
	When     string
	Evidence string
}

// MarkupRules are the rules the held-out evaluation added to the XML scan
// and the relationship checks, in docs/validation.md order.
var MarkupRules = []MarkupRule{
	{Code: CodeXMLNotWellFormed, Grade: Fatal, When: "an attribute whose prefix is not declared (w14:paraId pasted into a part whose root does not declare w14)",
		Evidence: "Namespaces in XML 1.0 §5 (Prefix Declared) makes it a well-formedness error, which Word reports like any parse error; nissl-lab/npoi#1067 (a header using w16 prefixes it does not declare: \"Word found unreadable content\", reproduced by the maintainer); plutext/docx4j#444 (Word requires the prefixes it meets to be declared)"},
	{Code: CodeXMLNotWellFormed, Grade: Fatal, When: "the XML declaration <?xml …?> not at the very start of a part (a newline or text before it)",
		Evidence: "XML 1.0 §2.8 (the declaration, when present, comes first; a PI named xml elsewhere is an error); EWSoftware/SHFB#412 (Word names the part, line and column of an ill-formed part and refuses it)"},
	{Code: CodeXMLMCPrefix, Grade: Fatal, When: "mc:Ignorable, mc:MustUnderstand or mc:Choice/@Requires lists a prefix that is not declared in scope",
		Evidence: "plutext/docx4j#573 (mc:Ignorable lists w16du, not declared: \"unreadable content\"; removing it opens); developer0hye/office2pdf#1641 (wp14 listed but not bound: Word 16.112 refuses, bisected to that attribute); plutext/docx4j#444 (mc:Choice Requires=\"wps\" must be declared for Office to open the file); ECMA-376 Part 3 §10.1.1"},
	{Code: CodeRelsUndefinedID, Grade: Warning, When: "an r:embed/r:id inside a theme part (a picture fill of the theme's format scheme) that names no relationship",
		Evidence: "openpyxl writes every resaved workbook whose theme has a picture fill this way (it copies theme1.xml, not its relationships); no public report of Excel refusing or repairing such a workbook was found, so it stays below fatal"},
}
