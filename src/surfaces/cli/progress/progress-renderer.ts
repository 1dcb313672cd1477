import type { RunObserver } from '../../../core/agent/run-observer.js';
import { formatProgressEvent, type ProgressStyle, waitingText } from './format-progress-event.js';

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
 * model's text per step, and an ora spinner saying what the run waits for in between.
 */
export async function createProgressRenderer(options: ProgressRendererOptions): Promise<ProgressRenderer> {
  const { default: ora } = await import('ora');
  // discardStdin stays off: `tally code` reads the next chat line from stdin.
  // A terminal that reports no width (some pseudo-terminals) would make ora erase lines forever.
  const animate = (options.spinner ?? true) && (options.stream.columns ?? 0) > 0;
  // Silent (not merely disabled) without animation: a disabled ora still prints "- text" lines.
  const spinner = ora({ stream: options.stream, discardStdin: false, isSilent: !animate });
  const modelDriven = new Set<string>();
  return {
    observer: (event) => {
      if (event.type === 'run-start' && typeof event.meta.model === 'string') modelDriven.add(event.runId);
      const line = formatProgressEvent(event, options);
      if (line !== undefined) {
        spinner.clear();
        options.stream.write(`${line}\n`);
        if (spinner.isSpinning) spinner.render();
      }
      const waiting = waitingText(event, modelDriven.has(event.runId));
      if (waiting === undefined) {
        if (event.type === 'entry') spinner.stop();
        return;
      }
      if (spinner.isSpinning) spinner.text = waiting;
      else spinner.start(waiting);
    },
    stop: () => spinner.stop(),
  };
}
