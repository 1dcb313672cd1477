import { sameType } from '../../../core/type-words.js';

const ID_KEYS = ['id', '_id', 'uuid'] as const;

/** Keys that only wrap the resource a write answered with (`{"data": {...}}`, `{"result": {"item": {...}}}`). */
const ENVELOPES = new Set([
  'data',
  'result',
  'item',
  'record',
  'resource',
  'object',
  'entity',
  'payload',
  'response',
]);

/** How deep a chain of single wrappers is followed: `{"result": {"item": {"id": 1}}}` is two. */
const MAX_WRAPPERS = 3;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function idsOf(value: unknown): string[] {
  if (!isRecord(value)) return [];
  for (const key of ID_KEYS) {
    const id = value[key];
    if (typeof id === 'string' || typeof id === 'number') return [String(id)];
  }
  return [];
}

/**
 * The one object `record` wraps the resource in: under an envelope word, or under the
 * collection's own name (Rails' `{"widget": {...}}` for `POST /widgets`). Two candidates are
 * no answer: which one holds the new resource would be a guess.
 */
function wrapped(record: Record<string, unknown>, collection: string | undefined): unknown {
  const candidates = Object.keys(record).filter(
    (key) =>
      isRecord(record[key]) &&
      (ENVELOPES.has(key.toLowerCase()) || (collection !== undefined && sameType(key, collection))),
  );
  return candidates.length === 1 ? record[candidates[0] as string] : undefined;
}

/**
 * The ids a response returned: a top-level `id`/`_id`/`uuid`, or one inside a chain of single
 * wrappers (`data`, `result`, `item`, … or the collection's own name, `collection` being the
 * request path's last literal segment), or the last segment of a `Location` header. Never a
 * deep scan and never into a list: ids inside a list the run merely read, or beside the
 * resource (a request id under `meta`), are not ids this request produced.
 */
export function extractIds(body: unknown, location: string | undefined, collection?: string): string[] {
  let value = body;
  for (let depth = 0; depth <= MAX_WRAPPERS && isRecord(value); depth++) {
    const direct = idsOf(value);
    if (direct.length > 0) return direct;
    value = wrapped(value, collection);
  }
  if (location) {
    const last = location.split('?')[0]?.split('/').filter(Boolean).at(-1);
    if (last) return [decodeURIComponent(last)];
  }
  return [];
}
