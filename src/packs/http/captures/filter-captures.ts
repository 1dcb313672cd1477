import { type Capture, type SkippedCapture, WRITE_METHODS } from './capture.js';

const STATIC_ASSET =
  /\.(js|mjs|css|map|png|jpe?g|gif|svg|ico|webp|avif|woff2?|ttf|otf|eot|mp4|webm|mp3|wav)$/i;
const STATIC_TYPES = new Set([
  'stylesheet',
  'image',
  'font',
  'script',
  'media',
  'manifest',
  'texttrack',
  'websocket',
]);

/**
 * Decision: a capture without an HTTP answer (HAR status 0: the browser aborted the request, an
 * extension or CORS blocked it, the network failed) is no evidence of how the API works — the
 * server never accepted or refused it. It is dropped with its reason: never an example (`0 < 400`
 * ranked it as a success, and its body was replayed), never an endpoint, never a vote for the
 * API's origin. Its auth headers still count: the browser did hold them in this session.
 */
const unanswered = (capture: Capture) => capture.status < 100;

function isJsonResponse(capture: Capture): boolean {
  const type = capture.responseHeaders['content-type'] ?? '';
  return (
    type.includes('json') || (capture.responseBody !== undefined && typeof capture.responseBody === 'object')
  );
}

/**
 * The origin the app's API lives on, by how API-like its traffic is: first the number of distinct
 * write endpoints answered with JSON, then of distinct write endpoints, then of JSON reads, then
 * of writes. Five analytics beacons to one `/collect` are one endpoint with no JSON answer; they
 * outnumbered the app's own creates and took the run to the wrong origin.
 */
export function apiOriginOf(captures: Capture[]): string | undefined {
  const scores = new Map<string, OriginScore>();
  for (const capture of captures) {
    if (capture.resourceType === 'document' || STATIC_ASSET.test(capture.path) || unanswered(capture))
      continue;
    const write = WRITE_METHODS.has(capture.method);
    const json = isJsonResponse(capture);
    if (!write && !json) continue;
    let score = scores.get(capture.origin);
    if (!score) {
      score = { jsonWrites: new Set(), writes: new Set(), jsonReads: 0, count: 0 };
      scores.set(capture.origin, score);
    }
    const endpoint = `${capture.method} ${capture.path}`;
    if (write) {
      score.writes.add(endpoint);
      score.count += 1;
      if (json) score.jsonWrites.add(endpoint);
    } else score.jsonReads += 1;
  }
  let best: { origin: string; rank: number[] } | undefined;
  for (const [origin, score] of scores) {
    const rank = [score.jsonWrites.size, score.writes.size, score.jsonReads, score.count];
    // Lexicographic: the first figure that differs decides; a tie keeps the origin seen first.
    const at = best ? rank.findIndex((value, index) => value !== best?.rank[index]) : -1;
    if (!best || (at !== -1 && (rank[at] as number) > (best.rank[at] as number))) best = { origin, rank };
  }
  return best?.origin;
}

/** How API-like one origin's captured traffic is (see apiOriginOf). */
interface OriginScore {
  jsonWrites: Set<string>;
  writes: Set<string>;
  jsonReads: number;
  count: number;
}

/**
 * Keeps what can serve as an example: writes (POST/PUT/PATCH/DELETE, including 204 and
 * non-JSON responses) and successful JSON reads, on the API's origin. Drops other origins,
 * static assets, preflights, page navigations and requests never answered (status 0), each
 * with a reason.
 */
export function filterCaptures(
  captures: Capture[],
  apiOrigin: string | undefined,
): { kept: Capture[]; dropped: SkippedCapture[] } {
  const kept: Capture[] = [];
  const dropped: SkippedCapture[] = [];
  const drop = (capture: Capture, reason: string) =>
    dropped.push({ source: capture.id, reason: `${capture.method} ${capture.path}: ${reason}` });
  for (const capture of captures) {
    if (apiOrigin && capture.origin !== apiOrigin) drop(capture, `other origin ${capture.origin}`);
    else if (capture.method === 'OPTIONS') drop(capture, 'CORS preflight');
    else if (
      STATIC_ASSET.test(capture.path) ||
      (capture.resourceType && STATIC_TYPES.has(capture.resourceType))
    )
      drop(capture, 'static asset');
    else if (capture.resourceType === 'document') drop(capture, 'page navigation, not an API call');
    else if (unanswered(capture))
      drop(
        capture,
        `no answer (status ${capture.status}: the request was aborted or blocked), not an example`,
      );
    else if (WRITE_METHODS.has(capture.method)) kept.push(capture);
    else if (capture.method === 'GET' && capture.status < 400 && isJsonResponse(capture)) kept.push(capture);
    else drop(capture, capture.method === 'GET' ? 'not a successful JSON read' : `method ${capture.method}`);
  }
  return { kept, dropped };
}
