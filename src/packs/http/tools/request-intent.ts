const TITLE = /^(title|name|label|subject|heading|summary)$/i;

/** The body's title-like field: the first top-level `title`/`name`/… holding a non-blank string. */
export function titleField(body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  // A blank title names nothing: a retry that supplies one is the same create.
  return Object.entries(body as Record<string, unknown>).find(
    ([key, value]) => TITLE.test(key) && typeof value === 'string' && value.trim() !== '',
  )?.[0];
}

/**
 * What a request tries to change, for the status rule: the request line plus its title, so
 * a retry of the same create recovers a failure and a create of something else does not.
 * Reads change nothing (undefined).
 */
export function requestIntent(method: string, path: string, body: unknown): string | undefined {
  if (method.toUpperCase() === 'GET') return undefined;
  const field = titleField(body);
  const title = field === undefined ? undefined : (body as Record<string, unknown>)[field];
  return `${method.toUpperCase()} ${path.split('?')[0]}${title !== undefined ? ` "${String(title)}"` : ''}`;
}
