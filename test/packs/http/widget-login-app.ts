// Shared by the login-recipe tests that run `tally fish` against a small widget API of their
// own (token login, CSRF-guarded login): the API's OpenAPI document, one run of `tally fish "2
// widgets"` with a recipe, and the servers started for a test, closed after it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { runTally, tempDir } from '../../helpers.js';

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'widgets', version: '1' },
  paths: {
    '/api/widgets': {
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
    },
    '/api/widgets/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { 200: { description: 'ok' } },
      },
    },
  },
};

/** The recipe's password, as the tests' apps expect it. */
export const CREDENTIALS_ENV = { TALLY_APP_PASSWORD: 'pw-for-test' };

/** Servers started by this file's callers; each test closes its own. */
export function widgetServers(): { listen(server: Server): Promise<string> } {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });
  return {
    async listen(server) {
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
  };
}

/**
 * `tally fish "2 widgets" --spec … --login recipe.json --json` against `url` (another request and
 * more flags when given); with the bytes of everything the run wrote under `.tally` (ledger,
 * logs), where no secret may be.
 */
export async function fishWidgetsWith(
  url: string,
  recipe: Record<string, unknown>,
  options: { request?: string; flags?: string[] } = {},
) {
  const dir = tempDir();
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(SPEC));
  writeFileSync(join(dir, 'login.json'), JSON.stringify(recipe));
  const run = await runTally(
    [
      'fish',
      options.request ?? '2 widgets',
      '--spec',
      'openapi.json',
      '--base-url',
      url,
      '--login',
      'login.json',
      '--json',
      ...(options.flags ?? []),
    ],
    { cwd: dir, env: CREDENTIALS_ENV },
  );
  const written = readdirSync(join(dir, '.tally'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name)).toString('latin1'))
    .join('\n');
  return { run, written, said: `exit ${run.code}\n${run.stdout}\n${run.stderr}` };
}

export interface Widget {
  id: number;
  name: string;
}

/** The widget API itself, once the caller's own checks passed: create, read one, list; else 404. */
export function answerWidgets(
  request: { method?: string; url?: string },
  text: string,
  widgets: Widget[],
  json: (status: number, body: unknown) => void,
): void {
  if (request.method === 'POST' && request.url === '/api/widgets') {
    const widget = { id: widgets.length + 1, name: (JSON.parse(text) as { name: string }).name };
    widgets.push(widget);
    json(201, widget);
    return;
  }
  const one = /^\/api\/widgets\/(\d+)$/.exec(request.url ?? '');
  const found = one && widgets.find((widget) => String(widget.id) === one[1]);
  if (request.method === 'GET' && found) json(200, found);
  else if (request.method === 'GET' && request.url === '/api/widgets') json(200, widgets);
  else json(404, { error: 'not found' });
}

/** The cookies a request sent, by name (as the app sees them: no decoding). */
export function cookiesOf(request: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0) out[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return out;
}
