// Placeholder until the page is built; replaced by its owner.
export function ServerLayout() {
  return null;
}
