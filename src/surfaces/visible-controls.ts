/**
 * Text from outside — a model's words, an app's titles and errors, file names, a task, a
 * teammate's ledger — reaches the user's terminal through Tally's output. A control character
 * in it could move the cursor, erase the verdict line and write another, hide text, retitle
 * the window or plant a link; a bidi mark could reorder what a line appears to say. So a
 * report could be made to show what did not happen. Every such character is shown as a
 * visible stand-in instead, applied to the data before Tally adds its own colours:
 * - C0 controls and DEL as their Control Pictures (ESC → ␛, CR → ␍, BEL → ␇);
 * - C1 controls and the bidi embedding, override and isolate marks as `<U+009B>`.
 * Newline and tab are kept (multi-line replies, indented diffs), and so is the CR of a CRLF,
 * which moves nothing a newline does not.
 */
const UNSAFE = /\r(?!\n)|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_ALL =
  /\r(?!\n)|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function standIn(char: string): string {
  const code = char.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** `text` with every terminal control character made visible; `text` itself when it has none. */
export function visibleControls(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, standIn) : text;
}

/**
 * `value` with `visibleControls` applied to every string in it, keys included, for a
 * formatter to show. Copies only what changes: a clean value (nearly all) comes back as is.
 */
export function withVisibleControls<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return visibleControls(value) as T;
  // Ledger data is bounded in depth; anything deeper is shown by JSON, which escapes C0 itself.
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item = value[index];
      const shown = withVisibleControls(item, depth + 1);
      if (shown !== item) {
        copy ??= [...value];
        copy[index] = shown;
      }
    }
    return (copy ?? value) as T;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)
    return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const shownKey = visibleControls(key);
    const shown = withVisibleControls(item, depth + 1);
    if (shown !== item || shownKey !== key) {
      copy ??= { ...(value as Record<string, unknown>) };
      if (shownKey !== key) delete copy[key];
      copy[shownKey] = shown;
    }
  }
  return (copy ?? value) as T;
}

const LINE_BREAKS = /[\t\n\r\u2028\u2029]/g;

/**
 * `visibleControls` for text shown as one line of a line-per-item listing (a path, a record's
 * gloss): newline, CR, tab and the Unicode line separators are made visible too, so a value
 * cannot start a line of its own that reads as another item.
 */
export function visibleOneLine(text: string): string {
  return visibleControls(text).replace(LINE_BREAKS, standIn);
}
