import type { Ledger } from '../../core/ledger/ledger.js';
import type { ApiClientOptions } from '../../packs/http/client/api-client.js';
import {
  type LiveSession,
  type LoginRecipe,
  logIn,
  recipeSecrets,
  sessionSecrets,
} from '../../packs/http/client/login-recipe.js';
import { sessionSecretsLearner } from './session-secrets-learner.js';

/** How a run gets its live session: the part of a Fisherman run's options this module reads. */
export interface SessionOptions {
  /** A recipe for a session made now; without one, only capture auth headers and `headers` apply. */
  login?: LoginRecipe;
  /** A session made some other way now (`--login browser:SCRIPT`: real Chromium), for the API's base URL. */
  liveSession?: (baseUrl: string) => Promise<LiveSession>;
  env?: NodeJS.ProcessEnv;
}

/**
 * The live session a run asked for, made now against the API's base URL: a login recipe
 * (form or JSON) or `--login browser:SCRIPT` (real Chromium). Replicate and achieve mode
 * log in the same way; the secrets it returns (the recipe's values, the session's cookies
 * and CSRF token) are scrubbed from everything the run writes.
 */
export async function openSession(
  options: SessionOptions,
  baseUrl: string,
): Promise<{ session?: LiveSession; secrets: string[] }> {
  const session = options.login
    ? await logIn(baseUrl, options.login, options.env)
    : await options.liveSession?.(baseUrl);
  return {
    ...(session ? { session } : {}),
    secrets: [
      ...(options.login ? recipeSecrets(options.login, options.env) : []),
      ...(session ? sessionSecrets(session) : []),
    ],
  };
}

/**
 * The ApiClient options of a live session (none without one): the session, where the values it
 * learns mid-run go (`knownSecrets`, the ledger), and, for a session the recipe made, how to
 * make it again when it expires mid-run. Replicate and achieve mode build their clients alike.
 */
export function liveSessionOptions(
  session: LiveSession | undefined,
  baseUrl: string,
  options: SessionOptions & { ledger?: Pick<Ledger, 'knowSecrets'> },
  knownSecrets: string[],
): Pick<ApiClientOptions, 'session' | 'onSessionSecrets' | 'renewSession'> {
  if (!session) return {};
  const { login, env } = options;
  return {
    session,
    onSessionSecrets: sessionSecretsLearner(knownSecrets, options.ledger),
    ...(login ? { renewSession: () => logIn(baseUrl, login, env) } : {}),
  };
}
