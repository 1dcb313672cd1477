/** The canonical key(s) a spelling names; undefined when it is not a spelling of the space. */
export type CanonicalKeys = string | string[] | undefined;

/**
 * Turns a model's spelling into the canonical key the tools use (`./docs/a.md` →
 * `docs/a.md`), with the same resolver the tools use. Undefined: not a spelling of this space.
 */
export interface ClaimResolver {
  space: string;
  /**
   * The canonical key(s) a spelling may name, most likely first: a path through a symlink may
   * name the file it points at (a write) or the link itself (a delete).
   */
  canonical(spelling: string): CanonicalKeys | Promise<CanonicalKeys>;
  /** The resource as it stands now, for content claims (`contains`, `sha256`). */
  inspect?(key: string): Promise<{ sha256?: string; content?: string } | undefined>;
}
