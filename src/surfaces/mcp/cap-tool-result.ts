/** 4 MiB per response: well under the 10 MB line the official SDK clients accept. */
export const DEFAULT_MAX_RESULT_BYTES = 4 * 1024 * 1024;

export interface CappedResult {
  /** The result, with its largest strings and arrays cut until it fits. */
  value: unknown;
  /** `value` serialized. */
  text: string;
  /** Set when something was cut: what, and how to get the rest. */
  notice?: string;
}

type Path = (string | number)[];

function largestPart(value: unknown, path: Path, best: { path?: Path; size: number }): void {
  if (typeof value === 'string') {
    if (value.length > best.size) Object.assign(best, { path, size: value.length });
  } else if (Array.isArray(value)) {
    const size = JSON.stringify(value).length;
    if (value.length > 1 && size > best.size) Object.assign(best, { path, size });
    for (const [index, item] of value.entries()) largestPart(item, [...path, index], best);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) largestPart(item, [...path, key], best);
  }
}

function replaceAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path as [string | number, ...Path];
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[head as number] = replaceAt(copy[head as number], rest, replacement);
    return copy;
  }
  const record = value as Record<string, unknown>;
  return { ...record, [head]: replaceAt(record[head], rest, replacement) };
}

function partAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((part, key) => (part as Record<string | number, unknown>)[key], value);
}

function cutString(text: string, keep: number): string {
  const end = Math.max(0, keep);
  const code = text.charCodeAt(end - 1);
  // Never leave half of a surrogate pair at the cut.
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? end - 1 : end);
}

/**
 * Cuts a tool result to fit in `maxBytes` serialized, largest part first (a diff, a file's
 * content, a long listing), and says what was cut: a response over the client's line limit
 * would kill the whole session, not just this call.
 */
export function capToolResult(result: unknown, maxBytes: number): CappedResult {
  const text = JSON.stringify(result) ?? 'null';
  const total = Buffer.byteLength(text);
  if (total <= maxBytes) return { value: result, text };
  let value = result;
  let serialized = text;
  const cuts: string[] = [];
  for (let round = 0; round < 64 && Buffer.byteLength(serialized) > maxBytes; round += 1) {
    const best: { path?: Path; size: number } = { size: 0 };
    largestPart(value, [], best);
    if (!best.path) break;
    const part = partAt(value, best.path);
    const excess = Buffer.byteLength(serialized) - maxBytes;
    const name = best.path.length > 0 ? best.path.join('.') : 'the result';
    if (typeof part === 'string') {
      // A cut of k UTF-16 units removes at least k bytes, so one cut of the excess usually fits.
      const kept = cutString(part, part.length - excess - 64);
      value = replaceAt(value, best.path, kept);
      cuts.push(`${name} (${part.length} → ${kept.length} characters)`);
    } else {
      const items = part as unknown[];
      const kept = items.slice(0, Math.floor(items.length / 2));
      value = replaceAt(value, best.path, kept);
      cuts.push(`${name} (${items.length} → ${kept.length} items)`);
    }
    serialized = JSON.stringify(value) ?? 'null';
  }
  if (Buffer.byteLength(serialized) > maxBytes) {
    value = undefined;
    serialized = '{}';
    cuts.push('the whole result');
  }
  return {
    value,
    text: serialized,
    notice: `RESULT_TRUNCATED: the result was ${total} bytes, over the ${maxBytes}-byte response cap; cut: ${[...new Set(cuts)].join(', ')}. The call itself completed as recorded; read the rest in smaller pieces (fs_read with offset/limit, a narrower query).`,
  };
}
