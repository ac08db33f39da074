package render

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// fileURL turns a path into the file:// URL -env:UserInstallation expects.
func fileURL(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// profileSettings are written into the template profile: no macros, no
// link updates (no network access while loading), no OpenCL, and no
// per-session state in the pixels. The locale is not set here but pinned
// in the environment (sofficeEnv): setting ooSetupSystemLocale=en-US
// changed one real spreadsheet from 72 to 77 pages against LibreOffice's
// own export (docs/rendering.md).
//
// Values: Writer Content/Update/Link 0 = NEVER (sw/inc/linkenum.hxx);
// Calc Content/Update/Link 1 = LM_NEVER (sc/inc/global.hxx, ScLkUpdMode);
// MacroSecurityLevel 3 = very high (only signed macros from trusted
// locations, of which there are none).
//
// Revision colours: the schema's default, -1 (COL_AUTHOR), colours each
// tracked change by its author's index in the list one LibreOffice process
// builds as it meets authors (SwModule::InsertRedlineAuthor), so a
// document's insertions change colour with the documents converted before
// it in the same run (measured: 20 renders of a three-author document in
// 20 batch compositions gave 20 different rasters; poi_stress023.docx, 5).
// One fixed colour — LibreOffice's first author colour, COL_AUTHOR1_DARK
// (198,146,0) — for every kind of change in Writer
// (Writer/Revision/TextDisplay/*/Color, LinesChanged/Color) and Calc
// (Calc/Revision/Color/*); insertions and deletions stay told apart by
// their attributes (underline, strike-through). Keys from officecfg's
// Writer.xcs and Calc.xcs (share/registry/main.xcd). Comments are not
// exported into the PDF (Common/Filter/PDF/Export/ExportNotes false, the
// default, pinned), so their author colours never reach the pixels.
var profileSettings = []xcuSetting{
	{"/org.openoffice.Office.Common/Security/Scripting", "MacroSecurityLevel", "xs:int", "3"},
	{"/org.openoffice.Office.Common/Security/Scripting", "DisableMacrosExecution", "xs:boolean", "true"},
	{"/org.openoffice.Office.Common/Security/Scripting", "BlockUntrustedRefererLinks", "xs:boolean", "true"},
	{"/org.openoffice.Office.Writer/Content/Update", "Link", "xs:int", "0"},
	{"/org.openoffice.Office.Calc/Content/Update", "Link", "xs:int", "1"},
	{"/org.openoffice.Office.Common/Misc", "UseOpenCL", "xs:boolean", "false"},
	{"/org.openoffice.Office.Writer/Revision/TextDisplay/Insert", "Color", "xs:int", revisionColor},
	{"/org.openoffice.Office.Writer/Revision/TextDisplay/Delete", "Color", "xs:int", revisionColor},
	{"/org.openoffice.Office.Writer/Revision/TextDisplay/ChangedAttribute", "Color", "xs:int", revisionColor},
	{"/org.openoffice.Office.Writer/Revision/LinesChanged", "Color", "xs:int", revisionColor},
	{"/org.openoffice.Office.Calc/Revision/Color", "Change", "xs:int", revisionColor},
	{"/org.openoffice.Office.Calc/Revision/Color", "Deletion", "xs:int", revisionColor},
	{"/org.openoffice.Office.Calc/Revision/Color", "Insertion", "xs:int", revisionColor},
	{"/org.openoffice.Office.Calc/Revision/Color", "MovedEntry", "xs:int", revisionColor},
	{"/org.openoffice.Office.Common/Filter/PDF/Export", "ExportNotes", "xs:boolean", "false"},
}

// revisionColor is 0xC69200, COL_AUTHOR1_DARK, as the decimal RGB integer
// the configuration stores.
const revisionColor = "13013504"

// ProfileKey identifies the rendering settings every converter applies —
// profileSettings and the staging rewrite (stageVersion) — for the
// Toolchain: pages rendered under other settings are never compared.
func ProfileKey() string {
	h := sha256.New()
	for _, s := range profileSettings {
		fmt.Fprintf(h, "%s/%s=%s:%s\n", s.path, s.name, s.typ, s.value)
	}
	fmt.Fprintf(h, "stage %s\n", stageVersion)
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// initProfile creates an initialised LibreOffice profile in dir by starting
// LibreOffice once with --terminate_after_init (tolerating the exit code 81
// restart request of a first start), then adds profileSettings.
func initProfile(ctx context.Context, exe, dir, tmp string, deadline time.Duration) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("render: profile: %w", err)
	}
	var last error
	for attempt := 0; attempt < 3; attempt++ {
		last = runInit(ctx, exe, dir, tmp, deadline)
		var ee *exec.ExitError
		if errors.As(last, &ee) && ee.ExitCode() == 81 {
			continue
		}
		break
	}
	if last != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// Installed but unable to start (a full disk for its profile, a
		// broken installation): the machine's failure, not a missing
		// renderer — "not installed" would be untrue.
		return fmt.Errorf("%w: LibreOffice (%s) is installed but failed to start: %v", ErrRendererBroken, exe, last)
	}
	xcu := filepath.Join(dir, "user", "registrymodifications.xcu")
	if err := addSettings(xcu, profileSettings); err != nil {
		return fmt.Errorf("render: profile settings: %w", err)
	}
	return nil
}

func runInit(ctx context.Context, exe, dir, tmp string, deadline time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	args := append(sofficeArgs(dir), "--terminate_after_init")
	cmd := exec.Command(exe, args...)
	cmd.Env = sofficeEnv(tmp)
	setProcessGroup(cmd)
	var stderr tailBuffer
	cmd.Stderr = &stderr
	cmd.Stdout = &stderr
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { killGroup(cmd) })
	err := cmd.Wait()
	stop()
	killGroup(cmd)
	if ctx.Err() != nil {
		return fmt.Errorf("no answer within %s: %w", deadline, ctx.Err())
	}
	if err != nil {
		if s := cleanStderr(stderr.String()); s != "" {
			return fmt.Errorf("%w: %s", err, s)
		}
	}
	return err
}

// xcuSetting is one configuration value of a LibreOffice profile.
type xcuSetting struct{ path, name, typ, value string }

// addSettings adds settings to a registrymodifications.xcu (creating it
// when LibreOffice did not). It is the one place a LibreOffice profile
// gets its settings: every Converter that starts LibreOffice (the batch
// Pool, a warm UNO listener) renders on a copy of the template made with
// profileSettings, so that all render alike and ProfileKey describes them;
// the batch Pool's recalculating runs add recalcSettings to a copy.
func addSettings(xcu string, settings []xcuSetting) error {
	var items bytes.Buffer
	for _, s := range settings {
		fmt.Fprintf(&items, `<item oor:path="%s"><prop oor:name="%s" oor:op="fuse" oor:type="%s"><value>%s</value></prop></item>`+"\n",
			s.path, s.name, s.typ, s.value)
	}
	b, err := os.ReadFile(xcu)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(xcu), 0o700); err != nil {
			return err
		}
		b = []byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
			`<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` + "\n" +
			`</oor:items>` + "\n")
	} else if err != nil {
		return err
	}
	end := bytes.LastIndex(b, []byte("</oor:items>"))
	if end < 0 {
		return fmt.Errorf("%s: no </oor:items>", xcu)
	}
	out := append(append(append([]byte{}, b[:end]...), items.Bytes()...), b[end:]...)
	return os.WriteFile(xcu, out, 0o600)
}

// copyDir copies the tree src to dst (regular files, folders, symlinks).
func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case de.IsDir():
			return os.MkdirAll(target, 0o700)
		case de.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case de.Type().IsRegular():
			return copyFile(p, target)
		}
		return nil // sockets, pipes: LibreOffice recreates them
	})
}
