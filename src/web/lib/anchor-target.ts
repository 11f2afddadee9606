/** The element an in-page anchor (`#rewards`) names, or null; a malformed escape is looked up as written. */
export function anchorTarget(hash: string): HTMLElement | null {
  if (!hash || hash === '#') return null;
  let id = hash.slice(1);
  try {
    id = decodeURIComponent(id);
  } catch {
    // A malformed anchor: look it up as written.
  }
  return document.getElementById(id);
}
