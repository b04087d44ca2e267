// Placeholder until the page is built; replaced by its owner.
export function FileEditorPage() {
  return null;
}
