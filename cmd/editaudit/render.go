package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/editaudit/editaudit/internal/plural"
	"github.com/editaudit/editaudit/render"
)

func renderCommand() *cli.Command {
	return &cli.Command{
		Name:      "render",
		Usage:     "render a document's pages as images (inspection aid)",
		ArgsUsage: "FILE",
		Description: `render converts FILE to PDF with LibreOffice (headless) and draws every page
at --dpi, writing page-001.png (or .jpg) and pages.json to --out: the page
count, each page's size in points and pixels, the sha256 of its raw pixels
(equal hashes mean identical pages), and the toolchain fingerprint
(LibreOffice, rasterizer, dpi, installed fonts) that produced them.

Exit code 3 when LibreOffice is missing or the document cannot be rendered
(pages.json then says why).

Examples:
   editaudit render contract.docx
   editaudit render --out /tmp/deck --dpi 150 --format jpeg deck.pptx`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "output folder (default: FILE's name + \"-pages\", in the current folder)"},
			&cli.IntFlag{Name: "dpi", Value: render.DefaultDPI, Usage: "resolution, 10 to 600"},
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "png", Usage: "image format: png or jpeg"},
			&cli.StringFlag{Name: "rasterizer", Value: "auto", Usage: "PDF rasterizer: auto (pdftoppm if installed, else mutool), mutool or pdftoppm"},
		},
		Action: runRender,
	}
}

func runRender(c *cli.Context) error {
	if c.NArg() != 1 {
		return usageErr("render needs exactly one FILE (see editaudit render --help)")
	}
	path := c.Args().First()
	dpi := c.Int("dpi")
	if dpi < 10 || dpi > 600 {
		return usageErr("--dpi %d: use 10 to 600", dpi)
	}
	image := c.String("format")
	if image == "jpg" {
		image = render.ImageJPEG
	}
	if err := oneOf("format", image, render.ImagePNG, render.ImageJPEG); err != nil {
		return err
	}
	var rz render.Rasterizer
	switch name := c.String("rasterizer"); name {
	case "auto":
		rz = render.DefaultRasterizer()
	case "pdftoppm":
		rz = render.NewPdftoppm()
	case "mutool":
		rz = render.NewMutool()
	default:
		return oneOf("rasterizer", name, "auto", "pdftoppm", "mutool")
	}
	if err := inputFile("FILE", path); err != nil {
		return err
	}
	out := c.String("out")
	if out == "" {
		base := filepath.Base(path)
		out = strings.TrimSuffix(base, filepath.Ext(base)) + "-pages"
	}
	doc, err := render.WriteFolder(c.Context, path, out, render.FolderOptions{
		Config: render.Config{Pool: render.PoolOptions{Workers: 1}, Rasterizer: rz, DPI: dpi}, Image: image})
	if err != nil {
		return toolErr(err)
	}
	fmt.Fprintf(c.App.Writer, "%s: %s at %d dpi → %s (pages.json; toolchain %s)\n", path, plural.Of(doc.Count, "page", "pages"), dpi, out, doc.ToolchainKey)
	return nil
}
