// `npm run bench` runs its suites with plain Node (tsx), outside vitest: a bench module that
// pulls in vitest through a shared test helper fails before it measures anything. Loading every
// suite bench/run.ts imports, in its own process, catches that in the test run.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const REPO = join(import.meta.dirname, '..', '..');

it('every bench module loads outside vitest, as `npm run bench` loads it', () => {
  // The suites bench/run.ts imports (other bench files are workers and scripts, run on their own).
  const run = readFileSync(join(REPO, 'bench', 'run.ts'), 'utf8');
  const modules = [...run.matchAll(/from '\.\/([^']+)\.js'/g)].map((match) => `./bench/${match[1]}.ts`);
  expect(modules.length).toBeGreaterThan(5);
  const script = `await Promise.all(${JSON.stringify(modules)}.map((m) => import(m)));`;
  const loaded = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(loaded.stderr).not.toMatch(/Error/);
  expect(loaded.status).toBe(0);
}, 90_000);
