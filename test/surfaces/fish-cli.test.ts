import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTally, tempDir } from '../helpers.js';
import { BUNDLED_HAR, demoApp } from '../packs/http/demo-fixtures.js';

const tally = (args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) => runTally(args, { cwd, env });

/** `tally fish` on the bundled HAR, scoped to alpha-shop, logged in to the demo app. */
const fishArgs = (request: string, baseUrl: string, ...extra: string[]) => [
  'fish',
  request,
  '--captures',
  BUNDLED_HAR,
  '--base-url',
  baseUrl,
  '--scope',
  '/projects/alpha-shop',
  '--login',
  'demo',
  ...extra,
];

describe('tally fish', () => {
  it('prints the verified table and exits 0; cleanup removes it all, children first', async () => {
    const { app } = await demoApp();
    const cwd = tempDir();
    const fish = await tally(fishArgs('1 suite with 2 tests in it', app.url), cwd);
    expect(fish.code).toBe(0);
    expect(fish.stdout).toMatch(/TYPE\s+ID\s+TITLE\s+VIA/);
    expect(fish.stdout).toMatch(/suite\s+101\s+Suite 1 · \w+\s+POST \/api\/alpha-shop\/suites/);
    expect(fish.stdout).toMatch(/success · ending finished · deterministic tier · run (run_\w+)/);
    const runId = /run (run_\w+)/.exec(fish.stdout)?.[1] as string;
    expect(app.store.tests.size).toBe(2);

    const cleanup = await tally(['fish', 'cleanup', runId], cwd);
    expect(cleanup.code).toBe(0);
    expect(cleanup.stdout).toMatch(
      /test\s+5002\s+DELETE \/api\/alpha-shop\/tests\/5002\s+204\s+404\s+deleted[\s\S]*suite\s+101\s+DELETE \/api\/alpha-shop\/suites\/101\s+204\s+404\s+deleted/,
    );
    expect(app.store.suites.size + app.store.tests.size).toBe(0);
  });

  it('--json gives the run result; a request that is not met exits 1', async () => {
    const { app } = await demoApp();
    const cwd = tempDir();
    const json = await tally(fishArgs('2 milestones', app.url, '--json'), cwd);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: 'success',
      tier: 'deterministic',
      verified: [{ type: 'milestone' }, { type: 'milestone' }],
    });
    const unmet = await tally(
      ['fish', '2 widgets', '--captures', BUNDLED_HAR, '--base-url', app.url, '--login', 'demo'],
      cwd,
    );
    // Nothing can try it (no model): a configuration error, exit 2, and no failed run recorded.
    expect(unmet.code).toBe(2);
    expect(unmet.stderr).toMatch(/no model is configured: pass --model/);
  });

  it.each([
    ['10 tests in a new suite', '1 suite with 10 tests', 1, 10],
    ['3 suites (3 tests each)', '3 suites, each with 3 tests', 3, 9],
  ])('"%s" needs no model: planned, made and met as "%s"', async (request, contract, suites, tests) => {
    const { app } = await demoApp();
    const run = await tally(fishArgs(request, app.url, '--json'), tempDir());
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      status: 'success',
      tier: 'deterministic',
      unmet: [],
      contract: { description: contract },
    });
    expect([app.store.suites.size, app.store.tests.size]).toEqual([suites, tests]);
  });

  it('says exactly what it needs, and rejects malformed captures, with exit 2', async () => {
    const cwd = tempDir();
    const nothing = await tally(['fish', '1 suite'], cwd);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/Fisherman needs to know the API: pass --captures/);
    const bad = join(cwd, 'bad.har');
    writeFileSync(bad, '{"log":{"entries":[{"request":{"method":"GET"}}]}}');
    const malformed = await tally(['fish', '1 suite', '--captures', bad], cwd);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/bad\.har: log\.entries\[0\]\.request\.url: .*Re-export the HAR/);
    const dir = join(cwd, 'requests');
    mkdirSync(dir);
    writeFileSync(join(dir, 'xhr_001_POST_api.request.yaml'), '---\nmethod: [unclosed\n---\n');
    const yaml = await tally(['fish', '1 suite', '--captures', dir], cwd);
    expect(yaml.code).toBe(2);
    expect(yaml.stderr).toMatch(
      /The captures hold no API requests to learn from \(1 skipped: the front matter is not valid YAML at line 2, column \d+\)/,
    );
    const badYaml = join(cwd, 'recipe.json');
    writeFileSync(badYaml, '{ not json');
    const recipe = await tally(['fish', '1 suite', '--captures', BUNDLED_HAR, '--login', badYaml], cwd);
    expect(recipe.code).toBe(2);
    expect(recipe.stderr).toMatch(/Cannot read the login recipe/);
  });
});
