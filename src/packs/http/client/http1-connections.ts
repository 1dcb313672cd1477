import { connect, type Socket } from 'node:net';
import { IDLE_MS } from './http-transport.js';

/**
 * Kept-alive plain-HTTP connections by host and port, for the lean client: a burst of creates
 * reuses one connection per request in flight. Like the node:http agent it replaces, an idle
 * connection is closed after `IDLE_MS` (http-transport.ts says why a second; sooner when the
 * server's `Keep-Alive: timeout=` says so) and holds no process open; an error on an idle one
 * only drops it.
 */

const IDLE_EVENTS = ['error', 'end', 'close', 'data', 'timeout'] as const;

export interface Connection {
  socket: Socket;
  /** True when this connection carried a request before (it may have been closed under us since). */
  reused: boolean;
}

interface IdleSocket {
  socket: Socket;
  /** Takes off the listeners it was given while idle (net's own stay). */
  wake(): void;
}

const idle = new Map<string, IdleSocket[]>();

function dropIdle(key: string, entry: IdleSocket): void {
  const list = idle.get(key);
  const at = list?.indexOf(entry) ?? -1;
  if (list && at >= 0) list.splice(at, 1);
  if (list?.length === 0) idle.delete(key);
  entry.wake();
  entry.socket.destroy();
}

/** An idle connection to `host:port` still open, or a new one (connecting; errors arrive on the socket). */
export function takeConnection(host: string, port: number): Connection {
  const key = `${host}:${port}`;
  const list = idle.get(key);
  while (list && list.length > 0) {
    const entry = list.pop() as IdleSocket;
    if (list.length === 0) idle.delete(key);
    entry.wake();
    const { socket } = entry;
    if (socket.destroyed || !socket.writable || socket.readableEnded) {
      socket.destroy();
      continue;
    }
    socket.ref();
    return { socket, reused: true };
  }
  const socket = connect({ host, port, noDelay: true });
  return { socket, reused: false };
}

/**
 * Hands a connection back after a complete response: kept for the next request unless the server
 * asked to close it or its `Keep-Alive` timeout leaves no time to reuse it.
 */
export function releaseConnection(
  host: string,
  port: number,
  socket: Socket,
  keepAliveHeader: string | undefined,
): void {
  const hint = /(?:^|,)\s*timeout=(\d+)/i.exec(keepAliveHeader ?? '');
  // As node:http's agent: a second under the server's hint, so a reuse never races its close.
  const timeout = hint ? Math.min(IDLE_MS, Number(hint[1]) * 1000 - 1000) : IDLE_MS;
  if (timeout <= 0 || socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  const key = `${host}:${port}`;
  // An error, an end or a close while idle drops it; so do bytes, which answer nothing asked.
  const drop = () => dropIdle(key, entry);
  const entry: IdleSocket = {
    socket,
    wake: () => {
      for (const event of IDLE_EVENTS) socket.off(event, drop);
      socket.setTimeout(0);
    },
  };
  for (const event of IDLE_EVENTS) socket.on(event, drop);
  socket.setTimeout(timeout);
  socket.unref();
  const list = idle.get(key) ?? [];
  list.push(entry);
  idle.set(key, list);
}
