#!/usr/bin/env bash
# make demo: generate a contract template with nested tables, apply a
# damaging edit (the nested tables wiped as python-docx's cell.text setter
# does, then a control character injected), audit it, print the model
# feedback and the path of the HTML report. Run from the repository root
# after `make build`.
set -euo pipefail
bin=bin/editaudit
out=demo-out
rm -rf "$out"
mkdir -p "$out"
$bin corpus synth examples/specs/contract.json "$out/contract.docx"
$bin corpus mutate docx.nested-tables-wiped "$out/contract.docx" "$out/step1.docx"
$bin corpus mutate xml.illegal-char "$out/step1.docx" "$out/contract-edited.docx"
rm -f "$out/step1.docx"
echo "== editaudit audit $out/contract.docx $out/contract-edited.docx"
echo
set +e
$bin audit --store "$out/store" --out "$out/report" "$out/contract.docx" "$out/contract-edited.docx"
rc=$?
$bin audit --store "$out/store" --out "$out/report" --format html "$out/contract.docx" "$out/contract-edited.docx" >/dev/null
set -e
echo
echo "exit code: $rc (1 = blocked: the edit introduced a fatal defect)"
echo "HTML report: $(pwd)/$out/report/report.html"
