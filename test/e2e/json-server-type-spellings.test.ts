import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runTally, tempDir } from '../helpers.js';
import { type JsonServer, startJsonServer } from './json-server-fixture.js';

// Real apps name collections in every spelling: `/testCases`, `/user-groups`. A user asks for
// "3 test cases" or "2 user groups with 3 users each". The planner, the run's contract and the
// verdict must read one type from all of them: before, the planner matched "test cases" to
// `/testCases`, made three, and the verdict called each a `testcase` it was not asked for
// (failed, items left behind); "2 user groups" was not read at all without a model.

interface FishJson {
  runId: string;
  status: string;
  tier?: string;
  verified: { type?: string; target: string }[];
  unmet: unknown[];
  contract?: { description: string };
}

const servers: JsonServer[] = [];

afterEach(async () => {
  while (servers.length > 0) await servers.pop()?.close();
});

/** json-server over three collections, and an OpenAPI document that describes them. */
async function app(): Promise<{ server: JsonServer; spec: string }> {
  const server = await startJsonServer({ 'user-groups': [], users: [], testCases: [] });
  servers.push(server);
  const create = (required: string[], properties: Record<string, unknown>) => ({
    post: {
      requestBody: {
        content: { 'application/json': { schema: { type: 'object', required, properties } } },
      },
      responses: { 201: { description: 'created' } },
    },
  });
  const item = {
    get: {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      responses: { 200: { description: 'ok' } },
    },
  };
  const spec = join(tempDir(), 'openapi.json');
  writeFileSync(
    spec,
    JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'json-server', version: '1' },
      servers: [{ url: server.url }],
      paths: {
        '/user-groups': create(['name'], { name: { type: 'string' } }),
        '/user-groups/{id}': item,
        '/users': create(['name', 'userGroupId'], {
          name: { type: 'string' },
          userGroupId: { type: 'integer' },
        }),
        '/users/{id}': item,
        '/testCases': create(['title'], { title: { type: 'string' } }),
        '/testCases/{id}': item,
      },
    }),
  );
  return { server, spec };
}

async function fish(request: string, spec: string) {
  const dir = tempDir();
  const run = await runTally(
    ['fish', request, '--spec', spec, '--ledger', join(dir, 'ledger.db'), '--json'],
    {
      cwd: dir,
    },
  );
  const said = `tally fish "${request}" exited ${run.code}\n${run.stdout}\n${run.stderr}`;
  return { run, said, result: JSON.parse(run.stdout || '{}') as FishJson };
}

describe('one type in every spelling: the request, the endpoint and the verdict agree', () => {
  it.each(['3 test cases', '3 testCases', 'create 3 test cases'])(
    '"%s" against /testCases: made, verified and a success, nothing left unasked',
    async (request) => {
      const { server, spec } = await app();
      const { run, said, result } = await fish(request, spec);
      expect(run.code, said).toBe(0);
      expect(result, said).toMatchObject({ status: 'success', tier: 'deterministic', unmet: [] });
      expect(result.contract?.description, said).toBe('3 test cases');
      expect(result.verified.map((item) => item.type)).toEqual(['test case', 'test case', 'test case']);
      expect(server.db().testCases).toHaveLength(3);
    },
  );

  it('"2 user groups with 3 users each" against /user-groups and /users: planned without a model, each user linked', async () => {
    const { server, spec } = await app();
    const { run, said, result } = await fish('2 user groups with 3 users each', spec);
    expect(run.code, said).toBe(0);
    expect(result, said).toMatchObject({ status: 'success', tier: 'deterministic' });
    const db = server.db() as { 'user-groups': { id: number }[]; users: { userGroupId: number }[] };
    expect(db['user-groups']).toHaveLength(2);
    expect(db.users).toHaveLength(6);
    for (const group of db['user-groups'])
      expect(db.users.filter((user) => user.userGroupId === group.id)).toHaveLength(3);
  });
});
