/** What can be told of a JSON-RPC line too large to parse, from its first and last bytes. */
export interface OversizedRequest {
  bytes: number;
  /** The request id, when found at the line's top level (first or last key); a notification has none. */
  id?: string | number;
  method?: string;
  /** For `tools/call`: the tool, which clients write before the arguments. */
  toolName?: string;
  /** Set when the line was refused for nesting deeper than this, not for its size. */
  tooDeep?: number;
}

const ID = String.raw`("(?:[^"\\]|\\.)*"|-?\d+)`;
// The TypeScript SDK writes `{...request, "jsonrpc":"2.0","id":N}`: the id closes the line.
const ID_LAST = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);
// Python and most others write `{"jsonrpc":"2.0","id":N,...}`: the id opens it.
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);
const METHOD = /"method"\s*:\s*"([^"\\]{1,200})"/;
const TOOL_NAME = /"params"\s*:\s*\{\s*"name"\s*:\s*"([^"\\]{1,200})"/;

/** Reads the id, method and tool name off the head and tail of an oversized line, without parsing it. */
export function describeOversizedRequest(head: string, tail: string, bytes: number): OversizedRequest {
  const idText = ID_LAST.exec(tail)?.[1] ?? ID_FIRST.exec(head)?.[1];
  const method = METHOD.exec(head)?.[1];
  const toolName = TOOL_NAME.exec(head)?.[1];
  return {
    bytes,
    ...(idText !== undefined ? { id: JSON.parse(idText) as string | number } : {}),
    ...(method ? { method } : {}),
    ...(toolName ? { toolName } : {}),
  };
}
