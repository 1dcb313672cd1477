import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Net from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveRecordsRoot } from '../../packs/records/stores.js';
import type { RecordsFlags } from './records-command.js';
import { residentDir, residentKey, residentSocketPath } from './records-resident-socket.js';

/** What the resident server answered: exactly what the one-shot query would have printed. */
export interface ResidentAnswer {
  code: number;
  /**
   * The bytes as they came, written to stdout as they are: decoding them and encoding them
   * again cost ~10 ms of client CPU for a 750 KB answer (7,554 hits at 50,000 records).
   */
  stdout: Buffer;
  stderr: string;
}

/** Why no server answered: `absent` (none listening: one may be started), or it failed us. */
export type ResidentMiss = { miss: 'absent' | 'refused' | 'failed'; why: string };

/** A server must accept and acknowledge within this, or the CLI answers by itself. */
export const RESIDENT_ACK_MS = 1_000;
/**
 * An acknowledged query may take a full check first (an edit was seen: ~0.3 s at 50,000
 * records, seconds at 500,000); past this the server is taken for hung and the CLI answers.
 */
export const RESIDENT_ANSWER_MS = 30_000;
/** How long an automatically started server waits for a query before it exits. */
export const RESIDENT_IDLE_EXIT_S = 600;

// This file sits three levels below the package root in dist/, in the bundle and in src/.
const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * The build a server runs: the package folder and when its dist/ was last built. A rebuild
 * changes it, so a server of the old code is never asked (it idles out on its own).
 */
export function residentBuild(): string {
  const built = statSync(join(PACKAGE_ROOT, 'dist', 'surfaces', 'cli', 'records-command.js'), {
    throwIfNoEntry: false,
  });
  return `${PACKAGE_ROOT}@${built?.mtimeMs ?? 0}`;
}

/**
 * Whether this query may go to a resident server: unix sockets (not Windows), not turned off
 * with TALLY_RECORDS_RESIDENT=0, and the default index (`--index`/`--no-index` are one-off
 * choices the server does not hold).
 */
export function residentEligible(flags: RecordsFlags, env: NodeJS.ProcessEnv): boolean {
  return process.platform !== 'win32' && env.TALLY_RECORDS_RESIDENT !== '0' && flags.index === undefined;
}

export interface ResidentTarget {
  socket: string;
  key: string;
  root: string;
}

/** The socket this query's server would listen on, or why there can be none. */
export function residentTarget(
  flags: RecordsFlags,
  env: NodeJS.ProcessEnv,
  cwd = process.cwd(),
): ResidentTarget | ResidentMiss {
  const root = resolveRecordsRoot(flags.root, env, cwd);
  const dir = residentDir(env);
  if ('refused' in dir) return { miss: 'refused', why: dir.refused };
  const key = residentKey(root, residentBuild(), env);
  const socket = residentSocketPath(dir.dir, key);
  if (!socket) return { miss: 'refused', why: 'the socket path would be too long' };
  return { socket, key, root };
}

/**
 * Asks the server at `target` for the answer to `flags`. Never waits long: no server, a
 * refused connection, no acknowledgement within RESIDENT_ACK_MS, a malformed or declined
 * answer — each is a miss, and the caller answers by itself.
 */
export function askResident(
  target: ResidentTarget,
  flags: RecordsFlags,
  timeouts = { ackMs: RESIDENT_ACK_MS, answerMs: RESIDENT_ANSWER_MS },
): Promise<ResidentAnswer | ResidentMiss> {
  return new Promise((settle) => {
    let done = false;
    // Chunks not yet taken; `body` is set once the answer's header line said how long it is.
    const chunks: Buffer[] = [];
    let size = 0;
    let body: { code: number; stdout: number; stderr: number } | undefined;
    // Required here, not at the top: node:net brings the stream modules (~6–10 ms of a
    // one-shot query, which with TALLY_RECORDS_RESIDENT=0 never asks a server; issue 22).
    const { connect } = createRequire(import.meta.url)('node:net') as typeof Net;
    const socket = connect(target.socket);
    const finish = (result: ResidentAnswer | ResidentMiss) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      settle(result);
    };
    let timer = setTimeout(
      () => finish({ miss: 'failed', why: `no acknowledgement within ${timeouts.ackMs} ms` }),
      timeouts.ackMs,
    );
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish({
        // No socket file, or a file nobody listens on (a server that died): a new one may start.
        miss: error.code === 'ENOENT' || error.code === 'ECONNREFUSED' ? 'absent' : 'failed',
        why: `${error.code ?? 'ERROR'}: ${error.message}`,
      }),
    );
    socket.on('close', () => finish({ miss: 'failed', why: 'the server closed the connection' }));
    socket.on('connect', () =>
      socket.write(
        `${JSON.stringify({ key: target.key, root: target.root, flags: { ...flags, root: target.root } })}\n`,
      ),
    );
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      // Header lines (ack, then the answer's or a decline): looked for in the new chunk only,
      // so a large answer is not scanned again with every chunk.
      while (!body && !done) {
        const newline = chunk.indexOf(10);
        if (newline === -1) return;
        const all = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
        const lineEnd = all.length - (chunk.length - newline);
        const message = parseHeader(all.subarray(0, lineEnd).toString('utf8'));
        chunk = all.subarray(lineEnd + 1);
        chunks.length = 0;
        chunks.push(chunk);
        size = chunk.length;
        if (message === 'ack') {
          clearTimeout(timer);
          timer = setTimeout(
            () => finish({ miss: 'failed', why: `no answer within ${timeouts.answerMs} ms` }),
            timeouts.answerMs,
          );
        } else if ('miss' in message) finish(message);
        else body = message;
      }
      if (body && size >= body.stdout + body.stderr) {
        const all = Buffer.concat(chunks);
        finish({
          code: body.code,
          stdout: all.subarray(0, body.stdout),
          stderr: all.subarray(body.stdout, body.stdout + body.stderr).toString('utf8'),
        });
      }
    });
  });
}

/**
 * The server's header lines, checked field by field (not zod: its ~20 ms of loading would be
 * most of what a resident answer costs; the shape is a few fields). An answer's header gives
 * the exit code and the byte lengths of stdout and stderr, which follow it raw.
 */
function parseHeader(line: string): 'ack' | ResidentMiss | { code: number; stdout: number; stderr: number } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { miss: 'failed', why: 'the server sent a line that is not JSON' };
  }
  const message = value as Record<string, unknown> | null;
  const length = (field: unknown) => Number.isInteger(field) && (field as number) >= 0;
  if (message?.t === 'ack') return 'ack';
  if (
    message?.t === 'answer' &&
    Number.isInteger(message.code) &&
    length(message.stdout) &&
    length(message.stderr)
  )
    return {
      code: message.code as number,
      stdout: message.stdout as number,
      stderr: message.stderr as number,
    };
  if (message?.t === 'decline')
    return { miss: 'failed', why: `declined: ${typeof message.why === 'string' ? message.why : '?'}` };
  return { miss: 'failed', why: 'the server sent an answer of an unknown shape' };
}

/**
 * Starts a server for `target` in the background through the launcher (`tally records serve`),
 * detached, its output discarded; it exits after `idleExitS` seconds without a query. Two CLIs
 * that start one at once end with one: the second to bind sees the first and exits.
 */
export function startResident(
  launcher: string,
  target: ResidentTarget,
  idleExitS = RESIDENT_IDLE_EXIT_S,
): void {
  try {
    // Required here, not imported: a query answered by a server, or with starting turned off,
    // never spawns, and node:child_process (with dgram and the socket list) is a few ms of
    // every start-up otherwise.
    const { spawn } = createRequire(import.meta.url)(
      'node:child_process',
    ) as typeof import('node:child_process');
    const child = spawn(
      process.execPath,
      [launcher, 'records', 'serve', '--root', target.root, '--idle-exit', String(idleExitS)],
      { detached: true, stdio: 'ignore', cwd: target.root },
    );
    child.on('error', () => {});
    child.unref();
  } catch {
    // No server is no fault: the next query answers by itself again.
  }
}
