/** A run of this many digits may be an integer past 2^53, which JSON.parse would round. */
const LONG_DIGITS = /\d{16}/;
/** A JSON string, or a number token: strings are skipped whole so their digits stay text. */
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * JSON.parse, except that an integer past Number.MAX_SAFE_INTEGER becomes a string of its exact
 * digits. An app with 64-bit or snowflake ids answers `{"id": 9007199254740993}`: parsed as a
 * number it reads …992 — another resource's id, which a cleanup would then delete. Text without
 * 16 digits in a row (nearly all) goes straight to JSON.parse.
 */
export function parseJsonExact(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  const exact = text.replace(TOKENS, (token) =>
    token.charCodeAt(0) !== 34 /* " */ && /^-?\d+$/.test(token) && !Number.isSafeInteger(Number(token))
      ? `"${token}"`
      : token,
  );
  return JSON.parse(exact);
}
