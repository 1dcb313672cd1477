/**
 * A function that returns `build()`'s value, built on its first call and kept. For what most runs
 * never use, a zod schema above all: built at import, every command paid for them (issue 22).
 */
export function builtOnce<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
