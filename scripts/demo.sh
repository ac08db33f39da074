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
echo
echo "== the same audit as a service (editaudit serve: LibreOffice stays warm between audits)"
# A free loopback port: 8787 unless something already listens there.
port=8787
if (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; then
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
fi
url=http://127.0.0.1:$port
echo "start it:  $bin serve --addr 127.0.0.1:$port --store $out/store"
$bin serve --addr 127.0.0.1:$port --store "$out/store" 2>"$out/serve.log" &
serve_pid=$!
trap 'kill -TERM $serve_pid 2>/dev/null; wait $serve_pid 2>/dev/null' EXIT
for _ in $(seq 1 240); do
  if curl -sf "$url/healthz" >/dev/null 2>&1; then break; fi
  if ! kill -0 $serve_pid 2>/dev/null; then echo "the service did not start:"; cat "$out/serve.log"; exit 1; fi
  sleep 0.5
done
echo "ready:     curl $url/healthz → $(curl -s "$url/healthz")"
echo "then:      curl -sS -F original=@$out/contract.docx -F edited=@$out/edit1.docx $url/v1/audit"
echo
curl -sS -D "$out/headers.txt" -F original=@"$out/contract.docx" -F edited=@"$out/edit1.docx" "$url/v1/audit"
echo
echo "($(grep -i '^X-Editaudit-Blocked' "$out/headers.txt" | tr -d '\r'); the body is what 'editaudit audit' prints. API: api/openapi.yaml; clients: examples/clients/)"
kill -TERM $serve_pid
wait $serve_pid 2>/dev/null || true
trap - EXIT
