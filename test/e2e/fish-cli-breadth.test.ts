import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecipeStore } from '../../src/agents/fisherman/recipes/recipe-store.js';
import { DEMO_PASSWORD } from '../../src/demo-app/server.js';
import { chromiumPath } from '../../src/packs/http/browser/launch-chromium.js';
import { runTally, tempDir } from '../helpers.js';
import { BUNDLED_HAR, demoApp } from '../packs/http/demo-fixtures.js';

const fishArgs = (url: string, request: string, ...more: string[]) => [
  'fish',
  request,
  '--captures',
  BUNDLED_HAR,
  '--base-url',
  url,
  '--scope',
  '/projects/alpha-shop',
  '--login',
  ...more,
];

describe('tally fish breadth, recipes and emit on the command line', () => {
  it('"3 tests" says where they went, --concurrency 4 is honoured, --emit json writes the items with links', async () => {
    const { app } = await demoApp();
    const cwd = tempDir();
    const run = await runTally(
      [...fishArgs(app.url, '3 tests', 'demo', '--concurrency', '4'), '--emit', 'json', 'items.json'],
      { cwd },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/no suite existed, so suite 101 was created for the tests/);
    expect(run.stdout).toMatch(/Wrote 4 items with their links to .*items\.json/);
    const items = JSON.parse(readFileSync(join(cwd, 'items.json'), 'utf8')).items;
    expect(items[0]).toMatchObject({ ref: 'suite1', children: ['test1', 'test2', 'test3'] });
  });

  it('a --scope that matches nothing exits 2 before any request; a bad --emit exits 2 before any request', async () => {
    const { app, seen } = await demoApp();
    const scoped = await runTally(
      [...fishArgs(app.url, '2 suites', 'demo'), '--scope', '/projects/gamma'],
      {},
    );
    expect(scoped.code).toBe(2);
    expect(scoped.stderr).toMatch(/Scope "\/projects\/gamma" matches no known write endpoint/);
    const emit = await runTally([...fishArgs(app.url, '2 suites', 'demo'), '--emit', 'cypress', 'x.js'], {});
    expect(emit.code).toBe(2);
    expect(emit.stderr).toMatch(
      /--emit cypress x\.js: "cypress" is not a format Tally emits \(the formats are playwright and json\)/,
    );
    expect(seen.filter((request) => request.path.startsWith('/api/'))).toEqual([]);
  });

  it('tally fish recipes lists, shows and deletes the recipes of the project', async () => {
    const cwd = tempDir();
    const recipe = {
      version: 1 as const,
      id: 'abcdef012345',
      origin: 'http://127.0.0.1:4000',
      scope: '/projects/alpha-shop',
      shape: 'suite>test',
      request: '2 suites with 3 tests each',
      createdAt: '2026-12-01T00:00:00.000Z',
      fromRun: 'run-1',
      parent: { type: 'suite', path: '/api/alpha-shop/suites', body: { title: '{{fresh}}' } },
    };
    new RecipeStore(join(cwd, '.tally', 'recipes')).save(recipe);
    const list = await runTally(['fish', 'recipes'], { cwd });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/abcdef012345 .*suite>test .*POST \/api\/alpha-shop\/suites/);
    const json = await runTally(['fish', 'recipes', '--json'], { cwd });
    expect(JSON.parse(json.stdout).recipes).toEqual([recipe]);
    const show = await runTally(['fish', 'recipes', 'show', 'abcdef012345', '--json'], { cwd });
    expect(JSON.parse(show.stdout)).toEqual(recipe);
    expect((await runTally(['fish', 'recipes', 'delete', 'abcdef012345'], { cwd })).code).toBe(0);
    expect((await runTally(['fish', 'recipes', 'show', 'abcdef012345'], { cwd })).code).toBe(1);
  });
});

const CHROMIUM = chromiumPath();
describe.skipIf(!existsSync(CHROMIUM))(
  `tally capture and --login browser: (${CHROMIUM}; skipped when missing)`,
  () => {
    it('captures a session headless with --script, then fishes with a browser login from those captures', async () => {
      const { app } = await demoApp();
      const cwd = tempDir();
      const logIn = `export default async ({ page, baseUrl }) => {
  await page.goto(baseUrl + '/login');
  await page.fill('input[name=password]', ${JSON.stringify(DEMO_PASSWORD)});
  await Promise.all([page.waitForURL('**/projects'), page.click('#sign-in')]);
};
`;
      writeFileSync(join(cwd, 'login.mjs'), logIn);
      writeFileSync(
        join(cwd, 'use-app.mjs'),
        `export default async ({ page, baseUrl }) => {
  await page.goto(baseUrl + '/login');
  await page.fill('input[name=password]', ${JSON.stringify(DEMO_PASSWORD)});
  await Promise.all([page.waitForURL('**/projects'), page.click('#sign-in')]);
  await page.goto(baseUrl + '/projects/alpha-shop/suites');
  await page.fill('#suite-title', 'From the browser');
  await page.click('#create-suite');
  await page.waitForSelector('#message:text("Saved.")');
  await page.click('#suites a:text("From the browser")');
  await page.waitForSelector('#new-test');
  await page.fill('#test-title', 'A captured test');
  await page.click('#create-test');
  await page.waitForSelector('#message:text("Saved.")');
};
`,
      );
      const capture = await runTally(
        ['capture', `${app.url}/login`, '--out', 'session.har', '--script', 'use-app.mjs'],
        {
          cwd,
        },
      );
      expect(capture).toMatchObject({ stderr: '' });
      expect(capture.code).toBe(0);
      expect(capture.stdout).toMatch(/Recorded \d+ requests into .*session\.har \(secrets redacted\)/);
      const fish = await runTally(
        [
          'fish',
          'a suite with two tests each',
          '--captures',
          'session.har',
          '--scope',
          '/projects/alpha-shop',
          '--login',
          'browser:login.mjs',
          '--json',
        ],
        { cwd },
      );
      expect(fish).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(fish.stdout)).toMatchObject({ status: 'success', tier: 'deterministic' });
      const missing = await runTally(['capture', app.url, '--out', 'x.har', '--script', 'nope.mjs'], { cwd });
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/nope\.mjs cannot be read \(it does not exist\)/);
      // Not a URL: a usage error; an app that is not there: unavailable, in the browser's words.
      const notUrl = await runTally(['capture', 'notaurl', '--out', 'x.har'], { cwd });
      expect(notUrl.code).toBe(2);
      expect(notUrl.stderr).toMatch(/invalid for argument 'url'/);
      const closed = await runTally(['capture', 'http://127.0.0.1:9/login', '--out', 'x.har', '--headless'], {
        cwd,
      });
      expect(closed.code, closed.stderr).toBe(3);
      expect(closed.stderr).toMatch(/could not open http:\/\/127\.0\.0\.1:9\/login \(net::ERR_[A-Z_]+\)/);
      expect(closed.stderr).not.toMatch(/bug in Tally/);
    }, 90_000);
  },
);
