/**
 * The tool calls of one model response. The SDK may start a call while the response is still
 * streaming, so `finish` waits for `complete` before it looks at its siblings: a finish that
 * shares its step with other calls would check a world those calls are still changing.
 */
export interface StepCalls {
  readonly calls: { id: string; name: string }[];
  readonly complete: Promise<void>;
  add(id: string, name: string): void;
  end(): void;
}

export function stepCalls(): StepCalls {
  let end: () => void = () => undefined;
  const complete = new Promise<void>((resolve) => {
    end = resolve;
  });
  const calls: { id: string; name: string }[] = [];
  return {
    calls,
    complete,
    add: (id, name) => {
      if (!calls.some((call) => call.id === id)) calls.push({ id, name });
    },
    end: () => end(),
  };
}

/** Waits for the response to be complete, at most `limitMs` (a stream that never ends must not hold finish). */
export async function settledCalls(
  step: StepCalls | undefined,
  limitMs = 10_000,
): Promise<{ id: string; name: string }[]> {
  if (!step) return [];
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    step.complete,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, limitMs);
    }),
  ]);
  clearTimeout(timer);
  return step.calls;
}
