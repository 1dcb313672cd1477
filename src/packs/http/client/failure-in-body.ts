/**
 * Whether a 2xx answer's own body says the request failed, in the shapes apps use for that:
 * `{ok: false}` / `{success: false}` (Slack-style), a non-empty top-level `errors` array
 * (GraphQL, JSON:API), or a top-level `error` that is set. A status is not the only word an
 * app has: a 200 that says "not saved" has not saved it, whatever id it echoes.
 *
 * Not every such field is an envelope, though; a test run or a crash report has them as data:
 * - a field the request itself sent is the resource's own data (a created error report);
 * - a body that is a resource (a top-level `id`) carries `ok`, `success` and `errors` as its
 *   fields, a run that did not succeed; only a set `error` on a write's answer still says the
 *   write failed, the shape of "saved nothing, here is your id back";
 * - a read (GET) of a resource reads its fields, `error` included: it did not fail.
 * Returns the field that says the request failed, or undefined.
 */
export function failureInBody(body: unknown, sent: unknown, method = 'POST'): string | undefined {
  if (!isRecord(body)) return undefined;
  const resource = ['id', '_id', 'uuid'].some((key) => isIdValue(body[key]));
  if (resource && method === 'GET') return undefined;
  const data = (key: string) => isRecord(sent) && key in sent;
  if (!resource) {
    if (body.ok === false && !data('ok')) return 'ok: false';
    if (body.success === false && !data('success')) return 'success: false';
    if (Array.isArray(body.errors) && body.errors.length > 0 && !data('errors')) return 'errors';
  }
  const error = body.error;
  const set =
    error === true ||
    (typeof error === 'string' && error.trim() !== '') ||
    (isRecord(error) && Object.keys(error).length > 0);
  if (set && !data('error')) return 'error';
  return undefined;
}

function isIdValue(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'number';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
