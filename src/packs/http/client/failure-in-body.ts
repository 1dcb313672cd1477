/**
 * Whether a 2xx answer's own body says the request failed, in the shapes apps use for that:
 * `{ok: false}` / `{success: false}` (Slack-style), a non-empty top-level `errors` array
 * (GraphQL, JSON:API), or a top-level `error` that is set. A status is not the only word an
 * app has: a 200 that says "not saved" has not saved it, whatever id it echoes.
 *
 * An `error` field the request itself sent is the resource's own data (a created error
 * report), not a failure. Returns the field that says so, or undefined.
 */
export function failureInBody(body: unknown, sent: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  if (body.ok === false) return 'ok: false';
  if (body.success === false) return 'success: false';
  if (Array.isArray(body.errors) && body.errors.length > 0) return 'errors';
  const error = body.error;
  const set =
    error === true ||
    (typeof error === 'string' && error.trim() !== '') ||
    (isRecord(error) && Object.keys(error).length > 0);
  if (set && !(isRecord(sent) && 'error' in sent)) return 'error';
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
