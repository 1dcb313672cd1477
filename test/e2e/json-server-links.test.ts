import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runTally, tempDir } from '../helpers.js';
import { type JsonServer, startJsonServer } from './json-server-fixture.js';

// json-server apps whose shapes misled the deterministic tier: which field links a child to
// its parent, and an app collection whose name the run's own summary happened to say.

interface FishJson {
  status: string;
  tier?: string;
  summary: string;
  verified: { type?: string; target: string }[];
  unmet: string[];
}

const servers: JsonServer[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()?.close();
});

async function server(db: Record<string, unknown[]>): Promise<JsonServer> {
  const started = await startJsonServer(db);
  servers.push(started);
  return started;
}

async function fish(request: string, source: string[]) {
  const dir = tempDir();
  const run = await runTally(['fish', request, ...source, '--ledger', join(dir, 'ledger.db'), '--json'], {
    cwd: dir,
  });
  const said = `tally fish "${request}" exited ${run.code}\n${run.stdout}\n${run.stderr}`;
  return { run, said, result: JSON.parse(run.stdout || '{}') as FishJson };
}

const post = async (url: string, body: unknown) =>
  (await (
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  ).json()) as { id: number };

function openApi(
  url: string,
  paths: Record<string, { required: string[]; properties: Record<string, unknown> }>,
) {
  const spec = join(tempDir(), 'openapi.json');
  const document = {
    openapi: '3.0.3',
    info: { title: 'json-server', version: '1' },
    servers: [{ url }],
    paths: Object.fromEntries(
      Object.entries(paths).map(([path, schema]) => [
        path,
        {
          post: {
            requestBody: { content: { 'application/json': { schema: { type: 'object', ...schema } } } },
            responses: { 201: { description: 'created' } },
          },
        },
      ]),
    ),
  };
  writeFileSync(spec, JSON.stringify(document));
  return spec;
}

describe("the run's own summary against the app's collection names", () => {
  // The deterministic summary said "Created 3 items": in an app with `/line-items`, the summary
  // check read that as 3 line items, none made, and "3 posts" ended partial.
  it.each(['items', 'line-items'])('"3 posts" in an app that also has /%s: a success', async (collection) => {
    const app = await server({ posts: [], [collection]: [] });
    const spec = openApi(app.url, {
      '/posts': { required: ['title'], properties: { title: { type: 'string' } } },
      [`/${collection}`]: { required: ['sku'], properties: { sku: { type: 'string' } } },
    });
    const { run, said, result } = await fish('3 posts', ['--spec', spec]);
    expect(run.code, said).toBe(0);
    expect(result, said).toMatchObject({ status: 'success', unmet: [] });
    expect(result.summary).toMatch(/^Created 3 posts through the API\./);
    expect((app.db() as { posts: unknown[] }).posts).toHaveLength(3);
  });
});
