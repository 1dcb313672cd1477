interface Cookie {
  name: string;
  value: string;
  path: string;
}

/** A minimal in-memory cookie jar for one origin. Nothing here is ever written to disk. */
export class CookieJar {
  private readonly cookies = new Map<string, Cookie>();

  store(setCookieHeaders: string[]): void {
    for (const header of setCookieHeaders) {
      const [pair, ...attributes] = header.split(';');
      const eq = pair?.indexOf('=') ?? -1;
      if (!pair || eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      let path = '/';
      let expired = value === '';
      for (const attribute of attributes) {
        const [key, attributeValue = ''] = attribute.split('=').map((part) => part.trim());
        if (key?.toLowerCase() === 'path' && attributeValue) path = attributeValue;
        if (key?.toLowerCase() === 'max-age' && Number(attributeValue) <= 0) expired = true;
      }
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, { name, value, path });
    }
  }

  /** The Cookie header a browser would send for this path. */
  header(path: string): string | undefined {
    const matching = [...this.cookies.values()].filter((cookie) => path.startsWith(cookie.path));
    return matching.length > 0
      ? matching.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ')
      : undefined;
  }

  /** The value of the cookie named `name`, if the jar holds it. */
  get(name: string): string | undefined {
    return this.cookies.get(name)?.value;
  }

  /** The cookie values held now: secrets to scrub wherever they reappear. */
  values(): string[] {
    return [...this.cookies.values()].map((cookie) => cookie.value);
  }

  get size(): number {
    return this.cookies.size;
  }
}
