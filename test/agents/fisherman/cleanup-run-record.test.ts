import { afterEach, describe, expect, it } from 'vitest';
import { cleanupRun } from '../../../src/agents/fisherman/cleanup-run.js';
import { tempLedger } from '../../helpers.js';
import { BUNDLED_HAR } from '../../packs/http/demo-fixtures.js';
import { json, localServer } from '../../packs/http/local-server.js';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('what a cleanup leaves in the ledger', () => {
  it('nothing to clean names the run', async () => {
    const ledger = tempLedger();
    const recorder = ledger.startRun({ agent: 'fisherman', task: 'make nothing' });
    recorder.append({ kind: 'end', outcome: 'finished', data: {} });
    await expect(
      cleanupRun({ runId: recorder.runId, ledger, captures: [BUNDLED_HAR], baseUrl: 'http://127.0.0.1:9' }),
    ).rejects.toMatchObject({ code: 'NOTHING_TO_CLEAN', details: { runId: recorder.runId } });
  });

  it('the cleanup run is recorded with its task and deleted claims', async () => {
    let reads = 0;
    const server = await localServer((seen, res) => {
      if (seen.method === 'DELETE') return json(res, 204, {});
      reads++;
      return json(res, reads === 1 ? 200 : 404, { id: 1 });
    });
    servers.push(server);
    const ledger = tempLedger();
    const recorder = ledger.startRun({ agent: 'fisherman', task: 'make things' });
    recorder.append({
      kind: 'tool_call',
      name: 'request',
      outcome: 'ok',
      data: {
        tool: 'request',
        target: 'POST',
        input: {},
        evidence: {
          via: 'POST → 201',
          effects: [
            { kind: 'created', space: 'http', key: '/api/s/1', id: '1', type: 'suite', observed: {} },
          ],
        },
      },
    });
    recorder.append({ kind: 'end', outcome: 'finished', data: {} });
    await cleanupRun({ runId: recorder.runId, ledger, captures: [BUNDLED_HAR], baseUrl: server.url });
    const [listing] = ledger.listRuns({ agent: 'fisherman-cleanup' });
    const record = ledger.getRun(listing?.id as string);
    expect(record.run.task).toBe(`cleanup ${recorder.runId}`);
    const claims = record.entries.filter((entry) => entry.kind === 'claim');
    expect(claims).toHaveLength(1);
    expect(claims[0]).toMatchObject({
      outcome: 'verified',
      data: { claim: { target: '/api/s/1', effect: 'deleted' }, resource: '/api/s/1' },
    });
  });
});
