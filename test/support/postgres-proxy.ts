import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a test PostgreSQL server, to make the network fail the
 * way a real one does at a chosen group commit (the Nth `SELECT tally_append…` statement,
 * counted across connections from 1):
 * - `cut`: the server runs and commits it, the connection is closed before its answer reaches
 *   the client (the client sees an error; the outcome was in fact a commit).
 * - `hole`: from that statement on nothing is forwarded either way and new connections are
 *   accepted but never answered (a partition: no reset, no answer).
 */
export interface PostgresProxy {
  /** The URL with the proxy's port in place of the server's. */
  url: string;
  /** `tally_append` statements seen so far. */
  appends(): number;
  close(): Promise<void>;
}

export async function startPostgresProxy(
  target: string,
  fault: { cut?: number[]; hole?: number },
): Promise<PostgresProxy> {
  const upstream = new URL(target);
  const cut = new Set(fault.cut ?? []);
  const state = { appends: 0, hole: false };
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (state.hole) return;
    const backend = connect(Number(upstream.port), upstream.hostname);
    sockets.add(backend);
    backend.on('close', () => sockets.delete(backend));
    backend.on('error', () => client.destroy());
    let armed = false;
    let held = Buffer.alloc(0);
    client.on('data', (data: Buffer) => {
      if (data.includes('SELECT tally_append')) {
        state.appends += 1;
        if (cut.has(state.appends)) armed = true;
        if (fault.hole !== undefined && state.appends >= fault.hole) state.hole = true;
      }
      if (!state.hole) backend.write(data);
    });
    backend.on('data', (data: Buffer) => {
      if (state.hole) return;
      if (!armed) {
        client.write(data);
        return;
      }
      // Hold the answer; once the server says ReadyForQuery ('Z': committed), cut both sides.
      held = Buffer.concat([held, data]);
      while (held.length >= 5) {
        const length = held.readInt32BE(1);
        if (held.length < 1 + length) break;
        const type = String.fromCharCode(held[0] as number);
        held = held.subarray(1 + length);
        if (type === 'Z') {
          client.destroy();
          backend.destroy();
          return;
        }
      }
    });
    client.on('close', () => {
      if (!state.hole) backend.destroy();
    });
    backend.on('close', () => {
      if (!state.hole) client.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const proxied = new URL(target);
  proxied.port = String(typeof address === 'object' && address ? address.port : 0);
  return {
    url: proxied.toString(),
    appends: () => state.appends,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
