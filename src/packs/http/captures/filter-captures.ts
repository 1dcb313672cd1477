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

function isJsonResponse(capture: Capture): boolean {
  const type = capture.responseHeaders['content-type'] ?? '';
  return (
    type.includes('json') || (capture.responseBody !== undefined && typeof capture.responseBody === 'object')
  );
}

/** The origin the app's API lives on: where most writes went (else most JSON reads). */
export function apiOriginOf(captures: Capture[]): string | undefined {
  const count = (list: Capture[]) => {
    const counts = new Map<string, number>();
    for (const capture of list) counts.set(capture.origin, (counts.get(capture.origin) ?? 0) + 1);
    return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  };
  const apiLike = captures.filter(
    (capture) => capture.resourceType !== 'document' && !STATIC_ASSET.test(capture.path),
  );
  return (
    count(apiLike.filter((capture) => WRITE_METHODS.has(capture.method))) ??
    count(apiLike.filter(isJsonResponse))
  );
}

/**
 * Keeps what can serve as an example: writes (POST/PUT/PATCH/DELETE, including 204 and
 * non-JSON responses) and successful JSON reads, on the API's origin. Drops other origins,
 * static assets, preflights and page navigations, each with a reason.
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
    else if (WRITE_METHODS.has(capture.method)) kept.push(capture);
    else if (capture.method === 'GET' && capture.status < 400 && isJsonResponse(capture)) kept.push(capture);
    else drop(capture, capture.method === 'GET' ? 'not a successful JSON read' : `method ${capture.method}`);
  }
  return { kept, dropped };
}
