import { chmodSync, existsSync, lstatSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { z } from 'zod';
import type { FailureLogMemo } from '../../packs/records/recall.js';
import type { RecordSource } from '../../packs/records/record-query.js';
import { RecordsUsageError } from '../../packs/records/records-error.js';
import { resolveRecordsRoot } from '../../packs/records/stores.js';
import { watchRecordSource } from '../../packs/records/watched-records.js';
import { EXIT } from './exit-codes.js';
import { runRecordsQueryWith } from './records-command.js';
import { RESIDENT_IDLE_EXIT_S, residentBuild } from './records-resident-client.js';
import { residentDir, residentKey, residentSocketPath } from './records-resident-socket.js';

export interface RecordsServeFlags {
  root?: string;
  /** Seconds without a query after which the server exits (default RESIDENT_IDLE_EXIT_S). */
  idleExit?: string;
}

// A request is one line; anything longer than this is not one of ours.
const MAX_REQUEST_BYTES = 1 << 20;

/** A query request: the flags of `records query` (the default index only) for this server's key. */
const RequestSchema = z.strictObject({
  key: z.string(),
  root: z.string(),
  flags: z.strictObject({
    root: z.string(),
    keyword: z.string().optional(),
    kind: z.string().optional(),
    id: z.string().optional(),
    linksTo: z.string().optional(),
    project: z.string().optional(),
    limit: z.string().optional(),
    full: z.boolean().optional(),
    cat: z.array(z.string()).optional(),
    recall: z.string().optional(),
    listStores: z.boolean().optional(),
    json: z.boolean().optional(),
  }),
});

function idleSeconds(flags: RecordsServeFlags): number {
  const value = flags.idleExit === undefined ? RESIDENT_IDLE_EXIT_S : Number(flags.idleExit);
  if (!(Number.isFinite(value) && value > 0))
    throw new RecordsUsageError(
      'IDLE_EXIT_INVALID',
      `--idle-exit must be a number of seconds above 0, got "${flags.idleExit}".`,
    );
  return value;
}

const listen = (server: Server, path: string) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });

/** True when something answers a connection at `path` within a second (a live server). */
const answers = (path: string) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(path);
    const settle = (alive: boolean) => {
      socket.destroy();
      resolve(alive);
    };
    socket.setTimeout(1_000, () => settle(true));
    socket.on('connect', () => settle(true));
    socket.on('error', () => settle(false));
  });

/**
 * `tally records serve`: keeps the watched index of one records root (watched-records.ts) and
 * answers `records query` over a unix socket in the user's private runtime folder. Read-only:
 * a request is a query's flags, the answer what the one-shot query would print, produced by
 * the same function (runRecordsQueryWith). Exits after --idle-exit seconds without a query,
 * when its root is removed, or when another server took its socket. Exit 0 also when a live
 * server of the same root and build is already there (two CLIs that started one at once).
 */
export default async function recordsServeCommand(flags: RecordsServeFlags): Promise<number> {
  const idleMs = idleSeconds(flags) * 1000;
  const env = process.env;
  const root = resolveRecordsRoot(flags.root, env);
  const dir = residentDir(env);
  if ('refused' in dir) {
    process.stderr.write(`tally records serve: no private socket folder: ${dir.refused}\n`);
    return EXIT.unavailable;
  }
  const key = residentKey(root, residentBuild(), env);
  const path = residentSocketPath(dir.dir, key);
  if (!path) {
    process.stderr.write('tally records serve: the socket path would be too long\n');
    return EXIT.unavailable;
  }
  if (existsSync(path) && (await answers(path))) return EXIT.ok;

  // Set when the index cannot be kept (a scan instead): the one-shot path prints a notice the
  // server would not, so such queries are declined and the CLI answers them by itself.
  let noIndex: string | undefined;
  const source = watchRecordSource(root, {
    env,
    onFallback: (why) => {
      if (!why.startsWith('records are re-checked')) noIndex = why;
    },
  });
  // The query closes what it opened; the watched source outlives every query.
  const borrowed = borrow(source);
  // The failure log's last parse, shared by every --recall this server answers.
  const failureLog: FailureLogMemo = {};

  const server = createServer((socket) => serve(socket));
  try {
    await listen(server, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (await answers(path)) {
      source.close();
      return EXIT.ok;
    }
    // A socket file nobody listens on: its server is gone. Replace it.
    unlinkSync(path);
    await listen(server, path);
  }
  chmodSync(path, 0o600);
  const ino = lstatSync(path).ino;

  let idle: NodeJS.Timeout;
  const stop = () => {
    clearInterval(guard);
    clearTimeout(idle);
    source.close();
    // Only our own socket: after a takeover the file is another server's. The process exits
    // without closing the listener, because libuv unlinks a unix socket's path when its
    // handle closes — and that path may by now be the other server's.
    if (lstatSync(path, { throwIfNoEntry: false })?.ino === ino) unlinkSync(path);
    process.exit(EXIT.ok);
  };
  // A server stopped by a signal removes its socket too (a later CLI would otherwise find a
  // stale file: handled, but one connection attempt and a replacement later).
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, stop);
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(stop, idleMs);
  };
  touch();
  // Two servers that replaced the same stale socket at once: the one whose file was replaced
  // exits. A root that was removed has nothing left to serve.
  const guard = setInterval(() => {
    if (lstatSync(path, { throwIfNoEntry: false })?.ino !== ino || !existsSync(root)) stop();
  }, 1_000);

  async function serve(socket: Socket) {
    touch();
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('error', () => {});
    const reply = (message: object) => socket.end(`${JSON.stringify(message)}\n`);
    const onData = async (chunk: string) => {
      buffered += chunk;
      const end = buffered.indexOf('\n');
      if (end === -1) {
        if (buffered.length > MAX_REQUEST_BYTES) socket.destroy();
        return;
      }
      socket.off('data', onData);
      const parsed = RequestSchema.safeParse(safeJson(buffered.slice(0, end)));
      if (!parsed.success) return reply({ t: 'decline', why: 'not a records query request' });
      if (parsed.data.key !== key) return reply({ t: 'decline', why: 'another root, setting or build' });
      socket.write(`${JSON.stringify({ t: 'ack' })}\n`);
      await source.fresh();
      if (noIndex !== undefined) return reply({ t: 'decline', why: `no index: ${noIndex}` });
      let stdout = '';
      let stderr = '';
      try {
        const code = await runRecordsQueryWith(parsed.data.flags, {
          out: (text) => {
            stdout += text;
          },
          err: (text) => {
            stderr += text;
          },
          open: () => borrowed,
          failureLog,
        });
        // The streams follow the header raw (their byte lengths in it): no JSON escaping of a
        // large answer, no parse of it in the CLI.
        const out = Buffer.from(stdout);
        const err = Buffer.from(stderr);
        socket.write(`${JSON.stringify({ t: 'answer', code, stdout: out.length, stderr: err.length })}\n`);
        socket.write(out);
        socket.end(err);
      } catch (error) {
        // Errors are reported by the CLI itself, in its own words and exit code.
        reply({ t: 'decline', why: (error as Error).message });
      }
    };
    socket.on('data', onData);
  }

  // Runs until `stop` exits the process.
  return new Promise<number>(() => {});
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The server's source lent to one query: its methods, bound, and a `close` that keeps it open. */
function borrow(source: RecordSource): RecordSource {
  return {
    query: (query) => source.query(query),
    survey: (query) => source.survey(query),
    paths: () => source.paths(),
    ...(source.pathsAmong
      ? { pathsAmong: (paths: string[]) => source.pathsAmong?.(paths) ?? new Set() }
      : {}),
    recallCandidates: (terms) => source.recallCandidates(terms),
    rows: () => source.rows(),
    skipped: () => source.skipped?.() ?? [],
    close: () => {},
  };
}
