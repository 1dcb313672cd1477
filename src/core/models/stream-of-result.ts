import type {
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';

/** A text in the pieces a provider streams it in: word by word, each with the space after it. */
export function wordPieces(text: string): string[] {
  return text.split(/(?<=\s)(?=\S)/);
}

/**
 * A whole response as the stream a provider would send for it: text word by word, tool calls
 * whole, then the finish with its reason and usage. What replaying and scripted models answer
 * `doStream` with, so a watched run streams exactly what an unwatched one is given at once.
 */
export function streamOfResult(
  result: Pick<LanguageModelV3GenerateResult, 'content' | 'finishReason' | 'usage'>,
): { stream: ReadableStream<LanguageModelV3StreamPart> } {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  result.content.forEach((part, index) => {
    if (part.type === 'text')
      parts.push(
        { type: 'text-start', id: String(index) },
        ...wordPieces(part.text).map((delta) => ({ type: 'text-delta' as const, id: String(index), delta })),
        { type: 'text-end', id: String(index) },
      );
    else if (part.type === 'tool-call') parts.push(part);
  });
  parts.push({ type: 'finish', finishReason: result.finishReason, usage: result.usage });
  return {
    stream: new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  };
}

/**
 * The response a replaying or scripted model gives for one recorded reply: its text, then its
 * tool calls (input as the JSON text a provider sends), finishing with `tool-calls` when there
 * are any, else `stop`.
 */
export function replyResult(
  text: string | undefined,
  calls: { toolCallId: string; toolName: string; input: string }[],
  usage: LanguageModelV3GenerateResult['usage'],
): LanguageModelV3GenerateResult {
  const content: LanguageModelV3Content[] = [];
  if (text) content.push({ type: 'text', text });
  for (const call of calls) content.push({ type: 'tool-call', ...call });
  const hasCalls = calls.length > 0;
  return {
    content,
    finishReason: { unified: hasCalls ? 'tool-calls' : 'stop', raw: hasCalls ? 'tool_calls' : 'stop' },
    usage,
    warnings: [],
  };
}
