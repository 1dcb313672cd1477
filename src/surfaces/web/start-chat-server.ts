import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { flagSentence } from '../../agents/coder/chat-record.js';
import { type RunTurnOptions, runTurn } from '../../agents/coder/run-turn.js';
import type { TurnEvent } from '../../agents/coder/turn-events.js';
import { errorCode, errorMessage, isTallyError } from '../../core/errors.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import { requireRecorded } from '../require-recorded.js';
import { turnStatusLine } from '../turn-status-line.js';
import { CHAT_CSS, CHAT_JS, chatPageHtml } from './chat-page.js';
import { checkChatRequest } from './check-chat-request.js';

export interface ChatServerOptions {
  root: string;
  ledger: Ledger;
  /** 0 picks a free port. The server listens on 127.0.0.1 only. */
  port?: number;
  /** Shared by every turn: the model (or a cassette), decisions, browser settings. */
  turn?: Partial<RunTurnOptions>;
}

export interface ChatServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024;

const HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  // Security: the page loads nothing but its own script and stylesheet.
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

/**
 * JSON for the page: U+2028/U+2029 are legal raw in JSON but are line terminators to
 * JavaScript regexes (`.`, `$` with /m) and to older parsers, so a file name or a model's
 * text holding one cut the SSE frame and the page showed nothing after — flags included.
 * Escaped here for every JSON answer and SSE frame; the page's parser is line-safe too.
 */
export function pageJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16)}`);
}

/** One server-sent event: a single `data:` line of escaped JSON. */
export function sseFrame(name: string, data: unknown): string {
  return `event: ${name.replace(/[\r\n]/g, '')}\ndata: ${pageJson(data)}\n\n`;
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { ...HEADERS, 'content-type': 'application/json' }).end(pageJson(body));
}

async function readBody(request: IncomingMessage): Promise<string | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseTurnRequest(text: string): { message: string; chatId?: string } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
  const { message, chatId } = (json ?? {}) as { message?: unknown; chatId?: unknown };
  if (typeof message !== 'string' || message.trim() === '') return undefined;
  if (chatId !== undefined && typeof chatId !== 'string') return undefined;
  return { message: message.trim(), ...(chatId ? { chatId } : {}) };
}

/**
 * The Coder's local web chat: a page on 127.0.0.1 and `POST /api/turn`, which runs one
 * `runTurn` and streams its events (text, tool calls with evidence, nudges, the end with the
 * changes report) as Server-Sent Events on the response. One turn at a time: a chat is one
 * conversation, and two turns writing one project at once would make both reports harder.
 */
export async function startChatServer(options: ChatServerOptions): Promise<ChatServer> {
  const token = randomBytes(18).toString('base64url');
  // The turn now running, if any: one at a time, and close() waits for it to end in the ledger.
  let current: { abort: AbortController; done: Promise<void> } | undefined;
  let port = 0;
  const server = createServer((request, response) => {
    const verdict = checkChatRequest(request, port, token);
    if (!verdict.ok) {
      sendJson(response, verdict.status, { code: verdict.code, message: verdict.reason });
      return;
    }
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (request.method === 'GET' && path === '/') {
      response
        .writeHead(200, { ...HEADERS, 'content-type': 'text/html; charset=utf-8' })
        .end(chatPageHtml(token, options.root));
    } else if (request.method === 'GET' && path === '/chat.js') {
      response.writeHead(200, { ...HEADERS, 'content-type': 'text/javascript; charset=utf-8' }).end(CHAT_JS);
    } else if (request.method === 'GET' && path === '/chat.css') {
      response.writeHead(200, { ...HEADERS, 'content-type': 'text/css; charset=utf-8' }).end(CHAT_CSS);
    } else if (request.method === 'POST' && path === '/api/turn') {
      if (current) {
        sendJson(response, 409, {
          code: 'TURN_IN_PROGRESS',
          message: 'A turn is still running. Wait for its changes report, then send again.',
        });
        return;
      }
      const abort = new AbortController();
      // Never rejected: a failure of one request is answered or logged, and the server stays up.
      const done = serveTurn(request, response, abort).catch((error: unknown) => {
        process.stderr.write(`tally: a chat request failed: ${errorMessage(error)}\n`);
        response.destroy();
      });
      const turn = { abort, done };
      current = turn;
      void turn.done.finally(() => {
        if (current === turn) current = undefined;
      });
    } else {
      sendJson(response, 404, {
        code: 'NOT_FOUND',
        message: `Nothing at ${request.method} ${path}. Open / for the chat page.`,
      });
    }
  });

  async function serveTurn(
    request: IncomingMessage,
    response: ServerResponse,
    abort: AbortController,
  ): Promise<void> {
    let body: string | undefined;
    try {
      body = await readBody(request);
    } catch (error) {
      // The client went away mid-request (ECONNRESET, "aborted"): there is no one to answer.
      if (request.destroyed || (error as { code?: string }).code === 'ECONNRESET') return;
      throw error;
    }
    const turnRequest = body === undefined ? undefined : parseTurnRequest(body);
    if (!turnRequest) {
      sendJson(response, 400, {
        code: 'TURN_REQUEST_INVALID',
        message: `Send {"message": "…", "chatId"?: "…"} as JSON, at most ${MAX_BODY_BYTES} bytes.`,
      });
      return;
    }
    response.writeHead(200, {
      ...HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      connection: 'keep-alive',
    });
    const write = (name: string, data: unknown) => {
      if (!response.writableEnded && !response.destroyed) response.write(sseFrame(name, data));
    };
    response.on('close', () => {
      if (!response.writableFinished) abort.abort();
    });
    try {
      const result = await runTurn({
        ...options.turn,
        message: turnRequest.message,
        ...(turnRequest.chatId ? { chatId: turnRequest.chatId } : {}),
        root: options.root,
        ledger: options.ledger,
        signal: abort.signal,
        // The turn's end (its changes report and verdict) waits for the ledger: see below.
        onEvent: (event: TurnEvent) => {
          if (event.type !== 'turn-end') write(event.type, event);
        },
      });
      // The ledger is the truth: the page shows a turn's outcome only once its run is recorded
      // there, as the CLI prints one (LEDGER_BUSY, shown as an error, in its place otherwise).
      await requireRecorded(options.ledger, [result.runId], {
        what: 'this turn',
        again: 'send the message again',
      });
      write('turn-end', {
        type: 'turn-end',
        result,
        statusLine: turnStatusLine(result),
        flagLines: result.flags.map(flagSentence),
      });
    } catch (error) {
      // The page shows the error as such; a non-Tally error is a bug and is also printed here.
      if (!isTallyError(error)) process.stderr.write(`tally: a chat turn failed: ${errorMessage(error)}\n`);
      write('error', {
        code: isTallyError(error) ? errorCode(error) : 'INTERNAL',
        message: errorMessage(error),
      });
    }
    response.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    // A turn still running is aborted and awaited: its run ends `aborted` in the ledger before
    // the caller (Ctrl-C in `tally code --ui`) closes the ledger, never left without an end.
    close: async () => {
      const running = current;
      running?.abort.abort();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await running?.done;
    },
  };
}
