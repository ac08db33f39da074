// Drives a corpus index.html in headless Chromium (playwright-core, the
// system's chromium) as a reader would, and checks what it shows:
//   node index.mjs INDEX.html EXPECT.json [SCREENSHOT.png]
// EXPECT: {"total":N, "verdict":{"blocked":n,…}, "format":{"docx":n,…},
// "group":{"a":n,…}, "search":{"term":n,…}, "idDesc":"first id when sorted
// by id descending"}. Prints timings (ms) and exits 1 on a mismatch.
import { chromium } from "playwright-core";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [file, expectFile, shot] = process.argv.slice(2);
const want = JSON.parse(readFileSync(expectFile, "utf8"));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
let bad = 0;
const check = (what, got, exp) => {
  if (got !== exp) { bad++; console.log(`FAIL ${what}: got ${got}, want ${exp}`); } else console.log(`ok   ${what}: ${got}`);
};
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const t0 = Date.now();
  await page.goto(pathToFileURL(file).href);
  await page.waitForFunction(() => document.body.hasAttribute("data-matching"));
  const loadMs = Date.now() - t0;
  const attr = async () => [Number(await page.getAttribute("body", "data-matching")), Number(await page.getAttribute("body", "data-shown"))];
  const rowsShown = () => page.locator("#pairs tbody tr").count();
  let [m, s] = await attr();
  check("all pairs match", m, want.total);
  check("first page rows", await rowsShown(), Math.min(100, want.total));
  check("shown attr", s, Math.min(100, want.total));
  const times = [];
  const timed = async (fn) => { const t = Date.now(); await fn(); times.push(Date.now() - t); };
  for (const [v, n] of Object.entries(want.verdict)) {
    await timed(() => page.selectOption("#f-verdict", v));
    [m] = await attr();
    check(`verdict=${v}`, m, n);
    check(`verdict=${v} rows all ${v}`, await page.locator(`#pairs tbody tr .v-${v}`).count(), Math.min(n, 100));
  }
  await page.selectOption("#f-verdict", "");
  for (const [f, n] of Object.entries(want.format)) {
    await timed(() => page.selectOption("#f-format", f));
    [m] = await attr();
    check(`format=${f}`, m, n);
  }
  await page.selectOption("#f-format", "");
  for (const [g, n] of Object.entries(want.group)) {
    await timed(() => page.selectOption("#f-group", g));
    [m] = await attr();
    check(`group=${g}`, m, n);
  }
  await page.selectOption("#f-group", "");
  for (const [q, n] of Object.entries(want.search)) {
    await timed(() => page.fill("#q", q));
    [m] = await attr();
    check(`search "${q}"`, m, n);
  }
  await page.fill("#q", "");
  // Paging: the last page holds the rest.
  const pages = Math.ceil(want.total / 100);
  for (let i = 1; i < pages; i++) await page.click("#next");
  check("last page rows", await rowsShown(), want.total - (pages - 1) * 100);
  check("next disabled on the last page", await page.isDisabled("#next"), true);
  await page.selectOption("#f-size", "1000");
  check("1000 per page", await rowsShown(), Math.min(1000, want.total));
  await page.selectOption("#f-size", "100");
  // Sorting: id descending on the second click.
  await timed(() => page.click("#pairs th[data-c='0']"));
  await page.click("#pairs th[data-c='0']");
  check("first id sorted descending", await page.textContent("#pairs tbody tr td"), want.idDesc);
  // Combined: blocked in one group, searched.
  if (want.combined) {
    await page.selectOption("#f-verdict", want.combined.verdict);
    if (want.combined.group) await page.selectOption("#f-group", want.combined.group);
    await page.fill("#q", want.combined.q);
    [m] = await attr();
    check("combined filter", m, want.combined.n);
    check("count text", (await page.textContent("#count")).includes(`of ${want.combined.n} matching (${want.total} pairs)`) || want.combined.n === 0, true);
  }
  check("script errors", errors.join("; "), "");
  if (shot) {
    await page.fill("#q", "");
    await page.selectOption("#f-verdict", "blocked");
    await page.screenshot({ path: shot, fullPage: false });
  }
  times.sort((a, b) => a - b);
  console.log(`timing load ${loadMs} ms; filter/sort p50 ${times[Math.floor(times.length / 2)]} ms, max ${times[times.length - 1]} ms over ${times.length} actions`);
} finally {
  await browser.close();
}
process.exit(bad ? 1 : 0);
