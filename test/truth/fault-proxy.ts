/**
 * A tiny fault-injecting HTTP proxy on 127.0.0.1. Per rule (method + path regexp + which
 * occurrence), it forwards the request to the target — the server really does the work — and
 * then LOSES the response: answers 502, resets the connection, or stalls and then drops it —
 * or answers a forged response of its own (`answer`).
 * With `forward: false` the request never reaches the server (it was lost on the way in).
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  /** Answer this status (default 502) with a gateway error body instead of the real response. */
  | { kind: 'status'; status?: number }
  /** Reset the client's connection without any response. */
  | { kind: 'reset' }
  /** Hold the client for `ms`, then drop the connection: a response that never comes in time. */
  | { kind: 'stall'; ms: number }
  /**
   * Answer this instead of the server's answer (a misbehaving gateway or app): a 200 whose body
   * says it failed, a redirect to a login page, a success-looking body on a 4xx.
   */
  | { kind: 'answer'; status: number; body?: unknown; headers?: Record<string, string> };

export interface FaultRule {
  method: string;
  path: RegExp;
  /** Which matching request to hit, 1-based (default 1); each rule fires once. */
  nth?: number;
  fault: Fault;
  /** Default true: the server does the work. False: the request is lost before it. */
  forward?: boolean;
}

export interface ProxyHit {
  method: string;
  path: string;
  /** When the proxy received it (ms since the epoch). */
  at: number;
  /** What the server answered (when forwarded). */
  upstreamStatus?: number;
  /** The fault applied, when a rule fired. */
  fault?: Fault['kind'];
}

export interface FaultProxy {
  url: string;
  hits: ProxyHit[];
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

interface Upstream {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

function forward(target: URL, request: IncomingMessage, body: Buffer): Promise<Upstream> {
  return new Promise((resolve, reject) => {
    const headers = { ...request.headers, host: target.host };
    delete headers.connection;
    const outgoing = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const out: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined && name !== 'connection' && name !== 'transfer-encoding')
              out[name] = value;
          }
          resolve({ status: response.statusCode ?? 502, headers: out, body: Buffer.concat(chunks) });
        });
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

export interface FaultProxyOptions {
  /**
   * Milliseconds to hold each unfaulted response after the server answered (the server has
   * done the work; the answer is merely slow): requests stay in flight that long.
   */
  delayMs?: (method: string, path: string) => number;
}

export async function startFaultProxy(
  targetUrl: string,
  rules: FaultRule[],
  options: FaultProxyOptions = {},
): Promise<FaultProxy> {
  const target = new URL(targetUrl);
  const hits: ProxyHit[] = [];
  const seen = rules.map(() => 0);
  const fired = rules.map(() => false);
  const timers = new Set<NodeJS.Timeout>();

  const ruleFor = (method: string, path: string): FaultRule | undefined => {
    let chosen: FaultRule | undefined;
    rules.forEach((rule, index) => {
      if (rule.method.toUpperCase() !== method || !rule.path.test(path)) return;
      seen[index] = (seen[index] as number) + 1;
      if (!chosen && !fired[index] && seen[index] === (rule.nth ?? 1)) {
        fired[index] = true;
        chosen = rule;
      }
    });
    return chosen;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const method = (request.method ?? 'GET').toUpperCase();
    const path = request.url ?? '/';
    const body = await readBody(request);
    const rule = ruleFor(method, path.split('?')[0] ?? path);
    const hit: ProxyHit = { method, path, at: Date.now() };
    hits.push(hit);
    let upstream: Upstream | undefined;
    if (rule?.forward !== false) {
      upstream = await forward(target, request, body);
      hit.upstreamStatus = upstream.status;
    }
    if (!rule) {
      const upstreamResponse = upstream as Upstream;
      const delay = options.delayMs?.(method, path.split('?')[0] ?? path) ?? 0;
      if (delay > 0)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            timers.delete(timer);
            resolve();
          }, delay);
          timers.add(timer);
        });
      if (response.destroyed || request.socket.destroyed) return;
      response.writeHead(upstreamResponse.status, upstreamResponse.headers);
      response.end(upstreamResponse.body);
      return;
    }
    hit.fault = rule.fault.kind;
    switch (rule.fault.kind) {
      case 'status': {
        const status = rule.fault.status ?? 502;
        response.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
        response.end(JSON.stringify({ error: `Bad gateway: the upstream answer was lost (${status})` }));
        return;
      }
      case 'reset':
        request.socket.destroy();
        return;
      case 'answer': {
        const { status, body: answer, headers } = rule.fault;
        const text = answer === undefined ? '' : typeof answer === 'string' ? answer : JSON.stringify(answer);
        response.writeHead(status, {
          ...(answer !== undefined && typeof answer !== 'string'
            ? { 'content-type': 'application/json' }
            : {}),
          ...headers,
        });
        response.end(text);
        return;
      }
      case 'stall': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          request.socket.destroy();
        }, rule.fault.ms);
        timers.add(timer);
        return;
      }
    }
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        response.writeHead(502, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: `proxy: ${String(error)}` }));
      } else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    hits,
    close: () =>
      new Promise((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
