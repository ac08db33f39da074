// node hwpxjs.mjs IN.hwpx OUT.html — candidate (b): @ssabrojs/hwpxjs HTML.
import { HwpxReader } from "@ssabrojs/hwpxjs";
import fs from "fs";
const [, , inp, out] = process.argv;
const r = new HwpxReader();
await r.loadFromArrayBuffer(fs.readFileSync(inp).buffer.slice(0));
const html = await r.extractHtml({ embedImages: true });
fs.writeFileSync(out, '<!DOCTYPE html><html><head><meta charset="utf-8"><style>@page{size:A4;margin:20mm}</style></head><body>' + html + "</body></html>");
