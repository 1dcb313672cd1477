const TITLE = /^(title|name|label|subject|heading|summary)$/i;

/**
 * What a request tries to change, for the status rule: the request line plus its title, so
 * a retry of the same create recovers a failure and a create of something else does not.
 * Reads change nothing (undefined).
 */
export function requestIntent(method: string, path: string, body: unknown): string | undefined {
  if (method.toUpperCase() === 'GET') return undefined;
  const fields =
    body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  // A blank title names nothing: a retry that supplies one is the same create.
  const title = Object.entries(fields).find(
    ([key, value]) => TITLE.test(key) && typeof value === 'string' && value.trim() !== '',
  );
  return `${method.toUpperCase()} ${path.split('?')[0]}${title ? ` "${String(title[1])}"` : ''}`;
}
