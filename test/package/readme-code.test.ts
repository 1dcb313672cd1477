import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoApp, startDemoApp } from '../../src/demo-app/server.js';
import { tempDir } from '../helpers.js';
import { packageName, REPO, readmeProject, readmeTsBlocks } from './readme-project.js';

const run = promisify(execFile);
const README = readFileSync(join(REPO, 'README.md'), 'utf8');
const TSC = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');

beforeAll(() => {
  if (!existsSync(join(REPO, 'dist', 'index.d.ts')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does it for you).');
});

describe('README code blocks compile against the package as users import it', () => {
  const blocks = readmeTsBlocks(README);
  let app: DemoApp;
  beforeAll(async () => {
    app = await startDemoApp({ port: 0 });
  });
  afterAll(async () => {
    await app.close();
  });

  it('finds the blocks, and they import the published name', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    const imported = blocks.flatMap((block) => [...block.code.matchAll(/from '([^']+)'/g)].map((m) => m[1]));
    const ours = imported.filter((specifier) => specifier?.startsWith('tally'));
    expect(ours.length).toBeGreaterThan(0);
    for (const specifier of ours) expect(specifier?.split('/')[0]).toBe(packageName());
  });

  it('every ```ts block type-checks (tsc --noEmit, strict, NodeNext)', async () => {
    const dir = tempDir('tally-readme-');
    const files = Object.fromEntries(blocks.map((block) => [`block-line-${block.line}.ts`, block.code]));
    readmeProject(dir, files);
    const result = await run(process.execPath, [TSC, '-p', dir, '--noEmit'], { cwd: dir }).then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
    // The file names carry the README line of each block, so a failure says where to fix it.
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  }, 120_000);

  it('the Fisherman library example runs: 8 items verified, then cleaned up', async () => {
    const block = blocks.find((candidate) => candidate.code.includes(`'${packageName()}/fisherman'`));
    if (!block) throw new Error('README has no tally-harness/fisherman example');
    const dir = tempDir('tally-readme-run-');
    // The example names the port the README's demo-app command uses; this app got a free one.
    const code = block.code.replaceAll('http://127.0.0.1:4000', app.url);
    readmeProject(dir, { 'fisherman.ts': code });
    mkdirSync(join(dir, 'demo', 'captures'), { recursive: true });
    copyFileSync(
      join(REPO, 'demo', 'captures', 'demo-app.har'),
      join(dir, 'demo', 'captures', 'demo-app.har'),
    );
    await run(process.execPath, [TSC, '-p', dir], { cwd: dir });
    const { stdout } = await run(process.execPath, [join(dir, 'out', 'fisherman.js')], { cwd: dir });
    expect(stdout.trim()).toBe('success 8');
    expect(app.store.suites.size + app.store.tests.size).toBe(0);
  }, 120_000);
});
