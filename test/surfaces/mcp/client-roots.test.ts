import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ProjectRoot } from '../../../src/packs/workspace/project-root.js';
import { type AskRoots, createClientRoots } from '../../../src/surfaces/mcp/client-roots.js';
import { tempDir } from '../../helpers.js';

async function setup(timeoutMs = 200) {
  const root = realpathSync(tempDir());
  mkdirSync(join(root, 'sub'));
  const projectRoot = await ProjectRoot.open(root);
  const logs: string[] = [];
  const failOpens: string[] = [];
  const roots = createClientRoots({
    projectRoot,
    timeoutMs,
    failOpen: (component, why) => failOpens.push(`${component}:${why}`),
    log: (line) => logs.push(line),
  });
  return { root, projectRoot, roots, logs, failOpens };
}

const answer =
  (...paths: string[]): AskRoots =>
  async () => ({
    roots: paths.map((path) => ({ uri: path.includes('://') ? path : pathToFileURL(path).href })),
  });

describe('a client’s roots, applied with a deadline', () => {
  it('asks once, then only again after invalidate', async () => {
    const { root, projectRoot, roots } = await setup();
    let asked = 0;
    const ask: AskRoots = async () => {
      asked += 1;
      return { roots: [{ uri: pathToFileURL(join(root, 'sub')).href }] };
    };
    await roots.ready(ask);
    await roots.ready(ask);
    expect(asked).toBe(1);
    expect(projectRoot.allowedRoots).toEqual([join(root, 'sub')]);
    roots.invalidate();
    await roots.ready(ask);
    expect(asked).toBe(2);
  });

  it('a client that never answers costs one deadline, fails open once, and keeps what was allowed', async () => {
    const { root, projectRoot, roots, logs, failOpens } = await setup(150);
    await roots.ready(answer(join(root, 'sub')));
    roots.invalidate();
    const started = performance.now();
    await roots.ready(() => new Promise(() => {}));
    expect(performance.now() - started).toBeLessThan(2000);
    // The earlier answer stands: a silent client never widens what it had narrowed.
    expect(projectRoot.allowedRoots).toEqual([join(root, 'sub')]);
    expect(failOpens).toEqual(['mcp-roots:roots-unavailable']);
    expect(logs.at(-1)).toBe(
      `the client has not answered roots/list within 150 ms: the tools serve ${join(root, 'sub')} meanwhile, and apply its answer if it comes.`,
    );
    // Not asked again on every call: the next wait is free.
    const again = performance.now();
    await roots.ready(() => new Promise(() => {}));
    expect(performance.now() - again).toBeLessThan(50);
  });

  it('an answer that comes after the deadline is still applied, without a second fail-open', async () => {
    const { root, projectRoot, roots, failOpens } = await setup(100);
    let release: () => void = () => {};
    const late: AskRoots = () =>
      new Promise((resolve) => {
        release = () => resolve({ roots: [{ uri: pathToFileURL(join(root, 'sub')).href }] });
      });
    await roots.ready(late);
    expect(projectRoot.allowedRoots).toEqual([root]);
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(projectRoot.allowedRoots).toEqual([join(root, 'sub')]);
    expect(failOpens).toEqual(['mcp-roots:roots-unavailable']);
  });

  it('a client that answers roots/list with an error fails open at once, not after the deadline', async () => {
    const { root, projectRoot, roots, logs, failOpens } = await setup(5000);
    const started = performance.now();
    await roots.ready(async () => {
      throw new Error('MCP error -32601: Method not found');
    });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(projectRoot.allowedRoots).toEqual([root]);
    expect(failOpens).toEqual(['mcp-roots:roots-unavailable']);
    expect(logs).toEqual([
      `roots/list failed (MCP error -32601: Method not found): the tools keep serving ${root}; asked again when the client sends roots/list_changed.`,
    ]);
  });

  it('non-file roots offer no narrowing, and the log says the whole --root is served', async () => {
    const { root, projectRoot, roots, logs } = await setup();
    await roots.ready(answer('https://example.test/repo'));
    expect(projectRoot.allowedRoots).toEqual([root]);
    expect(logs).toEqual([
      `the client sent no file roots (https://example.test/repo): no narrowing, the tools serve the whole --root ${root}.`,
    ]);
  });

  it('a file root that names no path here (another host, an encoded "/") narrows to nothing, never to the whole --root', async () => {
    for (const uri of ['file://other-host/srv/repo', 'file:///srv/repo%2Fsub']) {
      const { root, projectRoot, roots, logs } = await setup();
      await roots.ready(answer(uri));
      expect(projectRoot.allowedRoots, uri).toEqual([]);
      await expect(projectRoot.resolve('sub')).rejects.toMatchObject({ reason: 'outside-client-roots' });
      expect(logs.at(-1)).toContain(`the client's roots ${uri} name no path on this machine`);
      // Beside a usable root it adds nothing: the usable one alone is served.
      await roots.refresh(answer(uri, join(root, 'sub')));
      expect(projectRoot.allowedRoots, uri).toEqual([join(root, 'sub')]);
    }
  });

  it('a root that does not exist yet narrows to where it would be, never dropped into a wider set', async () => {
    const { root, projectRoot, roots } = await setup();
    await roots.ready(answer(join(root, 'not-yet')));
    expect(projectRoot.allowedRoots).toEqual([join(root, 'not-yet')]);
  });

  it('an answer that arrives after a newer question does not overwrite the newer answer', async () => {
    const { root, projectRoot, roots } = await setup(1000);
    let releaseOld: () => void = () => {};
    const old: AskRoots = () =>
      new Promise((resolve) => {
        releaseOld = () => resolve({ roots: [{ uri: pathToFileURL(join(root, 'sub')).href }] });
      });
    const first = roots.refresh(old);
    roots.invalidate();
    await roots.ready(answer(root));
    releaseOld();
    await first;
    expect(projectRoot.allowedRoots).toEqual([root]);
  });
});
