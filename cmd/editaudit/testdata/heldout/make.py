#!/usr/bin/python3
"""Held-out evaluation of editaudit's validators (docs/validation.md).

Applies defects that real editing code produces (python-docx and openpyxl API
use, regex/string edits of the XML, zip repacking, copy-paste between
documents, partial deletions) and benign edits to files of the real corpus,
and writes the edited documents plus manifest.json into OUT:

    make.py CORPUS OUT

Every defect case names the public report of Word, Excel, PowerPoint or
Hangul refusing or repairing such a file, with the strength of that evidence.
The documents are generated here at run time: nothing of the corpus is kept.
heldout_test.go (build tag heldout) runs `editaudit check` and `audit` on them.
"""
import copy
import io
import json
import os
import re
import sys
import zipfile

CORPUS, OUT = sys.argv[1], sys.argv[2]
os.makedirs(OUT, exist_ok=True)

CASES = []

try:
    import docx  # python3-docx (Debian)
except ImportError:  # pragma: no cover - the harness says which cases it skipped
    docx = None
try:
    import openpyxl  # python3-openpyxl (Debian)
except ImportError:  # pragma: no cover
    openpyxl = None
from lxml import etree  # python3-lxml, a dependency of both

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NSW = "{%s}" % W


# ---------------------------------------------------------------- zip helpers

def read_zip(path):
    """The entries of a package in archive order: [(ZipInfo, bytes)]."""
    with zipfile.ZipFile(path) as z:
        return [(i, z.read(i.filename)) for i in z.infolist()]


def write_zip(entries, dest, compression=None, force_zip64=False):
    with zipfile.ZipFile(dest, "w") as z:
        for info, data in entries:
            zi = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            zi.compress_type = compression if compression is not None else info.compress_type
            with z.open(zi, "w", force_zip64=force_zip64) as f:
                f.write(data)


class Pkg:
    """A package being edited: entries by name, order kept."""

    def __init__(self, rel):
        self.src = rel
        self.entries = read_zip(os.path.join(CORPUS, rel))

    def names(self):
        return [i.filename for i, _ in self.entries]

    def get(self, name):
        for i, d in self.entries:
            if i.filename == name:
                return d
        raise KeyError(name)

    def text(self, name):
        return self.get(name).decode("utf-8-sig")

    def put(self, name, data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        for k, (i, _) in enumerate(self.entries):
            if i.filename == name:
                self.entries[k] = (i, data)
                return
        zi = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
        zi.compress_type = zipfile.ZIP_DEFLATED
        self.entries.append((zi, data))

    def sub(self, name, pattern, repl, count=1, flags=0):
        t = self.text(name)
        n, k = re.subn(pattern, repl, t, count=count, flags=flags)
        if k == 0:
            raise ValueError("%s: %r not found in %s" % (self.src, pattern, name))
        self.put(name, n)

    def delete(self, name):
        before = len(self.entries)
        self.entries = [(i, d) for i, d in self.entries if i.filename != name]
        if len(self.entries) == before:
            raise KeyError(name)

    def save(self, dest, **kw):
        write_zip(self.entries, dest, **kw)


def ext(rel):
    return os.path.splitext(rel)[1]


def case(cid, family, app, mechanism, src, expect, evidence, strength, out_ext=None):
    """Registers a case whose edited file the decorated function writes."""

    def deco(fn):
        dest = os.path.join(OUT, cid + (out_ext or ext(src)))
        entry = dict(id=cid, family=family, app=app, mechanism=mechanism, source=src,
                     edited=os.path.basename(dest), expect=expect, evidence=evidence,
                     strength=strength)
        try:
            fn(src, dest)
            entry["ok"] = True
        except Exception as e:  # a case that cannot be built is reported, never hidden
            entry["ok"] = False
            entry["error"] = "%s: %s" % (type(e).__name__, e)
        CASES.append(entry)
        return fn

    return deco


def corpus(rel):
    return os.path.join(CORPUS, rel)


def remove_rel(pkg, rels, rid=None, target=None):
    t = pkg.text(rels)
    if rid:
        pat = r'<Relationship [^>]*Id="%s"[^>]*/>\s*' % re.escape(rid)
    else:
        pat = r'<Relationship [^>]*Target="%s"[^>]*/>\s*' % re.escape(target)
    n, k = re.subn(pat, "", t)
    if k == 0:
        raise ValueError("no relationship %s %s in %s" % (rid, target, rels))
    pkg.put(rels, n)


def remove_override(pkg, part):
    pkg.sub("[Content_Types].xml", r'<Override [^>]*PartName="/%s"[^>]*/>' % re.escape(part), "")


# ============================================================ Word: defects

@case("w-unescaped-amp", "XML well-formedness (unescaped &)", "Word", "regex fill of a template field",
      "docx/docxtemplater_tag-example.docx", "fatal",
      "PHPOffice/PHPWord#1942 ('& in $replace string … corrupts .docx files'); elapouya/python-docx-"
      "template#105 (an ampersand in the footer: Word won't open the output); krustnic/DocxMerge#18; "
      "XML 1.0 §2.4", "confirmed")
def _(src, dest):
    p = Pkg(src)
    p.sub("word/document.xml", r">last_name<", ">Smith & Sons<")
    p.save(dest)


@case("w-control-char", "XML-illegal character", "Word", "regex fill with text pasted from Excel (\\x0b)",
      "docx/docx4j_toc.docx", "fatal",
      "jgm/pandoc#1992 (U+000C in the text: Word reports the file corrupt); "
      "zorantica/plsql-word#1 ('illegal xml character', Part /word/numbering.xml)", "confirmed")
def _(src, dest):
    p = Pkg(src)
    p.sub("word/document.xml", r"<w:t>United Nations", "<w:t>United\x0bNations")
    p.save(dest)


@case("w-wrong-encoding", "bytes not in the declared encoding", "Word",
      "string edit written back in the platform encoding (cp1252) under encoding=\"UTF-8\"",
      "docx/docx4j_toc.docx", "fatal",
      "plutext/docx4j#313 (document.xml written in Latin-2 while UTF-8 is declared: Word's "
      "'XML formatting error'); amiremohamadi/DuckX#62 (ANSI bytes: Word cannot open)", "confirmed")
def _(src, dest):
    p = Pkg(src)
    t = p.text("word/document.xml").replace("<w:t>United Nations", "<w:t>Déclaration des Nations Unies —", 1)
    p.put("word/document.xml", t.encode("cp1252", errors="replace"))
    p.save(dest)


@case("w-mc-ignorable-undeclared", "mc:Ignorable names an undeclared prefix", "Word",
      "namespace clean-up (lxml cleanup_namespaces / regex) drops a declaration mc:Ignorable still lists",
      "docx/docx4j_toc.docx", "fatal",
      "plutext/docx4j#573 (mc:Ignorable lists w16du, not declared: 'unreadable content'; removing it "
      "opens); developer0hye/office2pdf#1641 (wp14 listed, not bound: Word 16.112 refuses, bisected); "
      "ECMA-376 Part 3 §10.1.1", "confirmed")
def _(src, dest):
    p = Pkg(src)
    p.sub("word/document.xml", r' xmlns:wp14="[^"]*"', "")
    p.save(dest)


@case("w-mc-requires-undeclared", "mc:Choice Requires names a prefix not in scope", "Word",
      "text box paragraph copied from another document by a serializer that declares namespaces lazily",
      "docx/mammoth_text-box.docx", "fatal",
      "plutext/docx4j#444 ('Word requires that such prefixes be declared' for mc:Choice Requires=\"wps\"; "
      "declaring it made the output open); python-openxml/python-docx#388 (text box paragraphs copied "
      "between documents: 'we can't open … because we found a problem with its contents')", "single")
def _(src, dest):
    p = Pkg(src)
    t = p.text("word/document.xml")
    wps = 'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"'
    t = t.replace(" " + wps, "", 1)  # not declared on the root any more
    t = t.replace("<wps:wsp>", "<wps:wsp %s>" % wps)  # declared only where it is used, below mc:Choice
    p.put("word/document.xml", t)
    p.save(dest)


@case("w-undeclared-prefix", "element prefix not declared", "Word",
      "a paragraph pasted as a string (with w14:paraId) into a header whose root declares no w14",
      "docx/docx4j_sample-docx.docx", "fatal",
      "Namespaces in XML 1.0 §5 (prefix must be declared: a namespace well-formedness error, which "
      "Word's parser rejects like any well-formedness error, 'Location: Part …'); plutext/docx4j#444",
      "spec")
def _(src, dest):
    p = Pkg(src)
    # the header as a minimal generator writes it: no w14 declared (and none ignorable)
    p.sub("word/header1.xml", r' xmlns:w14="[^"]*"', "")
    p.sub("word/header1.xml", r'mc:Ignorable="w14 wp14"', 'mc:Ignorable="wp14"')
    p.sub("word/header1.xml", r"<w:p[ >]", lambda m: '<w:p w14:paraId="1A2B3C4D"' + m.group(0)[4:])
    p.save(dest)


@case("w-comments-part-removed", "comment references without the comments part", "Word",
      "partial deletion: comments.xml, its relationship and override removed, references left",
      "docx/oxsdk_Comment042.docx", "fatal",
      "jvoisin/mat2#7 (comment ranges left after comments.xml was removed: 'refused to open in word')",
      "confirmed")
def _(src, dest):
    p = Pkg(src)
    p.delete("word/comments.xml")
    remove_rel(p, "word/_rels/document.xml.rels", target="comments.xml")
    remove_override(p, "word/comments.xml")
    p.save(dest)


@case("w-footnote-removed", "footnote reference without its footnote", "Word",
      "partial deletion: a w:footnote removed from footnotes.xml, its reference left",
      "docx/oxsdk_Complex01.docx", "fatal",
      "jgm/pandoc#2032, #4621 (footnotes referenced but missing: 'Word found unreadable content')",
      "confirmed")
def _(src, dest):
    p = Pkg(src)
    p.sub("word/footnotes.xml", r'<w:footnote w:id="1".*?</w:footnote>', "", flags=re.S)
    p.save(dest)


@case("w-header-part-deleted", "relationship to a missing header part", "Word",
      "partial deletion: header1.xml deleted from the zip, relationship and reference left",
      "docx/docx4j_sample-docx.docx", "fatal",
      "DEFECTS.md (missing referenced part: REPAIR, confirmed); anthropics/skills#1569", "confirmed")
def _(src, dest):
    p = Pkg(src)
    p.delete("word/header1.xml")
    p.save(dest)


@case("w-image-copied-without-rel", "r:embed naming no relationship", "Word",
      "copy-paste: a picture paragraph copied from another document without its image relationship",
      "docx/docx4j_toc.docx", "fatal",
      "anthropics/skills#1060 (r:id naming no relationship: Word refuses); python-docx copy recipes "
      "(python-openxml/python-docx#388)", "confirmed")
def _(src, dest):
    p = Pkg(src)
    other = Pkg("docx/docx4j_sample-docx.docx").text("word/document.xml")
    m = re.search(r"<w:p [^>]*>(?:(?!</w:p>).)*?<w:drawing>.*?</w:p>", other, re.S)
    p.sub("word/document.xml", r"<w:body>", lambda _m: "<w:body>" + m.group(0))
    p.save(dest)


if docx:
    @case("w-cell-paragraphs-removed", "table cell without a paragraph", "Word",
          "python-docx: every paragraph of a cell removed (p._p.getparent().remove)",
          "docx/oxsdk_table-2007.docx", "fatal",
          "dotnet/Open-XML-SDK#592 ('Ambiguous cell mapping … <p> elements are required before every "
          "</tc>'); jgm/pandoc#4953", "confirmed")
    def _(src, dest):
        d = docx.Document(corpus(src))
        cell = d.tables[0].cell(0, 0)
        for para in list(cell.paragraphs):
            para._p.getparent().remove(para._p)
        d.save(dest)

    @case("w-run-in-body", "run straight in w:body", "Word",
          "python-docx: a page-break run appended to the body element",
          "docx/docx4j_toc.docx", "fatal",
          "dolanmiu/docx#1607, #1693 (a run in w:body: Word refuses the file)", "confirmed")
    def _(src, dest):
        d = docx.Document(corpus(src))
        r = d.add_paragraph().add_run()
        r.add_break(docx.enum.text.WD_BREAK.PAGE)
        body = d.element.body
        body.insert(1, r._r)
        d.save(dest)

    @case("w-p-in-p", "paragraph inside a paragraph", "Word",
          "python-docx: a paragraph appended into another (sub-document insertion)",
          "docx/docx4j_toc.docx", "fatal",
          "elapouya/python-docx-template#565; tomduck/pandoc-eqnos#22", "confirmed")
    def _(src, dest):
        d = docx.Document(corpus(src))
        d.paragraphs[1]._p.append(copy.deepcopy(d.paragraphs[2]._p))
        d.save(dest)

    @case("w-tbl-in-p", "table inside a paragraph", "Word",
          "python-docx: a new table appended into the paragraph it should follow",
          "docx/docx4j_toc.docx", "fatal",
          "dolanmiu/docx#2120, #2650 ('Word experienced an error trying to open the file')", "confirmed")
    def _(src, dest):
        d = docx.Document(corpus(src))
        t = d.add_table(rows=1, cols=2)
        d.paragraphs[3]._p.append(t._tbl)
        d.save(dest)

if True:
    @case("w-abstractnum-removed", "w:num naming a missing w:abstractNum", "Word",
          "partial deletion: the abstract numbering definitions removed from numbering.xml",
          "docx/docx4j_sample-docx.docx", "fatal",
          "ECMA-376 Part 1 §17.9.2 (w:abstractNumId names an abstractNum); no public report isolates Word's reaction "
          "(DEFECTS.md grades it repair from one report)", "inferred")
    def _(src, dest):
        p = Pkg(src)
        p.sub("word/numbering.xml", r"<w:abstractNum .*?</w:abstractNum>", "", count=0, flags=re.S)
        p.save(dest)


@case("w-hyperlink-not-external", "hyperlink relationship without TargetMode=\"External\"", "Word",
      "hand-rolled add_hyperlink (python-docx recipe with is_external=False)",
      "docx/docx4j_toc.docx", "fatal",
      "dolanmiu/docx#390, #440 (hyperlink relationships written wrong: 'Word found unreadable content "
      "in links'); OPC Part 2 §9.3 (an internal target must name a part)", "single")
def _(src, dest):
    p = Pkg(src)
    p.sub("word/_rels/document.xml.rels", r"</Relationships>",
          '<Relationship Id="rId900" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
          'relationships/hyperlink" Target="https://example.com/terms"/></Relationships>')
    p.sub("word/document.xml", r"<w:t>United Nations",
          '</w:t></w:r><w:hyperlink r:id="rId900"><w:r><w:t>link</w:t></w:r></w:hyperlink><w:r><w:t>United Nations')
    p.save(dest)


@case("w-image-ext-no-type", "image part without a content type", "Word",
      "image replaced by hand with a .jpeg file where [Content_Types].xml has only Default jpg",
      "docx/docx4j_sample-docx.docx", "fatal",
      "OPC Part 2 [M2.4]; jgm/pandoc#11492 (a part without content type: Word reports it corrupt)",
      "single")
def _(src, dest):
    p = Pkg(src)
    data = p.get("word/media/image3.png")
    p.delete("word/media/image3.png")
    p.put("word/media/image3.tiff", data)
    p.sub("word/_rels/document.xml.rels", r"media/image3\.png", "media/image3.tiff")
    p.save(dest)


@case("w-nan-measure", "NaN in a numeric attribute", "Word",
      "JavaScript generator writing an unset indent/size (String(NaN))",
      "docx/docx4j_toc.docx", "fatal",
      "open-xml-templating/docxtemplater#753 (a NaN written by the image module: Word calls the file corrupted); "
      "gitbrent/PptxGenJS#1440 (the same NaN in PowerPoint: repair); ECMA-376 Part 1 §17.3.2.38 "
      "(ST_HpsMeasure)", "single")
def _(src, dest):
    p = Pkg(src)
    p.sub("word/document.xml", r"<w:jc w:val=\"center\"/>", '<w:jc w:val="center"/><w:ind w:left="NaN"/>')
    p.save(dest)


@case("w-zip-folder-prefix", "package zipped with its folder", "Word",
      "zip repack: `zip -r out.docx unpacked/` run from the parent folder",
      "docx/docx4j_toc.docx", "fatal",
      "OPC Part 2 §10.1.2.1 ([Content_Types].xml at the root) — without it nothing opens; "
      "DEFECTS.md (missing content types: REFUSE)", "confirmed")
def _(src, dest):
    p = Pkg(src)
    for k, (i, d) in enumerate(p.entries):
        zi = zipfile.ZipInfo("unpacked/" + i.filename, date_time=i.date_time)
        zi.compress_type = i.compress_type
        p.entries[k] = (zi, d)
    p.save(dest)


@case("w-zip-duplicate-entry", "zip entry written twice", "Word",
      "python zipfile opened in 'a' mode to replace document.xml (UserWarning: Duplicate name)",
      "docx/docx4j_toc.docx", "fatal",
      "Apache POI duplicate-filename.xlsx (bug 55524); OPC [M1.12]", "confirmed")
def _(src, dest):
    import shutil, warnings
    shutil.copy(corpus(src), dest)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with zipfile.ZipFile(dest, "a") as z:
            z.writestr("word/document.xml", Pkg(src).text("word/document.xml").replace("United", "Unified", 1))


@case("w-zip-lzma", "entries compressed with LZMA", "Word",
      "zip repack with a non-Deflate method (7-Zip -m0=LZMA, python ZIP_LZMA)",
      "docx/docx4j_toc.docx", "fatal",
      "ECMA-376 Part 2 Annex C (ZIP compression: only stored and deflated are supported); "
      "the application cannot decompress the parts", "spec")
def _(src, dest):
    Pkg(src).save(dest, compression=zipfile.ZIP_LZMA)


@case("w-zip64-small", "Zip64 records in a small package", "Word",
      "streaming zip writer that always writes Zip64 (ZipStream, minizip MZ_ZIP64_AUTO)",
      "docx/docx4j_toc.docx", "disputed",
      "zlib-ng/minizip-ng#894 and kuba--/zip#384 (Excel refuses small Zip64 packages); "
      "nissl-lab/npoi#908 ('Strictly speaking, Excel accepts Zip64 extension even when it is not "
      "needed'); adamhathcock/sharpcompress#601 (Excel repairs)", "disputed")
def _(src, dest):
    Pkg(src).save(dest, force_zip64=True)


@case("w-text-before-xml-decl", "text before the XML declaration", "Word",
      "template engine emitting a newline before <?xml",
      "docx/docx4j_sample-docx.docx", "fatal",
      "XML 1.0 §2.8 (the declaration, when present, is the very first thing; anything before it "
      "is a well-formedness error); EWSoftware/SHFB#412 (Word: 'Location: Part /word/document.xml, "
      "Line 3, Column 0' for an ill-formed part)", "spec")
def _(src, dest):
    p = Pkg(src)
    p.put("word/document.xml", "\n" + p.text("word/document.xml"))
    p.save(dest)


# ====================================================== PowerPoint: defects

def pptx_slide_rid(p, n):
    """The presentation relationship id of ppt/slides/slideN.xml."""
    rels = p.text("ppt/_rels/presentation.xml.rels")
    m = re.search(r'<Relationship [^>]*Id="([^"]+)"[^>]*Target="slides/slide%d\.xml"' % n, rels) or \
        re.search(r'<Relationship [^>]*Target="slides/slide%d\.xml"[^>]*Id="([^"]+)"' % n, rels)
    return m.group(1)


@case("p-slide-part-deleted", "listed slide whose part is missing", "PowerPoint",
      "partial deletion: slide2.xml deleted from the zip, sldId and relationship kept",
      "pptx/poi_real-deck-HowWeRefactor.pptx", "fatal",
      "DEFECTS.md (missing slide part: REPAIR, confirmed)", "confirmed")
def _(src, dest):
    p = Pkg(src)
    p.delete("ppt/slides/slide2.xml")
    p.save(dest)


@case("p-slide-rel-removed", "sldId naming no relationship", "PowerPoint",
      "partial deletion: the slide's relationship removed, its sldId left",
      "pptx/poi_real-deck-HowWeRefactor.pptx", "fatal",
      "DEFECTS.md (REPAIR, confirmed); anthropics/skills#1060", "confirmed")
def _(src, dest):
    p = Pkg(src)
    remove_rel(p, "ppt/_rels/presentation.xml.rels", rid=pptx_slide_rid(p, 2))
    p.save(dest)


@case("p-override-left", "Override for a deleted slide", "PowerPoint",
      "slide deleted with its sldId, relationship and part, its content-type Override left",
      "pptx/oxsdk_typical-deck.pptx", "fatal",
      "gitbrent/PptxGenJS#1444 (an Override naming no part: PowerPoint repairs)", "single")
def _(src, dest):
    p = Pkg(src)
    rid = pptx_slide_rid(p, 2)
    p.sub("ppt/presentation.xml", r'<p:sldId [^>]*r:id="%s"/>' % rid, "")
    remove_rel(p, "ppt/_rels/presentation.xml.rels", rid=rid)
    p.delete("ppt/slides/slide2.xml")
    p.delete("ppt/slides/_rels/slide2.xml.rels")
    p.save(dest)


@case("p-dup-slide-shared-notes", "two slides sharing one notes slide", "PowerPoint",
      "python-pptx duplicate-slide recipe that copies every relationship, notesSlide included",
      "pptx/poi_real-deck-HowWeRefactor.pptx", "fatal",
      "scanny/python-pptx#132, #688, #961 (every duplicate-slide recipe skips the notesSlide relationship, "
      "'Make sure we don't copy a notesSlide relation'; #961 reports recipe output PowerPoint calls corrupted, the "
      "cause not isolated); ECMA-376 Part 1 §13.3.5 (a notes slide belongs to one slide)", "inferred")
def _(src, dest):
    p = Pkg(src)
    names = p.names()
    n = max(int(m.group(1)) for m in (re.match(r"ppt/slides/slide(\d+)\.xml$", x) for x in names) if m) + 1
    p.put("ppt/slides/slide%d.xml" % n, p.get("ppt/slides/slide2.xml"))
    p.put("ppt/slides/_rels/slide%d.xml.rels" % n, p.get("ppt/slides/_rels/slide2.xml.rels"))
    p.sub("[Content_Types].xml", r"</Types>",
          '<Override PartName="/ppt/slides/slide%d.xml" ContentType="application/vnd.openxmlformats-'
          'officedocument.presentationml.slide+xml"/></Types>' % n)
    p.sub("ppt/_rels/presentation.xml.rels", r"</Relationships>",
          '<Relationship Id="rId900" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
          'relationships/slide" Target="slides/slide%d.xml"/></Relationships>' % n)
    p.sub("ppt/presentation.xml", r"</p:sldIdLst>", '<p:sldId id="900" r:id="rId900"/></p:sldIdLst>')
    p.save(dest)


@case("p-dup-slide-picture-no-rel", "r:embed naming no relationship (copied shape)", "PowerPoint",
      "python-pptx: shapes deep-copied into a new slide without their relationships",
      "pptx/poi_real-deck-HowWeRefactor.pptx", "fatal",
      "scanny/python-pptx#132 (duplicated pictures need their relationships or PowerPoint repairs); "
      "DEFECTS.md", "confirmed")
def _(src, dest):
    p = Pkg(src)
    t = p.text("ppt/slides/slide2.xml")
    pics = re.findall(r"<p:pic>.*?</p:pic>", t, re.S)
    p.sub("ppt/slides/slide3.xml", r"</p:spTree>", lambda _m: "".join(pics) + "</p:spTree>")
    p.save(dest)


@case("p-sldid-duplicate", "two sldId with one id", "PowerPoint",
      "reorder recipe that copies a sldId element instead of moving it, then retargets r:id",
      "pptx/oxsdk_typical-deck.pptx", "fatal",
      "scanny/python-pptx#89 (a duplicate slide id: PowerPoint's warning); anthropics/skills#508 (duplicate sldId "
      "from a slide-adding script)", "confirmed")
def _(src, dest):
    p = Pkg(src)
    t = p.text("ppt/presentation.xml")
    ids = re.findall(r'<p:sldId id="(\d+)"', t)
    p.put("ppt/presentation.xml", t.replace('<p:sldId id="%s"' % ids[1], '<p:sldId id="%s"' % ids[0], 1))
    p.save(dest)


@case("p-srgbclr-hash", "srgbClr value that is not six hex digits", "PowerPoint",
      "recolouring with a CSS colour string (#RRGGBB / rgba()) by regex or a JS writer",
      "pptx/poi_real-deck-HowWeRefactor.pptx", "fatal",
      "dream-num/dsh-univer-office#44 (srgbClr val=\"RGBA(…)\": PowerPoint's repair prompt, control "
      "experiment with hex opens); gitbrent/PptxGenJS#588 (colour 'White' instead of FFFFFF: repair); "
      "ChristopherVR/pptx-viewer#67 ('#'-prefixed hex: repair); hyperlight-dev/hyperagent#115; ECMA-376 Part 1 §20.1.10.48 "
      "ST_HexColorRGB", "confirmed")
def _(src, dest):
    p = Pkg(src)
    p.sub("ppt/slides/slide1.xml", r'<a:srgbClr val="([0-9A-Fa-f]{6})"', r'<a:srgbClr val="#\1"', count=0)
    p.save(dest)


@case("p-table-cell-removed", "table row with fewer cells than grid columns", "PowerPoint",
      "python-pptx column delete recipe that removes a:tc from one row but not the a:gridCol",
      "pptx/pptx_tbl-cell.pptx", "fatal",
      "ECMA-376 Part 1 §21.1.3.16 (a:tr holds one a:tc per grid column, hMerge for spans); gitbrent/PptxGenJS#675 and "
      "#1168 report repairs of generated tables but do not show this defect as the cause", "inferred")
def _(src, dest):
    p = Pkg(src)
    p.sub("ppt/slides/slide1.xml", r"(<a:tr [^>]*>)<a:tc>.*?</a:tc>", r"\1", flags=re.S)
    p.save(dest)


@case("p-txbody-emptied", "text body without a paragraph", "PowerPoint",
      "python-pptx: every a:p removed from a text frame to clear it",
      "pptx/oxsdk_typical-deck.pptx", "fatal",
      "gitbrent/PptxGenJS#1048, #1160, #1380 (txBody without a:p: repair)", "confirmed")
def _(src, dest):
    p = Pkg(src)
    t = p.text("ppt/slides/slide1.xml")
    t = re.sub(r"(<p:txBody>.*?)(<a:p>.*?</a:p>|<a:p/>)+(</p:txBody>)",
               lambda m: re.sub(r"<a:p>.*?</a:p>|<a:p/>", "", m.group(0), flags=re.S), t, count=1, flags=re.S)
    p.put("ppt/slides/slide1.xml", t)
    p.save(dest)


@case("p-slide-without-layout", "slide without a layout relationship", "PowerPoint",
      "slide copied from another deck with only its image relationships",
      "pptx/poi_real-deck-HowWeRefactor.pptx", "fatal",
      "PHPOffice/PHPPresentation#294; CristalTeam/pptx#5", "confirmed")
def _(src, dest):
    p = Pkg(src)
    p.sub("ppt/slides/_rels/slide2.xml.rels", r'<Relationship [^>]*slideLayout"[^>]*/>', "")
    p.save(dest)


@case("p-notes-no-master", "notes slide without a notes master", "PowerPoint",
      "notes slide copied from another deck without the notes master relationship",
      "pptx/poi_real-deck-HowWeRefactor.pptx", "fatal",
      "iOfficeAI/OfficeCLI#255, #265; DEFECTS.md (REPAIR, confirmed)", "confirmed")
def _(src, dest):
    p = Pkg(src)
    p.sub("ppt/notesSlides/_rels/notesSlide1.xml.rels", r'<Relationship [^>]*notesMaster"[^>]*/>', "")
    p.save(dest)


@case("p-ext-nan", "NaN extent", "PowerPoint", "JavaScript writer with an unset size",
      "pptx/pptx_shp-shapes.pptx", "fatal",
      "gitbrent/PptxGenJS#1440; DEFECTS.md (NaN: REPAIR)", "confirmed")
def _(src, dest):
    p = Pkg(src)
    p.sub("ppt/slides/slide1.xml", r'<a:ext cx="\d+"', '<a:ext cx="NaN"')
    p.save(dest)


# =========================================================== Excel: defects

@case("x-calcchain-formula-removed", "calcChain lists a cell that no longer holds a formula", "Excel",
      "string edit replacing a formula with its value, calcChain.xml left as it was",
      "xlsx/openpyxl_formulae.xlsx", "fatal",
      "dotnet/Open-XML-SDK#1457 ('Removed Records: Formula from /xl/calcChain.xml part'; the SDK "
      "team: removing formulas is what triggers it, #1491); qax-os/excelize#2130; unidoc/unioffice#215; "
      "cuba-platform/yarg#10", "confirmed")
def _(src, dest):
    p = Pkg(src)
    p.sub("xl/worksheets/sheet1.xml", r'(<c r="A5"[^>]*>)<f>SUM\(A2:A4\)</f>', r"\1")
    p.save(dest)


@case("x-calcchain-sheet-removed", "calcChain names a sheet the workbook no longer has", "Excel",
      "partial deletion: the last sheet (with formulas) removed, calcChain.xml left",
      "xlsx/oxsdk_StatusReport.xltx", "fatal",
      "dotnet/Open-XML-SDK#1457, #1491; qax-os/excelize#2130 (calcChain left behind after rows "
      "with formulas were removed: Excel's repair)", "confirmed")
def _(src, dest):
    p = Pkg(src)
    wb = p.text("xl/workbook.xml")
    sheets = re.findall(r"<sheet [^>]*/>", wb)
    last = sheets[-1]
    rid = re.search(r'r:id="([^"]+)"', last).group(1)
    p.put("xl/workbook.xml", wb.replace(last, ""))
    rels = p.text("xl/_rels/workbook.xml.rels")
    target = re.search(r'<Relationship [^>]*Id="%s"[^>]*Target="([^"]+)"' % rid, rels) or \
        re.search(r'<Relationship [^>]*Target="([^"]+)"[^>]*Id="%s"' % rid, rels)
    part = "xl/" + target.group(1)
    remove_rel(p, "xl/_rels/workbook.xml.rels", rid=rid)
    p.delete(part)
    remove_override(p, part)
    # defined names scoped to it would be another family: keep only the ones that do not name it
    p.save(dest)


@case("x-shared-formula-master-removed", "shared formula whose master cell is gone", "Excel",
      "string edit overwriting the first cell of a filled-down formula with a value",
      "xlsx/openpyxl_formulae.xlsx", "fatal",
      "JanMarvin/openxlsx2#1217 ('the remaining shared formula cells have no reference. Excel will "
      "complain and fixes the workbook by removing the shared formula'); exceljs/exceljs#1164 "
      "('Shared Formula master must exist')", "single")
def _(src, dest):
    p = Pkg(src)
    p.sub("xl/worksheets/sheet1.xml", r'(<c r="B7"[^>]*>)<f t="shared" ref="B7:E7" si="0">B4\*2</f>', r"\1")
    p.save(dest)


if openpyxl:
    @case("x-openpyxl-equals-text", "text starting with = written as a formula", "Excel",
          "openpyxl: ws['A1'] = '=== Totals ===' (a heading, stored as the formula '== Totals ===')",
          "xlsx/excelize_Book1.xlsx", "fatal",
          "jmcnamara/XlsxWriter#962 ('====new line===' from pandas: Excel reports the file corrupt); "
          "mk-j/PHP_XLSXWriter#147, #232 (a string starting with = written as a formula: 'Excel found "
          "unreadable content'); randym/axlsx#151", "confirmed")
    def _(src, dest):
        wb = openpyxl.load_workbook(corpus(src))
        wb.worksheets[0]["H1"] = "=== Totals ==="
        wb.save(dest)

    @case("x-openpyxl-semicolon", "formula with ; separators", "Excel",
          "openpyxl: a formula typed as in a German Excel, =SUMME(A1;A2)",
          "xlsx/excelize_Book1.xlsx", "fatal",
          "abap2xlsx/abap2xlsx#506; ClosedXML/ClosedXML#70 ('Removed Records: Formula')", "confirmed")
    def _(src, dest):
        wb = openpyxl.load_workbook(corpus(src))
        wb.worksheets[0]["H2"] = "=SUMME(A1;A2)"
        wb.save(dest)

    @case("x-openpyxl-title-too-long", "sheet name over 31 characters", "Excel",
          "openpyxl: ws.title set to a 40-character name (openpyxl only warns)",
          "xlsx/excelize_Book1.xlsx", "fatal",
          "mk-j/PHP_XLSXWriter#78, awalker89/openxlsx#65, advisr-io/excel4node#84 (a sheet name over 31 characters: "
          "Excel's repair prompt, the name truncated)", "confirmed")
    def _(src, dest):
        import warnings
        wb = openpyxl.load_workbook(corpus(src))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            wb.worksheets[0].title = "Quarterly revenue by region and product"
        wb.save(dest)

    @case("x-openpyxl-merge-overlap", "overlapping merged ranges", "Excel",
          "openpyxl: merge_cells on two overlapping ranges", "xlsx/excelize_Book1.xlsx", "fatal",
          "jmcnamara/XlsxWriter#687 ('Removed Records: Merge cells', caused by overlapping merges); "
          "abap2xlsx/abap2xlsx#361 (overlapping merges: 'unreadable content'); tealeg/xlsx#483", "confirmed")
    def _(src, dest):
        wb = openpyxl.load_workbook(corpus(src))
        ws = wb.worksheets[0]
        ws.merge_cells("J1:K2")
        ws.merge_cells("K2:L3")
        wb.save(dest)

    @case("x-openpyxl-table-header", "table header cell differs from its column name", "Excel",
          "openpyxl: a table's header cell overwritten after the table exists",
          "xlsx/oxsdk_basicspreadsheet.xlsx", "fatal",
          "jmcnamara/XlsxWriter#1126, #225; office-kit/xlsx#138", "confirmed")
    def _(src, dest):
        wb = openpyxl.load_workbook(corpus(src))
        for ws in wb.worksheets:
            for t in ws.tables.values():
                first = t.ref.split(":")[0]
                ws[first] = "Renamed header"
                wb.save(dest)
                return
        raise ValueError("no table")

    @case("x-openpyxl-dv-list-long", "list validation over 255 characters", "Excel",
          "openpyxl: DataValidation(type='list', formula1='\"a,b,…\"') from a long list",
          "xlsx/excelize_Book1.xlsx", "fatal",
          "jmcnamara/XlsxWriter#89 (a literal list over 255 characters: 'Removed Feature: Data validation'); "
          "ClosedXML/ClosedXML#1016; seek4science/seek#551", "confirmed")
    def _(src, dest):
        from openpyxl.worksheet.datavalidation import DataValidation
        wb = openpyxl.load_workbook(corpus(src))
        dv = DataValidation(type="list", formula1='"%s"' % ",".join("Option %d" % i for i in range(40)))
        dv.add("M1:M10")
        wb.worksheets[0].add_data_validation(dv)
        wb.save(dest)

    @case("x-openpyxl-template-as-xlsx", "template saved as a workbook", "Excel",
          "openpyxl: a .xltx loaded and saved as .xlsx without wb.template = False",
          "xlsx/oxsdk_FamilyBudget.xltx", "fatal",
          "dtjohnson/xlsx-populate#191 (Excel refuses an .xltx saved as .xlsx)", "confirmed",
          out_ext=".xlsx")
    def _(src, dest):
        wb = openpyxl.load_workbook(corpus(src))
        wb.template = True
        wb.save(dest)


@case("x-nan-value", "NaN as a cell value", "Excel",
      "hand-rolled writer formatting a float with '%s' (Python str(float('nan')) = 'nan'; openpyxl itself writes an empty <v>)",
      "xlsx/oxsdk_basicspreadsheet.xlsx", "fatal",
      "dtjohnson/xlsx-populate#112 (a NaN value: 'an error while opening the document'); jmcnamara/libxlsxwriter#268 "
      "(NaN doubles: 'Repaired Records: Cell information'); SheetJS/sheetjs#679; "
      "ECMA-376 Part 1 §18.3.1.96 (v of a t=\"n\" cell is an xsd:double lexical form: NaN, not nan)",
      "confirmed")
def _(src, dest):
    p = Pkg(src)
    p.sub("xl/worksheets/sheet1.xml", r'(<c r="G1">)<v>1</v>', r"\1<v>%s</v>" % float("nan"))
    p.save(dest)


@case("x-long-shared-string", "cell text over 32,767 characters", "Excel",
      "string edit pasting a log into a shared string (openpyxl and XlsxWriter truncate or refuse; a string edit does not)",
      "xlsx/oxsdk_basicspreadsheet.xlsx", "fatal",
      "dfinke/ImportExcel#1422 ('Repaired Records: String properties from /xl/sharedStrings.xml part'); "
      "tealeg/xlsx#173 (the same repair); ycphs/openxlsx#145 and dhatim/fastexcel#318 (over 32,767 characters: "
      "Excel's repair prompt, the text truncated)", "confirmed")
def _(src, dest):
    p = Pkg(src)
    p.sub("xl/sharedStrings.xml", r"<t>([^<]+)</t>", lambda m: "<t>" + m.group(1) + " " + "log line; " * 4000 + "</t>")
    p.save(dest)


@case("x-sheet-name-case-duplicate", "two sheets whose names differ only in case", "Excel",
      "string edit renaming a sheet in workbook.xml to a name that exists in another case",
      "xlsx/poi_SampleSS.strict.xlsx", "fatal",
      "ClosedXML/ClosedXML#378 ('content_Scripts…' and 'Content_Scripts…': Excel reports an error); "
      "PHPOffice/PhpSpreadsheet#541 (titles differing in case: 'Excel … complains about it'); exceljs/exceljs#1064",
      "confirmed")
def _(src, dest):
    p = Pkg(src)
    p.sub("xl/workbook.xml", r'name="Sheet3"', 'name="FIRST SHEET"')
    p.save(dest)


@case("x-drawing-rel-removed", "r:id naming no relationship (worksheet drawing)", "Excel",
      "partial deletion: a sheet's drawing relationship removed from its .rels, <drawing r:id> left",
      "xlsx/excelize_Book1.xlsx", "fatal",
      "productdevbook/hucre#367 (a <picture r:id> whose relationship was never written: 'Excel reports that as "
      "unreadable content'); anthropics/skills#1060 (an r:id naming no relationship: the application refuses)",
      "single")
def _(src, dest):
    p = Pkg(src)
    p.sub("xl/worksheets/_rels/sheet1.xml.rels", r'<Relationship [^>]*relationships/drawing"[^>]*/>', "")
    p.save(dest)


@case("x-activetab-out-of-range", "activeTab past the last sheet", "Excel",
      "partial deletion: the active last sheet removed from workbook.xml, workbookView left",
      "xlsx/xlsxwriter_chartsheet01.xlsx", "fatal",
      "JanMarvin/openxlsx2#793 (the active last tab removed, activeTab never updated: 'Excel "
      "complained'); EPPlusSoftware/EPPlus#339", "single")
def _(src, dest):
    p = Pkg(src)
    wb = p.text("xl/workbook.xml")
    sheets = re.findall(r"<sheet [^>]*/>", wb)
    last = sheets[-1]
    p.put("xl/workbook.xml", wb.replace(last, ""))
    p.save(dest)


@case("x-empty-mergecells", "empty mergeCells", "Excel",
      "regex removal of the only mergeCell, the container left",
      "xlsx/oxsdk_FamilyBudget.xltx", "fatal", "troldal/OpenXLSX#351; jmix-framework/jmix#5221",
      "confirmed")
def _(src, dest):
    p = Pkg(src)
    p.sub("xl/worksheets/sheet1.xml", r"<mergeCells[^>]*>.*?</mergeCells>", '<mergeCells count="0"/>', flags=re.S)
    p.save(dest)


@case("x-sheet-copied-styles", "cell style index beyond cellXfs", "Excel",
      "copy-paste: a worksheet part copied from a workbook with more cell formats",
      "xlsx/excelize_Book1.xlsx", "fatal",
      "ggreen86/XLSX-Workbook-Class#19 ('Repaired Records: Format from /xl/styles.xml')", "confirmed")
def _(src, dest):
    p = Pkg(src)
    p.sub("xl/worksheets/sheet1.xml", r'<c r="([A-Z]+\d+)"', r'<c r="\1" s="250"')
    p.save(dest)


@case("x-sheet-copied-sst", "shared-string index beyond the table", "Excel",
      "copy-paste: cells copied from another workbook keep their shared-string indices",
      "xlsx/excelize_Book1.xlsx", "fatal",
      "GDKsoftware/OfficeXML4D#6 (a t=\"s\" cell whose index is outside the shared-string table: 'Removed records: "
      "cell information from sheet1.xml', the cells dropped)", "single")
def _(src, dest):
    p = Pkg(src)
    p.sub("xl/worksheets/sheet1.xml", r'(<c r="[A-Z]+\d+"[^>]*t="s"[^>]*>)<v>\d+</v>', r"\1<v>9999</v>")
    p.save(dest)


@case("x-row-inserted-out-of-order", "rows out of order", "Excel",
      "string edit appending a new row element at the end of sheetData with a low row number",
      "xlsx/excelize_Book1.xlsx", "fatal", "qax-os/excelize#1139 (confirmed)", "confirmed")
def _(src, dest):
    p = Pkg(src)
    p.sub("xl/worksheets/sheet1.xml", r"</sheetData>", '<row r="1"><c r="Z1"><v>1</v></c></row></sheetData>')
    p.save(dest)


@case("x-defined-name-deleted-sheet", "defined name naming a deleted sheet", "Excel",
      "partial deletion: a sheet removed, the names that refer to it left",
      "xlsx/poi_dataValidationTableRange.xlsx", "fatal",
      "ClosedXML/ClosedXML#1007, #848; RamblingCookieMonster/PSExcel#54", "confirmed")
def _(src, dest):
    p = Pkg(src)
    wb = p.text("xl/workbook.xml")
    names = re.findall(r"<definedName [^>]*>([^<]*)</definedName>", wb)
    sheet = None
    for f in names:
        m = re.match(r"'?([^'!]+)'?!", f)
        if m:
            sheet = m.group(1)
            break
    entry = re.search(r'<sheet [^>]*name="%s"[^>]*/>' % re.escape(sheet), wb).group(0)
    new = wb.replace(entry, "")
    new = re.sub(r'<definedName [^>]*localSheetId="\d+"[^>]*>[^<]*</definedName>', "", new)
    p.put("xl/workbook.xml", new)
    p.save(dest)


@case("x-table-copied-id", "two tables with one id", "Excel",
      "copy-paste: a table part copied for a duplicated sheet, id and name kept",
      "xlsx/oxsdk_FamilyBudget.xltx", "fatal",
      "JanMarvin/openxlsx2#1151 (two tables with one id: Excel reports an invalid file and offers a repair); "
      "EPPlusSoftware/EPPlus#1634", "confirmed")
def _(src, dest):
    p = Pkg(src)
    t1 = p.text("xl/tables/table1.xml")
    t2 = p.text("xl/tables/table2.xml")
    id1 = re.search(r'<table [^>]*\bid="(\d+)"', t1).group(1)
    p.put("xl/tables/table2.xml", re.sub(r'(<table [^>]*\bid=")\d+"', r'\g<1>%s"' % id1, t2, count=1))
    p.save(dest)


@case("x-rows-shifted-off-grid", "reference beyond row 1048576", "Excel",
      "row shift by a string edit that does not clamp at the last row",
      "xlsx/poi_dataValidationTableRange.xlsx", "fatal", "iOfficeAI/OfficeCLI#353", "confirmed")
def _(src, dest):
    p = Pkg(src)
    p.sub("xl/worksheets/sheet1.xml", r'sqref="([A-Z]+)(\d+):([A-Z]+)(\d+)"', r'sqref="\1\2:\g<3>1048577"')
    p.save(dest)


@case("x-formula-leading-equals", "formula stored with its leading =", "Excel",
      "hand-rolled writer putting the typed formula (=SUM(…)) into <f>",
      "xlsx/openpyxl_formulae.xlsx", "disputed",
      "office-kit/xlsx#136 ('Excel reports that as an unreadable-content error') against "
      "mk-j/PHP_XLSXWriter#213 ('Excel will still handle it correctly') and qax-os/excelize#2204 "
      "(excelize writes it and Excel opens it)", "disputed")
def _(src, dest):
    p = Pkg(src)
    p.sub("xl/worksheets/sheet1.xml", r"<f>SUM\(A2:A4\)</f>", "<f>=SUM(A2:A4)</f>")
    p.save(dest)


# ============================================================ Hangul: defects

@case("h-unescaped-amp", "XML well-formedness (unescaped &)", "Hangul",
      "regex fill of a form field with 'R&D'", "hwpx/pyhwpx_form_002.hwpx", "fatal",
      "neolord0/hwp2hwpx#8 (an unescaped & in an attribute: Hangul's 'file is damaged')", "confirmed")
def _(src, dest):
    p = Pkg(src)
    p.sub("Contents/section0.xml", r"<hp:t>([^<]{1,40})</hp:t>", r"<hp:t>R&D \1</hp:t>")
    p.save(dest)


@case("h-charpr-undefined", "run naming an undefined character shape", "Hangul",
      "copy-paste: a run copied from another document keeps its charPrIDRef",
      "hwpx/pyhwpx_form_002.hwpx", "fatal",
      "neolord0/hwp2hwpx#2; DEFECTS.md (undefined character shape: 'file is damaged')", "confirmed")
def _(src, dest):
    p = Pkg(src)
    p.sub("Contents/section0.xml", r'charPrIDRef="\d+"', 'charPrIDRef="9999"')
    p.save(dest)


@case("h-section-renamed", "manifest item naming a missing part", "Hangul",
      "section file renamed in the zip, content.hpf not updated",
      "hwpx/pyhwpx_form_002.hwpx", "fatal", "DEFECTS.md (manifest item missing: REFUSE)", "confirmed")
def _(src, dest):
    p = Pkg(src)
    data = p.get("Contents/section0.xml")
    p.delete("Contents/section0.xml")
    p.put("Contents/section00.xml", data)
    p.save(dest)


@case("h-seccnt-above", "secCnt above the number of sections", "Hangul",
      "partial deletion: the last section removed from the spine, manifest and zip, secCnt left",
      "hwpx/hwpxlib_error-20230728.hwpx", "fatal",
      "edwardkim/rhwp#6156 (Hangul looks for the missing section and refuses the file)", "confirmed")
def _(src, dest):
    p = Pkg(src)
    hpf = p.text("Contents/content.hpf")
    secs = sorted(set(re.findall(r'href="(Contents/section\d+\.xml)"', hpf)))
    last = secs[-1]
    item = re.search(r'<opf:item [^>]*href="%s"[^>]*/>' % re.escape(last), hpf).group(0)
    iid = re.search(r'id="([^"]+)"', item).group(1)
    hpf = hpf.replace(item, "")
    hpf = re.sub(r'<opf:itemref [^>]*idref="%s"[^>]*/>' % re.escape(iid), "", hpf)
    p.put("Contents/content.hpf", hpf)
    p.delete(last)
    p.save(dest)


@case("h-table-rowcnt", "table rowCnt above its rows", "Hangul",
      "a table row deleted by removing its hp:tr, rowCnt left",
      "hwpx/pyhwpx_form_002.hwpx", "fatal",
      "neolord0/hwplib#19 (rows added without updating the table record: Hangul crashes or offers to "
      "repair a damaged table; HWP5, the same table model as HWPX's hp:tbl)", "single")
def _(src, dest):
    p = Pkg(src)
    t = p.text("Contents/section0.xml")
    m = re.search(r'<hp:tbl [^>]*rowCnt="1" colCnt="1"[^>]*>.*?</hp:tbl>', t, re.S)
    tbl = m.group(0)
    new = re.sub(r"<hp:tr>.*?</hp:tr>", "", tbl, count=1, flags=re.S)
    p.put("Contents/section0.xml", t.replace(tbl, new, 1))
    p.save(dest)


@case("h-container-missing", "META-INF/container.xml missing", "Hangul",
      "zip repack of only mimetype and Contents/ (a generator that writes the parts it knows)",
      "hwpx/pyhwpx_form_002.hwpx", "fatal",
      "chrisryugj/kordoc#4 (an HWPX without META-INF/container.xml, among other gaps: Hangul for macOS calls it "
      "damaged and does not open it; the fix, kordoc#9, adds container.xml); OCF 3.0 §3.5.1 (container.xml is required)",
      "single")
def _(src, dest):
    p = Pkg(src)
    p.delete("META-INF/container.xml")
    p.save(dest)


@case("h-mimetype-missing", "mimetype entry missing", "Hangul",
      "zip -r of the unpacked folder's subfolders only (mimetype, a loose top-level file, left out)",
      "hwpx/hwpxlib_SimpleTable.hwpx", "fatal",
      "OCF 3.0 §3.3 (the mimetype file is required and first; HWPX, KS X 6101, packages as OCF); "
      "DEFECTS.md (Hangul does not recognise the package)", "spec")
def _(src, dest):
    p = Pkg(src)
    p.delete("mimetype")
    p.save(dest)


# ========================================================= package: defects

@case("k-rels-duplicate-id", "two relationships with one Id", "Word",
      "hand-rolled relationship added with a hard-coded rId that exists",
      "docx/docx4j_toc.docx", "fatal", "gitbrent/PptxGenJS#1020; OPC [M1.26]", "confirmed")
def _(src, dest):
    p = Pkg(src)
    rels = p.text("word/_rels/document.xml.rels")
    rid = re.search(r'Id="(rId\d+)"', rels).group(1)
    p.sub("word/_rels/document.xml.rels", r"</Relationships>",
          '<Relationship Id="%s" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
          'hyperlink" Target="https://example.com" TargetMode="External"/></Relationships>' % rid)
    p.save(dest)


@case("k-template-as-docx", "template saved as a document", "Word",
      "a .dotx template copied to .docx (shutil.copy) for filling", "docx/oxsdk_EquityFax.dotx", "fatal",
      "EvotecIT/OfficeIMO#1782", "confirmed", out_ext=".docx")
def _(src, dest):
    Pkg(src).save(dest)


@case("k-data-after-root", "data after the root element", "Word",
      "part rewritten in place without truncating (open(..., 'r+').write of a shorter text): the old tail stays after </w:document>",
      "docx/docx4j_toc.docx", "fatal",
      "XML 1.0 §2.1 (document ::= prolog element Misc*: nothing but comments, PIs and white space after the root); "
      "EWSoftware/SHFB#412 and terrajobst/xsddoc#4 (an ill-formed document.xml: Word 'cannot be opened because there are "
      "problems with the contents', Location: Part /word/document.xml, Line, Column)", "spec")
def _(src, dest):
    p = Pkg(src)
    old = p.get("word/document.xml")
    new = p.text("word/document.xml").replace("United Nations Declaration", "UN Declaration", 1).encode("utf-8")
    p.put("word/document.xml", new + old[len(new):])  # what an untruncated in-place write leaves
    p.save(dest)


@case("k-header-override-missing", "part typed by a wrong Default content type", "Word",
      "hand-written [Content_Types].xml: Default xml = the main document type, no Override for the header",
      "docx/docx4j_sample-docx.docx", "fatal",
      "openxml/openxml-docx#73 (the header's Override not written, so Word sees the header with the main document's "
      "type: 'Word isn't happy with the generated document'); OPC Part 2 §10.1.2.4", "single")
def _(src, dest):
    p = Pkg(src)
    main = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
    p.sub("[Content_Types].xml", r'<Default Extension="xml" ContentType="application/xml"/>',
          '<Default Extension="xml" ContentType="%s"/>' % main)
    remove_override(p, "word/header1.xml")
    p.save(dest)


@case("k-main-override-missing", "main part without its content type", "Word",
      "[Content_Types].xml regenerated from file extensions only (Defaults, no Overrides for the main part)",
      "docx/docx4j_toc.docx", "fatal",
      "OPC Part 2 §10.1.2.4 and ECMA-376 Part 1 §11.3.10 (the main document part has the content type "
      "…document.main+xml; application/xml is no Word part); plutext/docx4j#46 (a package typed only by Defaults: "
      "'Unexpected package'); DEFECTS.md (REFUSE)", "spec")
def _(src, dest):
    p = Pkg(src)
    remove_override(p, "word/document.xml")
    p.save(dest)


# ================================================================== benign

def benign(cid, src, mech, out_ext=None):
    return case(cid, "benign", {"docx": "Word", "dotx": "Word", "pptx": "PowerPoint", "xlsx": "Excel",
                                "xltx": "Excel", "hwpx": "Hangul"}[ext(src)[1:]], mech, src, "benign",
                "", "", out_ext)


if docx:
    for i, f in enumerate(["docx/docx4j_toc.docx", "docx/oxsdk_Comment042.docx", "docx/oxsdk_table-2007.docx",
                           "docx/docx4j_sample-docx.docx", "docx/mammoth_text-box.docx",
                           "docx/oxsdk_Complex01.docx"]):
        @benign("b-docx-resave-%d" % i, f, "python-docx: open and save")
        def _(src, dest):
            docx.Document(corpus(src)).save(dest)

    @benign("b-docx-fill-field", "docx/docxtemplater_tag-example.docx", "python-docx: template fields filled in runs")
    def _(src, dest):
        d = docx.Document(corpus(src))
        for para in d.paragraphs:
            for r in para.runs:
                r.text = r.text.replace("{first_name}", "Ada").replace("{last_name}", "Lovelace & Co")
        d.save(dest)

    @benign("b-docx-add-row", "docx/oxsdk_table-2007.docx", "python-docx: table.add_row() and cells filled")
    def _(src, dest):
        d = docx.Document(corpus(src))
        row = d.tables[0].add_row()
        for c in row.cells:
            c.text = "new"
        d.save(dest)

    @benign("b-docx-delete-paragraph", "docx/docx4j_toc.docx", "python-docx: a body paragraph deleted")
    def _(src, dest):
        d = docx.Document(corpus(src))
        p = d.paragraphs[5]._p
        p.getparent().remove(p)
        d.save(dest)

    @benign("b-docx-add-picture", "docx/docx4j_sample-docx.docx", "python-docx: add_picture from the package's own image")
    def _(src, dest):
        img = Pkg(src).get("word/media/image3.png")
        d = docx.Document(corpus(src))
        d.add_picture(io.BytesIO(img))
        d.save(dest)

    @benign("b-docx-core-props", "docx/oxsdk_Comment042.docx", "python-docx: core properties changed")
    def _(src, dest):
        d = docx.Document(corpus(src))
        d.core_properties.title = "Reviewed"
        d.core_properties.author = "editaudit"
        d.save(dest)

    @benign("b-docx-add-paragraphs", "docx/docx4j_toc.docx", "python-docx: paragraphs, a heading and a table added")
    def _(src, dest):
        d = docx.Document(corpus(src))
        d.add_paragraph("Appendix")
        t = d.add_table(rows=2, cols=2)
        t.cell(0, 0).text = "a"
        d.add_paragraph("End")
        d.save(dest)

if openpyxl:
    for i, f in enumerate(["xlsx/excelize_Book1.xlsx", "xlsx/openpyxl_formulae.xlsx", "xlsx/oxsdk_basicspreadsheet.xlsx",
                           "xlsx/poi_dataValidationTableRange.xlsx", "xlsx/poi_simple-monthly-budget.xlsx"]):
        @benign("b-xlsx-resave-%d" % i, f, "openpyxl: load and save")
        def _(src, dest):
            openpyxl.load_workbook(corpus(src)).save(dest)

    @benign("b-xltx-resave", "xlsx/oxsdk_FamilyBudget.xltx", "openpyxl: template loaded and saved as .xltx (template=True)")
    def _(src, dest):
        wb = openpyxl.load_workbook(corpus(src))
        wb.template = True
        wb.save(dest)

    @benign("b-xlsx-cell-value", "xlsx/excelize_Book1.xlsx", "openpyxl: cell values changed")
    def _(src, dest):
        wb = openpyxl.load_workbook(corpus(src))
        ws = wb.worksheets[0]
        ws["B2"] = 42
        ws["C3"] = "changed"
        wb.save(dest)

    @benign("b-xlsx-append-row", "xlsx/oxsdk_basicspreadsheet.xlsx", "openpyxl: ws.append a row")
    def _(src, dest):
        wb = openpyxl.load_workbook(corpus(src))
        wb.worksheets[0].append([1, "two", 3.5, "=1+2"])
        wb.save(dest)

    @benign("b-xlsx-add-sheet", "xlsx/excelize_Book1.xlsx", "openpyxl: a sheet added and filled")
    def _(src, dest):
        wb = openpyxl.load_workbook(corpus(src))
        ws = wb.create_sheet("Notes")
        ws["A1"] = "note"
        ws["B1"] = "=Sheet1!A1"
        wb.save(dest)

    @benign("b-xlsx-remove-sheet", "xlsx/excelize_Book1.xlsx", "openpyxl: wb.remove of a sheet nothing names")
    def _(src, dest):
        wb = openpyxl.load_workbook(corpus(src))
        wb.remove(wb.worksheets[-1])
        wb.save(dest)

    @benign("b-xlsx-merge-width", "xlsx/excelize_Book1.xlsx", "openpyxl: a merge and column widths")
    def _(src, dest):
        wb = openpyxl.load_workbook(corpus(src))
        ws = wb.worksheets[0]
        ws.merge_cells("J10:K11")
        ws.column_dimensions["A"].width = 30
        wb.save(dest)

    @benign("b-xlsx-escaped-text", "xlsx/excelize_Book1.xlsx", "openpyxl: text starting with ' = ' stored as text (data_type s)")
    def _(src, dest):
        wb = openpyxl.load_workbook(corpus(src))
        c = wb.worksheets[0]["H1"]
        c.value = "=== Totals ==="
        c.data_type = "s"
        wb.save(dest)


@benign("b-xlsx-sst-edit", "xlsx/oxsdk_basicspreadsheet.xlsx", "string edit of a shared string's text")
def _(src, dest):
    p = Pkg(src)
    p.sub("xl/sharedStrings.xml", r"<t>([^<]+)</t>", r"<t>\1 (edited)</t>")
    p.save(dest)


@benign("b-xlsx-drop-calcchain", "xlsx/openpyxl_formulae.xlsx", "calcChain.xml removed with its relationship and override (the documented fix)")
def _(src, dest):
    p = Pkg(src)
    p.sub("xl/worksheets/sheet1.xml", r'(<c r="A5"[^>]*>)<f>SUM\(A2:A4\)</f>', r"\1")
    p.delete("xl/calcChain.xml")
    remove_rel(p, "xl/_rels/workbook.xml.rels", target="calcChain.xml")
    remove_override(p, "xl/calcChain.xml")
    p.save(dest)


@benign("b-xlsx-formula-value", "xlsx/openpyxl_formulae.xlsx", "string edit of a formula (calcChain kept: the cell still holds a formula)")
def _(src, dest):
    p = Pkg(src)
    p.sub("xl/worksheets/sheet1.xml", r"<f>SUM\(A2:A4\)</f>", "<f>SUM(A2:A3)</f>")
    p.save(dest)


@benign("b-xlsx-stale-counts", "xlsx/oxsdk_basicspreadsheet.xlsx", "sst count/uniqueCount and dimension left stale")
def _(src, dest):
    p = Pkg(src)
    p.sub("xl/sharedStrings.xml", r'count="\d+"', 'count="1"')
    p.sub("xl/worksheets/sheet1.xml", r'<dimension ref="[^"]+"/>', '<dimension ref="A1"/>')
    p.save(dest)


@benign("b-pptx-text", "pptx/oxsdk_typical-deck.pptx", "regex edit of a slide's text (escaped)")
def _(src, dest):
    p = Pkg(src)
    p.sub("ppt/slides/slide1.xml", r"<a:t>([^<]+)</a:t>", r"<a:t>\1 — R&amp;D</a:t>")
    p.save(dest)


@benign("b-pptx-delete-slide", "pptx/poi_real-deck-HowWeRefactor.pptx", "slide deleted properly: sldId, relationship, part, its rels, notes and overrides")
def _(src, dest):
    p = Pkg(src)
    rid = pptx_slide_rid(p, 2)
    p.sub("ppt/presentation.xml", r'<p:sldId [^>]*r:id="%s"/>' % rid, "")
    remove_rel(p, "ppt/_rels/presentation.xml.rels", rid=rid)
    for part in ["ppt/slides/slide2.xml", "ppt/notesSlides/notesSlide2.xml"]:
        p.delete(part)
        remove_override(p, part)
    p.delete("ppt/slides/_rels/slide2.xml.rels")
    p.delete("ppt/notesSlides/_rels/notesSlide2.xml.rels")
    p.save(dest)


@benign("b-pptx-unlist-slide", "pptx/poi_real-deck-HowWeRefactor.pptx", "python-pptx delete recipe: only the sldId removed (xml_slides.remove)")
def _(src, dest):
    p = Pkg(src)
    p.sub("ppt/presentation.xml", r'<p:sldId [^>]*r:id="%s"/>' % pptx_slide_rid(p, 3), "")
    p.save(dest)


@benign("b-pptx-reorder", "pptx/oxsdk_typical-deck.pptx", "slides reordered by moving sldId elements")
def _(src, dest):
    p = Pkg(src)
    t = p.text("ppt/presentation.xml")
    ids = re.findall(r"<p:sldId [^>]*/>", t)
    p.put("ppt/presentation.xml", t.replace(ids[0] + ids[1], ids[1] + ids[0]) if ids[0] + ids[1] in t
          else t.replace(ids[0], "@@").replace(ids[1], ids[0]).replace("@@", ids[1]))
    p.save(dest)


@benign("b-pptx-recolor", "pptx/poi_real-deck-HowWeRefactor.pptx", "colours changed to other six-digit hex values")
def _(src, dest):
    p = Pkg(src)
    p.sub("ppt/slides/slide1.xml", r'<a:srgbClr val="[0-9A-Fa-f]{6}"', '<a:srgbClr val="1F4E79"', count=0)
    p.save(dest)


@benign("b-pptx-table-text", "pptx/pptx_tbl-cell.pptx", "table cell text changed")
def _(src, dest):
    p = Pkg(src)
    p.sub("ppt/slides/slide1.xml", r"<a:t>having custom margins</a:t>", "<a:t>custom margins, edited</a:t>")
    p.save(dest)


@benign("b-hwpx-text", "hwpx/pyhwpx_form_002.hwpx", "text of a run changed (linesegarray left stale)")
def _(src, dest):
    p = Pkg(src)
    p.sub("Contents/section0.xml", r"<hp:t>([^<]{1,40})</hp:t>", r"<hp:t>\1 (수정)</hp:t>")
    p.save(dest)


@benign("b-hwpx-repack", "hwpx/hwpxlib_SimpleTable.hwpx", "repacked with python zipfile, mimetype first and stored")
def _(src, dest):
    p = Pkg(src)
    ents = sorted(p.entries, key=lambda e: e[0].filename != "mimetype")
    for k, (i, d) in enumerate(ents):
        i.compress_type = zipfile.ZIP_STORED if i.filename == "mimetype" else zipfile.ZIP_DEFLATED
    p.entries = ents
    p.save(dest)


@benign("b-docx-repack-order", "docx/docx4j_sample-docx.docx", "repacked: entries in reverse order, deflate level changed")
def _(src, dest):
    p = Pkg(src)
    p.entries.reverse()
    p.save(dest, compression=zipfile.ZIP_DEFLATED)


@benign("b-docx-dir-entries", "docx/docx4j_toc.docx", "repacked by `zip -r` with folder entries (word/, _rels/ …)")
def _(src, dest):
    p = Pkg(src)
    dirs = sorted({n.rsplit("/", 1)[0] + "/" for n in p.names() if "/" in n})
    out = []
    for dname in dirs:
        zi = zipfile.ZipInfo(dname, date_time=(1980, 1, 1, 0, 0, 0))
        out.append((zi, b""))
    p.entries = out + p.entries
    p.save(dest)


@benign("b-docx-bom", "docx/docx4j_sample-docx.docx", "document.xml rewritten with a UTF-8 byte-order mark (PowerShell Set-Content)")
def _(src, dest):
    p = Pkg(src)
    p.put("word/document.xml", b"\xef\xbb\xbf" + p.get("word/document.xml"))
    p.save(dest)


@benign("b-docx-regex-escaped", "docx/docxtemplater_tag-example.docx", "regex fill with the value escaped (&amp;)")
def _(src, dest):
    p = Pkg(src)
    p.sub("word/document.xml", r">last_name<", ">Smith &amp; Sons<")
    p.save(dest)


with open(os.path.join(OUT, "manifest.json"), "w") as f:
    json.dump(CASES, f, indent=1, ensure_ascii=False)
print("%d cases (%d fatal, %d disputed, %d benign, %d not built)" % (
    len(CASES), sum(c["expect"] == "fatal" for c in CASES), sum(c["expect"] == "disputed" for c in CASES),
    sum(c["expect"] == "benign" for c in CASES), sum(not c["ok"] for c in CASES)))
