import { randomBytes } from 'node:crypto';
import { TallyError } from '../../core/errors.js';
import type { Ledger } from '../../core/ledger/ledger.js';
import type { CaptureSet } from '../../packs/http/captures/capture.js';
import { currentAuthHeaders, loadCaptures } from '../../packs/http/captures/load-captures.js';
import { ApiClient } from '../../packs/http/client/api-client.js';
import { assertReachable } from '../../packs/http/client/network-failure.js';
import { CaptureIndex } from '../../packs/http/endpoints/capture-index.js';
import { resolveScope } from '../../packs/http/endpoints/scope.js';
import type { ApiSpecIndex } from '../../packs/http/openapi/api-spec-index.js';
import type { HttpToolContext } from '../../packs/http/tools/index.js';
import { configuredHeaders } from './configured-headers.js';
import { liveSessionOptions, openSession, type SessionOptions } from './open-session.js';

export interface FishContextOptions extends SessionOptions {
  captures: string[];
  /** OpenAPI 3.x / Swagger 2.0 documents (files or URLs); alone they make an achieve-mode run. */
  specs?: string[];
  scope?: string;
  /** Where requests go; defaults to the origin the captures were recorded against. */
  baseUrl?: string;
  headers?: Record<string, string>;
  allowDelete?: boolean;
  /** Resource paths the run being cleaned up created. */
  created?: string[];
  /** The run's marker stamped into titles (default: 6 random hex digits). */
  marker?: string;
  /** Cleanup by marker: the cleaned run's marker and the fields it stamped, per collection. */
  markedBy?: { marker: string; fields: Record<string, string[]> };
  /**
   * Told the values the session learns mid-run (a rotated cookie): every run it records, those
   * under way included, scrubs them from then on.
   */
  ledger?: Pick<Ledger, 'knowSecrets'>;
}

export interface FishContext extends HttpToolContext {
  set: CaptureSet & { apiOrigin?: string };
  baseUrl: string;
  /**
   * Values this run knows are secret — the recipe's fields, configured header values, the
   * live session's cookies and CSRF token, capture auth headers. Runs register them with
   * the ledger so an echo anywhere (a request body, a response, an error) is scrubbed. It
   * grows as the session does (session-secrets-learner.ts).
   */
  knownSecrets: string[];
  /** The endpoint model of the OpenAPI documents, when the run was given any. */
  spec?: ApiSpecIndex;
}

export class FishermanInputError extends TallyError {}

/**
 * `2 skipped: static asset (1); a data: URL, which the browser answers itself (no server saw it) (1)`:
 * why, by kind, without the paths (a path may carry a token; a data: URL's is its content).
 */
function skippedSummary(skipped: CaptureSet['skipped']): string {
  const kinds = new Map<string, number>();
  for (const { reason } of skipped) {
    const kind = reason.replace(/^[A-Z]+ \/\S*: /, '');
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  const listed = [...kinds]
    .slice(0, 3)
    .map(([kind, count]) => (kinds.size === 1 ? kind : `${kind} (${count})`));
  return `${skipped.length} skipped${listed.length > 0 ? `: ${listed.join('; ')}${kinds.size > 3 ? '; …' : ''}` : ''}`;
}

/** Everything a Fisherman run needs: captures → endpoint model → scope → a live, origin-locked client. */
export async function buildFishContext(options: FishContextOptions): Promise<FishContext> {
  if (options.captures.length === 0 && (options.specs ?? []).length === 0) {
    throw new FishermanInputError(
      'FISHERMAN_NEEDS_INPUT',
      'Fisherman needs to know the API: pass --captures with a HAR file or an explorbot output/requests directory recorded while using the app, or --spec with an OpenAPI document and --base-url.',
    );
  }
  // Checked before anything is read or sent: a bad line is a usage error in every mode.
  const headers = configuredHeaders(options.headers, options.env ?? process.env);
  // The OpenAPI side (swagger-parser, a YAML parser: ~0.4 s of start-up) loads only for a run
  // given a spec; a captures-only run never needs it.
  const achieve = (options.specs ?? []).length > 0 ? await import('./achieve-context.js') : undefined;
  const spec = await achieve?.loadSpecIndex(options.specs);
  if (achieve && spec && options.captures.length === 0) return achieve.buildAchieveContext(options, spec);
  const set = loadCaptures(options.captures);
  if (set.captures.length === 0) {
    throw new FishermanInputError(
      'FISHERMAN_NO_EXAMPLES',
      `The captures hold no API requests to learn from (${skippedSummary(set.skipped)}). Record the app while creating data through its UI.`,
    );
  }
  const baseUrl = options.baseUrl ?? set.apiOrigin;
  if (!baseUrl)
    throw new FishermanInputError(
      'FISHERMAN_NO_BASE_URL',
      'Cannot tell where the API lives: pass --base-url.',
    );
  // A recipe login reports an unreachable app itself (LOGIN_UNREACHABLE); without one, the
  // first sign would be every tool call failing, so check before the run starts.
  if (!options.login) await assertReachable(baseUrl);
  const { session, secrets } = await openSession(options, baseUrl);
  const captureAuth = currentAuthHeaders(set.auth);
  const knownSecrets = [...secrets, ...Object.values(headers), ...Object.values(captureAuth)];
  const client = new ApiClient({
    baseUrl,
    marker: options.marker ?? randomBytes(3).toString('hex'),
    captureAuth,
    ...liveSessionOptions(session, baseUrl, options, knownSecrets),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(options.allowDelete ? { allowDelete: true } : {}),
    ...(options.created ? { created: options.created } : {}),
    ...(options.markedBy ? { markedBy: options.markedBy } : {}),
  });
  // With both, the captures' examples come first and the spec's templates fill the gaps.
  const index =
    achieve && spec ? achieve.specAwareIndex(set.captures, spec, baseUrl) : new CaptureIndex(set.captures);
  return {
    set,
    baseUrl,
    client,
    index,
    scope: resolveScope(options.scope, set.captures),
    knownSecrets,
    ...(spec ? { spec } : {}),
  };
}
