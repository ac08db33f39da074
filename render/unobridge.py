#!/usr/bin/python3
# editaudit's bridge to a warm LibreOffice (package render, the
# warm converter of issue #16). It runs under the Python that LibreOffice's
# UNO bridge is installed for (Debian: python3-uno, for /usr/bin/python3),
# in the process group of the soffice.bin it talks to.
#
# Usage: unobridge.py PIPE_NAME CONNECT_SECONDS
#
# It connects to the LibreOffice listening on the UNO pipe PIPE_NAME
# (soffice --accept=pipe,name=PIPE_NAME;urp;), retrying for CONNECT_SECONDS,
# then prints {"ready": true}. Each line on stdin is one request
# {"in": "/abs/doc.docx", "out": "/abs/doc.pdf", "ext": "pdf"} — or, for an
# export to another format, {"in": …, "out": "/abs/book.xlsx", "ext": "xlsx",
# "filter": "Calc Office Open XML", "recalc": true}: "filter" names the
# export filter (default: the one --convert-to picks for ext), "recalc"
# recalculates every formula first (XCalculatable.calculateAll, the hard
# recalculation a load with Calc's recalc mode "always" does). Each request
# gets one line:
#   {"ok": true}
#   {"ok": false, "stage": "load" | "export", "error": "..."}  the document
#   {"ok": false, "stage": "gone", "error": "..."}  LibreOffice went away;
#                                                   the bridge exits
# The document is loaded and exported with the arguments LibreOffice's own
# `soffice --convert-to pdf` uses (desktop/source/app/dispatchwatcher.cxx:
# ReadOnly, OpenNewView, Hidden, Silent, target _blank; the export filter of
# the document's module, Overwrite), so a warm conversion renders what a
# batch conversion renders. stdin closed: the bridge exits.
import json
import sys
import time

import uno
from com.sun.star.beans import PropertyValue

# The PDF export filter of each document service, as --convert-to pdf
# guesses it (filter/source/config/fragments/filters/*_pdf_Export.xcu).
PDF_FILTERS = {
    "com.sun.star.text.TextDocument": "writer_pdf_Export",
    "com.sun.star.text.WebDocument": "writer_web_pdf_Export",
    "com.sun.star.text.GlobalDocument": "writer_globaldocument_pdf_Export",
    "com.sun.star.sheet.SpreadsheetDocument": "calc_pdf_Export",
    "com.sun.star.presentation.PresentationDocument": "impress_pdf_Export",
    "com.sun.star.drawing.DrawingDocument": "draw_pdf_Export",
}


# Export filters for other formats, by document service and extension, as
# --convert-to EXT picks them (filter/source/config/fragments/filters).
EXPORT_FILTERS = {
    "com.sun.star.text.TextDocument": {
        "docx": "MS Word 2007 XML", "odt": "writer8", "doc": "MS Word 97", "rtf": "Rich Text Format"},
    "com.sun.star.sheet.SpreadsheetDocument": {
        "xlsx": "Calc Office Open XML", "ods": "calc8", "xls": "MS Excel 97"},
    "com.sun.star.presentation.PresentationDocument": {
        "pptx": "Impress Office Open XML", "odp": "impress8", "ppt": "MS PowerPoint 97"},
}


def prop(name, value):
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def describe(e):
    return "%s.%s: %s" % (type(e).__module__, type(e).__name__, getattr(e, "Message", None) or e)


class Gone(Exception):
    """The URP connection broke: LibreOffice died or was killed."""


def check_alive(desktop, e):
    """Raises Gone when e came from a connection that broke rather than
    from the document (a dead LibreOffice surfaces as DisposedException,
    or as a RuntimeException of the local bridge)."""
    d = describe(e)
    if "DisposedException" in d or "disposed" in d or isinstance(e, (BrokenPipeError, ConnectionError)):
        raise Gone(d)
    try:
        desktop.getFrames()  # any remote call
    except Exception:
        raise Gone(d)


def connect(name, seconds):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    deadline = time.monotonic() + seconds
    while True:
        try:
            ctx = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % name)
            return ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        except Exception as e:  # NoConnectException while LibreOffice starts
            if time.monotonic() > deadline:
                raise RuntimeError("no UNO listener on pipe %s after %ss: %s" % (name, seconds, describe(e)))
            time.sleep(0.02)


def before_convert(path):
    """Called before each conversion (a hook for the fault tests)."""


def convert(desktop, src, dst, ext="pdf", flt=None, recalc=False):
    """Converts src and returns (reply, doc): the document is still open,
    for close_doc after the reply is sent (closing a Writer document takes
    10-30 ms that the caller need not wait for: the output is written)."""
    before_convert(src)
    try:
        doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(src), "_blank", 0, (
            prop("Referer", "private:OpenEvent"), prop("ReadOnly", True), prop("OpenNewView", True),
            prop("Hidden", True), prop("Silent", True)))
    except Exception as e:
        check_alive(desktop, e)
        return {"ok": False, "stage": "load", "error": describe(e)}, None
    if doc is None:
        check_alive(desktop, RuntimeError("loadComponentFromURL returned nothing"))
        return {"ok": False, "stage": "load", "error": "LibreOffice could not load the document"}, None
    try:
        service = ""
        for p in doc.getArgs():
            if p.Name == "DocumentService":
                service = p.Value
        if not flt and ext == "pdf":
            flt = PDF_FILTERS.get(service)
        elif not flt:
            flt = EXPORT_FILTERS.get(service, {}).get(ext)
        if not flt:
            return {"ok": False, "stage": "export", "error": "no %s export for a %s" % (ext, service or "document of unknown type")}, doc
        if recalc:
            if not hasattr(doc, "calculateAll"):
                return {"ok": False, "stage": "export", "error": "a %s has no formulas to recalculate" % (service or "document of unknown type")}, doc
            doc.calculateAll()
        doc.storeToURL(uno.systemPathToFileUrl(dst), (
            prop("ConversionRequestOrigin", "CommandLine"), prop("Overwrite", True), prop("FilterName", flt)))
    except Exception as e:
        try:
            check_alive(desktop, e)
        except Gone:
            close_doc(desktop, doc)
            raise
        return {"ok": False, "stage": "export", "error": describe(e)}, doc
    return {"ok": True}, doc


def close_doc(desktop, doc):
    """Closes a converted document (Gone when LibreOffice went away)."""
    if doc is None:
        return
    try:
        doc.close(True)
    except Exception as e:
        check_alive(desktop, e)
        try:
            doc.dispose()
        except Exception:
            pass


def main():
    name, seconds = sys.argv[1], float(sys.argv[2])
    try:
        desktop = connect(name, seconds)
    except Exception as e:
        reply({"fatal": describe(e)})
        return 3
    reply({"ready": True})
    for line in sys.stdin:
        req = json.loads(line)
        try:
            res, doc = convert(desktop, req["in"], req["out"], req.get("ext") or "pdf", req.get("filter"), bool(req.get("recalc")))
        except Gone as e:
            reply({"ok": False, "stage": "gone", "error": str(e)})
            return 4
        except Exception as e:
            try:
                check_alive(desktop, e)
            except Gone as g:
                reply({"ok": False, "stage": "gone", "error": str(g)})
                return 4
            reply({"ok": False, "stage": "export", "error": describe(e)})
            continue
        reply(res)
        # Closed after the answer: this request has had its one line, so a
        # LibreOffice that dies while closing ends the bridge without
        # another (the next request finds the bridge gone, and the pool
        # replaces both).
        try:
            close_doc(desktop, doc)
        except Gone:
            return 4
        except Exception:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
