import { z } from 'zod';
import { builtOnce } from '../built-once.js';

/*
 * The `data` of each ledger entry kind, as Tally writes it. Read back at the store boundary
 * (`toEntry`): a ledger is a file anyone can edit, and old ledgers were written by older
 * Tallys. So every schema is loose: fields this Tally does not know are kept, and every field
 * is optional (readers and formatters omit what is absent). What a field holds, when it is
 * there, is checked: a wrong type makes the entry malformed, never coerced.
 */

/**
 * The closed set of kinds, without building a schema: every `tally fish` and hook knows the
 * kinds, but only a read of rows another writer made checks data against them (issue 22:
 * building these schemas at import cost a data run ~10 ms of CPU before its first request).
 */
export const ENTRY_KINDS = [
  'tool_call',
  'intent',
  'model_call',
  'guard',
  'nudge',
  'gate',
  'fail_open',
  'claim',
  'contract',
  'end',
] as const;

function buildEntryDataSchemas() {
  const strings = z.array(z.string());
  const count = z.number();

  /**
   * Effects stay a list of anything here: readers skip an effect that is not well formed and keep
   * the call's other effects (see `effectsOf`), so one odd effect does not make the call vanish.
   */
  const evidenceSchema = z.looseObject({
    via: z.string().optional(),
    effects: z.array(z.unknown()).optional(),
  });

  /** A failed or refused call's error: an MCP refusal records only its code. */
  const errorSchema = z.looseObject({
    code: z.string().optional(),
    message: z.string().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  });

  const toolCall = z.looseObject({
    tool: z.string().optional(),
    target: z.string().optional(),
    input: z.unknown().optional(),
    /** The status rule's view of the call; absent in ledgers written before it existed. */
    intentKey: z.string().nullable().optional(),
    result: z.unknown().optional(),
    resultPreview: z.string().optional(),
    resultChars: count.optional(),
    evidence: evidenceSchema.optional(),
    error: errorSchema.optional(),
    intents: strings.optional(),
    durationMs: count.optional(),
    source: z.string().optional(),
    toolCallId: z.string().optional(),
  });

  const intent = z.looseObject({
    intentId: z.string().optional(),
    tool: z.string().optional(),
    target: z.string().optional(),
    action: z.string().optional(),
    resources: z.array(z.looseObject({ space: z.string(), key: z.string() })).optional(),
    details: z.record(z.string(), z.unknown()).optional(),
    source: z.string().optional(),
    toolCallId: z.string().optional(),
  });

  const modelCall = z.looseObject({
    model: z.string().optional(),
    round: count.optional(),
    inputTokens: count.nullable().optional(),
    outputTokens: count.nullable().optional(),
    finishReason: z.string().optional(),
    durationMs: count.optional(),
  });

  const guard = z.looseObject({
    guard: z.string().optional(),
    action: z.string().optional(),
    detail: z.string().optional(),
    preview: z.string().optional(),
  });

  const nudge = z.looseObject({ why: z.string().optional(), text: z.string().optional() });

  const gate = z.looseObject({
    gate: z.string().optional(),
    tool: z.string().optional(),
    satisfiedBy: z.string().optional(),
  });

  const failOpen = z.looseObject({
    component: z.string().optional(),
    why: z.string().optional(),
    ts: z.string().optional(),
    session: z.string().nullable().optional(),
  });

  const claim = z.looseObject({
    /** What the agent claimed, in its own words: any object. */
    claim: z.looseObject({ target: z.unknown().optional(), type: z.unknown().optional() }).optional(),
    via: z.string().optional(),
    evidenceSeq: count.optional(),
    resource: z.unknown().optional(),
    why: z.string().optional(),
    source: z.string().optional(),
  });

  const contract = z.looseObject({
    source: z.string().optional(),
    description: z.string().optional(),
    data: z.unknown().optional(),
    words: z.unknown().optional(),
    dropped: strings.optional(),
  });

  const end = z.looseObject({
    reason: z.string().optional(),
    status: z.string().optional(),
    summary: z.string().optional(),
    why: z.string().optional(),
    verified: count.optional(),
    dropped: count.optional(),
    duplicates: count.optional(),
    failed: z
      .array(z.object({ target: z.string().optional(), type: z.string().optional(), reason: z.string() }))
      .optional(),
    unmet: strings.optional(),
    // An agent's review names its flags: any value, shown as it is.
    flags: z.array(z.unknown()).optional(),
    recovery: z.unknown().optional(),
    facts: z.unknown().optional(),
    contract: z.unknown().optional(),
    counts: z
      .object({ modelCalls: count.optional(), toolCalls: count.optional(), failures: count.optional() })
      .optional(),
    detail: z.unknown().optional(),
    checks: z.unknown().optional(),
  });

  // One schema per entry kind: the closed set of kinds above, no more, no fewer.
  return {
    tool_call: toolCall,
    // Written and committed before a tool changes something; its tool_call entry is the outcome.
    intent,
    model_call: modelCall,
    guard,
    nudge,
    gate,
    fail_open: failOpen,
    claim,
    contract,
    end,
  } satisfies Record<(typeof ENTRY_KINDS)[number], z.ZodType>;
}

export type EntryDataSchemas = ReturnType<typeof buildEntryDataSchemas>;

/** One schema per entry kind, built on first use: constructing the ~90 zod schemas costs every command that never checks an entry. */
export const entryDataSchemas: () => EntryDataSchemas = builtOnce(buildEntryDataSchemas);

/** The `data` of an entry of kind `K`, as read back (validated). */
export type EntryData<K extends keyof EntryDataSchemas> = z.output<EntryDataSchemas[K]>;

/** The `data` of an entry of kind `K`, as a writer hands it over. */
export type EntryDataInput<K extends keyof EntryDataSchemas> = z.input<EntryDataSchemas[K]>;

/** Why `data` does not fit its kind's schema, one line per problem; empty when it fits. */
export function entryDataProblems(kind: string, data: unknown): string[] {
  const schema = (entryDataSchemas() as Record<string, z.ZodType>)[kind];
  if (!schema) return [`unknown kind "${kind}"`];
  const parsed = schema.safeParse(data);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => `${issue.path.join('.') || '(data)'}: ${issue.message}`);
}

/** A `tool_call` entry's data: what `invokeTool` records. */
export type ToolCallData = EntryData<'tool_call'>;
