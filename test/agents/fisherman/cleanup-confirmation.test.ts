import { afterEach, describe, expect, it } from 'vitest';
import { cleanupRun } from '../../../src/agents/fisherman/cleanup-run.js';
import { TallyError } from '../../../src/core/errors.js';
import type { Ledger } from '../../../src/core/ledger/ledger.js';
import { tempLedger } from '../../helpers.js';
import { BUNDLED_HAR } from '../../packs/http/demo-fixtures.js';
import { json, localServer } from '../../packs/http/local-server.js';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** How the app answers for one resource: the read before the DELETE, the DELETE, the read after. */
interface Script {
  before: number;
  delete?: number;
  after?: number;
}

async function scriptedApp(scripts: Record<string, Script>) {
  const reads = new Map<string, number>();
  const server = await localServer((seen, res) => {
    const script = scripts[seen.url];
    if (!script) return json(res, 404, { message: 'no such thing' });
    if (seen.method === 'DELETE')
      return json(res, script.delete ?? 204, script.delete === 500 ? { message: 'database is locked' } : {});
    const count = reads.get(seen.url) ?? 0;
    reads.set(seen.url, count + 1);
    return json(res, count === 0 ? script.before : (script.after ?? 404), { id: 1 });
  });
  servers.push(server);
  return server;
}

/** A finished Fisherman run in a real ledger that created these resource paths, in this order. */
function fishRun(ledger: Ledger, paths: string[]): string {
  const recorder = ledger.startRun({ agent: 'fisherman', task: 'make things' });
  for (const path of paths) {
    const id = path.split('/').at(-1) as string;
    recorder.append({
      kind: 'tool_call',
      name: 'request',
      outcome: 'ok',
      data: {
        tool: 'request',
        target: 'POST',
        input: {},
        evidence: {
          via: `POST → 201`,
          effects: [{ kind: 'created', space: 'http', key: path, id, type: 'suite', observed: {} }],
        },
      },
    });
  }
  recorder.append({ kind: 'end', outcome: 'finished', data: {} });
  return recorder.runId;
}

const clean = (ledger: Ledger, runId: string, baseUrl: string) =>
  cleanupRun({ runId, ledger, captures: [BUNDLED_HAR], baseUrl });

describe('cleanup’s confirmation rule', () => {
  it('a deletion is confirmed by a read that no longer finds it (404, 410, or 403 after a 200)', async () => {
    const server = await scriptedApp({
      '/api/s/1': { before: 200, after: 404 },
      '/api/s/2': { before: 200, after: 410 },
      '/api/s/3': { before: 200, after: 403 },
    });
    const ledger = tempLedger();
    const runId = fishRun(ledger, ['/api/s/1', '/api/s/2', '/api/s/3']);
    const result = await clean(ledger, runId, server.url);
    expect(result.deletions).toEqual([
      {
        type: 'suite',
        id: '3',
        path: '/api/s/3',
        beforeStatus: 200,
        status: 204,
        confirmStatus: 403,
        outcome: 'deleted',
        ok: true,
      },
      {
        type: 'suite',
        id: '2',
        path: '/api/s/2',
        beforeStatus: 200,
        status: 204,
        confirmStatus: 410,
        outcome: 'deleted',
        ok: true,
      },
      {
        type: 'suite',
        id: '1',
        path: '/api/s/1',
        beforeStatus: 200,
        status: 204,
        confirmStatus: 404,
        outcome: 'deleted',
        ok: true,
      },
    ]);
    expect(result.cleanedRunId).toBe(runId);
    expect(result.status).toBe('success');
    expect(result.verified.map((item) => item.resource)).toEqual(['/api/s/3', '/api/s/2', '/api/s/1']);
    expect(result.summary).toContain(
      `Cleaned 3 of 3 resources created by ${runId}: 3 deleted and confirmed, 0 already gone.`,
    );
    expect(server.seen.map((seen) => `${seen.method} ${seen.url}`)).toEqual([
      'GET /api/s/3',
      'DELETE /api/s/3',
      'GET /api/s/3',
      'GET /api/s/2',
      'DELETE /api/s/2',
      'GET /api/s/2',
      'GET /api/s/1',
      'DELETE /api/s/1',
      'GET /api/s/1',
    ]);
  });

  it('a read that still finds it, or a 403 that was already a 403, is not a confirmation', async () => {
    const server = await scriptedApp({
      '/api/s/1': { before: 200, after: 200 },
      '/api/s/2': { before: 403, after: 403 },
      '/api/s/3': { before: 200, delete: 500 },
      '/api/s/4': { before: 200, after: 404 },
    });
    const ledger = tempLedger();
    const runId = fishRun(ledger, ['/api/s/1', '/api/s/2', '/api/s/3', '/api/s/4']);
    const result = await clean(ledger, runId, server.url);
    expect(result.deletions).toEqual([
      {
        type: 'suite',
        id: '4',
        path: '/api/s/4',
        beforeStatus: 200,
        status: 204,
        confirmStatus: 404,
        outcome: 'deleted',
        ok: true,
      },
      {
        type: 'suite',
        id: '3',
        path: '/api/s/3',
        beforeStatus: 200,
        status: 500,
        outcome: 'failed',
        ok: false,
        why: 'database is locked',
      },
      {
        type: 'suite',
        id: '2',
        path: '/api/s/2',
        beforeStatus: 403,
        status: 204,
        confirmStatus: 403,
        outcome: 'not-confirmed',
        ok: false,
        why: 'a read after the DELETE still answered 403',
      },
      {
        type: 'suite',
        id: '1',
        path: '/api/s/1',
        beforeStatus: 200,
        status: 204,
        confirmStatus: 200,
        outcome: 'not-confirmed',
        ok: false,
        why: 'a read after the DELETE still answered 200',
      },
    ]);
    expect(result.status).toBe('partial');
    expect(result.failed).toEqual([
      { target: '/api/s/3', reason: 'database is locked' },
      { target: '/api/s/2', reason: 'a read after the DELETE still answered 403' },
      { target: '/api/s/1', reason: 'a read after the DELETE still answered 200' },
    ]);
    expect(result.summary).toContain(
      `Cleaned 1 of 4 resources created by ${runId}: 1 deleted and confirmed, 0 already gone, 3 not confirmed (/api/s/3: database is locked; /api/s/2: a read after the DELETE still answered 403; /api/s/1: a read after the DELETE still answered 200).`,
    );
  });

  it('already gone (404/410 before, or 404 to the DELETE) counts as cleaned, and there is nothing to do', async () => {
    const server = await scriptedApp({
      '/api/s/1': { before: 404 },
      '/api/s/2': { before: 410 },
      '/api/s/3': { before: 200, delete: 404 },
      '/api/s/4': { before: 200, delete: 410 },
    });
    const ledger = tempLedger();
    const runId = fishRun(ledger, ['/api/s/1', '/api/s/2', '/api/s/3', '/api/s/4']);
    const result = await clean(ledger, runId, server.url);
    expect(result.deletions).toEqual([
      {
        type: 'suite',
        id: '4',
        path: '/api/s/4',
        beforeStatus: 200,
        status: 410,
        outcome: 'already-gone',
        ok: true,
      },
      {
        type: 'suite',
        id: '3',
        path: '/api/s/3',
        beforeStatus: 200,
        status: 404,
        outcome: 'already-gone',
        ok: true,
      },
      { type: 'suite', id: '2', path: '/api/s/2', beforeStatus: 410, outcome: 'already-gone', ok: true },
      { type: 'suite', id: '1', path: '/api/s/1', beforeStatus: 404, outcome: 'already-gone', ok: true },
    ]);
    expect(result.summary).toContain(
      `Cleaned 4 of 4 resources created by ${runId}: 0 deleted and confirmed, 4 already gone.`,
    );
    expect(server.seen.filter((seen) => seen.method === 'DELETE').map((seen) => seen.url)).toEqual([
      '/api/s/4',
      '/api/s/3',
    ]);
  });

  it('a 403 for something an earlier cleanup of the same run deleted and confirmed is already gone', async () => {
    const first = await scriptedApp({
      '/api/s/1': { before: 200, after: 404 },
      '/api/s/2': { before: 404 },
      '/api/s/3': { before: 200, delete: 500 },
    });
    const ledger = tempLedger();
    const runId = fishRun(ledger, ['/api/s/1', '/api/s/2', '/api/s/3']);
    const otherRun = fishRun(ledger, ['/api/s/1']);
    await clean(ledger, runId, first.url);
    const again = await scriptedApp({
      '/api/s/1': { before: 403 },
      '/api/s/2': { before: 403, after: 403 },
      '/api/s/3': { before: 403, after: 403 },
    });
    const result = await clean(ledger, runId, again.url);
    expect(result.deletions.map((deletion) => [deletion.path, deletion.outcome])).toEqual([
      ['/api/s/3', 'not-confirmed'],
      ['/api/s/2', 'not-confirmed'],
      ['/api/s/1', 'already-gone'],
    ]);
    // Another run's cleanup history does not count for this one.
    const third = await scriptedApp({ '/api/s/1': { before: 403, after: 403 } });
    const other = await clean(ledger, otherRun, third.url);
    expect(other.deletions.map((deletion) => deletion.outcome)).toEqual(['not-confirmed']);
  });

  it('a DELETE an earlier cleanup could not confirm is not taken as gone by a later 403', async () => {
    const first = await scriptedApp({ '/api/s/1': { before: 200, after: 200 } });
    const ledger = tempLedger();
    const runId = fishRun(ledger, ['/api/s/1']);
    expect((await clean(ledger, runId, first.url)).deletions.map((deletion) => deletion.outcome)).toEqual([
      'not-confirmed',
    ]);
    const again = await scriptedApp({ '/api/s/1': { before: 403, after: 403 } });
    const result = await clean(ledger, runId, again.url);
    expect(result.deletions.map((deletion) => [deletion.outcome, deletion.ok])).toEqual([
      ['not-confirmed', false],
    ]);
    expect(result.status).not.toBe('success');
  });

  it('a 401 to the first read stops the cleanup there: no DELETE is sent, and it says authentication failed', async () => {
    const server = await localServer((_seen, res) => json(res, 401, { message: 'Login required' }));
    servers.push(server);
    const ledger = tempLedger();
    const runId = fishRun(ledger, ['/api/s/1', '/api/s/2', '/api/s/3']);
    const result = await clean(ledger, runId, server.url);
    expect(server.seen.map((seen) => `${seen.method} ${seen.url}`)).toEqual(['GET /api/s/3']);
    expect(result.authFailed).toEqual({
      method: 'GET',
      path: '/api/s/3',
      status: 401,
      message: 'Login required',
    });
    expect(result.deletions).toEqual([]);
    expect(result.status).not.toBe('success');
    expect(result.summary).toContain('authentication failed: GET /api/s/3 answered 401 (Login required)');
  });

  it('a 403 to a DELETE (no CSRF token, not allowed) stops after that one DELETE; what came before stands', async () => {
    const server = await localServer((seen, res) => {
      if (seen.url === '/api/s/2' && seen.method === 'DELETE')
        return json(res, 403, { message: 'Invalid CSRF token' });
      const deleted = server.seen.some((other) => other.method === 'DELETE' && other.url === seen.url);
      return json(res, seen.method === 'DELETE' ? 204 : deleted ? 404 : 200, { id: 1 });
    });
    servers.push(server);
    const ledger = tempLedger();
    const runId = fishRun(ledger, ['/api/s/1', '/api/s/2', '/api/s/3']);
    const result = await clean(ledger, runId, server.url);
    expect(server.seen.map((seen) => `${seen.method} ${seen.url}`)).toEqual([
      'GET /api/s/3',
      'DELETE /api/s/3',
      'GET /api/s/3',
      'GET /api/s/2',
      'DELETE /api/s/2',
    ]);
    expect(result.deletions.map((deletion) => [deletion.path, deletion.outcome])).toEqual([
      ['/api/s/3', 'deleted'],
    ]);
    expect(result.authFailed).toMatchObject({ method: 'DELETE', path: '/api/s/2', status: 403 });
    // The deletion before the refusal is claimed and verified; the run is partial, not a success.
    expect(result.verified.map((item) => item.target)).toEqual(['3']);
    expect(result.status).toBe('partial');
  });

  it('many unconfirmed deletions: the summary names three and counts the rest, one short line', async () => {
    const paths = Array.from({ length: 40 }, (_, index) => `/api/s/${index + 1}`);
    const server = await scriptedApp(
      Object.fromEntries(paths.map((path) => [path, { before: 200, delete: 500 }])),
    );
    const ledger = tempLedger();
    const runId = fishRun(ledger, paths);
    const result = await clean(ledger, runId, server.url);
    expect(result.deletions).toHaveLength(40);
    expect(result.summary).toContain(
      '40 not confirmed (/api/s/40: database is locked; /api/s/39: database is locked; /api/s/38: database is locked; and 37 more)',
    );
    // 40 reasons in full were ~2 kB on one line; now bounded whatever the count.
    expect(result.summary.length).toBeLessThan(600);
  });

  it('a call that gets no response leaves no status, and says so', async () => {
    const server = await localServer((seen, res) => {
      if (seen.url === '/api/s/2' && seen.method === 'DELETE') return res.socket?.destroy();
      if (seen.url === '/api/s/3') return res.socket?.destroy();
      if (
        seen.url === '/api/s/1' &&
        seen.method === 'GET' &&
        server.seen.filter((other) => other.url === '/api/s/1').length > 1
      )
        return res.socket?.destroy();
      return json(res, seen.method === 'DELETE' ? 204 : 200, { id: 1 });
    });
    servers.push(server);
    const ledger = tempLedger();
    const runId = fishRun(ledger, ['/api/s/1', '/api/s/2', '/api/s/3']);
    const result = await clean(ledger, runId, server.url);
    const [third, second, first] = result.deletions;
    expect(third).toStrictEqual({
      type: 'suite',
      id: '3',
      path: '/api/s/3',
      outcome: 'failed',
      ok: false,
      why: expect.stringMatching(/^DELETE \/api\/s\/3 got no response/),
    });
    expect(second).toStrictEqual({
      type: 'suite',
      id: '2',
      path: '/api/s/2',
      beforeStatus: 200,
      outcome: 'failed',
      ok: false,
      why: expect.stringMatching(/^DELETE \/api\/s\/2 got no response/),
    });
    expect(first).toStrictEqual({
      type: 'suite',
      id: '1',
      path: '/api/s/1',
      beforeStatus: 200,
      status: 204,
      outcome: 'not-confirmed',
      ok: false,
      why: 'a read after the DELETE still answered nothing',
    });
  });

  it('a run that created nothing still existing has nothing to clean', async () => {
    const ledger = tempLedger();
    const recorder = ledger.startRun({ agent: 'fisherman', task: 'nothing' });
    recorder.append({
      kind: 'tool_call',
      name: 'request',
      outcome: 'ok',
      data: { tool: 'request', evidence: { effects: [{ kind: 'created', space: 'file', key: 'a' }] } },
    });
    const error = (await clean(ledger, recorder.runId, 'http://127.0.0.1:9').catch(
      (caught: unknown) => caught,
    )) as TallyError;
    expect(error).toBeInstanceOf(TallyError);
    expect(error.code).toBe('NOTHING_TO_CLEAN');
    expect(error.message).toBe(
      `Run ${recorder.runId} created nothing that still existed at its end (no net creates in its ledger). Nothing was deleted.`,
    );
  });
});
