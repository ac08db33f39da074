package baseline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/testdoc"
)

// The store keeps the original's bytes when it makes a snapshot, hands
// them back by sha256, and never returns bytes that no longer match.
func TestStoreKeepsDocument(t *testing.T) {
	dir := t.TempDir()
	st, err := OpenStore(filepath.Join(dir, "store"))
	if err != nil {
		t.Fatal(err)
	}
	data := testdoc.ZipMap(map[string]string{
		"[Content_Types].xml": `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
		"_rels/.rels":         `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/document.xml":   `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Hi</w:t></w:r></w:p></w:body></w:document>`,
	})
	sum := sha256.Sum256(data)
	key := hex.EncodeToString(sum[:])
	if _, err := st.Document(key); !errors.Is(err, ErrNotFound) {
		t.Fatalf("empty store: %v", err)
	}
	path := filepath.Join(dir, "a.docx")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.Snapshot(context.Background(), path, key, Options{}); err != nil {
		t.Fatal(err)
	}
	got, err := st.Document(key)
	if err != nil || string(got) != string(data) {
		t.Fatalf("stored document: %d bytes, %v", len(got), err)
	}
	// Bytes that no longer hash to their name are dropped, not returned.
	if err := os.WriteFile(st.documentPath(key), []byte("tampered"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Document(key); !errors.Is(err, ErrNotFound) {
		t.Errorf("tampered document: %v", err)
	}
	if _, err := os.Stat(st.documentPath(key)); !os.IsNotExist(err) {
		t.Errorf("tampered document left in place: %v", err)
	}
	// A cache hit stores it again.
	if _, hit, err := st.Snapshot(context.Background(), path, key, Options{Data: data}); err != nil || !hit {
		t.Fatalf("second snapshot: hit %v, %v", hit, err)
	}
	if _, err := st.Document(key); err != nil {
		t.Errorf("document not kept again on a hit: %v", err)
	}
	// A file over the size limit is never read into memory to be kept.
	big, err := OpenStore(filepath.Join(dir, "store2"))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := big.Snapshot(context.Background(), path, key, Options{Limits: formats.Limits{MaxFileSize: 16}}); err != nil {
		t.Fatal(err)
	}
	if _, err := big.Document(key); !errors.Is(err, ErrNotFound) {
		t.Errorf("a document over the size limit was kept: %v", err)
	}
	if err := st.PutDocument(key, []byte("other bytes")); err == nil {
		t.Error("PutDocument accepted bytes that do not match the key")
	}
	if _, err := st.Document("../../etc/passwd"); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("bad key accepted: %v", err)
	}
}
