import { parseHeaderLine } from '../../packs/http/client/header-line.js';

/** Headers for every request a run sends, from the environment: one `Name: value` per line. */
export const FISH_HEADERS_ENV = 'TALLY_FISH_HEADERS';

/**
 * The configured headers: `TALLY_FISH_HEADERS` lines, overridden by `--header` (`headers`).
 * Both modes send them (replicate and achieve), after the captures' and the session's auth.
 */
export function configuredHeaders(
  headers: Record<string, string> | undefined,
  env: NodeJS.ProcessEnv,
): Record<string, string> {
  const fromEnv: Record<string, string> = {};
  for (const line of (env[FISH_HEADERS_ENV] ?? '').split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const [name, value] = parseHeaderLine(line, `a line of ${FISH_HEADERS_ENV} (one header per line)`);
    fromEnv[name] = value;
  }
  return { ...fromEnv, ...(headers ?? {}) };
}
