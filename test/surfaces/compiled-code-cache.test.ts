// The launcher keeps the bundles' compiled code between runs (bin/compiled-code-cache.js, issue
// 22). What a user would notice if it broke: a command that prints a warning, loses its lazy
// `import()`s, runs stale code after an upgrade, or trusts a cache another user could write.
import { execFile } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script (plain JavaScript, no declarations)
import { BANNER, routeDynamicImports } from '../../scripts/route-dynamic-imports.mjs';
import { runTally, tempDir } from '../helpers.js';

const LOADER = join(import.meta.dirname, '..', '..', 'bin', 'compiled-code-cache.js');
const FLAGS = join(import.meta.dirname, '..', '..', 'bin', 'v8-tier-flags.js');
// Node >= 22.1 keeps compiled code itself; Node 20 goes through the vm.Script cache.
const nodeKeepsCode = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const uid = process.getuid?.() ?? 0;

/**
 * A bundle built as the launcher's are: CommonJS, the banner, and `import()`s of a builtin and of
 * a sibling file routed through it (scripts/route-dynamic-imports.mjs).
 */
async function fixtureBundle(version = 1): Promise<string> {
  const dir = tempDir('bundle-');
  writeFileSync(join(dir, 'sibling.mjs'), `export const value = 'sibling ${version}';\n`);
  const file = join(dir, 'bundle.cjs');
  writeFileSync(
    file,
    `${BANNER}
// import('not-this') in a comment, and "import('nor this')" in a string, stay as they are.
module.exports.go = async () => ({
  gzip: typeof (await import('node:zlib')).gzipSync,
  sibling: (await import('./sibling.mjs')).value,
  version: ${version},
  cached: require.cache[__filename] === module,
  text: "import('nor this')",
});\n`,
  );
  expect(await routeDynamicImports(file)).toBe(2);
  return file;
}

/**
 * Loads `file` as the launcher does; `flagged`: under V8 flags set at run time, as `tally fish`
 * sets them (v8-tier-flags.js; on Node 20, which gets none, a flag of its V8 set the same way).
 */
function load(
  file: string,
  env: NodeJS.ProcessEnv,
  flagged = false,
  coverage = 1,
): Promise<{ stdout: string; stderr: string; code: number }> {
  const node20Flag =
    "(require('node:v8').setFlagsFromString('--interrupt-budget=540672'), '--interrupt-budget=540672')";
  const flags = !flagged
    ? "''"
    : nodeKeepsCode
      ? `require(${JSON.stringify(FLAGS)}).raiseTierUpThresholds([])`
      : node20Flag;
  const script = `require(${JSON.stringify(LOADER)}).requireBundle(${JSON.stringify(file)}, ${flags}, ${coverage}).go().then((r) => console.log(JSON.stringify(r)))`;
  return new Promise((resolve) =>
    execFile(process.execPath, ['-e', script], { env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

const cacheFiles = (tmp: string) => {
  const folder = join(tmp, `tally-compile-cache-${uid}`);
  return existsSync(folder) ? readdirSync(folder) : [];
};

describe('compiled code kept between runs', () => {
  it("loads a bundle whose import()s work, twice, with nothing on stderr; the second run reads the first run's cache", async () => {
    const tmp = tempDir('tmpdir-');
    const file = await fixtureBundle();
    const expected = {
      gzip: 'function',
      sibling: 'sibling 1',
      version: 1,
      cached: true,
      text: "import('nor this')",
    };
    const first = await load(file, { TMPDIR: tmp });
    expect(first.stderr).toBe('');
    expect(JSON.parse(first.stdout)).toEqual(expected);
    if (!nodeKeepsCode) expect(cacheFiles(tmp)).toEqual([expect.stringMatching(/^bundle\.cjs\..*\.v8$/)]);
    else expect(existsSync(join(tmp, 'node-compile-cache'))).toBe(true);
    const second = await load(file, { TMPDIR: tmp });
    expect(second.stderr).toBe('');
    expect(JSON.parse(second.stdout)).toEqual(expected);
  });

  it.runIf(!nodeKeepsCode)('a changed bundle runs its new code and replaces the old cache', async () => {
    const tmp = tempDir('tmpdir-');
    const file = await fixtureBundle(1);
    await load(file, { TMPDIR: tmp });
    const [before] = cacheFiles(tmp);
    writeFileSync(file, `module.exports.go = async () => ({ version: 'two, longer' });\n`);
    const changed = await load(file, { TMPDIR: tmp });
    expect(JSON.parse(changed.stdout)).toEqual({ version: 'two, longer' });
    const after = cacheFiles(tmp);
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);
  });

  it.runIf(!nodeKeepsCode)(
    'two installations used in turn keep a cache each: neither deletes the other’s, both load from cache',
    async () => {
      const tmp = tempDir('tmpdir-');
      // Same file name, different folders: a global install and a project's.
      const [one, two] = [await fixtureBundle(1), await fixtureBundle(2)];
      await load(one, { TMPDIR: tmp });
      await load(two, { TMPDIR: tmp });
      const both = cacheFiles(tmp);
      expect(both).toHaveLength(2);
      const folder = join(tmp, `tally-compile-cache-${uid}`);
      const written = () => both.map((name) => statSync(join(folder, name)).mtimeMs);
      const before = written();
      const [first, second] = [await load(one, { TMPDIR: tmp }), await load(two, { TMPDIR: tmp })];
      expect(JSON.parse(first.stdout).version).toBe(1);
      expect(JSON.parse(second.stdout).version).toBe(2);
      // Read, not rejected and rewritten: the same two files, untouched.
      expect(cacheFiles(tmp)).toEqual(both);
      expect(written()).toEqual(before);
    },
  );

  it('with the V8 flags `tally fish` sets the cache is read back, not written again; runs without them keep their own', async () => {
    const tmp = tempDir('tmpdir-');
    const file = await fixtureBundle();
    // Node's own cache says what it did with each file (on stderr, when asked).
    const env = { TMPDIR: tmp, ...(nodeKeepsCode ? { NODE_DEBUG_NATIVE: 'COMPILE_CACHE' } : {}) };
    await load(file, env, true);
    await load(file, env, false);
    const both = cacheFiles(tmp);
    const folder = join(tmp, `tally-compile-cache-${uid}`);
    const written = () =>
      both.map((name) => {
        const stat = statSync(join(folder, name));
        return [stat.ino, stat.mtimeMs];
      });
    const before = written();
    const [flagged, plain] = [await load(file, env, true), await load(file, env, false)];
    for (const run of [flagged, plain]) expect(JSON.parse(run.stdout).sibling).toBe('sibling 1');
    if (nodeKeepsCode) {
      // Node 22: "cache for FILE was accepted"; Node 24: "V8 code cache for CommonJS FILE was accepted".
      for (const run of [flagged, plain]) expect(run.stderr).toContain(`${file} was accepted`);
    } else {
      expect([flagged.stderr, plain.stderr]).toEqual(['', '']);
      // One cache per set of flags, each read, not rejected and rewritten: untouched.
      expect(both).toHaveLength(2);
      expect(cacheFiles(tmp)).toEqual(both);
      expect(written()).toEqual(before);
    }
  });

  it.runIf(!nodeKeepsCode)(
    'a run that compiles more of the bundle replaces a lighter run’s cache once; after that neither rewrites it',
    async () => {
      const tmp = tempDir('tmpdir-');
      const dir = tempDir('bundle-');
      const file = join(dir, 'bundle.cjs');
      // The heavy run (FIXTURE_HEAVY) calls forty functions the light one never compiles.
      const extras = Array.from(
        { length: 40 },
        (_, index) =>
          `function extra${index}(n) { let sum = 0; for (let i = 0; i < n; i += 1) sum += (i * ${index + 1}) % 7; return { index: ${index}, sum, text: 'extra ${index}'.repeat(2) }; }`,
      );
      writeFileSync(
        file,
        `${BANNER}\n${extras.join('\n')}\nmodule.exports.go = async () => ({ total: process.env.FIXTURE_HEAVY ? [${extras.map((_, index) => `extra${index}`).join(', ')}].reduce((sum, f) => sum + f(3).sum, 0) : 0 });\n`,
      );
      const folder = join(tmp, `tally-compile-cache-${uid}`);
      const state = () => {
        const [name] = cacheFiles(tmp);
        const stat = statSync(join(folder, name as string));
        return { name, ino: stat.ino, mtime: stat.mtimeMs, size: stat.size };
      };
      // What the forty functions add up to, computed here: the heavy run really ran them.
      let expected = 0;
      for (let index = 0; index < 40; index += 1)
        for (let i = 0; i < 3; i += 1) expected += (i * (index + 1)) % 7;
      const light = { TMPDIR: tmp };
      const heavy = { TMPDIR: tmp, FIXTURE_HEAVY: '1' };
      expect(JSON.parse((await load(file, light, false, 1)).stdout)).toEqual({ total: 0 });
      const written = state();
      // A second light run reads it and leaves it.
      await load(file, light, false, 1);
      expect(state()).toEqual(written);
      const first = await load(file, heavy, false, 2);
      expect([first.stderr, JSON.parse(first.stdout).total]).toEqual(['', expected]);
      const replaced = state();
      expect(replaced.name).toBe(written.name);
      expect(replaced.ino).not.toBe(written.ino);
      expect(replaced.size).toBeGreaterThan(written.size);
      // Now the heavy run's cache stays, whichever runs next.
      await load(file, light, false, 1);
      const second = await load(file, heavy, false, 2);
      expect(JSON.parse(second.stdout).total).toBe(expected);
      expect(state()).toEqual(replaced);
    },
  );

  it.runIf(!nodeKeepsCode)(
    'a damaged cache file is rejected by V8 and written again; the bundle still runs',
    async () => {
      const tmp = tempDir('tmpdir-');
      const file = await fixtureBundle();
      await load(file, { TMPDIR: tmp });
      const [name] = cacheFiles(tmp);
      const cacheFile = join(tmp, `tally-compile-cache-${uid}`, name as string);
      writeFileSync(cacheFile, Buffer.alloc(4096, 7), { mode: 0o600 });
      const run = await load(file, { TMPDIR: tmp });
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout).sibling).toBe('sibling 1');
      expect(cacheFiles(tmp)).toEqual([name]);
    },
  );

  it.runIf(!nodeKeepsCode && uid !== undefined)(
    'a cache folder others can write is not used: nothing is read from it or written to it',
    async () => {
      const tmp = tempDir('tmpdir-');
      const folder = join(tmp, `tally-compile-cache-${uid}`);
      mkdirSync(folder);
      chmodSync(folder, 0o777);
      const run = await load(await fixtureBundle(), { TMPDIR: tmp });
      expect(JSON.parse(run.stdout).sibling).toBe('sibling 1');
      expect(readdirSync(folder)).toEqual([]);
    },
  );

  it('a bundle with a character outside ASCII reads as UTF-8 (the built bundles are ASCII and read as Latin-1)', async () => {
    const tmp = tempDir('tmpdir-');
    const dir = tempDir('bundle-');
    const file = join(dir, 'bundle.cjs');
    writeFileSync(file, `${BANNER}\nmodule.exports.go = async () => ({ text: 'caf\u00e9 \u2713' });\n`);
    for (const attempt of ['cold', 'warm']) {
      const run = await load(file, { TMPDIR: tmp });
      expect([attempt, run.stderr, JSON.parse(run.stdout)]).toEqual([attempt, '', { text: 'café ✓' }]);
    }
  });

  it('TALLY_NO_COMPILE_CACHE=1 keeps nothing', async () => {
    const tmp = tempDir('tmpdir-');
    const run = await load(await fixtureBundle(), { TMPDIR: tmp, TALLY_NO_COMPILE_CACHE: '1' });
    expect(JSON.parse(run.stdout).sibling).toBe('sibling 1');
    expect(readdirSync(tmp)).toEqual([]);
  });

  it.runIf(!nodeKeepsCode)(
    'a `tally fish` run replaces the cache `tally runs` wrote; `tally fish --help` leaves it',
    async () => {
      const tmp = tempDir('tmpdir-');
      const cwd = tempDir();
      const env = { TMPDIR: tmp };
      const coverage = () => {
        const [name] = cacheFiles(tmp);
        return readFileSync(join(tmp, `tally-compile-cache-${uid}`, name as string))[3];
      };
      expect((await runTally(['runs', '--ledger', join(cwd, 'l.db')], { cwd, env })).code).toBe(0);
      expect(coverage()).toBe(1);
      await runTally(['fish', '1 suite', '--captures', join(cwd, 'missing.har')], { cwd, env });
      expect(coverage()).toBe(2);
      expect((await runTally(['fish', '--help'], { cwd, env })).code).toBe(0);
      expect(coverage()).toBe(2);
    },
  );

  it('the CLI prints the same with and without its cache, and no warning', async () => {
    const tmp = tempDir('tmpdir-');
    const cwd = tempDir();
    const ledger = join(cwd, 'ledger.db');
    const cold = await runTally(['runs', '--ledger', ledger], { cwd, env: { TMPDIR: tmp } });
    const warm = await runTally(['runs', '--ledger', ledger], { cwd, env: { TMPDIR: tmp } });
    const none = await runTally(['runs', '--ledger', ledger], {
      cwd,
      env: { TMPDIR: tmp, TALLY_NO_COMPILE_CACHE: '1' },
    });
    expect(cold.code, cold.stderr).toBe(0);
    expect([warm.code, warm.stdout, warm.stderr]).toEqual([0, cold.stdout, cold.stderr]);
    expect([none.code, none.stdout, none.stderr]).toEqual([0, cold.stdout, cold.stderr]);
    expect(cold.stderr).not.toMatch(/Warning/);
    if (!nodeKeepsCode) expect(cacheFiles(tmp)).toEqual([expect.stringMatching(/^cli\.cjs\./)]);
  });
});
