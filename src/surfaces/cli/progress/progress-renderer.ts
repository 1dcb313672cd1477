import type { RunObserver } from '../../../core/agent/run-observer.js';
import { formatProgressEvent, type ProgressStyle, waitingText } from './format-progress-event.js';
import { compactCounter, createJobCounter, formatJobCount } from './job-counter.js';
import { streamedText } from './streamed-text.js';

export interface ProgressRenderer {
  observer: RunObserver;
  /** Clears the spinner; lines already printed stay. */
  stop(): void;
}

export interface ProgressRendererOptions extends ProgressStyle {
  stream: NodeJS.WriteStream;
  /** Spinner animation; off it still prints the lines (tests, dumb terminals). */
  spinner?: boolean;
}

/**
 * Live progress on a terminal: one line per model call and tool call as it lands, the
 * model's text as the model writes it, and an ora spinner saying what the run waits for in
 * between. The spinner stops while text streams (it would redraw over the line being
 * written) and starts again with the next line.
 */
export async function createProgressRenderer(options: ProgressRendererOptions): Promise<ProgressRenderer> {
  const { default: ora } = await import('ora');
  // discardStdin stays off: `tally code` reads the next chat line from stdin.
  // A terminal that reports no width (some pseudo-terminals) would make ora erase lines forever.
  const animate = (options.spinner ?? true) && (options.stream.columns ?? 0) > 0;
  // Silent (not merely disabled) without animation: a disabled ora still prints "- text" lines.
  const spinner = ora({ stream: options.stream, discardStdin: false, isSilent: !animate });
  const modelDriven = new Set<string>();
  const text = streamedText(options);
  // A long job (COUNTED_FROM planned creates) is one live counter instead of a line per create;
  // failed calls still get their line. Without animation the counter is printed as compact lines.
  const counter = createJobCounter();
  const counted = new Map<string, string>();
  const compact = animate ? undefined : compactCounter(options.stream);
  return {
    observer: (event) => {
      if (event.type === 'model-text-delta') {
        const piece = text.piece(event.runId, event.delta);
        if (!piece) return;
        // Only a spinning ora may be stopped: stopping moves the cursor to the line's start.
        if (spinner.isSpinning) spinner.stop();
        options.stream.write(piece);
        return;
      }
      const ended = text.close();
      if (ended) options.stream.write(ended);
      if (event.type === 'run-start' && typeof event.meta.model === 'string') modelDriven.add(event.runId);
      const last = counted.get(event.runId);
      const count = counter.see(event);
      // The counter's last state stays on screen as a line when its run ends.
      if (last && !counter.counts(event.runId) && animate) {
        spinner.clear();
        options.stream.write(`${last}\n`);
        counted.delete(event.runId);
      }
      if (count) counted.set(event.runId, formatJobCount(count));
      compact?.(event);
      const quietCall =
        counter.counts(event.runId) &&
        event.type === 'entry' &&
        event.entry.kind === 'tool_call' &&
        event.entry.outcome === 'ok';
      // A text shown while it streamed is not shown again whole.
      const line =
        quietCall || (event.type === 'model-text' && text.takeShown(event.runId))
          ? undefined
          : formatProgressEvent(event, options);
      if (line !== undefined) {
        spinner.clear();
        options.stream.write(`${line}\n`);
        if (spinner.isSpinning) spinner.render();
      }
      const waiting = counter.counts(event.runId)
        ? counted.get(event.runId)
        : waitingText(event, modelDriven.has(event.runId));
      if (waiting === undefined) {
        if (event.type === 'entry') spinner.stop();
        return;
      }
      if (spinner.isSpinning) spinner.text = waiting;
      else spinner.start(waiting);
    },
    stop: () => {
      const ended = text.close();
      if (ended) options.stream.write(ended);
      spinner.stop();
    },
  };
}
