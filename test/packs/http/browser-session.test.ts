import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareData } from '../../../src/agents/fisherman/prepare-data.js';
import { DEMO_PASSWORD } from '../../../src/demo-app/server.js';
import { browserLogin } from '../../../src/packs/http/browser/browser-login.js';
import { loadBrowserScript } from '../../../src/packs/http/browser/browser-script.js';
import { captureSession } from '../../../src/packs/http/browser/capture-session.js';
import { chromiumPath } from '../../../src/packs/http/browser/launch-chromium.js';
import { loadCaptures } from '../../../src/packs/http/captures/load-captures.js';
import { runTally, tempDir, tempLedger } from '../../helpers.js';
import { BUNDLED_HAR, demoApp } from './demo-fixtures.js';

const LOGIN_SCRIPT = `export default async ({ page, baseUrl }) => {
  await page.goto(baseUrl + '/login');
  await page.fill('input[name=password]', ${JSON.stringify(DEMO_PASSWORD)});
  await Promise.all([page.waitForURL('**/projects'), page.click('#sign-in')]);
};
`;

// Logs in, then creates a suite and a test through the UI: the XHRs a capture should keep.
const CAPTURE_SCRIPT = `${LOGIN_SCRIPT.replace('export default async', 'const logIn = async')}
export default async ({ page, context, baseUrl }) => {
  await logIn({ page, context, baseUrl });
  await page.goto(baseUrl + '/projects/alpha-shop/suites');
  await page.fill('#suite-title', 'Captured suite');
  await page.click('#create-suite');
  await page.waitForSelector('#message:text("Saved.")');
};
`;

function script(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('browser scripts are checked before a browser starts', () => {
  it('a missing script, a directory and a module without a default function get clear errors', async () => {
    const dir = tempDir();
    await expect(loadBrowserScript(join(dir, 'nope.mjs'))).rejects.toMatchObject({
      code: 'BROWSER_SCRIPT_NOT_FOUND',
      message: expect.stringMatching(/\(it does not exist\)\. Check the path/),
    });
    mkdirSync(join(dir, 'folder.mjs'));
    await expect(loadBrowserScript(join(dir, 'folder.mjs'))).rejects.toMatchObject({
      code: 'BROWSER_SCRIPT_INVALID',
      message: expect.stringMatching(/not a regular file/),
    });
    await expect(
      loadBrowserScript(script(dir, 'named.mjs', 'export const login = 1;\n')),
    ).rejects.toMatchObject({
      code: 'BROWSER_SCRIPT_INVALID',
      message: expect.stringMatching(/no default export function/),
    });
  });

  it('a script with a syntax error, or one that fails to load, is named as such: exit 2, not "a bug in Tally"', async () => {
    const dir = tempDir();
    const broken = script(
      dir,
      'broken.mjs',
      'export default async ({ page }) => {\n  await page.click("#save"\n};\n',
    );
    const run = await runTally([
      'capture',
      'http://127.0.0.1:9/',
      '--out',
      join(dir, 'x.har'),
      '--script',
      broken,
    ]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(
      `tally: The browser script ${broken} is not valid JavaScript (missing ) after argument list). Fix the syntax; \`node --check ${broken}\` shows the line.`,
    );
    expect(run.stderr).not.toMatch(/bug in Tally|unexpected error/);
    const missingImport = script(
      dir,
      'imports.mjs',
      'import "./nope.mjs";\nexport default async () => {};\n',
    );
    await expect(loadBrowserScript(missingImport)).rejects.toMatchObject({
      code: 'BROWSER_SCRIPT_INVALID',
      message: expect.stringMatching(
        /imports\.mjs failed to load: Cannot find module .*nope\.mjs.*Fix the script/,
      ),
    });
  });
});

const CHROMIUM = chromiumPath();
describe.skipIf(!existsSync(CHROMIUM))(
  `live browser sessions in real Chromium (${CHROMIUM}; skipped when it is missing)`,
  () => {
    it('tally capture with a script: a HAR with bodies, secrets redacted on save, usable as captures', async () => {
      const { app, seen } = await demoApp();
      const dir = tempDir();
      const out = join(dir, 'session.har');
      const result = await captureSession({
        url: `${app.url}/login`,
        out,
        script: script(dir, 'capture.mjs', CAPTURE_SCRIPT),
      });
      expect(result.headless).toBe(true);
      expect(statSync(out).mode & 0o777).toBe(0o600);
      const text = readFileSync(out, 'utf8');
      expect(text).not.toContain(DEMO_PASSWORD);
      // Every cookie value and CSRF token the browser really sent is gone from the file.
      const sent = seen.flatMap((request) => [
        ...String(request.headers.cookie ?? '')
          .split(';')
          .map((pair) => pair.split('=')[1]?.trim()),
        request.headers['x-csrf-token'] as string | undefined,
      ]);
      const secrets = sent.filter((value): value is string => Boolean(value && value.length > 8));
      expect(secrets.length).toBeGreaterThan(0);
      for (const value of secrets) expect(text).not.toContain(value);
      const set = loadCaptures([out]);
      const create = set.captures.find(
        (capture) => capture.method === 'POST' && capture.path === '/api/alpha-shop/suites',
      );
      expect(create).toMatchObject({ status: 201, requestBody: { title: 'Captured suite' } });
    }, 60_000);

    it('--login browser:SCRIPT: the browser logs in, Fisherman uses its cookies and CSRF token, and they never reach the ledger', async () => {
      const { app, seen } = await demoApp();
      const dir = tempDir();
      const ledger = tempLedger();
      const loginScript = script(dir, 'login.mjs', LOGIN_SCRIPT);
      const result = await prepareData({
        request: '2 suites with 3 tests each',
        captures: [BUNDLED_HAR],
        scope: '/projects/alpha-shop',
        baseUrl: app.url,
        liveSession: (baseUrl) => browserLogin(baseUrl, { script: loginScript }),
        ledger,
        env: {},
      });
      expect(result).toMatchObject({ status: 'success' });
      expect(result.verified).toHaveLength(8);
      const writes = seen.filter((request) => request.method === 'POST' && request.path.startsWith('/api/'));
      expect(writes).toHaveLength(8);
      const cookie = String(writes[0]?.headers.cookie ?? '');
      const csrf = String(writes[0]?.headers['x-csrf-token'] ?? '');
      expect(cookie).toMatch(/=/);
      expect(csrf.length).toBeGreaterThan(8);
      // The login happened in the browser (the form post), not through a recipe.
      expect(seen.filter((request) => request.method === 'POST' && request.path === '/login')).toHaveLength(
        1,
      );
      const recorded = JSON.stringify(ledger.getRun(result.runId));
      expect(recorded).not.toContain(csrf);
      expect(recorded).not.toContain(cookie.split('=')[1] as string);
    }, 60_000);

    it('--login browser:SCRIPT with --spec (achieve mode): the browser session authenticates the plan from the document', async () => {
      const { app, seen } = await demoApp();
      const ledger = tempLedger();
      const loginScript = script(tempDir(), 'login.mjs', LOGIN_SCRIPT);
      const result = await prepareData({
        request: '1 suite with 2 tests',
        captures: [],
        specs: [`${app.url}/api/openapi.json`],
        scope: '/projects/alpha-shop',
        baseUrl: app.url,
        liveSession: (baseUrl) => browserLogin(baseUrl, { script: loginScript }),
        ledger,
        env: {},
      });
      expect(result.unmet, result.summary).toEqual([]);
      expect(result).toMatchObject({ status: 'success', tier: 'deterministic', counts: { modelCalls: 0 } });
      const writes = seen.filter((request) => request.method === 'POST' && request.path.startsWith('/api/'));
      expect(writes).toHaveLength(3);
      const csrf = String(writes[0]?.headers['x-csrf-token'] ?? '');
      expect(csrf.length).toBeGreaterThan(8);
      expect(JSON.stringify(ledger.getRun(result.runId))).not.toContain(csrf);
    }, 60_000);

    it('a login script that does not sign in is an error naming the origin', async () => {
      const { app } = await demoApp();
      const dir = tempDir();
      const idle = script(dir, 'idle.mjs', 'export default async () => {};\n');
      await expect(browserLogin(app.url, { script: idle })).rejects.toMatchObject({
        code: 'BROWSER_LOGIN_NO_SESSION',
      });
    }, 60_000);
  },
);
