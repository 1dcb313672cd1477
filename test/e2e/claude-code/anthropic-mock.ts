import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One block of a scripted assistant reply. */
export type ReplyBlock = { text: string } | { tool: string; input: Record<string, unknown>; id?: string };

/** A request body as Claude Code sends it to the Messages API (only what the scripts read). */
export interface MessagesRequest {
  model?: string;
  system?: unknown;
  messages: { role: string; content: unknown }[];
  tools?: { name: string }[];
  stream?: boolean;
}

/** Decides the reply to one request; `undefined` falls back to a plain "OK." text. */
export type Responder = (request: MessagesRequest) => ReplyBlock[] | undefined;

export interface AnthropicMock {
  url: string;
  /** Every /v1/messages body received, in order. */
  requests: MessagesRequest[];
  close(): Promise<void>;
}

let toolIds = 0;

/** A fresh tool-use id, unless the script gave one. */
function toolId(given: string | undefined): string {
  if (given) return given;
  toolIds += 1;
  return `toolu_mock${toolIds}`;
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The reply as the Messages API's server-sent events (what Claude Code streams). */
function streamReply(model: string, blocks: ReplyBlock[]): string {
  const usage = {
    input_tokens: 10,
    output_tokens: 10,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  let out = sse('message_start', {
    type: 'message_start',
    message: {
      id: `msg_${Date.now()}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage,
    },
  });
  blocks.forEach((block, index) => {
    if ('text' in block) {
      out += sse('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      });
      out += sse('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'text_delta', text: block.text },
      });
    } else {
      const id = toolId(block.id);
      out += sse('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id, name: block.tool, input: {} },
      });
      out += sse('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    }
    out += sse('content_block_stop', { type: 'content_block_stop', index });
  });
  const stop = blocks.some((block) => 'tool' in block) ? 'tool_use' : 'end_turn';
  out += sse('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: 10 },
  });
  out += sse('message_stop', { type: 'message_stop' });
  return out;
}

function jsonReply(model: string, blocks: ReplyBlock[]) {
  return {
    id: `msg_${Date.now()}`,
    type: 'message',
    role: 'assistant',
    model,
    content: blocks.map((block) =>
      'text' in block
        ? { type: 'text', text: block.text }
        : {
            type: 'tool_use',
            id: toolId(block.id),
            name: block.tool,
            input: block.input,
          },
    ),
    stop_reason: blocks.some((block) => 'tool' in block) ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10 },
  };
}

async function body(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A scripted Anthropic Messages API on 127.0.0.1: streaming and JSON replies, token counts. */
export async function startAnthropicMock(responder: Responder): Promise<AnthropicMock> {
  const requests: MessagesRequest[] = [];
  const server: Server = createServer((request, response) => {
    void body(request).then((raw) => {
      const path = (request.url ?? '').split('?')[0];
      if (request.method === 'POST' && path === '/v1/messages/count_tokens') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ input_tokens: 100 }));
        return;
      }
      if (request.method !== 'POST' || path !== '/v1/messages') {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: path } }));
        return;
      }
      const parsed = JSON.parse(raw) as MessagesRequest;
      requests.push(parsed);
      const blocks = responder(parsed) ?? [{ text: 'OK.' }];
      const model = parsed.model ?? 'claude-mock';
      if (parsed.stream) {
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        response.end(streamReply(model, blocks));
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(jsonReply(model, blocks)));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
