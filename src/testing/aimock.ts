/**
 * @copilotkit/aimock's LLMock, as far as this module needs it. Structural, so the published
 * .d.ts imports no dev dependency (TS2307 for consumers without skipLibCheck); with aimock
 * installed, `startAimock<LLMock>((mock) => …)` gives `setup` and `mock` the full type.
 */
export interface AimockMock {
  readonly url: string;
  start(): Promise<unknown>;
  stop(): Promise<unknown>;
}

export interface AimockServer<M extends AimockMock = AimockMock> {
  mock: M;
  /** Base URL for OpenAI-style clients: set OPENAI_BASE_URL to this. */
  openaiBaseUrl: string;
  /** Environment for `resolveModel('openai:…', env)` pointed at the mock. */
  env: NodeJS.ProcessEnv;
  stop: () => Promise<void>;
}

/**
 * Starts `@copilotkit/aimock` (a real OpenAI/Anthropic wire-format server) on 127.0.0.1 and
 * a free port. Register fixtures in `setup`; remember that the first matching fixture wins,
 * so register `onToolResult` fixtures before `onMessage` ones. A run with an observer streams
 * its model calls, and aimock answers those as server-sent events: a fixture's `chunkSize`
 * and `latency` options say how small the pieces are and how far apart.
 */
export async function startAimock<M extends AimockMock = AimockMock>(
  setup: (mock: M) => void = () => {},
): Promise<AimockServer<M>> {
  // A variable specifier: the emitted .d.ts must not name the dev dependency (see AimockMock).
  const specifier = '@copilotkit/aimock';
  let module: { LLMock: new (options: { port: number; host: string }) => AimockMock };
  try {
    module = await import(specifier);
  } catch (error) {
    throw new Error(
      `startAimock needs @copilotkit/aimock: run \`npm i -D @copilotkit/aimock\`. (${String(error)})`,
    );
  }
  const mock = new module.LLMock({ port: 0, host: '127.0.0.1' }) as M;
  setup(mock);
  await mock.start();
  const openaiBaseUrl = `${mock.url}/v1`;
  return {
    mock,
    openaiBaseUrl,
    env: {
      OPENAI_BASE_URL: openaiBaseUrl,
      OPENAI_API_KEY: 'aimock',
      ANTHROPIC_BASE_URL: `${mock.url}/v1`,
      ANTHROPIC_API_KEY: 'aimock',
    },
    stop: async () => {
      await mock.stop();
    },
  };
}
