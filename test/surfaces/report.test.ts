import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from '../../scripts/record-demo-har.js';
import { defineAgent } from '../../src/core/agent/agent-definition.js';
import { runAgent } from '../../src/core/agent/run-agent.js';
import { Ledger } from '../../src/core/ledger/ledger.js';
import { QUIET_CHROMIUM_FLAGS } from '../../src/packs/browser/chromium-settings.js';
import { renderReport } from '../../src/surfaces/report/render-report.js';
import { callTool, scriptedModel } from '../../src/testing/scripted-model.js';
import { itemTools } from '../core/agent/fixtures.js';
import { runTally, tempDir } from '../helpers.js';

const hasChromium = existsSync(CHROMIUM_PATH);
/** Screenshots are kept as test artifacts (ignored by git). */
const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-results');

const HOSTILE = '<img src=x onerror="document.title=\'pwned\'"><script>document.title="pwned"</script>';

async function hostileRun(dir: string): Promise<{ ledgerPath: string; runId: string }> {
  const ledgerPath = join(dir, '.tally', 'ledger.db');
  const ledger = Ledger.open(ledgerPath);
  const { tools } = itemTools();
  const agent = defineAgent({ name: 'items', instructions: 'Store items with put_item.', tools });
  const model = scriptedModel([
    callTool('put_item', { id: 'a1', value: HOSTILE }),
    callTool('put_item', { id: 'a2', value: 'x' }),
    callTool('finish', {
      summary: `Stored. ${HOSTILE}`,
      claims: [{ target: 'a1' }, { target: 'a9', title: HOSTILE }],
    }),
  ]);
  const result = await runAgent(agent, `Store a1 ${HOSTILE}`, { ledger, model });
  ledger.close();
  return { ledgerPath, runId: result.runId };
}

describe('tally report', () => {
  it('renders run data as text, never as markup, with net effects and claims', async () => {
    const dir = tempDir();
    const { ledgerPath, runId } = await hostileRun(dir);
    const ledger = Ledger.open(ledgerPath, { readonly: true });
    const html = renderReport(ledger.getRun(runId));
    ledger.close();
    expect(html).not.toContain('<script>document');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain("content=\"default-src 'none'; style-src 'unsafe-inline'\"");
    expect(html).not.toMatch(/<script|<link|src="http|href="http/);
    expect(html).toMatch(/Net effects \(2\)/);
    expect(html).toMatch(/Claims \(1 verified, 1 not\)/);
  });

  it.skipIf(!hasChromium)(
    `opens in real Chromium (${CHROMIUM_PATH}) with no network, light and dark, and shows the run`,
    async () => {
      const dir = tempDir();
      const { ledgerPath, runId } = await hostileRun(dir);
      const out = join(dir, 'report.html');
      const cli = await runTally(['--ledger', ledgerPath, 'report', runId, '--out', out], { cwd: dir });
      expect(cli.stderr).toBe('');
      expect(cli.code).toBe(0);
      expect(cli.stdout).toBe(`Wrote ${out}\n`);
      expect(readFileSync(out, 'utf8')).toContain(runId);

      mkdirSync(ARTIFACTS, { recursive: true });
      const browser = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        args: QUIET_CHROMIUM_FLAGS,
      });
      try {
        for (const colorScheme of ['light', 'dark'] as const) {
          const context = await browser.newContext({ colorScheme, viewport: { width: 1280, height: 900 } });
          const requests: string[] = [];
          context.on('request', (request) => {
            if (!request.url().startsWith('file:')) requests.push(request.url());
          });
          const page = await context.newPage();
          await page.goto(`file://${out}`);
          expect(await page.title()).toBe(`Tally run ${runId}`);
          // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a reader sees
          const text = await page.locator('body').innerText();
          expect(text).toContain('PARTIAL');
          expect(text).toContain('Net effects (2)');
          expect(text).toMatch(/items\/a1\s+created\s+created #\d+\s+put_item a1/);
          expect(text).toContain('this run has no effect on a9');
          expect(text).toContain(HOSTILE.slice(0, 20));
          expect(await page.locator('table.timeline tbody tr').count()).toBeGreaterThan(5);
          const background = await page.evaluate('getComputedStyle(document.body).backgroundColor');
          expect(background).toBe(colorScheme === 'dark' ? 'rgb(13, 17, 23)' : 'rgb(255, 255, 255)');
          const shot = join(ARTIFACTS, `report-${colorScheme}.png`);
          await page.screenshot({ path: shot, fullPage: true });
          expect(statSync(shot).size).toBeGreaterThan(10_000);
          expect(requests).toEqual([]);
          await context.close();
        }
      } finally {
        await browser.close();
      }
    },
    120_000,
  );
  it('--out naming a folder is refused before any work, named as given: exit 2, no file, no leftover', async () => {
    const dir = tempDir();
    const { ledgerPath, runId } = await hostileRun(dir);
    const folder = join(dir, 'reports');
    mkdirSync(folder);
    const cli = await runTally(['--ledger', ledgerPath, 'report', runId, '--out', folder], { cwd: dir });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain(`${folder} is a folder, where a file is needed`);
    expect(cli.stderr).not.toContain('bug in Tally');
    expect(statSync(folder).isDirectory()).toBe(true);
    expect(readdirSync(dir).filter((name) => name.includes('.tmp'))).toEqual([]);
  });
});
