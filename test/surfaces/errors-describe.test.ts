import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { TallyError } from '../../src/core/errors.js';
import { describeError } from '../../src/surfaces/cli/describe-error.js';

async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('describeError: every foreseeable failure gets a code, a place and a fix', () => {
  it('a real fetch to a port nothing listens on is NETWORK_REFUSED naming host:port (exit 3)', async () => {
    const port = await refusedPort();
    const error = await fetch(`http://127.0.0.1:${port}/x`).catch((caught: unknown) => caught);
    const described = describeError(error);
    expect(described).toMatchObject({ code: 'NETWORK_REFUSED', exit: 3 });
    expect(described.message).toBe(
      `Nothing is listening at 127.0.0.1:${port} (connection refused). Check the URL and that the server is running.`,
    );
    expect(described.details).toMatchObject({ cause: 'ECONNREFUSED', port });
  });

  it('a real fetch to a name that does not resolve is NETWORK_DNS naming the host', async () => {
    const error = await fetch('http://tally-no-such-host.invalid/').catch((caught: unknown) => caught);
    const described = describeError(error);
    expect(described.code).toBe('NETWORK_DNS');
    expect(described.message).toMatch(/Cannot resolve the host tally-no-such-host\.invalid/);
  }, 30_000);

  it('a real listen on a busy port is PORT_IN_USE with the port and the fix', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as AddressInfo;
    const second = createServer();
    const error = await new Promise((resolve) => {
      second.once('error', resolve);
      second.listen(port, '127.0.0.1');
    });
    await new Promise((resolve) => busy.close(resolve));
    expect(describeError(error)).toMatchObject({
      code: 'PORT_IN_USE',
      exit: 3,
      message: `Port ${port} on 127.0.0.1 is already in use. Pass another --port (0 picks a free one), or stop the process listening there.`,
    });
  });

  it('an invalid URL thrown by new URL() is URL_INVALID with the input (exit 2)', () => {
    const error = (() => {
      try {
        return new URL('not a url');
      } catch (caught) {
        return caught;
      }
    })();
    expect(describeError(error)).toMatchObject({
      code: 'URL_INVALID',
      exit: 2,
      details: { input: 'not a url' },
    });
  });

  it('a TLS failure names the handshake and says to check http versus https', () => {
    const error = new TypeError('fetch failed', {
      cause: Object.assign(new Error('wrong version number'), {
        code: 'ERR_SSL_WRONG_VERSION_NUMBER',
        host: '127.0.0.1',
        port: 443,
      }),
    });
    const described = describeError(error);
    expect(described.code).toBe('NETWORK_TLS');
    expect(described.message).toMatch(/127\.0\.0\.1:443 .*Check http:\/\/ versus https:\/\//);
  });

  it('a TallyError keeps its code and details; unavailability codes exit 3, the rest 2', () => {
    expect(describeError(new TallyError('ROOT_NOT_FOUND', 'No root. Pass --root.', { root: '/x' }))).toEqual({
      code: 'ROOT_NOT_FOUND',
      message: 'No root. Pass --root.',
      details: { root: '/x' },
      exit: 3,
    });
    expect(describeError(new TallyError('HEADER_INVALID', 'Bad. Fix it.')).exit).toBe(2);
  });

  it('an AI SDK error says to check the model settings', () => {
    const error = Object.assign(new Error('Cannot connect to API: other side closed'), {
      name: 'AI_APICallError',
    });
    expect(describeError(error)).toMatchObject({ code: 'MODEL_CALL_FAILED', exit: 3 });
    expect(describeError(error).message).toMatch(/Check --model, the provider's API key and base URL/);
  });

  it('anything unforeseen is called a bug, without its stack, and points at --debug', () => {
    const described = describeError(new Error('boom'));
    expect(described).toMatchObject({ code: 'UNEXPECTED', exit: 3 });
    expect(described.message).toBe(
      'unexpected error: boom. This is a bug in Tally: rerun with --debug for the stack trace and report it.',
    );
  });
});
