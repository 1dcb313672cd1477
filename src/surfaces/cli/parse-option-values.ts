import { InvalidArgumentError } from 'commander';

/** `--port`: 0 (pick a free one) to 65535, checked before anything starts listening. */
export function parsePort(value: string): string {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || number > 65535)
    throw new InvalidArgumentError(
      'A port is a whole number from 0 to 65535 (0 picks a free one), e.g. --port 4000.',
    );
  return String(number);
}

/**
 * A whole number of at least 1 (`--limit`, `--concurrency`); commander's message names the flag.
 * At most 2^53 − 1: a larger one is no exact number (SQLite refused it as a datatype mismatch).
 */
export function parsePositiveWholeNumber(value: string): string {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1)
    throw new InvalidArgumentError('Write a whole number of at least 1, such as 1, 2 or 20.');
  if (!Number.isSafeInteger(Number(value)))
    throw new InvalidArgumentError(`Write a whole number up to ${Number.MAX_SAFE_INTEGER}.`);
  return String(Number(value));
}

/** `--base-url`: an absolute http(s) URL, so a typo fails here rather than deep in a request. */
export function parseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw new InvalidArgumentError(
      'Write a full URL with its scheme, e.g. --base-url http://127.0.0.1:4000.',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidArgumentError(
      `Only http:// and https:// are supported, not ${url.protocol}//. Write e.g. --base-url http://127.0.0.1:4000.`,
    );
  return value;
}
