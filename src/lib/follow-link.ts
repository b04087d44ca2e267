/**
 * Downloads by following a link (a node's signed URL that answers with an attachment), so the
 * page stays where it is.
 */
export function followLink(url: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}
