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

/** One credential a connection URL carries: in its userinfo, or in a query parameter. */
export interface UrlPassword {
  /** The query parameter that holds it; absent for the userinfo password. */
  parameter?: string;
  /** Every spelling a message may echo: as written in the URL, and decoded. */
  spellings: string[];
}

/** A parsed connection URL and the credentials in it. */
export interface UrlPasswords {
  parsed: URL;
  passwords: UrlPassword[];
}

/** The raw spelling and, when it differs and decodes (`%zz` does not), the decoded one. */
function spellingsOf(raw: string, decoded: string | undefined): string[] {
  return [...new Set([raw, decoded ?? raw])].filter((spelling) => spelling !== '');
}

function decodedUserinfo(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch (error) {
    if (error instanceof URIError) return undefined;
    throw error;
  }
}

/**
 * `url` parsed once, with its credentials: the userinfo password and every password-like
 * query parameter (libpq takes `?password=…` and `&sslpassword=…` too). Undefined when `url`
 * does not parse.
 */
export function passwordsOf(url: string): UrlPasswords | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  const passwords: UrlPassword[] = [];
  if (parsed.password)
    passwords.push({ spellings: spellingsOf(parsed.password, decodedUserinfo(parsed.password)) });
  for (const pair of parsed.search.slice(1).split('&')) {
    // One pair at a time, so the raw spelling stays beside its decoded value.
    const [entry] = new URLSearchParams(pair);
    if (entry === undefined || !secretParameter(entry[0])) continue;
    const raw = pair.includes('=') ? pair.slice(pair.indexOf('=') + 1) : '';
    passwords.push({ parameter: entry[0], spellings: spellingsOf(raw, entry[1]) });
  }
  return { parsed, passwords };
}

/**
 * The URL with its password removed, for every message, list and log: a connection string
 * often carries the credential, and none may reach output or disk.
 */
export function redactPostgresUrl(url: string): string {
  return masked(url, passwordsOf(url));
}

/** `url` as printed, from its parse (`found`, which this masks in place). */
function masked(url: string, found: UrlPasswords | undefined): string {
  if (found === undefined) {
    // Not parseable: keep the scheme and the host part after the last '@' only.
    const at = url.lastIndexOf('@');
    return at === -1 ? url : `${url.slice(0, url.indexOf('//') + 2)}***@${url.slice(at + 1)}`;
  }
  const { parsed, passwords } = found;
  for (const password of passwords)
    if (password.parameter === undefined) parsed.password = '***';
    else parsed.searchParams.set(password.parameter, '***');
  return parsed.toString();
}

/** Removes `url`'s password wherever it appears in a driver's message (some echo the connection string). */
export function scrubPassword(message: string, url: string): string {
  const found = passwordsOf(url);
  let out = message.split(url).join(masked(url, found));
  // Longest first, so a spelling that holds another is replaced whole.
  const spellings = (found?.passwords ?? [])
    .flatMap((password) => password.spellings)
    .sort((a, b) => b.length - a.length);
  for (const spelling of spellings) out = out.split(spelling).join('***');
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
