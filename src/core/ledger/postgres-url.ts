/** Whether a --ledger / TALLY_LEDGER value names a PostgreSQL database rather than a file. */
export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target.trim());
}

/**
 * The URL with its password removed, for every message, list and log: a connection string
 * often carries the credential, and none may reach output or disk.
 */
export function redactPostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    // Not parseable: keep the scheme and the host part after the last '@' only.
    const at = url.lastIndexOf('@');
    return at === -1 ? url : `${url.slice(0, url.indexOf('//') + 2)}***@${url.slice(at + 1)}`;
  }
}

/** Removes `url`'s password wherever it appears in a driver's message (some echo the connection string). */
export function scrubPassword(message: string, url: string): string {
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    // unparseable URL: nothing known to scrub beyond the URL itself
  }
  let out = message.split(url).join(redactPostgresUrl(url));
  if (password) out = out.split(password).join('***');
  return out;
}
