// Drives code-server in Debian's Chromium (playwright-core): opens the
// fixture, opens lib/app/tools/notes.ex, opens the Problems panel, waits
// until every expected wymcp problem is listed, saves a screenshot and the
// panel's rows. Run by ../e2e-code-server.sh; inputs from the environment:
//   WYMCP_URL       code-server URL with ?folder=...
//   WYMCP_DRIVER    directory whose node_modules has playwright-core
//   WYMCP_EXPECTED  JSON file: [{file, line, col, code, message, related?: [{file, line,
//                   col, message}]}] (1-based line/col; related file is the base name)
//   WYMCP_OUT       output directory (problems.png, rows.json, result.txt)
//   WYMCP_TIMEOUT   seconds to wait for the problems (default 180)
import { writeFileSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const env = (k) => {
  const v = process.env[k];
  if (!v) throw new Error(`${k} not set`);
  return v;
};
const url = env("WYMCP_URL");
const out = env("WYMCP_OUT");
const expected = JSON.parse(readFileSync(env("WYMCP_EXPECTED"), "utf8"));
const timeoutMs = Number(process.env.WYMCP_TIMEOUT ?? "180") * 1000;
const { chromium } = createRequire(join(env("WYMCP_DRIVER"), "package.json"))("playwright-core");

const flags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// VS Code shows one problem row as "<message> wymcp(<code>) [Ln L, Col C]";
// rows and expectations are compared after folding parentheses and runs of
// whitespace into single spaces (innerText splits the row into elements).
const norm = (t) => t.replace(/[()]/g, " ").replace(/\s+/g, " ").trim();
const wantRow = (p) => ({ ...p, text: norm(`${p.message} wymcp(${p.code}) [Ln ${p.line}, Col ${p.col}]`) });

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: flags });
let status = 1;
let page;
try {
  page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.setDefaultTimeout(timeoutMs);
  await page.goto(url);
  await page.locator(".monaco-workbench").waitFor();
  await page.locator(".explorer-folders-view, .explorer-viewlet").first().waitFor();
  await page.waitForTimeout(2000); // let the workbench finish restoring before typing

  // Quick Open -> notes.ex
  await page.keyboard.press("Control+P");
  await page.locator(".quick-input-widget input").waitFor();
  await page.keyboard.type("notes.ex");
  await page.locator(".quick-input-list .monaco-list-row").first().waitFor();
  await page.keyboard.press("Enter");
  await page.locator('.tab[aria-label*="notes.ex"], .tab .label-name:text("notes.ex")').first().waitFor();

  // Problems panel
  await page.keyboard.press("Control+Shift+M");
  const rows = page.locator(".markers-panel .monaco-list-row");
  const want = expected.map(wantRow);
  // check(texts): per expected problem, its row and right below it exactly its
  // related-information rows ("<file> [Ln L, Col C] : <message>"); plus every
  // row with a position that no expectation accounts for.
  const check = (texts) => {
    const used = new Set();
    const results = want.map((w) => {
      const i = texts.indexOf(w.text);
      if (i < 0) return { w, ok: false, why: "row not listed" };
      used.add(i);
      const rel = [];
      for (let j = i + 1; j < texts.length && /^\S+ \[Ln \d+, Col \d+\] : /.test(texts[j]); j++) {
        rel.push(texts[j]);
        used.add(j);
      }
      const wantRel = (w.related ?? []).map((r) => norm(`${r.file} [Ln ${r.line}, Col ${r.col}] : ${r.message}`));
      if (JSON.stringify(rel) !== JSON.stringify(wantRel)) {
        return { w, ok: false, why: `related rows ${JSON.stringify(rel)}, want ${JSON.stringify(wantRel)}` };
      }
      return { w, ok: true };
    });
    const extra = texts.filter((t, i) => !used.has(i) && /\[Ln \d+, Col \d+\]/.test(t));
    return { results, extra };
  };
  const deadline = Date.now() + timeoutMs;
  let texts = [];
  let res;
  while (true) {
    texts = (await rows.allInnerTexts()).map(norm);
    res = check(texts);
    if ((res.results.every((r) => r.ok) && res.extra.length === 0) || Date.now() >= deadline) break;
    await page.waitForTimeout(500);
  }
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(out, "problems.png") });
  writeFileSync(join(out, "rows.json"), JSON.stringify(texts, null, 2) + "\n");
  const lines = [];
  for (const r of res.results) {
    const rel = (r.w.related ?? []).map((x) => ` (related: ${x.file}:${x.line}:${x.col} ${x.message})`).join("");
    lines.push(`${r.ok ? "ok  " : "FAIL"} ${r.w.file}:${r.w.line}:${r.w.col} ${r.w.code}: ${r.w.message}${rel}${r.ok ? "" : ` -- ${r.why}`}`);
  }
  for (const t of res.extra) lines.push(`FAIL unexpected problem row: ${t}`);
  writeFileSync(join(out, "result.txt"), lines.join("\n") + "\n");
  console.log(lines.join("\n"));
  status = res.results.every((r) => r.ok) && res.extra.length === 0 ? 0 : 1;
} catch (err) {
  console.error(`driver error: ${err?.stack ?? err}`);
  await page?.screenshot({ path: join(out, "problems.png") }).catch(() => {});
  status = 2;
} finally {
  await browser.close();
}
process.exit(status);
