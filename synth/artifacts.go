package synth

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Artifacts resolves "artifact:ID" image handles to the files of one
// folder, and only of that folder: ID is a plain file name (no separator,
// no leading dot), opened through an os.Root, so neither "../" nor a
// symbolic link can reach outside it; only regular files are read, at most
// MaxImageBytes of each. A model tool hands the model the IDs of the
// images it may use (charts it rendered, uploaded logos); the spec never
// names a path or a URL. Safe for concurrent use; Close it.
type Artifacts struct {
	dir  string
	root *os.Root

	mu    sync.Mutex
	cache map[string]artifactResult
}

type artifactResult struct {
	pic picture
	err error
}

// artifactID is what an ID may be: a file name of letters, digits, '.',
// '_' and '-', not starting with a dot, at most 128 characters.
var artifactID = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$`)

// OpenArtifacts opens the artifacts folder dir.
func OpenArtifacts(dir string) (*Artifacts, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("synth: artifacts folder: %w", err)
	}
	return &Artifacts{dir: dir, root: root, cache: map[string]artifactResult{}}, nil
}

// Dir is the folder the handles resolve in.
func (a *Artifacts) Dir() string { return a.dir }

// Close releases the folder.
func (a *Artifacts) Close() error {
	if a == nil || a.root == nil {
		return nil
	}
	return a.root.Close()
}

// load reads and checks the image with handle id (the part after
// "artifact:"), once per Artifacts.
func (a *Artifacts) load(id string) (picture, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if r, ok := a.cache[id]; ok {
		return r.pic, r.err
	}
	pic, err := a.read(id)
	a.cache[id] = artifactResult{pic, err}
	return pic, err
}

func (a *Artifacts) read(id string) (picture, error) {
	if !artifactID.MatchString(id) || strings.Contains(id, "..") {
		return picture{}, fmt.Errorf("artifact:%s: an artifact ID is a file name in the artifacts folder (letters, digits, '.', '_', '-'; no folders)", id)
	}
	// Stat through the root first: a FIFO or device would block or never
	// end; a symbolic link is followed only while it stays inside.
	st, err := a.root.Stat(id)
	if err != nil {
		return picture{}, artifactErr(id, err)
	}
	if !st.Mode().IsRegular() {
		return picture{}, fmt.Errorf("artifact:%s is not a regular file", id)
	}
	if st.Size() > MaxImageBytes {
		return picture{}, fmt.Errorf("artifact:%s: %d bytes exceed the cap of %d per image", id, st.Size(), MaxImageBytes)
	}
	f, err := a.root.Open(id)
	if err != nil {
		return picture{}, artifactErr(id, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxImageBytes+1))
	if err != nil {
		return picture{}, fmt.Errorf("artifact:%s: %v", id, err)
	}
	if len(data) > MaxImageBytes {
		return picture{}, fmt.Errorf("artifact:%s: more than the cap of %d bytes per image", id, MaxImageBytes)
	}
	pic, err := checkPicture(data)
	if err != nil {
		return picture{}, fmt.Errorf("artifact:%s: %v", id, err)
	}
	return pic, nil
}

// maxListedIDs bounds the IDs an error message lists.
const maxListedIDs = 20

// IDs lists the handles the folder offers: the names of its regular files
// that are valid IDs, sorted, at most maxListedIDs, and how many more.
func (a *Artifacts) IDs() ([]string, int) {
	f, err := a.root.Open(".")
	if err != nil {
		return nil, 0
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		return nil, 0
	}
	var ids []string
	for _, e := range ents {
		if e.Type().IsRegular() && artifactID.MatchString(e.Name()) && !strings.Contains(e.Name(), "..") {
			ids = append(ids, e.Name())
		}
	}
	sort.Strings(ids)
	if len(ids) > maxListedIDs {
		return ids[:maxListedIDs], len(ids) - maxListedIDs
	}
	return ids, 0
}

// offer says which handles the folder offers, for an error message.
func (a *Artifacts) offer() string {
	ids, more := a.IDs()
	if len(ids) == 0 {
		return "the artifacts folder holds no image"
	}
	s := "the artifacts folder offers artifact:" + strings.Join(ids, ", artifact:")
	if more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

// artifactErr words a failure to reach a file of the folder.
func artifactErr(id string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("artifact:%s: no such file in the artifacts folder", id)
	case strings.Contains(err.Error(), "escapes from parent") || strings.Contains(err.Error(), "path escapes"):
		return fmt.Errorf("artifact:%s leads outside the artifacts folder (a symbolic link); refused", id)
	}
	return fmt.Errorf("artifact:%s: %v", id, err)
}
