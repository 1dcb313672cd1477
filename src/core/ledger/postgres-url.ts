import { isSecretName } from '../redact.js';

/** Whether a --ledger / TALLY_LEDGER value names a PostgreSQL database rather than a file. */
export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target.trim());
}

/**
 * Why `target` cannot be a ledger path although it is no postgres:// URL, or undefined: a
 * `postgres:`/`postgresql:` scheme without its `//` (`postgresql:/app:pw@host/db`), or any
 * scheme-like first segment carrying userinfo (`mysql://u:pw@host`). Taken as a file path, it
 * became a folder named after the URL, and the password was printed and stored with it.
 */
export function notALedgerPath(target: string): string | undefined {
  const trimmed = target.trim();
  if (isPostgresUrl(trimmed)) return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1];
  if (!scheme) return undefined;
  const postgres = /^postgres(ql)?$/i.test(scheme);
  if (!postgres && !/^[a-z][a-z0-9+.-]*:\/{0,2}[^/]*@/i.test(trimmed)) return undefined;
  return `The ledger "${scheme}:…" looks like a URL but is not one Tally reads${postgres ? ` (\`${scheme}:\` needs two slashes)` : ''}. Name a PostgreSQL ledger as postgres://USER:PASSWORD@HOST:PORT/DATABASE, or a SQLite ledger by its file path.`;
}

/** A connection parameter that holds a credential (`password`, `sslpassword`, any secret name). */
const secretParameter = (key: string) => /password/i.test(key) || isSecretName(key);

/**
 * The URL with its password removed, for every message, list and log: a connection string
 * often carries the credential, and none may reach output or disk.
 */
export function redactPostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    // libpq takes the password as a parameter too (`?password=…`, `&sslpassword=…`).
    for (const key of [...parsed.searchParams.keys()])
      if (secretParameter(key)) parsed.searchParams.set(key, '***');
    return parsed.toString();
  } catch {
    // Not parseable: keep the scheme and the host part after the last '@' only.
    const at = url.lastIndexOf('@');
    return at === -1 ? url : `${url.slice(0, url.indexOf('//') + 2)}***@${url.slice(at + 1)}`;
  }
}

/** Removes `url`'s password wherever it appears in a driver's message (some echo the connection string). */
export function scrubPassword(message: string, url: string): string {
  const passwords: string[] = [];
  try {
    const parsed = new URL(url);
    passwords.push(decodeURIComponent(parsed.password));
    for (const [key, value] of parsed.searchParams) if (secretParameter(key)) passwords.push(value);
  } catch {
    // unparseable URL: nothing known to scrub beyond the URL itself
  }
  let out = message.split(url).join(redactPostgresUrl(url));
  for (const password of passwords) if (password) out = out.split(password).join('***');
  return out;
}

/** How deep `scrubbedCause` follows an error's own `cause` / `errors` (a driver nests one or two). */
const CAUSE_DEPTH = 3;

/**
 * The driver's error as a `cause` that is safe to keep: a copy whose message, stack and every
 * string field (pg's `detail`, `hint`, …) have `url`'s password and the URL itself scrubbed,
 * with `code`, `errno`, `severity` and the like kept as they are. Security: a cause is printed
 * by `util.inspect`, loggers and error trackers, so the original (which may echo the connection
 * string) is never attached.
 */
export function scrubbedCause(error: unknown, url: string, depth = 0): unknown {
  if (typeof error === 'string') return scrubPassword(error, url);
  if (!(error instanceof Error)) return typeof error === 'object' && error !== null ? undefined : error;
  const copy = new Error(scrubPassword(error.message, url));
  copy.name = error.name;
  copy.stack = error.stack === undefined ? undefined : scrubPassword(error.stack, url);
  for (const [key, value] of Object.entries(error)) {
    if (key === 'message' || key === 'stack' || key === 'name') continue;
    if (typeof value === 'string')
      (copy as unknown as Record<string, unknown>)[key] = scrubPassword(value, url);
    else if (typeof value === 'number' || typeof value === 'boolean')
      (copy as unknown as Record<string, unknown>)[key] = value;
  }
  if (depth < CAUSE_DEPTH) {
    if ('cause' in error) (copy as { cause?: unknown }).cause = scrubbedCause(error.cause, url, depth + 1);
    if (Array.isArray((error as { errors?: unknown }).errors))
      (copy as unknown as { errors: unknown[] }).errors = (
        error as unknown as { errors: unknown[] }
      ).errors.map((inner) => scrubbedCause(inner, url, depth + 1));
  }
  return copy;
}
