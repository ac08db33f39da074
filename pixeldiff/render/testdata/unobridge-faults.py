#!/usr/bin/python3
# A stand-in for editaudit's UNO bridge that injects faults into a warm
# LibreOffice (issue #16), used by the pixeldiff/render tests. It runs the
# real bridge ($EDITAUDIT_REAL_BRIDGE) with a hook called before each
# conversion, which acts on markers in the document's bytes:
#   HANG   LibreOffice is stopped (SIGSTOP): the conversion never returns
#          and LibreOffice uses no CPU, as when it blocks
#   CRASH  LibreOffice dies (SIGKILL, as by the kernel's OOM killer) while
#          the conversion is sent
# The bridge runs in LibreOffice's process group, whose id is LibreOffice's
# process id.
import importlib.util
import os
import signal
import sys

spec = importlib.util.spec_from_file_location("unobridge", os.environ["EDITAUDIT_REAL_BRIDGE"])
bridge = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bridge)


def hook(path):
    with open(path, "rb") as f:
        data = f.read()
    office = os.getpgid(0)
    if b"HANG" in data:
        os.kill(office, signal.SIGSTOP)
    elif b"CRASH" in data:
        os.kill(office, signal.SIGKILL)


bridge.before_convert = hook
sys.exit(bridge.main())
