#!/usr/bin/python3
# A stand-in for editaudit's UNO bridge that injects faults into a warm
# LibreOffice (issue #16), used by the render tests. It runs the
# real bridge ($EDITAUDIT_REAL_BRIDGE) with a hook called before each
# conversion, which acts on markers in the document's bytes:
#   HANG   LibreOffice is stopped (SIGSTOP): the conversion never returns
#          and LibreOffice uses no CPU, as when it blocks
#   CRASH  LibreOffice dies (SIGKILL, as by the kernel's OOM killer) while
#          the conversion is sent
#   CLOSECRASH  LibreOffice dies once the conversion is answered, while the
#          bridge closes the document
# The bridge runs in LibreOffice's process group, whose id is LibreOffice's
# process id. While the file $EDITAUDIT_BRIDGE_REFUSE names exists, the
# bridge refuses to start (as one broken by an upgrade): it reports a fatal
# error instead of connecting.
import importlib.util
import os
import signal
import sys

spec = importlib.util.spec_from_file_location("unobridge", os.environ["EDITAUDIT_REAL_BRIDGE"])
bridge = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bridge)


state = {"closecrash": False}


def hook(path):
    with open(path, "rb") as f:
        data = f.read()
    office = os.getpgid(0)
    state["closecrash"] = b"CLOSECRASH" in data
    if b"HANG" in data:
        os.kill(office, signal.SIGSTOP)
    elif b"CRASH" in data and not state["closecrash"]:
        os.kill(office, signal.SIGKILL)


real_close = bridge.close_doc


def close_doc(desktop, doc):
    if state["closecrash"]:
        os.kill(os.getpgid(0), signal.SIGKILL)
    real_close(desktop, doc)


bridge.before_convert = hook
bridge.close_doc = close_doc
refuse = os.environ.get("EDITAUDIT_BRIDGE_REFUSE")
if refuse and os.path.exists(refuse):
    bridge.reply({"fatal": "refused by the fault bridge (%s exists)" % refuse})
    sys.exit(3)
sys.exit(bridge.main())
