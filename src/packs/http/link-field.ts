/** A field named as a link to another resource: `suiteId`, `suite_id`, `suiteID`. */
const LINK_FIELD = /^(.*?)[_-]?(id|Id|ID)$/;

/** The resource a link field is named after (`suite` for `suiteId`, `suite_id`); undefined for a field not named as a link (`title`, `id`). */
export function linkedName(field: string): string | undefined {
  return LINK_FIELD.exec(field)?.[1] || undefined;
}

/** The name a field gives what it links to: `suite` for `suiteId`, the field itself for `suite` or `id`. */
export function linkStem(field: string): string {
  return linkedName(field) ?? field;
}

/** Whether a field links to its item's parent by that word (`parent`, `parentId`, `parent_id`). */
export function namesParent(field: string): boolean {
  return /^parent$/i.test(linkStem(field));
}

/** Whether a field's name ends in an id (`ownerId`, `owner_id`, `id`). */
export function endsInId(field: string): boolean {
  return LINK_FIELD.test(field);
}
