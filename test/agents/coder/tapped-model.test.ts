// The Coder tells its listener (terminal lines, the web chat) each step's text. A watched run
// streams, so the text must arrive whether the loop calls doGenerate or doStream.
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { type TurnEvent, tappedModel } from '../../../src/agents/coder/turn-events.js';
import { callTool, say, scriptedModel } from '../../../src/testing/scripted-model.js';

const prompt = { prompt: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }] };

describe('tappedModel', () => {
  it('tells each step’s whole text once, streamed or not', async () => {
    const events: TurnEvent[] = [];
    const model = tappedModel(
      scriptedModel([callTool('fs_read', { path: 'a' }, 'Reading a first.'), say('All done now.')]),
      (event) => events.push(event),
    );
    const streamed = await model.doStream(prompt);
    const parts: LanguageModelV3StreamPart[] = [];
    for await (const part of streamed.stream as unknown as AsyncIterable<LanguageModelV3StreamPart>)
      parts.push(part);
    expect(parts.filter((part) => part.type === 'text-delta').length).toBeGreaterThan(1);
    expect(events).toEqual([{ type: 'text', text: 'Reading a first.' }]);

    await model.doGenerate(prompt);
    expect(events).toEqual([
      { type: 'text', text: 'Reading a first.' },
      { type: 'text', text: 'All done now.' },
    ]);
  });
});
