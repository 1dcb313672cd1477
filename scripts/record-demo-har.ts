// Records the bundled demo HAR honestly: real Chromium drives the demo app's own UI, the
// HAR is what the browser saw, and secrets are redacted before it is written.
//   node --import tsx scripts/record-demo-har.ts [out.har]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { DEMO_PASSWORD, startDemoApp } from '../src/demo-app/server.js';
import { chromiumPath, HEADLESS_CHROMIUM_ARGS } from '../src/packs/browser/chromium-settings.js';
import { redactHar } from '../src/packs/http/captures/redact-har.js';

export const CHROMIUM_PATH = chromiumPath();

export async function recordDemoHar(outPath: string): Promise<{ entries: number }> {
  const app = await startDemoApp();
  const scratch = mkdtempSync(join(tmpdir(), 'tally-har-'));
  const rawHar = join(scratch, 'raw.har');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: HEADLESS_CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ recordHar: { path: rawHar, content: 'embed' } });
    const page = await context.newPage();
    const saved = () => page.waitForSelector('#message:text-matches("Saved|Validation|exists|not")');
    const submit = async (selector: string) => {
      await page.click(selector);
      await saved();
      await page.locator('#message').evaluate((element) => {
        element.textContent = '';
      });
    };

    await page.goto(`${app.url}/login`);
    await page.fill('input[name=password]', DEMO_PASSWORD);
    await Promise.all([page.waitForURL('**/projects'), page.click('#sign-in')]);

    for (const [slug, suiteTitle, testTitles] of [
      ['alpha-shop', 'Checkout', ['Pays by card', '']],
      ['beta-blog', 'Publishing', ['Publishes a draft']],
    ] as const) {
      await page.goto(`${app.url}/projects/${slug}/suites`);
      await page.fill('#suite-title', suiteTitle);
      await submit('#create-suite');
      await page.click(`#suites a:text("${suiteTitle}")`);
      await page.waitForSelector('#new-test');
      for (const title of testTitles) {
        await page.fill('#test-title', title); // the empty title records a real 422
        await submit('#create-test');
      }
      await submit('#move-top');
    }
    await page.goto(`${app.url}/projects/alpha-shop/milestones`);
    await page.fill('#milestone-title', 'Release 1.0');
    await page.fill('#milestone-due', '2026-12-31');
    await submit('#create-milestone');
    // A second suite and test in alpha-shop, then one deletion: DELETE is captured too.
    await page.goto(`${app.url}/projects/alpha-shop/suites`);
    await page.fill('#suite-title', 'Search');
    await submit('#create-suite');
    await page.click('#suites a:text("Search")');
    await page.waitForSelector('#new-test');
    await page.fill('#test-title', 'Finds products by name');
    await submit('#create-test');
    await page.fill('#test-title', 'Temporary');
    await submit('#create-test');
    await submit('#delete-first-test');
    await context.close(); // the HAR is written here
  } finally {
    await browser.close();
    await app.close();
  }
  const har = redactHar(JSON.parse(readFileSync(rawHar, 'utf8')));
  rmSync(scratch, { recursive: true, force: true });
  writeFileSync(outPath, `${JSON.stringify(har, null, 1)}\n`);
  return { entries: (har.log.entries as unknown[]).length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = resolve(process.argv[2] ?? 'demo/captures/demo-app.har');
  const { entries } = await recordDemoHar(out);
  process.stdout.write(`Recorded ${entries} requests into ${out}\n`);
}
