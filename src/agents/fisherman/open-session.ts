import {
  type LiveSession,
  type LoginRecipe,
  logIn,
  recipeSecrets,
  sessionSecrets,
} from '../../packs/http/client/login-recipe.js';

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

/** The recipe's login again, for a session that expired mid-run (undefined without a recipe). */
export function renewSessionWith(baseUrl: string, options: SessionOptions): Promise<LiveSession> {
  if (!options.login) return Promise.reject(new Error('no login recipe to renew the session with'));
  return logIn(baseUrl, options.login, options.env);
}
