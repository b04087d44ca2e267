/**
 * `Content-Disposition` for a download (RFC 6266): an ASCII fallback with every risky character
 * replaced, plus the exact name percent-encoded in `filename*`, so no name can inject a header.
 */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^A-Za-z0-9._ -]/g, '_').slice(0, 200) || 'download';
  let encoded: string;
  try {
    encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  } catch {
    encoded = encodeURIComponent(fallback);
  }
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
