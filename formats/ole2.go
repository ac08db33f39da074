package formats

import (
	"bytes"
	"unicode/utf16"
)

// ole2Magic starts every Compound File Binary container ([MS-CFB] §2.2).
var ole2Magic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

// utf16le encodes s as the UTF-16LE bytes CFB directory entries use for
// stream names ([MS-CFB] §2.6.1).
func utf16le(s string) []byte {
	u := utf16.Encode([]rune(s))
	b := make([]byte, 2*len(u))
	for i, c := range u {
		b[2*i], b[2*i+1] = byte(c), byte(c>>8)
	}
	return b
}

// ole2Finding names what an OLE2 container is. Office writes a
// password-protected OOXML file as a CFB with the streams EncryptionInfo and
// EncryptedPackage ([MS-OFFCRYPTO] §2.3.4); legacy binary files carry
// WordDocument ([MS-DOC]), Workbook/Book ([MS-XLS]) or "PowerPoint Document"
// ([MS-PPT]). Directory entries are not parsed: the names are searched as
// UTF-16LE, which cannot fail on hostile directories.
func ole2Finding(data []byte) Finding {
	has := func(name string) bool { return bytes.Contains(data, utf16le(name)) }
	switch {
	case has("EncryptedPackage") || has("EncryptionInfo"):
		return Finding{Code: CodeZipEncrypted, Grade: Fatal,
			Message: "the file is password-encrypted: an OLE2 container holding an EncryptedPackage stream, not a readable Office package",
			Fix:     "remove the password in the application (File › Info › Protect › Encrypt with password, clear it) and save again, or audit the decrypted file",
			Anchor:  "encrypted"}
	case has("WordDocument"):
		return legacy("a legacy Word 97-2003 binary document (.doc)", "Word")
	case has("Workbook") || has("Book"):
		return legacy("a legacy Excel 97-2003 binary workbook (.xls)", "Excel")
	case has("PowerPoint Document"):
		return legacy("a legacy PowerPoint 97-2003 binary presentation (.ppt)", "PowerPoint")
	}
	return Finding{Code: CodeZipOLE2, Grade: Fatal,
		Message: "the file is an OLE2 compound file of unknown content, not an Office Open XML package",
		Fix:     "save the document as .docx, .xlsx or .pptx and audit that file",
		Anchor:  "ole2"}
}

func legacy(what, app string) Finding {
	return Finding{Code: CodeZipLegacy, Grade: Fatal,
		Message: "the file is " + what + " with an Open XML extension; it is not a zip package",
		Fix:     "open it in " + app + " and save it in the Open XML format, then audit that file",
		Anchor:  "legacy"}
}
