export type DigestPayload =
  | { kind: 'digest'; text: string; sessionId?: string; cwd?: string }
  | { kind: 'declined'; why: string; sessionId?: string }
  | {
      kind: 'unreadable';
      why: 'malformed-payload' | 'non-object-payload' | 'payload-shape-unrecognized';
      detail: string;
      sessionId?: string;
    };

// Notices that look like results but are not digests; declining them is not a failure.
const NOTICES: [RegExp, string][] = [
  [/^\s*Launching skill\b/i, 'a "Launching skill" notice'],
  [
    /\b(running|launched|continues|started) in (the )?background\b|\bbackground (task|agent) (started|launched)\b/i,
    'a background notice',
  ],
  [
    /\buser (declined|rejected|refused|denied)\b|\bdoesn't want to proceed\b|\[Request interrupted by user/i,
    'a user refusal',
  ],
];

const LEGACY_WRAPPER = /^\s*<(skill|command|tool)[-_]?(result|output)[^>]*>([\s\S]*)<\/\1[-_]?\2>\s*$/i;
const LEGACY_PREFIX = /^\s*(Skill|Command) (completed|result)[^\n]*:\s*\n?/i;

function unwrapLegacy(text: string): string {
  const wrapped = LEGACY_WRAPPER.exec(text);
  return (wrapped ? (wrapped[3] as string) : text).replace(LEGACY_PREFIX, '').trim();
}

/**
 * Reads a Claude Code PostToolUse payload for the digest hook. Accepts the object
 * `tool_response` (`success: true`, the digest in `result`: a forked skill) and the legacy
 * string shape with its completion wrapper; declines other skills than Tally's how-do-i, inline
 * skills (no result) and notices by name; says exactly what it could not read.
 */
export function parseDigestPayload(stdin: string): DigestPayload {
  let payload: unknown;
  try {
    payload = JSON.parse(stdin);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return { kind: 'unreadable', why: 'malformed-payload', detail: error.message };
  }
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) {
    return {
      kind: 'unreadable',
      why: 'non-object-payload',
      detail: Array.isArray(payload) ? 'an array' : `a ${payload === null ? 'null' : typeof payload}`,
    };
  }
  const record = payload as Record<string, unknown>;
  const sessionId = typeof record.session_id === 'string' ? record.session_id : undefined;
  const cwd = typeof record.cwd === 'string' ? record.cwd : undefined;
  const base = { ...(sessionId !== undefined ? { sessionId } : {}) };
  // Only Tally's own how-do-i skill carries a scout report; another plugin's skill is not ours to store.
  const input = record.tool_input as { skill?: unknown } | undefined;
  const skill = typeof input?.skill === 'string' ? input.skill.trim().replace(/^\//, '') : undefined;
  if (skill !== undefined && skill !== 'how-do-i' && skill !== 'tally:how-do-i')
    return { kind: 'declined', why: `not Tally's how-do-i skill (${skill.slice(0, 60)})`, ...base };
  const response = record.tool_response;
  let text: string | undefined;
  if (typeof response === 'string') {
    text = unwrapLegacy(response);
  } else if (response && typeof response === 'object' && !Array.isArray(response)) {
    const object = response as Record<string, unknown>;
    if (object.success === true && typeof object.result === 'string') text = object.result.trim();
    else if (object.success === false) return { kind: 'declined', why: 'the skill did not succeed', ...base };
    // An inline skill (no `context: fork`) answers `{ success, commandName }`: its work happens
    // in the main conversation afterwards, so there is no result to store — not a bad payload.
    else if (object.success === true && object.result === undefined && typeof object.commandName === 'string')
      return { kind: 'declined', why: 'an inline skill has no result', ...base };
  }
  if (text === undefined)
    return {
      kind: 'unreadable',
      why: 'payload-shape-unrecognized',
      detail: 'tool_response is neither { success: true, result } nor a string',
      ...base,
    };
  for (const [pattern, name] of NOTICES)
    if (pattern.test(text)) return { kind: 'declined', why: name, ...base };
  if (!text) return { kind: 'declined', why: 'an empty result', ...base };
  return { kind: 'digest', text, ...base, ...(cwd ? { cwd } : {}) };
}
