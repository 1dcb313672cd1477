import {
  type LiveSession,
  logIn,
  recipeSecrets,
  sessionSecrets,
} from '../../packs/http/client/login-recipe.js';
import type { FishContextOptions } from './fish-context.js';

/**
 * The live session a run asked for, made now against the API's base URL: a login recipe
 * (form or JSON) or `--login browser:SCRIPT` (real Chromium). Replicate and achieve mode
 * log in the same way; the secrets it returns (the recipe's values, the session's cookies
 * and CSRF token) are scrubbed from everything the run writes.
 */
export async function openSession(
  options: Pick<FishContextOptions, 'login' | 'liveSession' | 'env'>,
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
