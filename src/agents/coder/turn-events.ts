import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import type { NewEntry } from '../../core/ledger/entry.js';
import type { Ledger, RunRecorder } from '../../core/ledger/ledger.js';
import { observedRecorder } from '../../core/ledger/recording-ledger.js';
import type { TurnResult } from './turn-result.js';

/** What a turn reports while it runs, in causal order (for a streaming surface). */
export type TurnEvent =
  | { type: 'turn-start'; chatId: string; turn: number }
  | { type: 'run-start'; runId: string }
  /** The model's text of one step, as soon as the step's response arrived. */
  | { type: 'text'; text: string }
  | {
      type: 'tool-call';
      tool: string;
      target: string;
      /** ok, error, or rejected (refused before anything happened). */
      outcome: string;
      via?: string;
      error?: { code: string; message: string };
    }
  | { type: 'nudge'; why: string; text: string }
  | { type: 'guard'; guard: string; action: string; detail?: string }
  | { type: 'turn-end'; result: TurnResult };

export type TurnEventListener = (event: TurnEvent) => void;

/**
 * A listener's failure must not change the turn: the first throw detaches it (one line on
 * stderr says so) and the turn goes on as if nobody watched.
 */
export function safeListener(listener: TurnEventListener | undefined): TurnEventListener {
  let attached = listener !== undefined;
  return (event) => {
    if (!attached || !listener) return;
    try {
      listener(event);
    } catch (error) {
      attached = false;
      process.stderr.write(
        `tally: a turn event listener failed (${String(error)}) and was detached; the turn continues.\n`,
      );
    }
  };
}

function eventOf(entry: NewEntry): TurnEvent | undefined {
  const data = entry.data;
  if (entry.kind === 'tool_call') {
    const { evidence, error } = entry.data;
    return {
      type: 'tool-call',
      tool: String(data.tool ?? entry.name ?? ''),
      target: String(data.target ?? ''),
      outcome: String(entry.outcome ?? ''),
      ...(typeof evidence?.via === 'string' ? { via: evidence.via } : {}),
      ...(error
        ? { error: { code: String(error.code ?? 'ERROR'), message: String(error.message ?? '') } }
        : {}),
    };
  }
  if (entry.kind === 'nudge')
    return { type: 'nudge', why: String(data.why ?? ''), text: String(data.text ?? '') };
  if (entry.kind === 'guard')
    return {
      type: 'guard',
      guard: String(data.guard ?? entry.name ?? ''),
      action: String(data.action ?? ''),
      ...(typeof data.detail === 'string' ? { detail: data.detail } : {}),
    };
  return undefined;
}

/** The ledger as the run sees it, with each run's recorder passed through `wrap` as it starts. */
function wrappingStartRun(ledger: Ledger, wrap: (recorder: RunRecorder) => RunRecorder): Ledger {
  return new Proxy(ledger, {
    get(target, property) {
      if (property === 'startRun')
        return (options: Parameters<Ledger['startRun']>[0]): RunRecorder => wrap(target.startRun(options));
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The ledger as the run sees it, telling `onRecorder` the recorder of each run it starts. */
export function recorderTold(ledger: Ledger, onRecorder: (recorder: RunRecorder) => void): Ledger {
  return wrappingStartRun(ledger, (recorder) => {
    onRecorder(recorder);
    return recorder;
  });
}

/**
 * The ledger as the run sees it, with every entry of the run it starts also told to the
 * listener (redacted like the entry itself): tool calls with their outcome and evidence,
 * nudges and guards, the moment they are recorded. The ledger itself is untouched.
 */
export function tappedLedger(
  ledger: Ledger,
  listener: TurnEventListener,
  /** Told the run's recorder as it starts (its redactor scrubs what the model says, too). */
  onRecorder?: (recorder: RunRecorder) => void,
): Ledger {
  return wrappingStartRun(ledger, (recorder) => {
    onRecorder?.(recorder);
    listener({ type: 'run-start', runId: recorder.runId });
    // Each entry told as the ledger stores it, its data redacted.
    return observedRecorder(recorder, (recorded) => {
      const event = eventOf(recorded);
      if (event) listener(event);
    });
  });
}

/** The model, telling the listener each step's text as soon as its response arrives. */
export function tappedModel(model: LanguageModelV3, listener: TurnEventListener): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: async (options) => {
      const result = await model.doGenerate(options);
      const text = result.content
        .flatMap((part) => (part.type === 'text' ? [part.text] : []))
        .join('')
        .trim();
      if (text) listener({ type: 'text', text });
      return result;
    },
    // A watched run streams: the step's text is gathered from its deltas and told at the end
    // of the step, as doGenerate tells it.
    doStream: async (options) => {
      const result = await model.doStream(options);
      const parts: string[] = [];
      const tell = () => {
        const text = parts.join('').trim();
        parts.length = 0;
        if (text) listener({ type: 'text', text });
      };
      return {
        ...result,
        stream: result.stream.pipeThrough(
          new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
            transform(part, controller) {
              if (part.type === 'text-delta') parts.push(part.delta);
              if (part.type === 'finish') tell();
              controller.enqueue(part);
            },
          }),
        ),
      };
    },
  };
}
