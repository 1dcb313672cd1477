/**
 * The known secrets a redactor hunts in every string, ready to find. A few are looked for one by
 * one (`indexOf`): the common case, and the fastest. Past SCAN_AFTER they are found in one pass
 * over the text, through an index by their first PREFIX characters: a session whose app renews
 * a cookie on every response teaches a secret per response, and a look per secret made every
 * string of a long run cost as much as the run had responses.
 */
const SCAN_AFTER = 48;
/** The characters the index keys on (MIN_KNOWN_SECRET_LENGTH); a shorter secret is looked for one by one. */
const PREFIX = 6;

export class KnownSecretsIndex {
  private readonly all: string[] = [];
  /** Secrets by a hash of their first PREFIX characters; built past SCAN_AFTER. */
  private byPrefix: Map<number, string[]> | undefined;
  /** Secrets shorter than PREFIX (the redactor learns none): always looked for one by one. */
  private readonly short: string[] = [];

  /** Learns a secret (each once: the redactor's set says which are new). */
  add(secret: string): void {
    if (secret.length === 0) return;
    this.all.push(secret);
    if (secret.length < PREFIX) this.short.push(secret);
    else if (this.byPrefix) this.index(secret);
    else if (this.all.length > SCAN_AFTER) {
      this.byPrefix = new Map();
      for (const known of this.all) if (known.length >= PREFIX) this.index(known);
    }
  }

  private index(secret: string): void {
    const index = this.byPrefix as Map<number, string[]>;
    const key = prefixHash(secret, 0);
    const list = index.get(key);
    if (list) list.push(secret);
    else index.set(key, [secret]);
  }

  /**
   * `text` with every known secret in it replaced by `replacement`. Occurrences that overlap
   * or touch are replaced as one, so no secret keeps a visible head or tail (replacing one secret after
   * another would leave the part of a second that reaches past the first).
   */
  scrub(text: string, replacement: string): string {
    const spans: Span[] = [];
    if (this.byPrefix) {
      this.scan(this.byPrefix, text, spans);
      occurrences(text, this.short, spans);
    } else occurrences(text, this.all, spans);
    return spans.length === 0 ? text : replaceSpans(text, spans, replacement);
  }

  /** One pass through the index: every secret starting at each position (the spans merge them). */
  private scan(index: Map<number, string[]>, text: string, spans: Span[]): void {
    for (let at = 0; at + PREFIX <= text.length; at++) {
      const candidates = index.get(prefixHash(text, at));
      if (!candidates) continue;
      for (const secret of candidates) if (text.startsWith(secret, at)) spans.push([at, at + secret.length]);
    }
  }
}

/** A hash of the PREFIX characters at `at` (no substring made: the scan asks at every position). */
function prefixHash(text: string, at: number): number {
  let hash = 0;
  for (let offset = 0; offset < PREFIX; offset++)
    hash = (Math.imul(hash, 31) + text.charCodeAt(at + offset)) | 0;
  return hash;
}

/** Where a secret stands: [start, end). */
type Span = [number, number];

/** Every occurrence of each secret (the check first: most texts hold none). */
function occurrences(text: string, secrets: readonly string[], spans: Span[]): void {
  for (const secret of secrets) {
    for (let at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + 1))
      spans.push([at, at + secret.length]);
  }
}

/** `text` with each run of overlapping or touching spans replaced once. */
function replaceSpans(text: string, spans: Span[], replacement: string): string {
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = '';
  let kept = 0;
  let end = -1;
  for (const [start, stop] of spans) {
    if (start <= end) {
      end = Math.max(end, stop);
      continue;
    }
    if (end >= 0) kept = end;
    out += text.slice(kept, start) + replacement;
    end = stop;
  }
  return out + text.slice(end);
}
