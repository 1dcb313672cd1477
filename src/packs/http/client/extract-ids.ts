const ID_KEYS = ['id', '_id', 'uuid'] as const;

function idsOf(value: unknown): string[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  const record = value as Record<string, unknown>;
  for (const key of ID_KEYS) {
    const id = record[key];
    if (typeof id === 'string' || typeof id === 'number') return [String(id)];
  }
  return [];
}

/**
 * The ids a response returned: a top-level or `data`-wrapped `id`/`_id`/`uuid`, or the last
 * segment of a `Location` header. Never a deep scan: ids inside a list the run merely read
 * are not ids this request produced.
 */
export function extractIds(body: unknown, location: string | undefined): string[] {
  const direct = idsOf(body);
  if (direct.length > 0) return direct;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const wrapped = idsOf((body as Record<string, unknown>).data);
    if (wrapped.length > 0) return wrapped;
  }
  if (location) {
    const last = location.split('?')[0]?.split('/').filter(Boolean).at(-1);
    if (last) return [decodeURIComponent(last)];
  }
  return [];
}
