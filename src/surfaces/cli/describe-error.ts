import { existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { isTallyError } from '../../core/errors.js';
import { EXIT, UNAVAILABLE_CODES } from './exit-codes.js';

/**
 * Commander's errors by shape, not `instanceof`: the records and hook fast paths report errors
 * through this module without loading commander (~7 ms of start-up). By their `commander.*` code,
 * not their name: bundled (dist/fast/cli), commander's classes are renamed (`CommanderError2`).
 */
function isCommanderError(error: unknown): error is Error & { code: string; exitCode: number } {
  const { code, exitCode } = error as { code?: unknown; exitCode?: unknown };
  return (
    error instanceof Error &&
    typeof code === 'string' &&
    code.startsWith('commander.') &&
    typeof exitCode === 'number'
  );
}

/** What the CLI prints for a failure: a stable code, a message ending with the fix, the exit code. */
export interface DescribedError {
  code: string;
  message: string;
  details: Record<string, unknown>;
  exit: number;
}

const UNAVAILABLE: ReadonlySet<string> = new Set(UNAVAILABLE_CODES);

interface SystemError {
  code?: string;
  message?: string;
  address?: string;
  port?: number;
  hostname?: string;
  host?: string;
  syscall?: string;
  path?: string;
  /** A rename's destination (the path the user named; `path` is the source). */
  dest?: string;
  input?: string;
  cause?: unknown;
}

const TLS_CODE =
  /^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|EPROTO$)/;

/** The innermost error that carries a Node system code (fetch wraps them as `cause`). */
function systemCause(error: unknown): SystemError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    const candidate = current as SystemError;
    if (typeof candidate.code === 'string' && candidate.code !== 'ERR_INVALID_URL') return candidate;
    current = candidate.cause;
  }
  return undefined;
}

function where(cause: SystemError): string {
  const host = cause.hostname ?? cause.host ?? cause.address;
  if (!host) return 'the server';
  return cause.port === undefined ? host : `${host}:${cause.port}`;
}

function details(cause: SystemError): Record<string, unknown> {
  const out: Record<string, unknown> = { cause: cause.code };
  for (const key of ['hostname', 'address', 'port', 'syscall', 'path'] as const)
    if (cause[key] !== undefined) out[key] = cause[key];
  return out;
}

/** Node's own failures we can foresee: sockets, DNS, TLS, files. */
function describeSystem(cause: SystemError): DescribedError | undefined {
  const code = cause.code ?? '';
  const at = where(cause);
  const unavailable = (tallyCode: string, message: string) => ({
    code: tallyCode,
    message,
    details: details(cause),
    exit: EXIT.unavailable,
  });
  if (code === 'EADDRINUSE')
    return unavailable(
      'PORT_IN_USE',
      `Port ${cause.port ?? '?'} on ${cause.address ?? 'this machine'} is already in use. Pass another --port (0 picks a free one), or stop the process listening there.`,
    );
  if (code === 'EADDRNOTAVAIL')
    return unavailable(
      'HOST_UNAVAILABLE',
      `Cannot listen on ${cause.address ?? 'that address'}: it is not an address of this machine. Pass --host 127.0.0.1.`,
    );
  if (code === 'EACCES' && cause.syscall === 'listen')
    return unavailable(
      'PORT_NOT_PERMITTED',
      `Not allowed to listen on port ${cause.port ?? '?'} (ports below 1024 need privileges). Pass a --port of 1024 or more, or 0.`,
    );
  if (code === 'ECONNREFUSED')
    return unavailable(
      'NETWORK_REFUSED',
      `Nothing is listening at ${at} (connection refused). Check the URL and that the server is running.`,
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return unavailable(
      'NETWORK_DNS',
      `Cannot resolve the host ${cause.hostname ?? at} (${code}). Check the host name's spelling and your network or DNS.`,
    );
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT')
    return unavailable(
      'NETWORK_TIMEOUT',
      `${at} did not answer in time (${code}). Check that the server is up and reachable from this machine.`,
    );
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET')
    return unavailable(
      'NETWORK_RESET',
      `The connection to ${at} was cut (${code}). Check the server's logs, then try again.`,
    );
  if (TLS_CODE.test(code))
    return unavailable(
      'NETWORK_TLS',
      `The TLS handshake with ${at} failed (${code}). Check http:// versus https:// in the URL; for a private CA, set NODE_EXTRA_CA_CERTS.`,
    );
  if (code === 'ENOENT' && cause.path) {
    // Writing `--out /missing/dir/x.html` fails on the folder, not on the file it would create.
    const folder = dirname(cause.path);
    if (!existsSync(folder))
      return unavailable(
        'FOLDER_NOT_FOUND',
        `The folder ${folder} does not exist (for ${basename(cause.path)}). Create it (mkdir -p ${folder}) or give a path in a folder that exists.`,
      );
    return unavailable('FILE_NOT_FOUND', `${cause.path} does not exist. Check the path.`);
  }
  if (code === 'EISDIR' && cause.path)
    return {
      code: 'PATH_IS_FOLDER',
      message: `${cause.dest ?? cause.path} is a folder, where a file is needed. Pass a file's path (in that folder, for example).`,
      details: details(cause),
      exit: EXIT.usage,
    };
  if ((code === 'EACCES' || code === 'EPERM') && cause.path)
    return unavailable(
      'FILE_NOT_PERMITTED',
      `Not allowed to access ${cause.path} (${code}). Check its permissions or pass another path.`,
    );
  return undefined;
}

/** Maps any thrown value to what the user sees. Only unforeseen failures are called bugs. */
export function describeError(error: unknown): DescribedError {
  if (isTallyError(error))
    return {
      code: error.code,
      message: error.message,
      details: error.details,
      exit: UNAVAILABLE.has(error.code) ? EXIT.unavailable : EXIT.usage,
    };
  if (isCommanderError(error))
    return {
      code: 'USAGE',
      message: `${error.message
        .replace(/^error: /, '')
        .replace(/\s*\n\s*/g, ' ')
        .replace(/\.?$/, '.')} Run \`tally --help\` (or \`tally COMMAND --help\`) for usage.`,
      details: { commander: error.code },
      exit: EXIT.usage,
    };
  const invalidUrl = error as SystemError;
  if (invalidUrl?.code === 'ERR_INVALID_URL')
    return {
      code: 'URL_INVALID',
      message: `"${invalidUrl.input ?? ''}" is not a URL. Write a full URL such as http://127.0.0.1:4000.`,
      details: { input: invalidUrl.input },
      exit: EXIT.usage,
    };
  const cause = systemCause(error);
  const system = cause ? describeSystem(cause) : undefined;
  if (system) return system;
  // AI SDK errors (AI_APICallError, AI_RetryError, …) are named, and say what the provider answered.
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  if (name.startsWith('AI_'))
    return {
      code: 'MODEL_CALL_FAILED',
      message: `The model call failed: ${message}. Check --model, the provider's API key and base URL (README "Models").`,
      details: { name },
      exit: EXIT.unavailable,
    };
  if (error instanceof RangeError)
    return {
      code: 'OPTION_INVALID',
      message: `${message.replace(/\.$/, '')}. Check the option's value.`,
      details: {},
      exit: EXIT.usage,
    };
  return {
    code: 'UNEXPECTED',
    message: `unexpected error: ${message}. This is a bug in Tally: rerun with --debug for the stack trace and report it.`,
    details: { name: name || typeof error },
    exit: EXIT.unavailable,
  };
}
