import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { describeOversizedRequest, type OversizedRequest } from './oversized-request.js';

/** The SDK's own stdio limit (STDIO_DEFAULT_MAX_BUFFER_SIZE): clients are built around it. */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
const HEAD_BYTES = 4096;
const TAIL_BYTES = 1024;
/**
 * Security (issue 19): JSON.parse's cost grows with nesting, not only size — 5 MB of `[`
 * blocked the session for seconds (parse, then the schema's error report). No MCP request
 * nests this deep; a deeper line is refused like an oversized one, before any parse.
 */
export const MAX_JSON_DEPTH = 256;
/** Lines shorter than this parse in a few milliseconds whatever their shape: not scanned. */
const DEPTH_SCAN_FROM_BYTES = 64 * 1024;

/** Whether a JSON text nests `[`/`{` deeper than `limit`, outside strings: one pass, stopping early. */
export function nestsDeeperThan(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index];
    if (byte === 0x22) {
      // Skip the string: to the next quote not escaped by a backslash.
      for (index += 1; index < bytes.length && bytes[index] !== 0x22; index += 1)
        if (bytes[index] === 0x5c) index += 1;
    } else if (byte === 0x5b || byte === 0x7b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (byte === 0x5d || byte === 0x7d) depth -= 1;
  }
  return false;
}

export interface LineStdioTransportOptions {
  stdin?: Readable;
  stdout?: Writable;
  maxMessageBytes?: number;
}

/** Why the transport closed: the client went away, or the pipe failed under us. */
export interface StdioClosing {
  transportError: boolean;
  why: string;
}

/**
 * Newline-delimited JSON-RPC over stdin/stdout, in place of the SDK's StdioServerTransport:
 * that one re-concatenates its whole buffer on every 64 KiB chunk (quadratic in the message
 * size: an 8 MB write took seconds) and, past 10 MB, throws and closes the session. Here
 * chunks are kept as a list and joined once per line, and a line over the limit is skipped
 * to its end and reported through `onoversized`, so the caller can refuse that one request
 * and the session lives on. A line nested deeper than MAX_JSON_DEPTH is refused the same way,
 * without being parsed.
 */
export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  onoversized?: (request: OversizedRequest) => void;
  closing?: StdioClosing;

  private readonly stdin: Readable;
  private readonly stdout: Writable;
  private readonly maxMessageBytes: number;
  private chunks: Buffer[] = [];
  private pending = 0;
  private skipping?: { head: Buffer; tail: Buffer; bytes: number };
  private closed = false;

  constructor(options: LineStdioTransportOptions = {}) {
    this.stdin = options.stdin ?? process.stdin;
    this.stdout = options.stdout ?? process.stdout;
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('error', this.onStreamError);
    // An EPIPE on stdout is an 'error' event: unhandled, it would crash the server mid-run.
    this.stdout.on('error', this.onStreamError);
  }

  private readonly onEnd = () => {
    void this.shutDown({ transportError: false, why: 'the client closed stdin' });
  };

  private readonly onStreamError = (error: Error) => {
    this.onerror?.(error);
    void this.shutDown({ transportError: true, why: `transport error: ${error.message}` });
  };

  private readonly onData = (chunk: Buffer) => {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(10, start);
      if (newline === -1) {
        if (start < chunk.length) this.take(chunk.subarray(start));
        return;
      }
      if (newline > start) this.take(chunk.subarray(start, newline));
      this.endLine();
      start = newline + 1;
    }
  };

  private take(piece: Buffer): void {
    if (this.skipping) {
      const skipping = this.skipping;
      skipping.bytes += piece.length;
      skipping.tail =
        piece.length >= TAIL_BYTES
          ? Buffer.from(piece.subarray(piece.length - TAIL_BYTES))
          : Buffer.concat([skipping.tail, piece]).subarray(-TAIL_BYTES);
      return;
    }
    this.chunks.push(piece);
    this.pending += piece.length;
    if (this.pending > this.maxMessageBytes) {
      // Security: a line past the limit is never held whole; keep its ends to answer it.
      const joined = Buffer.concat(this.chunks, this.pending);
      this.skipping = {
        head: Buffer.from(joined.subarray(0, HEAD_BYTES)),
        tail: Buffer.from(joined.subarray(-TAIL_BYTES)),
        bytes: this.pending,
      };
      this.chunks = [];
      this.pending = 0;
    }
  }

  private endLine(): void {
    if (this.skipping) {
      const { head, tail, bytes } = this.skipping;
      this.skipping = undefined;
      this.onoversized?.(describeOversizedRequest(head.toString('utf8'), tail.toString('utf8'), bytes));
      return;
    }
    const line = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.pending);
    this.chunks = [];
    this.pending = 0;
    if (line && line.length >= DEPTH_SCAN_FROM_BYTES && nestsDeeperThan(line, MAX_JSON_DEPTH)) {
      const request = describeOversizedRequest(
        line.subarray(0, HEAD_BYTES).toString('utf8'),
        line.subarray(-TAIL_BYTES).toString('utf8'),
        line.length,
      );
      this.onoversized?.({ ...request, tooDeep: MAX_JSON_DEPTH });
      return;
    }
    const text = line?.toString('utf8').replace(/\r$/, '') ?? '';
    if (text.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(text));
    } catch (error) {
      // Like the SDK: a malformed line is reported and skipped, the session goes on.
      this.onerror?.(error as Error);
      return;
    }
    this.onmessage?.(message);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closed || this.stdout.destroyed) {
        reject(new Error('The stdio transport is closed; the message was not sent.'));
        return;
      }
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  private async shutDown(closing: StdioClosing): Promise<void> {
    if (this.closed) return;
    this.closing = closing;
    await this.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.closing ??= { transportError: false, why: 'the server closed the session' };
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.skipping = undefined;
    this.onclose?.();
  }
}
