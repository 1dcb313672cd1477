import { randomBytes } from 'node:crypto';
import { TallyError } from '../../core/errors.js';
import { ApiClient } from '../../packs/http/client/api-client.js';
import { ApiSpecIndex } from '../../packs/http/openapi/api-spec-index.js';
import { loadApiSpecs } from '../../packs/http/openapi/load-api-specs.js';
import { resolveSpecScope } from '../../packs/http/openapi/resolve-spec-scope.js';
import { SpecAwareIndex } from '../../packs/http/openapi/spec-aware-index.js';
import { configuredHeaders } from './configured-headers.js';
import type { FishContext, FishContextOptions } from './fish-context.js';
import { liveSessionOptions, openSession } from './open-session.js';

/** The first absolute http(s) server URL the documents declare. */
function serverBaseUrl(servers: string[]): string | undefined {
  return servers.find((server) => /^https?:\/\//i.test(server));
}

/** Loads the OpenAPI documents of a run (every one of them); undefined when none were given. */
export async function loadSpecIndex(specs: string[] | undefined): Promise<ApiSpecIndex | undefined> {
  return specs && specs.length > 0 ? new ApiSpecIndex(await loadApiSpecs(specs)) : undefined;
}

const pathOf = (baseUrl: string) => new URL(baseUrl).pathname.replace(/\/+$/, '');

/** The capture index, told the spec's templates when there is one. */
export function specAwareIndex(
  captures: ConstructorParameters<typeof SpecAwareIndex>[0],
  spec: ApiSpecIndex,
  baseUrl: string,
): SpecAwareIndex {
  return new SpecAwareIndex(captures, spec, pathOf(baseUrl));
}

/**
 * Achieve mode: the endpoint model comes from OpenAPI documents alone. It authenticates
 * with a session made now (`--login` recipe or `browser:SCRIPT`, as replicate mode does)
 * and configured headers (`--header`, `TALLY_FISH_HEADERS`), which win; never with
 * captured cookies — there are no captures.
 */
export async function buildAchieveContext(
  options: FishContextOptions,
  spec: ApiSpecIndex,
): Promise<FishContext> {
  const baseUrl = options.baseUrl ?? serverBaseUrl(spec.set.servers);
  if (!baseUrl)
    throw new TallyError(
      'FISHERMAN_NO_BASE_URL',
      'The OpenAPI documents name no absolute server URL, so Tally cannot tell where the API lives: pass --base-url.',
    );
  const headers = configuredHeaders(options.headers, options.env ?? process.env);
  const { session, secrets } = await openSession(options, baseUrl);
  const knownSecrets = [...secrets, ...Object.values(headers)];
  const client = new ApiClient({
    baseUrl,
    marker: options.marker ?? randomBytes(3).toString('hex'),
    captureAuth: {},
    ...liveSessionOptions(session, baseUrl, options, knownSecrets),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(options.allowDelete ? { allowDelete: true } : {}),
    ...(options.created ? { created: options.created } : {}),
    ...(options.markedBy ? { markedBy: options.markedBy } : {}),
  });
  return {
    set: { captures: [], auth: [], skipped: [], sources: [] },
    baseUrl,
    client,
    index: specAwareIndex([], spec, baseUrl),
    scope: resolveSpecScope(options.scope, spec),
    knownSecrets,
    spec,
  };
}
