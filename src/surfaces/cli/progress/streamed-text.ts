import pc from 'picocolors';
import { visibleControls } from '../../visible-controls.js';
import { MODEL_TEXT_LIMIT, type ProgressStyle } from './format-progress-event.js';

export interface StreamedText {
  /** What to write for a piece of a run's text: the opening quote first, the piece, no newline. */
  piece(runId: string, delta: string): string;
  /** What to write to end the text being shown (its closing quote and newline); '' when none is. */
  close(): string;
  /** True once per response whose text was shown while it streamed: its whole text is not shown again. */
  takeShown(runId: string): boolean;
}

/**
 * A response's text as it streams in, in the shape its whole text had on one line:
 * `  “…”`, dimmed. Without --verbose, whitespace folds to one space and the text stops at
 * MODEL_TEXT_LIMIT characters with an ellipsis; with it, every line is shown, indented
 * under the opening quote. Whitespace at the ends is never shown.
 */
export function streamedText(style: ProgressStyle): StreamedText {
  let open: string | undefined;
  let started = false;
  let count = 0;
  let cut = false;
  let space = '';
  const shown = new Set<string>();
  // Between two words: one space, or with --verbose the whitespace itself, each new line
  // indented under the opening quote.
  const fold = (whitespace: string) => (style.verbose ? whitespace.replace(/\r?\n/g, '\n   ') : ' ');
  const close = () => {
    if (open === undefined) return '';
    open = undefined;
    return started ? `${pc.dim('”')}\n` : '';
  };
  return {
    piece: (runId, raw) => {
      // The model's words are shown, never obeyed by the terminal (see visible-controls.ts).
      const delta = visibleControls(raw);
      let out = '';
      if (open !== runId) {
        out += close();
        open = runId;
        started = false;
        count = 0;
        cut = false;
        space = '';
      }
      if (cut) return out;
      let text = '';
      for (const match of delta.matchAll(/(\s+)|(\S+)/g)) {
        if (match[1] !== undefined) {
          if (count > 0) space += match[1];
          continue;
        }
        let word = (space ? fold(space) : '') + match[2];
        space = '';
        const chars = [...word];
        if (!style.verbose && count + chars.length > MODEL_TEXT_LIMIT) {
          word = `${chars.slice(0, Math.max(0, MODEL_TEXT_LIMIT - 1 - count)).join('')}…`;
          cut = true;
        }
        count += chars.length;
        text += word;
        if (cut) break;
      }
      if (!text) return out;
      const quote = started ? '' : pc.dim('  “');
      started = true;
      shown.add(runId);
      return `${out}${quote}${pc.dim(text)}`;
    },
    close,
    takeShown: (runId) => shown.delete(runId),
  };
}
