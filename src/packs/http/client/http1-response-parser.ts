/**
 * An HTTP/1.1 response read from a connection's bytes as they come (issue 22: node:http's
 * client costs ~0.7 ms of CPU per request in a short run, most of a create's cost). One request
 * is in flight per connection, so one response is read: its head, then its body framed by
 * `Content-Length`, chunked coding or the connection's close. It is as strict as node:http's
 * parser (llhttp) where framing is at stake — two lengths, a length beside chunked coding, a
 * malformed chunk or head are errors, never a guess — and reads the headers into the same
 * shape as node's IncomingMessage does (see `addHeader`).
 */

/** node:http's default cap on a response head (--max-http-header-size). */
export const MAX_HEAD_BYTES = 16 * 1024;

/** A response that cannot be read as HTTP/1.1: named like llhttp's errors, so a message says which part failed. */
export class ResponseParseError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(`Parse Error: ${message}`);
    this.code = code;
  }
}

export interface ResponseHead {
  status: number;
  /** Header values by lower-case name, joined as node:http joins them; `set-cookie` kept apart. */
  headers: Map<string, string>;
  setCookies: string[];
  /** Whether the connection may carry another request after this response. */
  keepAlive: boolean;
}

/** Headers node:http keeps only the first of (a second `Location` is ignored, not joined). */
const FIRST_ONLY = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: [^\r\n]*)?$/;
const HEADER_NAME = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
/** What a header value may hold once its edges are trimmed (no control character but tab). */
const INVALID_VALUE = /[\x00-\x08\x0a-\x1f\x7f]/;
const CHUNK_SIZE = /^([0-9a-fA-F]{1,15})(?:[ \t]*;[^\r\n]*)?$/;

function addHeader(head: ResponseHead, name: string, value: string): void {
  if (name === 'set-cookie') {
    head.setCookies.push(value);
    return;
  }
  const before = head.headers.get(name);
  if (before === undefined) head.headers.set(name, value);
  else if (!FIRST_ONLY.has(name))
    head.headers.set(name, `${before}${name === 'cookie' ? '; ' : ', '}${value}`);
}

/** The head's lines (CRLF, as llhttp requires) into a ResponseHead; throws ResponseParseError. */
function parseHead(text: string): { head: ResponseHead; version: number } {
  const lines = text.split('\r\n');
  const statusLine = STATUS_LINE.exec(lines[0] as string);
  if (!statusLine) throw new ResponseParseError('HPE_INVALID_CONSTANT', 'Expected HTTP/1.x status line');
  const head: ResponseHead = {
    status: Number(statusLine[2]),
    headers: new Map(),
    setCookies: [],
    keepAlive: true,
  };
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index] as string;
    if (line.includes('\n') || line.includes('\r'))
      throw new ResponseParseError('HPE_LF_EXPECTED', 'Missing expected CR after header value');
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon) : '';
    if (!HEADER_NAME.test(name))
      throw new ResponseParseError('HPE_INVALID_HEADER_TOKEN', 'Invalid header token');
    const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    const lower = name.toLowerCase();
    // Two lengths, even equal ones, leave the framing in doubt: llhttp refuses them, and so does this.
    if (lower === 'content-length' && head.headers.has(lower))
      throw new ResponseParseError('HPE_UNEXPECTED_CONTENT_LENGTH', 'Duplicate Content-Length');
    if (INVALID_VALUE.test(value))
      throw new ResponseParseError('HPE_INVALID_HEADER_TOKEN', 'Invalid header value char');
    addHeader(head, lower, value);
  }
  return { head, version: Number(statusLine[1]) };
}

type Framing =
  | { kind: 'length'; left: number }
  | { kind: 'chunked'; state: 'size' | 'data' | 'data-end' | 'trailer'; left: number }
  | { kind: 'close' };

export interface ResponseParserEvents {
  /** The final response's head (1xx interim responses are passed over). */
  head(head: ResponseHead): void;
  body(chunk: Buffer): void;
  /** The response is complete; `rest` holds any bytes after it (a server that sent more than asked). */
  end(rest: Buffer): void;
}

/**
 * Reads one response. `push` every chunk the connection gives, `close` when it ends; events
 * arrive through `events`, errors as a thrown ResponseParseError.
 */
export class ResponseParser {
  private pending: Buffer = Buffer.alloc(0);
  private framing: Framing | undefined;
  private finished = false;

  constructor(
    private readonly method: string,
    private readonly events: ResponseParserEvents,
  ) {}

  /** True once a head was read: the server answered, whatever happens next. */
  get answered(): boolean {
    return this.framing !== undefined;
  }

  push(chunk: Buffer): void {
    if (this.finished) return;
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    while (!this.finished) if (!(this.framing ? this.readBody() : this.readHead())) return;
  }

  /** The connection ended: a body that runs to the close is complete, anything else was cut. */
  close(): void {
    if (this.finished) return;
    if (this.framing?.kind === 'close') {
      this.finished = true;
      this.events.end(Buffer.alloc(0));
      return;
    }
    throw Object.assign(new Error(this.framing ? 'aborted' : 'socket hang up'), { code: 'ECONNRESET' });
  }

  private readHead(): boolean {
    const end = this.pending.indexOf('\r\n\r\n');
    if (end < 0) {
      if (this.pending.length > MAX_HEAD_BYTES)
        throw new ResponseParseError('HPE_HEADER_OVERFLOW', 'Header overflow');
      return false;
    }
    if (end > MAX_HEAD_BYTES) throw new ResponseParseError('HPE_HEADER_OVERFLOW', 'Header overflow');
    const { head, version } = parseHead(this.pending.toString('latin1', 0, end));
    this.pending = this.pending.subarray(end + 4);
    // 100 Continue, 103 Early Hints: the response proper follows. 101 would switch protocols, never asked for.
    if (head.status >= 100 && head.status < 200) {
      if (head.status === 101)
        throw new ResponseParseError('HPE_INVALID_CONSTANT', 'Unexpected protocol switch');
      return true;
    }
    this.framing = this.framingOf(head, version);
    this.events.head(head);
    if (this.framing.kind === 'length' && this.framing.left === 0) this.complete();
    return true;
  }

  private framingOf(head: ResponseHead, version: number): Framing {
    const connection = (head.headers.get('connection') ?? '').toLowerCase();
    head.keepAlive =
      version === 1
        ? !/(?:^|,)\s*close\s*(?:,|$)/.test(connection)
        : /(?:^|,)\s*keep-alive\s*(?:,|$)/.test(connection);
    if (this.method === 'HEAD' || head.status === 204 || head.status === 304)
      return { kind: 'length', left: 0 };
    const coding = head.headers.get('transfer-encoding');
    const length = head.headers.get('content-length');
    if (coding !== undefined) {
      if (length !== undefined)
        throw new ResponseParseError(
          'HPE_UNEXPECTED_CONTENT_LENGTH',
          "Content-Length can't be present with Transfer-Encoding",
        );
      if (/(?:^|,)\s*chunked\s*$/i.test(coding)) return { kind: 'chunked', state: 'size', left: 0 };
      head.keepAlive = false;
      return { kind: 'close' };
    }
    if (length !== undefined) {
      if (!/^\d{1,15}$/.test(length))
        throw new ResponseParseError('HPE_INVALID_CONTENT_LENGTH', 'Invalid character in Content-Length');
      return { kind: 'length', left: Number(length) };
    }
    head.keepAlive = false;
    return { kind: 'close' };
  }

  private complete(): void {
    this.finished = true;
    const rest = this.pending;
    this.pending = Buffer.alloc(0);
    this.events.end(rest);
  }

  /** Reads what the body's framing allows of the pending bytes; false when more are needed. */
  private readBody(): boolean {
    const framing = this.framing as Framing;
    if (framing.kind === 'close') {
      if (this.pending.length > 0) this.events.body(this.pending);
      this.pending = Buffer.alloc(0);
      return false;
    }
    if (framing.kind === 'length') {
      if (!this.takeBody(framing)) return false;
      this.complete();
      return true;
    }
    return this.readChunked(framing);
  }

  /** Hands on what is pending of the `left` bytes a length or a chunk declared; true once all are. */
  private takeBody(framing: { left: number }): boolean {
    const take = Math.min(framing.left, this.pending.length);
    if (take > 0) this.events.body(this.pending.subarray(0, take));
    this.pending = this.pending.subarray(take);
    framing.left -= take;
    return framing.left === 0;
  }

  private readChunked(framing: Extract<Framing, { kind: 'chunked' }>): boolean {
    if (framing.state === 'data') {
      if (!this.takeBody(framing)) return false;
      framing.state = 'data-end';
      return true;
    }
    if (framing.state === 'data-end') {
      if (this.pending.length < 2) return false;
      if (this.pending[0] !== 0x0d || this.pending[1] !== 0x0a)
        throw new ResponseParseError('HPE_STRICT', 'Expected LF after chunk data');
      this.pending = this.pending.subarray(2);
      framing.state = 'size';
      return true;
    }
    const lineEnd = this.pending.indexOf('\r\n');
    if (lineEnd < 0) {
      if (this.pending.length > MAX_HEAD_BYTES)
        throw new ResponseParseError('HPE_HEADER_OVERFLOW', 'Chunk line overflow');
      return false;
    }
    const line = this.pending.toString('latin1', 0, lineEnd);
    this.pending = this.pending.subarray(lineEnd + 2);
    if (framing.state === 'trailer') {
      // Trailers are read past, as node:http keeps them off the headers; an empty line ends the
      // body. `left` counts their bytes here: together they are capped like a head.
      framing.left += lineEnd + 2;
      if (framing.left > MAX_HEAD_BYTES)
        throw new ResponseParseError('HPE_HEADER_OVERFLOW', 'Trailer overflow');
      if (line === '') this.complete();
      else if (!HEADER_NAME.test(line.slice(0, Math.max(0, line.indexOf(':')))))
        throw new ResponseParseError('HPE_INVALID_HEADER_TOKEN', 'Invalid trailer token');
      return true;
    }
    const size = CHUNK_SIZE.exec(line);
    if (!size) throw new ResponseParseError('HPE_INVALID_CHUNK_SIZE', 'Invalid character in chunk size');
    framing.left = Number.parseInt(size[1] as string, 16);
    framing.state = framing.left === 0 ? 'trailer' : 'data';
    return true;
  }
}
