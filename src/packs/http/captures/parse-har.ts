import { z } from 'zod';
import { buildCapture } from './build-capture.js';
import type { AuthSample, Capture } from './capture.js';
import { CaptureFormatError } from './capture-error.js';

const nameValue = z.object({ name: z.string(), value: z.string() });
const harSchema = z.object({
  log: z.object({
    entries: z.array(
      z.object({
        startedDateTime: z.string().optional(),
        _resourceType: z.string().optional(),
        request: z.object({
          method: z.string().min(1),
          url: z.string().min(1),
          headers: z.array(nameValue).default([]),
          postData: z.object({ mimeType: z.string().optional(), text: z.string().optional() }).optional(),
        }),
        response: z.object({
          status: z.number().int(),
          headers: z.array(nameValue).default([]),
          content: z
            .object({
              mimeType: z.string().optional(),
              text: z.string().optional(),
              encoding: z.string().optional(),
            })
            .optional(),
        }),
      }),
    ),
  }),
});

function where(path: PropertyKey[]): string {
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

function headerMap(pairs: { name: string; value: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, value } of pairs) {
    const lower = name.toLowerCase();
    out[lower] = out[lower] === undefined ? value : `${out[lower]}, ${value}`;
  }
  return out;
}

/** Parses HAR 1.2 text into captures (all of them; filtering is separate). */
export function parseHar(text: string, source: string): { captures: Capture[]; auth: AuthSample[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new CaptureFormatError(source, '', `not valid JSON (${error.message})`);
  }
  const parsed = harSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0] as z.core.$ZodIssue;
    throw new CaptureFormatError(source, where(issue.path), issue.message);
  }
  const captures: Capture[] = [];
  const auth: AuthSample[] = [];
  parsed.data.log.entries.forEach((entry, index) => {
    let url: URL;
    try {
      url = new URL(entry.request.url);
    } catch (error) {
      if (error instanceof TypeError)
        throw new CaptureFormatError(
          source,
          `log.entries[${index}].request.url`,
          `"${entry.request.url}" is not an absolute URL`,
        );
      throw error;
    }
    const content = entry.response.content;
    const built = buildCapture({
      id: `${source}#${index}`,
      session: source,
      method: entry.request.method,
      url,
      requestHeaders: headerMap(entry.request.headers),
      ...(entry.request.postData?.text !== undefined ? { requestText: entry.request.postData.text } : {}),
      ...(entry.request.postData?.mimeType ? { requestContentType: entry.request.postData.mimeType } : {}),
      status: entry.response.status,
      responseHeaders: headerMap(entry.response.headers),
      ...(content?.text !== undefined
        ? {
            responseText:
              content.encoding === 'base64'
                ? Buffer.from(content.text, 'base64').toString('utf8')
                : content.text,
          }
        : {}),
      ...(content?.mimeType ? { responseContentType: content.mimeType } : {}),
      timestamp: entry.startedDateTime,
      ...(entry._resourceType ? { resourceType: entry._resourceType } : {}),
    });
    captures.push(built.capture);
    if (built.auth) auth.push(built.auth);
  });
  return { captures, auth };
}
