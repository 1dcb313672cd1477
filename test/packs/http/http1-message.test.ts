// The lean client's two halves on their own, byte by byte: the request head it writes and the
// response it reads (issue 22). The differential test holds both to node:http over a socket;
// these name each rule, so a change that breaks one says which.
import { describe, expect, it } from 'vitest';
import {
  isHeaderName,
  isHeaderValue,
  requestHead,
} from '../../../src/packs/http/client/http1-request-head.js';
import {
  MAX_HEAD_BYTES,
  type ResponseHead,
  ResponseParser,
} from '../../../src/packs/http/client/http1-response-parser.js';

interface Read {
  head?: ResponseHead;
  body: string;
  ended: boolean;
  rest?: string;
}

/** Feeds `pieces` to a parser for `method`; what it read, or the error it threw. */
function read(method: string, pieces: string[], close = false): Read {
  const seen: Read = { body: '', ended: false };
  const parser = new ResponseParser(method, {
    head: (head) => {
      seen.head = head;
    },
    body: (chunk) => {
      seen.body += chunk.toString('latin1');
    },
    end: (rest) => {
      seen.ended = true;
      seen.rest = rest.toString('latin1');
    },
  });
  for (const piece of pieces) parser.push(Buffer.from(piece, 'latin1'));
  if (close) parser.close();
  return seen;
}

/** Every way to cut `text` in two, and one byte at a time. */
function cuts(text: string): string[][] {
  const all = [[text], [...text]];
  for (let at = 1; at < text.length; at++) all.push([text.slice(0, at), text.slice(at)]);
  return all;
}

/** The error's code; every refusal must also say in words what failed (never an empty message). */
function code(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    const { code: found, message } = error as { code?: string; message: string };
    if (found?.startsWith('HPE_')) expect(message).toMatch(/^Parse Error: \w/);
    else expect(message).toMatch(/\w{4,}/);
    return found;
  }
}

describe('the response parser', () => {
  it('reads a length-framed response cut anywhere, and hands back what follows it', () => {
    const raw =
      'HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\n{"id":12}NEXT';
    for (const pieces of cuts(raw)) {
      const seen = read('POST', pieces);
      expect(seen.head?.status).toBe(201);
      expect(seen.head?.headers.get('content-type')).toBe('application/json');
      expect(seen.body).toBe('{"id":12}');
      expect(seen.ended).toBe(true);
      // Bytes after the response in the piece that ended it (later pieces are not read).
      expect('NEXT'.startsWith(seen.rest as string)).toBe(true);
    }
  });

  it('reads a chunked body with extensions and trailers cut anywhere; trailers stay off the headers', () => {
    const raw =
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;name=v\r\nWiki\r\n9\r\npedia in \r\n0\r\nX-Trailer: t\r\n\r\n';
    for (const pieces of cuts(raw)) {
      const seen = read('GET', pieces);
      expect(seen.body).toBe('Wikipedia in ');
      expect(seen.ended).toBe(true);
      expect(seen.rest).toBe('');
      expect(seen.head?.headers.has('x-trailer')).toBe(false);
      expect(seen.head?.keepAlive).toBe(true);
    }
  });

  it('a body to the close ends with the close, and the connection is not kept', () => {
    const seen = read('GET', ['HTTP/1.1 200 OK\r\n\r\nall ', 'of it'], true);
    expect(seen).toMatchObject({ body: 'all of it', ended: true });
    expect(seen.head?.keepAlive).toBe(false);
    const coded = read('GET', ['HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nxyz'], true);
    expect(coded).toMatchObject({ body: 'xyz', ended: true });
    expect(coded.head?.keepAlive).toBe(false);
  });

  it.each([
    ['HEAD', 'HTTP/1.1 200 OK\r\nContent-Length: 120\r\n\r\n'],
    ['GET', 'HTTP/1.1 204 No Content\r\nContent-Length: 120\r\n\r\n'],
    ['GET', 'HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n'],
    ['GET', 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'],
  ])('%s with no body: %j ends at its head', (method, raw) => {
    const seen = read(method, [raw]);
    expect(seen).toMatchObject({ body: '', ended: true, rest: '' });
  });

  it('reads a length of several digits, a coding list that ends in chunked, and one that does not', () => {
    expect(read('GET', ['HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\nhello world!+']).body).toBe(
      'hello world!',
    );
    const gzipThenChunked = read('GET', [
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n',
    ]);
    expect(gzipThenChunked).toMatchObject({ body: 'abc', ended: true });
    expect(gzipThenChunked.head?.keepAlive).toBe(true);
    // Chunked first, then another coding: the body runs to the close (as node:http reads it).
    const chunkedThenGzip = read(
      'GET',
      ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\nabc'],
      true,
    );
    expect(chunkedThenGzip).toMatchObject({ body: 'abc', ended: true });
    expect(chunkedThenGzip.head?.keepAlive).toBe(false);
  });

  it('a chunk size of several hex digits; a coding that only starts with chunked is not chunked', () => {
    const big = 'x'.repeat(0x1a);
    expect(
      read('GET', [`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1a\r\n${big}\r\n0\r\n\r\n`]).body,
    ).toBe(big);
    const notChunked = read('GET', ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunkedx\r\n\r\n3\r\nabc'], true);
    expect(notChunked.body).toBe('3\r\nabc');
  });

  it('a status under 100 is a final answer, as node:http reads it', () => {
    const seen = read('GET', ['HTTP/1.1 099 Odd\r\nContent-Length: 2\r\n\r\nok']);
    expect(seen.head?.status).toBe(99);
    expect(seen.body).toBe('ok');
  });

  it('passes over interim responses to the final one', () => {
    const seen = read('POST', [
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n',
      'HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok',
    ]);
    expect(seen.head?.status).toBe(201);
    expect(seen.head?.headers.has('link')).toBe(false);
    expect(seen.body).toBe('ok');
  });

  it('joins repeated headers as node:http does: the first of a single-valued one, cookies apart', () => {
    const seen = read('GET', [
      'HTTP/1.1 302 Found\r\nLocation: /first\r\nLocation: /second\r\nVary: a\r\nvary:  b \r\n' +
        'Set-Cookie: a=1; Path=/\r\nSet-Cookie: b=2, c\r\nCookie: x=1\r\nCookie: y=2\r\nX-Empty:\r\n' +
        'Content-Length: 0\r\n\r\n',
    ]);
    const head = seen.head as ResponseHead;
    expect(head.status).toBe(302);
    expect(head.headers.get('location')).toBe('/first');
    expect(head.headers.get('vary')).toBe('a, b');
    expect(head.headers.get('cookie')).toBe('x=1; y=2');
    expect(head.headers.get('x-empty')).toBe('');
    expect(head.setCookies).toEqual(['a=1; Path=/', 'b=2, c']);
    expect(head.headers.has('set-cookie')).toBe(false);
  });

  it.each([
    'age',
    'authorization',
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
  ])('a repeated %s keeps its first value (node:http’s single-valued headers)', (name) => {
    const seen = read('GET', [
      `HTTP/1.1 200 OK\r\n${name}: first\r\n${name}: second\r\nX-List: a\r\nX-List: b\r\nContent-Length: 0\r\n\r\n`,
    ]);
    expect(seen.head?.headers.get(name)).toBe('first');
    expect(seen.head?.headers.get('x-list')).toBe('a, b');
  });

  it('a value loses the spaces and tabs around it, not inside it', () => {
    const seen = read('GET', ['HTTP/1.1 200 OK\r\nX-A: \t a  b \t \r\nContent-Length: 0\r\n\r\n']);
    expect(seen.head?.headers.get('x-a')).toBe('a  b');
  });

  it.each([
    ['HTTP/1.1 200 OK', true],
    ['HTTP/1.0 200 OK\r\nConnection: Upgrade, keep-alive', true],
    ['HTTP/1.0 200 OK\r\nConnection: keep-alive-please', false],
    ['HTTP/1.1 200 OK\r\nConnection: close', false],
    ['HTTP/1.1 200 OK\r\nConnection: Upgrade, Close', false],
    ['HTTP/1.1 200 OK\r\nConnection: closed', true],
    ['HTTP/1.0 200 OK', false],
    ['HTTP/1.0 200 OK\r\nConnection: keep-alive', true],
    ['HTTP/1.0 200 OK\r\nConnection: Keep-Alive', true],
    ['HTTP/1.1 200', true],
  ])('%j: kept alive %s', (head, keepAlive) => {
    const seen = read('GET', [`${head}\r\nContent-Length: 0\r\n\r\n`]);
    expect(seen.head?.keepAlive).toBe(keepAlive);
    expect(seen.ended).toBe(true);
  });

  it.each([
    ['HPE_INVALID_CONSTANT', 'HTTP/2.0 200 OK\r\nContent-Length: 0\r\n\r\n'],
    ['HPE_INVALID_CONSTANT', 'HTTP/1.1 20 OK\r\n\r\n'],
    ['HPE_INVALID_CONSTANT', 'HTTP/1.1 2000 OK\r\n\r\n'],
    ['HPE_INVALID_CONSTANT', 'http/1.1 200 OK\r\n\r\n'],
    ['HPE_INVALID_CONSTANT', 'XHTTP/1.1 200 OK\r\n\r\n'],
    ['HPE_INVALID_CONSTANT', 'HTTP/1.1 101 Switching Protocols\r\n\r\n'],
    ['HPE_UNEXPECTED_CONTENT_LENGTH', 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\ncontent-length: 3\r\n\r\nabc'],
    [
      'HPE_UNEXPECTED_CONTENT_LENGTH',
      'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n',
    ],
    ['HPE_INVALID_CONTENT_LENGTH', 'HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\n\r\nabc'],
    ['HPE_INVALID_CONTENT_LENGTH', 'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n'],
    ['HPE_INVALID_CONTENT_LENGTH', 'HTTP/1.1 200 OK\r\nContent-Length: 1234567890123456\r\n\r\n'],
    ['HPE_INVALID_HEADER_TOKEN', 'HTTP/1.1 200 OK\r\nX A: 1\r\n\r\n'],
    ['HPE_INVALID_HEADER_TOKEN', 'HTTP/1.1 200 OK\r\nX-A : 1\r\n\r\n'],
    ['HPE_INVALID_HEADER_TOKEN', 'HTTP/1.1 200 OK\r\n: 1\r\n\r\n'],
    ['HPE_INVALID_HEADER_TOKEN', 'HTTP/1.1 200 OK\r\nno colon\r\n\r\n'],
    ['HPE_INVALID_HEADER_TOKEN', 'HTTP/1.1 200 OK\r\nnocolon\r\nContent-Length: 0\r\n\r\n'],
    ['HPE_STRICT', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\rX0\r\n\r\n'],
    ['HPE_STRICT', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\n0\r\n\r\n'],
    ['HPE_INVALID_HEADER_TOKEN', 'HTTP/1.1 200 OK\r\nX-A: 1\r\n folded\r\n\r\n'],
    ['HPE_INVALID_HEADER_TOKEN', 'HTTP/1.1 200 OK\r\nX-A: a\x00b\r\n\r\n'],
    ['HPE_INVALID_HEADER_TOKEN', 'HTTP/1.1 200 OK\r\nX-A: a\x7fb\r\n\r\n'],
    ['HPE_LF_EXPECTED', 'HTTP/1.1 200 OK\r\nX-A: a\nX-B: b\r\n\r\n'],
    ['HPE_INVALID_CHUNK_SIZE', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'],
    ['HPE_INVALID_CHUNK_SIZE', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3 \r\nabc\r\n'],
    ['HPE_INVALID_CHUNK_SIZE', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\r\n'],
    ['HPE_INVALID_CHUNK_SIZE', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1000000000000000\r\n'],
    ['HPE_STRICT', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n'],
    [
      'HPE_INVALID_HEADER_TOKEN',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nbad trailer\r\n\r\n',
    ],
  ])('%s: %j', (expected, raw) => {
    expect(code(() => read('GET', [raw]))).toBe(expected);
  });

  it('a head is capped at 16 KiB, whether or not its end has come', () => {
    const line = (size: number) => `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(size)}`;
    const fits = line(MAX_HEAD_BYTES - 'HTTP/1.1 200 OK\r\nX-Big: '.length);
    expect(read('GET', [`${fits}\r\n\r\n`]).ended).toBe(false);
    expect(read('GET', [fits.slice(0, -30)]).head).toBeUndefined();
    expect(code(() => read('GET', [`${line(MAX_HEAD_BYTES)}\r\n\r\n`]))).toBe('HPE_HEADER_OVERFLOW');
    expect(code(() => read('GET', [line(MAX_HEAD_BYTES)]))).toBe('HPE_HEADER_OVERFLOW');
    const chunked = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;';
    expect(code(() => read('GET', [`${chunked}${'x'.repeat(MAX_HEAD_BYTES)}`]))).toBe('HPE_HEADER_OVERFLOW');
    expect(code(() => read('GET', [`${chunked}${'x'.repeat(MAX_HEAD_BYTES - 10)}`]))).toBeUndefined();
    // Exactly at the cap, a head still coming is waited for; one byte past, it is refused.
    const open = `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(MAX_HEAD_BYTES - 'HTTP/1.1 200 OK\r\nX-Big: '.length)}`;
    expect(open.length).toBe(MAX_HEAD_BYTES);
    expect(code(() => read('GET', [open]))).toBeUndefined();
    expect(code(() => read('GET', [`${open}a`]))).toBe('HPE_HEADER_OVERFLOW');
    const sizeLine = `${chunked}${'x'.repeat(MAX_HEAD_BYTES - chunked.length + 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n'.length)}`;
    expect(code(() => read('GET', [sizeLine]))).toBeUndefined();
    expect(code(() => read('GET', [`${sizeLine}x`]))).toBe('HPE_HEADER_OVERFLOW');
    // Exactly the cap in trailers, the empty line included, is read; one byte more is not.
    const trailerHead = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n';
    const filler = (size: number) => `X-T: ${'t'.repeat(size - 'X-T: \r\n'.length)}\r\n`;
    expect(read('GET', [trailerHead, filler(MAX_HEAD_BYTES - 2), '\r\n']).ended).toBe(true);
    expect(code(() => read('GET', [trailerHead, filler(MAX_HEAD_BYTES - 1), '\r\n']))).toBe(
      'HPE_HEADER_OVERFLOW',
    );
    // Trailers without end, each line short: capped together.
    const trailers = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n';
    const trailer = 'X-T: 1\r\n';
    expect(code(() => read('GET', [trailers, trailer.repeat(MAX_HEAD_BYTES / trailer.length + 1)]))).toBe(
      'HPE_HEADER_OVERFLOW',
    );
    expect(read('GET', [trailers, trailer.repeat(MAX_HEAD_BYTES / trailer.length - 2), '\r\n']).ended).toBe(
      true,
    );
  });

  it('a connection that ends early: "socket hang up" before a head, "aborted" in a body, both ECONNRESET', () => {
    const ended = (pieces: string[]) => {
      try {
        read('GET', pieces, true);
        return 'read';
      } catch (error) {
        return `${(error as { code?: string }).code} ${(error as Error).message}`;
      }
    };
    expect(ended([])).toBe('ECONNRESET socket hang up');
    expect(ended(['HTTP/1.1 200 OK\r\n'])).toBe('ECONNRESET socket hang up');
    expect(ended(['HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab'])).toBe('ECONNRESET aborted');
    expect(ended(['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n'])).toBe(
      'ECONNRESET aborted',
    );
    expect(ended(['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nab'])).toBe('read');
  });

  it('answered: only once a final head was read', () => {
    const parser = new ResponseParser('GET', {
      head: () => undefined,
      body: () => undefined,
      end: () => undefined,
    });
    parser.push(Buffer.from('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n'));
    expect(parser.answered).toBe(false);
    parser.push(Buffer.from('Content-Length: 1\r\n\r\n'));
    expect(parser.answered).toBe(true);
  });
});

describe('the request head', () => {
  const url = new URL('http://127.0.0.1:8080/api/x?q=a%20b');

  it('writes the caller’s headers in order and case, then Host, Connection and, for a body method without one, a zero length', () => {
    expect(requestHead('POST', url, { 'content-type': 'application/json', Accept: '*/*' }, false)).toBe(
      'POST /api/x?q=a%20b HTTP/1.1\r\ncontent-type: application/json\r\nAccept: */*\r\n' +
        'Host: 127.0.0.1:8080\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n',
    );
    for (const method of ['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT'])
      expect(requestHead(method, url, {}, false)).toBe(
        `${method} /api/x?q=a%20b HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nConnection: keep-alive\r\n\r\n`,
      );
    expect(requestHead('PUT', new URL('http://h/'), { 'content-length': '2' }, true)).toBe(
      'PUT / HTTP/1.1\r\ncontent-length: 2\r\nHost: h\r\nConnection: keep-alive\r\n\r\n',
    );
    expect(requestHead('PATCH', new URL('http://[::1]:81/'), {}, false)).toContain('Host: [::1]:81\r\n');
  });

  it('one header per name in any case: the first one’s place, the last one’s name and value; a given Host or Connection is kept', () => {
    expect(
      requestHead(
        'GET',
        url,
        { 'user-agent': 'tally', Host: 'example.test', 'User-Agent': 'mine/1', connection: 'close' },
        false,
      ),
    ).toBe(
      'GET /api/x?q=a%20b HTTP/1.1\r\nUser-Agent: mine/1\r\nHost: example.test\r\nconnection: close\r\n\r\n',
    );
    expect(requestHead('POST', url, { 'Transfer-Encoding': 'chunked' }, false)).not.toContain(
      'Content-Length',
    );
  });

  it.each([
    ['ERR_INVALID_HTTP_TOKEN', 'GE T', {}],
    ['ERR_INVALID_HTTP_TOKEN', '', {}],
    ['ERR_INVALID_HTTP_TOKEN', 'GET', { 'x a': '1' }],
    ['ERR_INVALID_HTTP_TOKEN', 'GET', { 'x:a': '1' }],
    ['ERR_INVALID_CHAR', 'GET', { 'x-a': 'a\r\nInjected: 1' }],
    ['ERR_INVALID_CHAR', 'GET', { 'x-a': 'a\nb' }],
    ['ERR_INVALID_CHAR', 'GET', { 'x-a': 'a\x00' }],
    ['ERR_INVALID_CHAR', 'GET', { 'x-a': '東' }],
  ] as const)('%s: %j %j', (expected, method, headers) => {
    expect(code(() => requestHead(method, url, headers, false))).toBe(expected);
  });

  it('refusals name what was refused', () => {
    const message = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(message(() => requestHead('GE T', url, {}, false))).toContain('"GE T"');
    expect(message(() => requestHead('GET', url, { 'x a': '1' }, false))).toContain('"x a"');
    expect(message(() => requestHead('GET', url, { 'x-b': '\n' }, false))).toContain('"x-b"');
  });

  it('the header checks --header uses are the same rules', () => {
    expect(isHeaderName('X-Api-Key')).toBe(true);
    expect(isHeaderName('X Api')).toBe(false);
    expect(isHeaderName('')).toBe(false);
    expect(isHeaderValue('Bearer abc\tdéf')).toBe(true);
    expect(isHeaderValue('a\r\nb')).toBe(false);
    expect(isHeaderValue('東')).toBe(false);
  });

  it('keeps Latin-1 and tabs in a value, and refuses a path a URL would never hold', () => {
    expect(requestHead('GET', url, { 'x-a': 'café\tau lait' }, false)).toContain('x-a: café\tau lait\r\n');
    const raw = new URL('http://h/');
    Object.defineProperty(raw, 'pathname', { value: '/a b' });
    expect(code(() => requestHead('GET', raw, {}, false))).toBe('ERR_UNESCAPED_CHARACTERS');
  });
});
