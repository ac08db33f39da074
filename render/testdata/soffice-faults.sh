#!/bin/sh
# A stand-in for soffice that injects renderer faults (issue 9), used by the
# pixeldiff tests. It runs the real LibreOffice ($EDITAUDIT_REAL_SOFFICE) on
# every input file except those whose bytes contain a marker:
#   CRASH     the whole run dies by SIGSEGV before converting anything
#   HANG      the files before it are converted, then the run hangs forever
#             (files after it are never reached, as with a real hang)
#   NOPDF     the file is skipped: no PDF, exit status 0
#   ZEROPAGE  a valid PDF with 0 pages is written for it
# Calls without input files (profile set-up, --version) go straight through.
# With EDITAUDIT_FAKE_PDF set, the files that would go to LibreOffice are
# "converted" without it: the run makes its temp folder in $TMPDIR as
# LibreOffice does (lu…), prints LibreOffice's progress line for each and
# copies that PDF as its result — for tests of the pool's supervision that
# must not depend on how fast LibreOffice runs on a loaded machine.
real=${EDITAUDIT_REAL_SOFFICE:?set EDITAUDIT_REAL_SOFFICE}
here=$(cd "$(dirname "$0")" && pwd)
outdir=
prev=
hang=
crash=
keep=0
files=0
for a in "$@"; do
	[ "$prev" = "--outdir" ] && outdir=$a
	prev=$a
	[ -f "$a" ] || continue
	files=$((files + 1))
	if grep -q CRASH "$a"; then crash=1; fi
done
[ "$files" -eq 0 ] && exec "$real" "$@"
[ -n "$crash" ] && kill -SEGV $$

# Rebuild the argument list without the marked files; stop at a HANG file.
for a in "$@"; do
	shift
	if [ -n "$hang" ] && [ -f "$a" ]; then continue; fi
	if [ -f "$a" ]; then
		if grep -q HANG "$a"; then hang=1; continue; fi
		if grep -q NOPDF "$a"; then continue; fi
		if grep -q ZEROPAGE "$a"; then
			base=$(basename "$a"); cp "$here/zero-pages.pdf" "$outdir/${base%.*}.pdf"; continue
		fi
		keep=$((keep + 1))
	fi
	set -- "$@" "$a"
done
status=0
if [ "$keep" -gt 0 ] && [ -n "${EDITAUDIT_FAKE_PDF:-}" ]; then
	mktemp -d "${TMPDIR:-/tmp}/luXXXXXX" >/dev/null
	for a in "$@"; do
		[ -f "$a" ] || continue
		base=$(basename "$a")
		echo "convert $a -> $outdir/${base%.*}.pdf using filter : writer_pdf_Export"
		cp "$EDITAUDIT_FAKE_PDF" "$outdir/${base%.*}.pdf"
	done
elif [ "$keep" -gt 0 ]; then
	"$real" "$@"
	status=$?
fi
if [ -n "$hang" ]; then
	sleep 3600
fi
exit $status
