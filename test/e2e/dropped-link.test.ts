// A real HTTP app (node:http on 127.0.0.1) whose comments do not show the `postId` Tally sent:
// one drops the unknown field, one keeps it but leaves it out of the create's answer. A link
// counts only as the app shows it — in the answer, the path, or a read-back — never because
// Tally sent it.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runTally, tempDir } from '../helpers.js';

type Mode = 'drops' | 'keeps-quietly' | 'nests';
type Row = Record<string, unknown> & { id: number };

interface App {
  url: string;
  rows: Record<'posts' | 'comments', Row[]>;
  requests: string[];
  close(): Promise<void>;
}

async function startApp(mode: Mode): Promise<App> {
  const rows: App['rows'] = { posts: [], comments: [] };
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => {
      const [, collection, id] = (request.url ?? '').split('?')[0]?.split('/') ?? [];
      requests.push(`${request.method} ${request.url}`);
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (collection !== 'posts' && collection !== 'comments') return send(404, { error: 'not found' });
      const table = rows[collection];
      if (request.method === 'GET')
        return id === undefined
          ? send(200, table)
          : ((row) => (row ? send(200, row) : send(404, { error: 'not found' })))(
              table.find((row) => String(row.id) === id),
            );
      if (request.method !== 'POST' || id !== undefined) return send(405, { error: 'no' });
      const body = JSON.parse(text || '{}') as Record<string, unknown>;
      const row: Row = { ...body, id: table.length + 1 };
      // The app knows no postId: it drops it. Or it keeps it but answers only id and body.
      if (collection === 'comments' && mode === 'drops') delete row.postId;
      table.push(row);
      // An app that embeds the relation answers the post itself, not its id.
      if (collection === 'comments' && mode === 'nests') {
        const post = rows.posts.find((candidate) => candidate.id === Number(row.postId));
        return send(201, { id: row.id, body: row.body, post: post ?? null });
      }
      if (collection === 'comments') return send(201, { id: row.id, body: row.body });
      return send(201, row);
    });
  });
  for (let port = 4700; port < 4800; port++) {
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (listening)
      return {
        url: `http://127.0.0.1:${port}`,
        rows,
        requests,
        close: () => new Promise((resolve) => server.close(() => resolve())),
      };
  }
  throw new Error('no free port in 4700–4799');
}

const apps: App[] = [];
afterEach(async () => {
  while (apps.length > 0) await apps.pop()?.close();
});

function spec(url: string): string {
  const file = join(tempDir(), 'openapi.json');
  const create = (required: string[], properties: Record<string, unknown>) => ({
    post: {
      requestBody: { content: { 'application/json': { schema: { type: 'object', required, properties } } } },
      responses: { 201: { description: 'created' } },
    },
  });
  const document = {
    openapi: '3.0.3',
    info: { title: 'blog', version: '1' },
    servers: [{ url }],
    paths: {
      '/posts': create(['title'], { title: { type: 'string' } }),
      '/comments': create(['body', 'postId'], { body: { type: 'string' }, postId: { type: 'integer' } }),
    },
  };
  writeFileSync(file, JSON.stringify(document));
  return file;
}

async function fish(app: App, request: string) {
  const dir = tempDir();
  const run = await runTally(
    ['fish', request, '--spec', spec(app.url), '--ledger', join(dir, 'ledger.db'), '--json'],
    { cwd: dir },
  );
  const said = `tally fish "${request}" exited ${run.code}\n${run.stdout}\n${run.stderr}`;
  return { run, said, result: JSON.parse(run.stdout || '{}') as { status: string; summary: string } };
}

describe('a link the app does not show', () => {
  // The verdict read `postId` from the body Tally sent: comments the app kept unlinked
  // counted as linked, and "2 posts with 2 comments each" was a success.
  it('an app that drops postId: the run is not a success, and says the app did not keep it', async () => {
    const app = await startApp('drops');
    apps.push(app);
    const { run, said, result } = await fish(app, '2 posts with 2 comments each');
    expect(run.code, said).not.toBe(0);
    expect(result.status, said).not.toBe('success');
    expect(run.stdout, said).toMatch(
      /the app did not keep its postId: the answer left it out and GET \/comments\/\d+ shows none \(sent \d+\)/,
    );
    expect(app.rows.comments.every((row) => row.postId === undefined)).toBe(true);
  });

  it('an app that keeps postId but leaves it out of its answer: one read of each comment shows it, a success', async () => {
    const app = await startApp('keeps-quietly');
    apps.push(app);
    const { run, said, result } = await fish(app, '2 posts with 2 comments each');
    expect(run.code, said).toBe(0);
    expect(result.status, said).toBe('success');
    expect(app.requests.filter((line) => line.startsWith('GET /comments/'))).toHaveLength(4);
    expect(app.rows.comments.map((row) => row.postId).sort()).toEqual([1, 1, 2, 2]);
  });

  it('an app that answers the parent embedded ("post": {"id": …}): that is the link, with no read-back', async () => {
    const app = await startApp('nests');
    apps.push(app);
    const { run, said, result } = await fish(app, '2 posts with 2 comments each');
    expect(run.code, said).toBe(0);
    expect(result.status, said).toBe('success');
    expect(app.requests.filter((line) => line.startsWith('GET /comments/'))).toEqual([]);
    expect(app.rows.comments.map((row) => row.postId).sort()).toEqual([1, 1, 2, 2]);
  });
});
