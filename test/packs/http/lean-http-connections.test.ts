// The lean client's kept-alive connections (issue 22), counted by a real server on 127.0.0.1:
// a burst reuses one connection per request in flight, a server's `Connection: close` or a
// Keep-Alive hint too short to use is honoured, and an idle connection never keeps a process
// alive (a `tally fish` run must end when its work does).
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { leanHttpTransport } from '../../../src/packs/http/client/lean-http-transport.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server that counts the connections it accepted; `headers` are added to every answer. */
async function counting(
  headers: Record<string, string> = {},
): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(201, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify({ id: connections, path: req.url }));
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    connections: () => connections,
  };
}

const post = (url: string) =>
  leanHttpTransport(new URL(url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });

describe('the lean client’s connections', () => {
  it('a burst of creates, one at a time, goes over one connection; four at a time over four', async () => {
    const server = await counting();
    for (let index = 0; index < 20; index++)
      expect((await post(`${server.url}/things/${index}`)).status).toBe(201);
    expect(server.connections()).toBe(1);
    await Promise.all(Array.from({ length: 4 }, (_, index) => post(`${server.url}/c/${index}`)));
    expect(server.connections()).toBe(4);
    // The four are kept: the next burst opens none.
    await Promise.all(Array.from({ length: 4 }, (_, index) => post(`${server.url}/d/${index}`)));
    expect(server.connections()).toBe(4);
  });

  it('a server that says Connection: close, or a Keep-Alive of one second, gets a new connection each time', async () => {
    for (const headers of [{ connection: 'close' }, { 'keep-alive': 'timeout=1' }] as Record<
      string,
      string
    >[]) {
      const server = await counting(headers);
      for (let index = 0; index < 3; index++) expect((await post(`${server.url}/x`)).status).toBe(201);
      expect(server.connections(), JSON.stringify(headers)).toBe(3);
    }
    // A longer hint keeps it.
    const kept = await counting({ 'keep-alive': 'timeout=5' });
    for (let index = 0; index < 3; index++) await post(`${kept.url}/x`);
    expect(kept.connections()).toBe(1);
  });

  it('an idle connection holds no process open: a script that sent a create exits at once', async () => {
    const server = await counting();
    const script = `import { leanHttpTransport } from ${JSON.stringify(join(ROOT, 'src/packs/http/client/lean-http-transport.ts'))};
const started = performance.now();
const response = await leanHttpTransport(new URL(${JSON.stringify(`${server.url}/x`)}), { method: 'POST', headers: {}, body: '{}' });
process.on('exit', () => console.log(response.status, Math.round(performance.now() - started)));`;
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        { cwd: ROOT },
        (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout)),
      ),
    );
    expect(out.trim()).toMatch(/^201 \d+$/);
    // The idle timeout is a second: a process held by its connection would take at least that.
    const sinceCreate = Number(out.trim().split(' ')[1]);
    expect(sinceCreate).toBeLessThan(1000);
  });
});
