import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/packs/http/client/api-client.js';

// Issue 19, acceptance 4: the off-origin figure re-measured. A decoy server on another
// loopback port counts every request that reaches it; crafted paths (every spelling of the
// decoy's address in every URL form a model or a capture could hand the `request` tool) go
// through the API client. The figure: requests that reached the decoy (must stay 0).

function listen(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
const portOf = (server: Server) => (server.address() as AddressInfo).port;

let decoy: Server;
let target: Server;
let decoyHits: string[] = [];
let targetHits = 0;

beforeAll(async () => {
  decoy = await listen((request, response) => {
    decoyHits.push(`${request.method} ${request.url}`);
    response.end('{}');
  });
  target = await listen((request, response) => {
    targetHits += 1;
    // Every answer tries to send the client on to the decoy.
    response.writeHead(request.url?.startsWith('/redirect') ? 302 : 200, {
      'content-type': 'application/json',
      location: `http://127.0.0.1:${portOf(decoy)}/stolen`,
      refresh: `0; url=http://127.0.0.1:${portOf(decoy)}/stolen`,
    });
    response.end(JSON.stringify({ next: `http://127.0.0.1:${portOf(decoy)}/stolen` }));
  });
});

afterAll(() => {
  decoy.close();
  target.close();
});

/** Every spelling of the decoy's address, in every URL form. */
function craftedPaths(port: number): string[] {
  const hosts = [
    `127.0.0.1:${port}`,
    `localhost:${port}`,
    `[::ffff:127.0.0.1]:${port}`,
    `[::ffff:7f00:1]:${port}`,
    `2130706433:${port}`,
    `0x7f000001:${port}`,
    `0177.0.0.1:${port}`,
    `127.1:${port}`,
    `user:pw@127.0.0.1:${port}`,
    `LOCALHOST:${port}`,
    `127.0.0.1.:${port}`,
  ];
  const forms = [
    (host: string) => `http://${host}/x`,
    (host: string) => `//${host}/x`,
    (host: string) => `\\\\${host}/x`,
    (host: string) => `/\\${host}/x`,
    (host: string) => `http:${host}/x`,
    (host: string) => `http:/${host}/x`,
    (host: string) => `HTTP://${host}/x`,
    (host: string) => ` http://${host}/x`,
  ];
  return [
    ...hosts.flatMap((host) => forms.map((form) => form(host))),
    `\thttp://127.0.0.1:${port}/x`,
    `http://127.0.0.1:${port}#@target/x`,
    `ws://127.0.0.1:${port}/x`,
    `/%2F%2F127.0.0.1:${port}/x`,
    `/..//127.0.0.1:${port}/x`,
    `/redirect`,
    `/redirect?to=http://127.0.0.1:${port}/`,
    `/@127.0.0.1:${port}/x`,
  ];
}

describe('off-origin requests under attack (issue 19, acceptance 4)', () => {
  it('0 requests reach another origin, whatever path the request tool is handed', async () => {
    const client = new ApiClient({ baseUrl: `http://127.0.0.1:${portOf(target)}/api` });
    const paths = craftedPaths(portOf(decoy));
    decoyHits = [];
    targetHits = 0;
    const refused: string[] = [];
    for (const path of paths)
      for (const method of ['GET', 'POST'])
        try {
          await client.send({ method, path, ...(method === 'POST' ? { body: { title: 'x' } } : {}) });
        } catch (error) {
          refused.push(`${(error as { code?: string }).code}`);
        }
    process.stdout.write(
      `attack-figures: ${paths.length * 2} crafted requests (${paths.length} paths × GET/POST): ${refused.length} refused (${[...new Set(refused)].join(', ')}), ${targetHits} sent to the API origin, ${decoyHits.length} reached the decoy\n`,
    );
    expect(decoyHits).toEqual([]);
    expect(paths.length).toBeGreaterThanOrEqual(90);
    // Each was either refused or answered by the API origin: none vanished.
    expect(refused.length + targetHits).toBe(paths.length * 2);
  }, 60_000);
});
