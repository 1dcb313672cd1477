import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { z } from 'zod';
import { TallyError } from '../../core/errors.js';
import { replyResult, streamOfResult } from '../../core/models/stream-of-result.js';

const stepSchema = z.object({
  text: z.string().optional(),
  toolCalls: z.array(z.object({ toolName: z.string(), input: z.unknown() })).optional(),
});

/** A recorded model transcript: the model's responses in order, and the user message they answered. */
export const cassetteSchema = z.object({
  version: z.literal(1),
  description: z.string().optional(),
  /** The user's message of the recorded turn (used when no task is given). */
  message: z.string(),
  /** Defaults for `{{NAME}}` placeholders in the message and the steps (e.g. a preview server URL). */
  vars: z.record(z.string(), z.string()).optional(),
  steps: z.array(stepSchema).min(1),
});

export type Cassette = z.infer<typeof cassetteSchema>;
export type CassetteStep = z.infer<typeof stepSchema>;

export class CassetteError extends TallyError {}

function substitute<T>(value: T, vars: Record<string, string>): T {
  const text = JSON.stringify(value).replace(/\{\{([A-Z][A-Z0-9_]*)\}\}/g, (whole, name: string) =>
    name in vars ? JSON.stringify(vars[name]).slice(1, -1) : whole,
  );
  return JSON.parse(text) as T;
}

/** Reads and checks a cassette file, filling `{{NAME}}` placeholders from its defaults and `vars`. */
export function loadCassette(path: string, vars: Record<string, string> = {}): Cassette {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'ENOENT' && code !== 'EISDIR' && !(error instanceof SyntaxError)) throw error;
    throw new CassetteError(
      'CASSETTE_UNREADABLE',
      `Cannot read the cassette ${path} (${(error as Error).message}). Pass the path of a cassette JSON file, e.g. demo/coder-sample/ui-task.cassette.json.`,
      { path },
    );
  }
  const parsed = cassetteSchema.safeParse(json);
  if (!parsed.success)
    throw new CassetteError(
      'CASSETTE_INVALID',
      `The cassette ${path} does not have the expected shape (${z.prettifyError(parsed.error)}). Fix the file: { version: 1, message, steps: [{ text?, toolCalls?: [{ toolName, input }] }] }.`,
      { path },
    );
  return substitute(parsed.data, { ...parsed.data.vars, ...vars });
}

const USAGE = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};

/**
 * A language model that plays a cassette through the real loop, tools and ledger: each call
 * gets the next recorded response. It fails loudly when the loop asks for more than the
 * cassette has (`CASSETTE_EXHAUSTED`); `unused` says what was left over.
 */
export class CassetteModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3' as const;
  readonly provider = 'cassette';
  readonly modelId: string;
  readonly supportedUrls = {};
  private readonly steps: CassetteStep[];
  private played = 0;
  exhausted = false;

  constructor(cassette: Cassette, name = 'replay') {
    this.steps = cassette.steps;
    this.modelId = name;
  }

  static fromFile(
    path: string,
    vars: Record<string, string> = {},
  ): { model: CassetteModel; cassette: Cassette } {
    const cassette = loadCassette(path, vars);
    return { model: new CassetteModel(cassette, basename(path).replace(/\.json$/, '')), cassette };
  }

  get unused(): number {
    return this.steps.length - this.played;
  }

  async doGenerate(_options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const step = this.steps[this.played];
    if (!step) {
      this.exhausted = true;
      throw new CassetteError(
        'CASSETTE_EXHAUSTED',
        `The loop asked the cassette for response ${this.played + 1}, but it holds only ${this.steps.length}. The replay no longer matches the recording: re-record the cassette, or check what changed in the loop.`,
      );
    }
    this.played += 1;
    const played = this.played;
    return replyResult(
      step.text,
      (step.toolCalls ?? []).map((call, index) => ({
        toolCallId: `cassette_${played}_${index}`,
        toolName: call.toolName,
        input: JSON.stringify(call.input ?? {}),
      })),
      USAGE,
    );
  }

  /** The next response, streamed word by word (a replay on a terminal shows it as it comes). */
  async doStream(
    options: LanguageModelV3CallOptions,
  ): Promise<{ stream: ReadableStream<LanguageModelV3StreamPart> }> {
    return streamOfResult(await this.doGenerate(options));
  }
}
