import { connect } from 'node:net';
import { TallyError } from '../../../core/errors.js';

/** Failures to reach a server at all (nothing sent or nothing answered), by Node/undici code. */
const UNREACHABLE =
  /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ECONNRESET|UND_ERR_CONNECT_TIMEOUT|UND_ERR_SOCKET)$/;

/** The network code under an error (fetch wraps it as `cause`), when it says the server cannot be reached. */
export function unreachableCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A server Tally was pointed at (`--base-url`, a `--spec` URL) cannot be reached: exit 3, nothing was sent. */
export class ServerUnreachableError extends TallyError {}

const CONNECT_TIMEOUT_MS = 5_000;

/**
 * Checks that something accepts connections at `baseUrl`'s host and port before a run starts,
 * so an unreachable `--base-url` is one clear error (exit 3) rather than a run whose every
 * tool call fails with advice meant for a model.
 */
export async function assertReachable(baseUrl: string, flag = '--base-url'): Promise<void> {
  const url = new URL(baseUrl);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const code = await new Promise<string | undefined>((resolve) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port });
    const done = (result: string | undefined) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => done('ETIMEDOUT'));
    socket.once('connect', () => done(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
  });
  if (code)
    throw new ServerUnreachableError(
      'SERVER_UNREACHABLE',
      `Cannot reach ${url.origin} (${code}); nothing was sent. Check ${flag} and that the app is running there.`,
      { url: url.origin, cause: code },
    );
}
