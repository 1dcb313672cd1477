import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runTally, tempDir } from '../helpers.js';
import { harEntry, writeHar } from '../packs/http/har-fixtures.js';
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

async function fish(request: string, spec: string, source = ['--spec', spec]) {
  const dir = tempDir();
  const run = await runTally(['fish', request, ...source, '--ledger', join(dir, 'ledger.db'), '--json'], {
    cwd: dir,
  });
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

describe('a type said in one word, where the app has it in one word and in compounds', () => {
  // "2 user groups" on its own: the run's summary said "Created 2 user groups", and the check
  // of summary counts read "2 user", found no users made, and the run ended partial.
  it('"2 user groups" beside /users: a success', async () => {
    const { server, spec } = await app();
    const { run, said, result } = await fish('2 user groups', spec);
    expect(run.code, said).toBe(0);
    expect(result, said).toMatchObject({ status: 'success', unmet: [] });
    expect(server.db()['user-groups']).toHaveLength(2);
  });

  async function groupsApp(collections: string[]) {
    const server = await startJsonServer(Object.fromEntries(collections.map((name) => [name, []])));
    servers.push(server);
    const spec = join(tempDir(), 'openapi.json');
    const create = {
      post: {
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
            },
          },
        },
        responses: { 201: { description: 'created' } },
      },
    };
    writeFileSync(
      spec,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'groups', version: '1' },
        servers: [{ url: server.url }],
        paths: Object.fromEntries(collections.map((name) => [`/${name}`, create])),
      }),
    );
    return { server, spec };
  }

  // The first collection whose head noun matched won: "2 groups" made 2 user groups in an app
  // that has /groups, and the verdict, reading a user group as a group, said success.
  it('"2 groups" where /user-groups comes before /groups: made at /groups', async () => {
    const { server, spec } = await groupsApp(['user-groups', 'groups']);
    const { run, said, result } = await fish('2 groups', spec);
    expect(run.code, said).toBe(0);
    expect(
      result.verified.map((item) => item.type),
      said,
    ).toEqual(['group', 'group']);
    expect(server.db()).toMatchObject({ groups: [{}, {}], 'user-groups': [] });
  });

  it('"2 groups" where only /user-groups and /admin-groups exist: refused, naming both, nothing made', async () => {
    const { server, spec } = await groupsApp(['user-groups', 'admin-groups']);
    const { run, said } = await fish('2 groups', spec);
    expect(run.code, said).not.toBe(0);
    expect(run.stdout, said).toContain(String.raw`\"groups\" could be any of user-groups, admin-groups`);
    expect(server.db()).toEqual({ 'user-groups': [], 'admin-groups': [] });
  });

  it('the same from captures: "2 groups" with /user-groups captured first goes to /groups; with /admin-groups instead, refused', async () => {
    const { server } = await groupsApp(['user-groups', 'groups', 'admin-groups']);
    const entry = (name: string) =>
      harEntry('POST', `${server.url}/${name}`, 201, { body: { name: 'x' }, response: { name: 'x', id: 1 } });
    const dir = tempDir();
    const both = writeHar(dir, 'both.har', [entry('user-groups'), entry('groups')]);
    const made = await fish('2 groups', '', ['--captures', both]);
    expect(made.run.code, made.said).toBe(0);
    expect((server.db() as { groups: unknown[] }).groups).toHaveLength(2);
    const compounds = writeHar(dir, 'compounds.har', [entry('user-groups'), entry('admin-groups')]);
    const refused = await fish('2 groups', '', ['--captures', compounds]);
    expect(refused.run.code, refused.said).not.toBe(0);
    // Two collections by a name that varies, not one slug: before, "creatable: nothing".
    expect(refused.run.stdout, refused.said).toMatch(
      /\\"groups\\" could be any of (admin-groups, user-groups|user-groups, admin-groups)/,
    );
    expect(server.db()).toMatchObject({ 'user-groups': [], 'admin-groups': [] });
    const named = await fish('2 user groups', '', ['--captures', compounds]);
    expect(named.run.code, named.said).toBe(0);
    expect(server.db()).toMatchObject({ 'user-groups': [{}, {}], 'admin-groups': [] });
  });
});
