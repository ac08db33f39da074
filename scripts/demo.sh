#!/usr/bin/env bash
# make demo: generate a contract template with nested tables, edit it the
# way scripts and models damage documents, audit the edits, print the model
# feedback and the path of the HTML reports. Run from the repository root
# after `make build`.
set -euo pipefail
bin=bin/editaudit
out=demo-out
rm -rf "$out"
mkdir -p "$out"
echo "== generating examples/specs/contract.json → $out/contract.docx"
$bin synth --fixtures --render off examples/specs/contract.json "$out/contract.docx"
echo
echo "== edit 1: a cell's text set the python-docx way (cell.text = …): its nested tables are gone"
$bin corpus mutate docx.nested-tables-wiped "$out/contract.docx" "$out/edit1.docx"
echo
echo "== edit 2: the same, plus a control character (U+000B) in the title"
$bin corpus mutate xml.illegal-char "$out/edit1.docx" "$out/edit2.docx"
echo
set +e
echo "== editaudit audit contract.docx edit1.docx"
$bin audit --store "$out/store" --out "$out/report1" "$out/contract.docx" "$out/edit1.docx"
rc1=$?
$bin audit --store "$out/store" --out "$out/report1" --format html "$out/contract.docx" "$out/edit1.docx" >/dev/null
echo
echo "exit code: $rc1 (0 = passed: lost structure is reported, never blocks)"
echo
cp "$out/edit2.docx" "$out/working-copy.docx"
echo "== editaudit audit --restore contract.docx working-copy.docx (the copy stands for the file a service would ship)"
$bin audit --store "$out/store" --out "$out/report2" --restore "$out/contract.docx" "$out/working-copy.docx"
rc2=$?
set -e
echo
echo "exit code: $rc2 (1 = blocked: the edit introduced a fatal defect)"
if cmp -s "$out/contract.docx" "$out/working-copy.docx"; then
  echo "working-copy.docx holds the original again; the rejected edit is in $out/report2/rejected.docx"
fi
echo
echo "HTML report of edit 1: $(pwd)/$out/report1/report.html"
