/**
 * Percent-decoding that never throws: a text that is not valid percent-encoding (a lone `%`, a
 * broken UTF-8 sequence) is a literal, returned as it is. One place for the URL segments, cookie
 * values, query names and file:// paths that every layer reads.
 */

/** `text` percent-decoded, `+` kept (a path segment or cookie is no form body); `text` itself when invalid. */
export function decodePercent(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A query or form value decoded: `+` is a space, then percent-decoding; `text` itself when invalid. */
export function decodeFormValue(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
