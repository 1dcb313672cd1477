export interface Classification {
  failed: boolean;
  why?: string;
}

function statusOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * The harness, not the model, decides whether a tool call failed. Absence of `ok` is not
 * failure: only an explicit `ok: false`, an `error` field, a non-zero `exitCode`, or an
 * HTTP-like `status` / `healthCheck.status` of 400 or more.
 */
export function classifyResult(result: unknown): Classification {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return { failed: false };
  const record = result as Record<string, unknown>;
  if (record.ok === false) return { failed: true, why: 'ok: false' };
  if (record.error !== undefined && record.error !== null && record.error !== false && record.error !== '') {
    return { failed: true, why: 'error field' };
  }
  const exitCode = statusOf(record.exitCode);
  if (exitCode !== undefined && exitCode !== 0) return { failed: true, why: `exitCode ${exitCode}` };
  const status = statusOf(record.status);
  if (status !== undefined && status >= 400) return { failed: true, why: `status ${status}` };
  const health = record.healthCheck;
  if (health && typeof health === 'object') {
    const healthStatus = statusOf((health as Record<string, unknown>).status);
    if (healthStatus !== undefined && healthStatus >= 400) {
      return { failed: true, why: `healthCheck.status ${healthStatus}` };
    }
  }
  return { failed: false };
}
