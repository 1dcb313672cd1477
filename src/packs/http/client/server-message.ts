const MAX = 300;

function firstText(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim()) return value.trim();
  if (Array.isArray(value)) {
    const texts = value.map(firstText).filter((text): text is string => Boolean(text));
    return texts.length > 0 ? texts.slice(0, 3).join('; ') : undefined;
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return (
      firstText(record.message) ??
      firstText(record.detail) ??
      firstText(record.title) ??
      firstText(record.msg)
    );
  }
  return undefined;
}

function fieldErrors(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const parts = Object.entries(value as Record<string, unknown>)
    .map(([field, problem]) => {
      const text = firstText(problem);
      return text ? `${field}: ${text}` : undefined;
    })
    .filter((part): part is string => Boolean(part));
  return parts.length > 0 ? parts.slice(0, 5).join(', ') : undefined;
}

/**
 * The server's own words for a failed response, in the common shapes (`message`, `error`,
 * `error.message`, `errors[]`, `errors{field}`, `detail`, plain text), cut to a line.
 */
export function serverMessage(body: unknown): string | undefined {
  let text: string | undefined;
  if (typeof body === 'string') {
    text = body
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  } else if (body && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    const headline =
      firstText(record.message) ??
      firstText(record.error) ??
      firstText(record.detail) ??
      firstText(record.title) ??
      firstText(record.errors);
    const fields = fieldErrors(record.errors);
    text = headline && fields ? `${headline} (${fields})` : (headline ?? fields);
  } else {
    text = firstText(body);
  }
  if (!text) return undefined;
  return text.length > MAX ? `${text.slice(0, MAX)}…` : text;
}
