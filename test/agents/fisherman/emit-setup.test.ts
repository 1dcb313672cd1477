import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { request as playwrightRequest } from 'playwright-core';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { emitJson, emitPlaywright } from '../../../src/agents/fisherman/emit/emit-setup.js';
import { prepareData } from '../../../src/agents/fisherman/prepare-data.js';
import { createdTree } from '../../../src/agents/fisherman/recipes/created-tree.js';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../../../src/demo-app/server.js';
import { DEMO_LOGIN } from '../../../src/packs/http/client/login-recipe.js';
import { tempDir, tempLedger } from '../../helpers.js';
import { BUNDLED_HAR, demoApp } from '../../packs/http/demo-fixtures.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

async function preparedRun() {
  const { app } = await demoApp();
  const ledger = tempLedger();
  const result = await prepareData({
    request: '2 suites with 3 tests each',
    captures: [BUNDLED_HAR],
    scope: '/projects/alpha-shop',
    baseUrl: app.url,
    login: DEMO_LOGIN,
    ledger,
    env: {},
    // One at a time, so item numbers follow the plan (suite1's tests are test1…test3).
    concurrency: 1,
  });
  expect(result.status).toBe('success');
  return { result, tree: createdTree(ledger.entries(result.runId)) };
}

describe('setup code from a run', () => {
  it('--emit json: every item with its parent and children', async () => {
    const { result, tree } = await preparedRun();
    const json = JSON.parse(emitJson(tree, { runId: result.runId, baseUrl: result.baseUrl }));
    expect(json.items).toHaveLength(8);
    expect(json.items[0]).toMatchObject({
      ref: 'suite1',
      type: 'suite',
      path: `/api/alpha-shop/suites/${json.items[0].id}`,
      children: ['test1', 'test2', 'test3'],
    });
    expect(json.items.find((item: { ref: string }) => item.ref === 'test4')).toMatchObject({
      parent: { ref: 'suite2', via: 'body', field: 'suite_id' },
      request: { method: 'POST', path: '/api/alpha-shop/tests' },
    });
  });

  it('--emit playwright: the fixture type-checks against playwright-core and runs green against a fresh demo app', async () => {
    const { result, tree } = await preparedRun();
    const code = emitPlaywright(tree, {
      runId: result.runId,
      baseUrl: result.baseUrl,
      marker: result.marker,
    });
    const dir = tempDir();
    writeFileSync(join(dir, 'fixture.ts'), code);
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
    writeFileSync(
      join(dir, 'check.ts'),
      `import type { APIRequestContext } from 'playwright-core';
import { cleanup, prepare, type Prepared } from './fixture.js';
export async function setUp(request: APIRequestContext): Promise<Prepared> {
  const data = await prepare(request, { headers: { 'x-csrf-token': 't' } });
  await cleanup(request, data);
  return data;
}
`,
    );
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(join(ROOT, 'node_modules', 'playwright-core'), join(dir, 'node_modules', 'playwright-core'));
    symlinkSync(join(ROOT, 'node_modules', '@types'), join(dir, 'node_modules', '@types'));
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--skipLibCheck'];
    // Throws with tsc's diagnostics on stdout when the emitted code does not type-check.
    execFileSync(process.execPath, [tsc, ...args, 'fixture.ts', 'check.ts'], { cwd: dir, encoding: 'utf8' });

    const output = ts.transpileModule(code, {
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
    });
    writeFileSync(join(dir, 'fixture.mjs'), output.outputText);
    const fixture = await import(pathToFileURL(join(dir, 'fixture.mjs')).href);

    const { app } = await demoApp();
    const context = await playwrightRequest.newContext({ baseURL: app.url });
    try {
      await context.post('/login', { form: { email: DEMO_EMAIL, password: DEMO_PASSWORD }, maxRedirects: 0 });
      const page = await (await context.get('/projects')).text();
      const token = /name="csrf-token" content="([^"]+)"/.exec(page)?.[1] as string;
      const options = { headers: { 'x-csrf-token': token } };
      const data = await fixture.prepare(context, options);
      const suites = [...app.store.suites.values()];
      expect(suites.map((suite) => String(suite.id))).toEqual([data.suite1.id, data.suite2.id]);
      expect([...app.store.tests.values()].map((test) => [String(test.suite_id), test.title])).toEqual([
        [data.suite1.id, expect.stringMatching(/^Test 1\.1 · [0-9a-f]{6}$/)],
        [data.suite1.id, expect.stringMatching(/^Test 1\.2 /)],
        [data.suite1.id, expect.stringMatching(/^Test 1\.3 /)],
        [data.suite2.id, expect.stringMatching(/^Test 2\.1 /)],
        [data.suite2.id, expect.stringMatching(/^Test 2\.2 /)],
        [data.suite2.id, expect.stringMatching(/^Test 2\.3 /)],
      ]);
      // Fresh titles each time: a second run does not collide with the first (suite titles are unique).
      const again = await fixture.prepare(context, options);
      expect(app.store.suites.size).toBe(4);
      await fixture.cleanup(context, again, options);
      await fixture.cleanup(context, data, options);
      expect(app.store.suites.size).toBe(0);
      expect(app.store.tests.size).toBe(0);
    } finally {
      await context.dispose();
    }
  });
});
