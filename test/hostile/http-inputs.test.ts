import { execFileSync } from 'node:child_process';
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HAR_SIZE_LIMIT, loadCaptures } from '../../src/packs/http/captures/load-captures.js';
import { DEMO_LOGIN, logIn, readLoginRecipe } from '../../src/packs/http/client/login-recipe.js';
import { runTally, tempDir } from '../helpers.js';
import { BUNDLED_HAR, demoApp } from '../packs/http/demo-fixtures.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

/** Another origin on 127.0.0.1 that records whether anything reached it. */
async function otherServer(): Promise<{ url: string; received: string[] }> {
  const received: string[] = [];
  const server = createServer((request, response) => {
    received.push(`${request.method} ${request.url} cookie=${request.headers.cookie ?? ''}`);
    response.end('<meta name="csrf-token" content="stolen">');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

function fifo(dir: string, name: string): string {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  return path;
}

describe('login recipes: every URL is origin-locked', () => {
  for (const [label, csrfPage] of [
    ['an absolute URL on another origin', (other: string) => `${other}/x`],
    ['a scheme-relative //host URL', (other: string) => `${other.replace('http:', '')}/x`],
  ] as const) {
    it(`refuses a csrfPage that is ${label} before any request leaves`, async () => {
      const { app, seen } = await demoApp();
      const other = await otherServer();
      const recipe = { ...DEMO_LOGIN, csrfPage: csrfPage(other.url) };
      await expect(logIn(app.url, recipe, {})).rejects.toMatchObject({
        code: 'LOGIN_ORIGIN',
        message: expect.stringContaining('csrfPage'),
      });
      expect(other.received).toEqual([]);
      expect(seen).toEqual([]); // not even the login itself was sent
    });
  }

  it('refuses a loginPage on another origin before any request leaves (its cookies would go there)', async () => {
    const { app, seen } = await demoApp();
    const other = await otherServer();
    await expect(
      logIn(app.url, { ...DEMO_LOGIN, loginPage: `${other.url}/login` }, {}),
    ).rejects.toMatchObject({
      code: 'LOGIN_ORIGIN',
      message: expect.stringContaining('loginPage'),
    });
    expect(other.received).toEqual([]);
    expect(seen).toEqual([]);
  });

  it('still logs in when csrfPage is a path on the API origin', async () => {
    const { app } = await demoApp();
    const session = await logIn(app.url, DEMO_LOGIN, {});
    expect(session.csrf?.token).toMatch(/^[0-9a-f]+$/);
  });
});

describe('capture and recipe paths that are not regular files', () => {
  it('a FIFO or /dev/zero as a HAR is refused before it is opened', () => {
    const pipe = fifo(tempDir(), 'session.har');
    const started = performance.now();
    expect(() => loadCaptures([pipe])).toThrow(expect.objectContaining({ code: 'INPUT_NOT_REGULAR_FILE' }));
    expect(() => loadCaptures(['/dev/zero'])).toThrow(/character device, not a regular file/);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('a HAR over the size limit is refused by its size, naming the limit, without reading it', () => {
    const path = join(tempDir(), 'huge.har');
    writeFileSync(path, '');
    truncateSync(path, HAR_SIZE_LIMIT + 1); // sparse: no disk used
    expect(() => loadCaptures([path])).toThrow(
      expect.objectContaining({
        code: 'INPUT_TOO_LARGE',
        message: expect.stringContaining(String(HAR_SIZE_LIMIT)),
      }),
    );
  });

  it('a FIFO or /dev/zero as a login recipe is refused, not read forever', () => {
    const pipe = fifo(tempDir(), 'login.json');
    expect(() => readLoginRecipe(pipe)).toThrow(expect.objectContaining({ code: 'INPUT_NOT_REGULAR_FILE' }));
    expect(() => readLoginRecipe('/dev/zero')).toThrow(
      expect.objectContaining({ code: 'INPUT_NOT_REGULAR_FILE' }),
    );
  });

  it('an explorbot capture file that is a FIFO is skipped with the reason; the others still load', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'requests'));
    fifo(join(dir, 'requests'), 'xhr_001_POST_api_suites.request.yaml');
    writeFileSync(
      join(dir, 'requests', 'xhr_002_POST_api_suites.request.yaml'),
      '---\nmethod: POST\nurl: /api/alpha-shop/suites\nfullUrl: http://127.0.0.1:4700/api/alpha-shop/suites\nstatus: 201\ntimestamp: 2026-11-01T10:00:00.000Z\nheaders:\n  content-type: application/json\n---\n{"title":"A"}\n',
    );
    const set = loadCaptures([join(dir, 'requests')]);
    expect(set.captures).toHaveLength(1);
    expect(set.skipped).toContainEqual({
      source: join(dir, 'requests', 'xhr_001_POST_api_suites.request.yaml'),
      reason: expect.stringContaining('FIFO'),
    });
  });

  it('the CLI exits 2 with a precise message for a FIFO HAR and a /dev/zero recipe', async () => {
    const pipe = fifo(tempDir(), 'session.har');
    const har = await runTally(['fish', '2 suites', '--captures', pipe, '--base-url', 'http://127.0.0.1:9']);
    expect(har.code).toBe(2);
    expect(har.stderr).toContain(`The HAR file ${pipe} is a FIFO (named pipe), not a regular file`);
    const recipe = await runTally(['fish', '2 suites', '--captures', BUNDLED_HAR, '--login', '/dev/zero']);
    expect(recipe.code).toBe(2);
    expect(recipe.stderr).toContain('The login recipe /dev/zero is a character device, not a regular file');
  }, 20_000);
});
