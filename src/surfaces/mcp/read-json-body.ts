import type { IncomingMessage } from 'node:http';

/** 4 MiB: far above any real MCP request, far below what hurts the server. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export type BodyResult =
  | { ok: true; body: unknown }
  | { ok: false; status: 400 | 413; code: number; message: string };

const tooLarge = (limit: number, seen: string): BodyResult => ({
  ok: false,
  status: 413,
  code: -32600,
  message: `Request body ${seen} is over the ${limit}-byte limit. Send smaller requests (split the content), or start the server with a larger --max-body-bytes.`,
});

/**
 * Reads a JSON body, counting bytes as they stream in. Security: a body over the limit is
 * refused as soon as its Content-Length (or its running total) says so, never buffered whole.
 */
export async function readJsonBody(request: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return tooLarge(limit, `of ${declared} bytes`);
  const chunks: Buffer[] = [];
  let total = 0;
  // Events, not `for await`: leaving that loop early destroys the socket, and the 413 with it.
  const overflow = await new Promise<BodyResult | undefined>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total <= limit) {
        chunks.push(chunk);
        return;
      }
      request.off('data', onData);
      request.pause();
      chunks.length = 0;
      resolve(tooLarge(limit, `(over ${total} bytes so far)`));
    };
    request.on('data', onData);
    request.once('end', () => resolve(undefined));
    request.once('error', reject);
  });
  if (overflow) return overflow;
  const text = Buffer.concat(chunks, total).toString('utf8');
  if (text.trim() === '') return { ok: true, body: undefined };
  try {
    return { ok: true, body: JSON.parse(text) };
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return { ok: false, status: 400, code: -32700, message: `Parse error: ${error.message}` };
  }
}
