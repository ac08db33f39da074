#!/usr/bin/python3
# Measurement helper for BENCHMARKS.md "Rendering" (warm LibreOffice over
# UNO, not used by editaudit): connect to a LibreOffice listening on
# pipe NAME, convert each FILE to OUTDIR/<basename>.pdf, print one line per
# file: "<seconds> <path>" (or "ERROR <path> <message>").
# Needs LibreOffice's Python UNO bridge (Debian: python3-uno).
# Usage: uno-convert.py NAME OUTDIR FILE...
import os
import sys
import time

import uno
from com.sun.star.beans import PropertyValue


def prop(name, value):
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


def main():
    name, outdir, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    deadline = time.time() + 60
    while True:
        try:
            ctx = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % name)
            break
        except Exception:
            if time.time() > deadline:
                raise
            time.sleep(0.05)
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    for f in files:
        start = time.time()
        try:
            doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(os.path.abspath(f)), "_blank", 0,
                                               (prop("Hidden", True), prop("ReadOnly", True)))
            if doc is None:
                raise RuntimeError("could not be loaded")
            if doc.supportsService("com.sun.star.sheet.SpreadsheetDocument"):
                flt = "calc_pdf_Export"
            elif doc.supportsService("com.sun.star.presentation.PresentationDocument"):
                flt = "impress_pdf_Export"
            else:
                flt = "writer_pdf_Export"
            base = os.path.splitext(os.path.basename(f))[0]
            doc.storeToURL(uno.systemPathToFileUrl(os.path.join(os.path.abspath(outdir), base + ".pdf")),
                           (prop("FilterName", flt),))
            doc.close(True)
            print("%.3f %s" % (time.time() - start, f), flush=True)
        except Exception as e:  # report and go on, like soffice --convert-to
            print("ERROR %s %s" % (f, e), flush=True)


main()
