/**
 * A message group: English strings and their Chinese translations. The type forces the Chinese
 * table to have exactly the English keys, so a missing translation is a compile error.
 * Placeholders are written `{name}` and filled by `t()`.
 */
export type Catalog = Record<string, string>;

export interface MessageGroup<E extends Catalog> {
  en: E;
  zh: { [K in keyof E]: string };
}

export function defineMessages<const E extends Catalog>(
  en: E,
  zh: { [K in keyof E]: string },
): MessageGroup<E> {
  return { en, zh };
}
