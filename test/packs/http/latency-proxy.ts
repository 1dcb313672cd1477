import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

const proxies: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (proxies.length > 0) await proxies.pop()?.();
});

/**
 * A real HTTP proxy on 127.0.0.1 that holds every request `delayMs` before forwarding it:
 * a server in the test's own process answers before the client can send the next request,
 * so without latency there is nothing for concurrency to overlap. Counts what is in flight.
 */
export async function latencyProxy(target: string, delayMs: number) {
  const stats = { inFlight: 0, most: 0, requests: 0 };
  const to = new URL(target);
  const server = createServer((incoming, outgoing) => {
    stats.requests += 1;
    stats.inFlight += 1;
    stats.most = Math.max(stats.most, stats.inFlight);
    outgoing.on('close', () => {
      stats.inFlight -= 1;
    });
    setTimeout(() => {
      const upstream = forward(
        {
          host: to.hostname,
          port: to.port,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
        },
        (response) => {
          outgoing.writeHead(response.statusCode ?? 502, response.headers);
          response.pipe(outgoing);
        },
      );
      upstream.on('error', (error) => outgoing.destroy(error));
      incoming.pipe(upstream);
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxies.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stats };
}
