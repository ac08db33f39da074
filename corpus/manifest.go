package corpus

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/editaudit/editaudit/corpus/results"
	"github.com/editaudit/editaudit/formats"
	"github.com/editaudit/editaudit/internal/fsutil"
)

// Pair is one edit to audit: the original document and the edited one.
type Pair struct {
	// ID names the pair in results.jsonl and its folder pairs/<ID>; unique
	// in a run. The manifest's id column, else the 1-based row number.
	ID string `json:"id"`
	// Group is the model, prompt or workflow that produced the edit
	// (metrics are also given per group); "" when not given.
	Group string `json:"group,omitempty"`
	// Original and Edited are the documents' paths, resolved against the
	// manifest's folder when the manifest gave them relative.
	Original string `json:"original"`
	Edited   string `json:"edited"`
}

// Manifest formats.
const (
	ManifestCSV   = "csv"
	ManifestTSV   = "tsv"
	ManifestJSONL = "jsonl"
)

// Limits of a manifest: they bound the memory a hostile or mistaken
// manifest can take before it is refused.
const (
	// MaxManifestPairs is the most pairs one manifest may list.
	MaxManifestPairs = 10_000_000
	// maxField bounds one path, id or group (bytes).
	maxField = 4096
)

// ErrManifest marks every manifest problem (errors.Is); the message names
// the row.
var ErrManifest = errors.New("corpus: bad manifest")

func manifestErr(row int, format string, a ...any) error {
	if row > 0 {
		return fmt.Errorf("%w: row %d: %s", ErrManifest, row, fmt.Sprintf(format, a...))
	}
	return fmt.Errorf("%w: %s", ErrManifest, fmt.Sprintf(format, a...))
}

// ManifestFormatOf tells a manifest's format from its file name (.csv,
// .tsv/.tab, .jsonl/.ndjson) and, failing that, from its first bytes: a
// '{' starts JSON lines, a tab in the first line means TSV, else CSV.
func ManifestFormatOf(name string, head []byte) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".csv":
		return ManifestCSV
	case ".tsv", ".tab":
		return ManifestTSV
	case ".jsonl", ".ndjson":
		return ManifestJSONL
	}
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	head = bytes.TrimLeft(head, " \t\r\n")
	if len(head) > 0 && head[0] == '{' {
		return ManifestJSONL
	}
	line, _, _ := bytes.Cut(head, []byte("\n"))
	if bytes.IndexByte(line, '\t') >= 0 {
		return ManifestTSV
	}
	return ManifestCSV
}

// ReadManifest reads the manifest file at path (format from its name or
// content) and resolves relative document paths against its folder. A
// path that is not a regular file (a FIFO, whose open would wait for a
// writer) is refused from its stat.
func ReadManifest(path string) ([]Pair, error) {
	f, _, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	head, _ := br.Peek(4096)
	format := ManifestFormatOf(path, head)
	return ParseManifest(br, format, filepath.Dir(path))
}

// ParseManifest reads pairs from r in the given format (ManifestCSV,
// ManifestTSV or ManifestJSONL).
//
// CSV and TSV have a header row naming the columns: original and edited
// are required, id and group optional, other columns are ignored (header
// names are matched case-insensitively; a UTF-8 byte-order mark is
// skipped). Lines starting with '#' are comments. TSV fields are taken
// literally (no quoting, as text/tab-separated-values defines it). JSONL has one object per line with the same
// keys; blank lines are skipped; id may be a string or a number.
//
// A missing id becomes the 1-based row number (data rows, header and
// comments not counted). Relative paths are joined to baseDir. IDs must be
// unique; rows must name both documents.
func ParseManifest(r io.Reader, format, baseDir string) ([]Pair, error) {
	var pairs []Pair
	var err error
	switch format {
	case ManifestCSV:
		pairs, err = parseDelimited(r, ',')
	case ManifestTSV:
		pairs, err = parseDelimited(r, '\t')
	case ManifestJSONL:
		pairs, err = parseJSONL(r)
	default:
		return nil, fmt.Errorf("%w: unknown format %q (use csv, tsv or jsonl)", ErrManifest, format)
	}
	if err != nil {
		return nil, err
	}
	seen := make(map[string]int, len(pairs))
	for i := range pairs {
		p := &pairs[i]
		if prev, dup := seen[p.ID]; dup {
			return nil, manifestErr(i+1, "id %q is also the id of row %d", p.ID, prev)
		}
		seen[p.ID] = i + 1
		p.Original = resolvePath(baseDir, p.Original)
		p.Edited = resolvePath(baseDir, p.Edited)
	}
	return pairs, nil
}

func resolvePath(base, p string) string {
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) || base == "" {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// checkRow validates one row's fields and fills the default id.
func checkRow(row int, p *Pair) error {
	p.ID = strings.TrimSpace(p.ID)
	p.Group = strings.TrimSpace(p.Group)
	if p.ID == "" {
		p.ID = strconv.Itoa(row)
	}
	for _, f := range []struct{ name, v string }{{"id", p.ID}, {"group", p.Group}, {"original", p.Original}, {"edited", p.Edited}} {
		if len(f.v) > maxField {
			return manifestErr(row, "%s is longer than %d bytes", f.name, maxField)
		}
		if !utf8.ValidString(f.v) {
			return manifestErr(row, "%s is not valid UTF-8", f.name)
		}
		if strings.ContainsAny(f.v, "\x00\n\r") {
			return manifestErr(row, "%s holds a NUL or line break", f.name)
		}
	}
	if strings.TrimSpace(p.Original) == "" {
		return manifestErr(row, "no original")
	}
	if strings.TrimSpace(p.Edited) == "" {
		return manifestErr(row, "no edited")
	}
	return nil
}

// recordReader yields the fields of one row at a time; io.EOF at the end.
type recordReader func() ([]string, error)

func parseDelimited(r io.Reader, comma rune) ([]Pair, error) {
	var next recordReader
	if comma == '\t' {
		next = tsvReader(r)
	} else {
		cr := csv.NewReader(r)
		cr.Comma = comma
		cr.Comment = '#'
		cr.FieldsPerRecord = -1
		cr.ReuseRecord = true
		next = cr.Read
	}
	header, err := next()
	if err == io.EOF {
		return nil, manifestErr(0, "empty (a header row naming original and edited is required)")
	}
	if err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrManifest, err)
	}
	col := map[string]int{"original": -1, "edited": -1, "id": -1, "group": -1}
	for i, h := range header {
		if i == 0 {
			h = strings.TrimPrefix(h, "\ufeff")
		}
		h = strings.ToLower(strings.TrimSpace(h))
		if j, ok := col[h]; ok {
			if j >= 0 {
				return nil, manifestErr(0, "column %q appears twice in the header", h)
			}
			col[h] = i
		}
	}
	if col["original"] < 0 || col["edited"] < 0 {
		return nil, manifestErr(0, "the header %q lacks an original or edited column", strings.Join(header, string(comma)))
	}
	get := func(rec []string, name string) string {
		if i := col[name]; i >= 0 && i < len(rec) {
			return rec[i]
		}
		return ""
	}
	var pairs []Pair
	for {
		rec, err := next()
		if err == io.EOF {
			break
		}
		row := len(pairs) + 1
		if err != nil {
			return nil, fmt.Errorf("%w: row %d: %v", ErrManifest, row, err)
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // a blank line
		}
		if len(pairs) >= MaxManifestPairs {
			return nil, manifestErr(0, "more than %d pairs", MaxManifestPairs)
		}
		p := Pair{ID: get(rec, "id"), Group: get(rec, "group"), Original: strings.TrimSpace(get(rec, "original")), Edited: strings.TrimSpace(get(rec, "edited"))}
		if err := checkRow(row, &p); err != nil {
			return nil, err
		}
		pairs = append(pairs, p)
	}
	return pairs, nil
}

// tsvReader reads tab-separated values as IANA's text/tab-separated-values
// defines them: one record per line, fields split at tabs, no quoting (a
// quote is a character like any other). A trailing CR is dropped; lines
// starting with '#' are comments; blank lines are skipped.
func tsvReader(r io.Reader) recordReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 4*maxField+1024)
	return func() ([]string, error) {
		for sc.Scan() {
			line := strings.TrimSuffix(sc.Text(), "\r")
			if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
				continue
			}
			return strings.Split(line, "\t"), nil
		}
		if err := sc.Err(); err != nil {
			return nil, err
		}
		return nil, io.EOF
	}
}

// jsonRow is one JSONL manifest line. ID is raw so that numbers work.
type jsonRow struct {
	Original *string         `json:"original"`
	Edited   *string         `json:"edited"`
	ID       json.RawMessage `json:"id"`
	Group    *string         `json:"group"`
}

func parseJSONL(r io.Reader) ([]Pair, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 4*maxField+1024)
	var pairs []Pair
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if line == 1 {
			b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
		}
		if len(b) == 0 {
			continue
		}
		row := len(pairs) + 1
		if len(pairs) >= MaxManifestPairs {
			return nil, manifestErr(0, "more than %d pairs", MaxManifestPairs)
		}
		var jr jsonRow
		dec := json.NewDecoder(bytes.NewReader(b))
		if err := dec.Decode(&jr); err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrManifest, line, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("%w: line %d: more than one JSON value", ErrManifest, line)
		}
		p := Pair{}
		if jr.Original != nil {
			p.Original = strings.TrimSpace(*jr.Original)
		}
		if jr.Edited != nil {
			p.Edited = strings.TrimSpace(*jr.Edited)
		}
		if jr.Group != nil {
			p.Group = *jr.Group
		}
		id, err := jsonID(jr.ID)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: id: %v", ErrManifest, line, err)
		}
		p.ID = id
		if err := checkRow(row, &p); err != nil {
			return nil, err
		}
		pairs = append(pairs, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: line %d: %v", ErrManifest, line+1, err)
	}
	return pairs, nil
}

// jsonID accepts a string, an integer, or nothing (null or absent).
func jsonID(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return "", errors.New("must be a string or a number")
	}
	return n.String(), nil
}

// PairDirs pairs the files under originals and edited by their path
// relative to each folder (slash-separated; it is also the pair's ID).
// Hidden files and folders (a name starting with '.') are skipped, as are
// non-regular files. Files found on one side only are returned in
// results.Unpaired.
// Pairs are sorted by ID.
func PairDirs(originals, edited string) ([]Pair, results.Unpaired, error) {
	a, err := listFiles(originals)
	if err != nil {
		return nil, results.Unpaired{}, err
	}
	b, err := listFiles(edited)
	if err != nil {
		return nil, results.Unpaired{}, err
	}
	var pairs []Pair
	var un results.Unpaired
	byID := map[string]string{}
	for rel := range a {
		if b[rel] {
			// The id is the relative path, escaped when it is not UTF-8 (a
			// file name may be any bytes; JSON holds only UTF-8), so it
			// survives results.jsonl exactly; the paths stay the real bytes.
			id := formats.EscapeName(rel)
			if prev, dup := byID[id]; dup {
				return nil, results.Unpaired{}, fmt.Errorf("corpus: %q and %q have the same id %q once escaped; rename one", prev, rel, id)
			}
			byID[id] = rel
			pairs = append(pairs, Pair{ID: id, Original: filepath.Join(originals, filepath.FromSlash(rel)), Edited: filepath.Join(edited, filepath.FromSlash(rel))})
		} else {
			un.OriginalsOnly = append(un.OriginalsOnly, formats.EscapeName(rel))
		}
	}
	for rel := range b {
		if !a[rel] {
			un.EditedOnly = append(un.EditedOnly, formats.EscapeName(rel))
		}
	}
	sort.Slice(pairs, func(i, j int) bool { return pairs[i].ID < pairs[j].ID })
	sort.Strings(un.OriginalsOnly)
	sort.Strings(un.EditedOnly)
	return pairs, un, nil
}

func listFiles(root string) (map[string]bool, error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("corpus: %s is not a folder", root)
	}
	out := map[string]bool{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = true
		return nil
	})
	return out, err
}

// PairDir is the folder of a pair's images and report, relative to the run
// folder: pairs/<id> when the id is a safe file name (letters, digits,
// '.', '_', '-', not starting with '.', at most 100 bytes), else the id
// with every other character replaced by '_', cut to 80 bytes, and the
// first 12 hex digits of the id's sha256 appended so that distinct ids
// never share a folder. Always slash-separated.
func PairDir(id string) string {
	if safeName(id) {
		return "pairs/" + id
	}
	var b strings.Builder
	for _, c := range id {
		if b.Len() >= 80 {
			break
		}
		if c < utf8.RuneSelf && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	sum := sha256.Sum256([]byte(id))
	return "pairs/" + strings.TrimLeft(b.String(), ".") + "~" + hex.EncodeToString(sum[:6])
}

func safeName(s string) bool {
	if s == "" || len(s) > 100 || s[0] == '.' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	// "~" never appears in a safe name, so a hashed folder cannot collide
	// with one.
	return true
}
