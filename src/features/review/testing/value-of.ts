/**
 * A value's editor by its path (`data-field-path`), as the end-to-end journeys find it
 * (e2e/support/review-journey.ts): its accessible name is the field's title, which several values
 * may share. The row (or cell) carries the same attribute; only the editor is an input or a select.
 */
export function valueOf(
  path: string,
  container: ParentNode = document,
): HTMLInputElement | HTMLSelectElement {
  const selector = ['input', 'select']
    .map((tag) => `${tag}[data-field-path="${CSS.escape(path)}"]`)
    .join(', ');
  const found = container.querySelectorAll<HTMLInputElement | HTMLSelectElement>(selector);
  if (found.length !== 1) throw new Error(`${String(found.length)} editors for ${path}, not one`);
  return found[0] as HTMLInputElement | HTMLSelectElement;
}

/** Whether a value has an editor at `path`. */
export function hasValue(path: string, container: ParentNode = document): boolean {
  return container.querySelector(`input[data-field-path="${CSS.escape(path)}"]`) !== null;
}
