import type { FastifyRequest } from 'fastify';
import type { Pagination } from '../../src/contract';
/**
 * `meta.pagination` as the reference panel's serializer writes it: at least
 * one page, and previous/next links that keep the request's query string (`{}` when neither).
 * The links are absolute under APP_URL, else relative: never built from the Host header, which
 * the client chooses (a shared cache could otherwise hand others links to a host of its choice).
 */
export function paginationMeta(
  request: FastifyRequest,
  appUrl: string | undefined,
  page: { total: number; count: number; perPage: number; currentPage: number },
): Pagination {
  const totalPages = Math.max(1, Math.ceil(page.total / page.perPage));
  const links: Record<string, string> = {};
  const linkTo = (n: number) => {
    const q = request.url.indexOf('?');
    const path = q === -1 ? request.url : request.url.slice(0, q);
    const params = new URLSearchParams(q === -1 ? '' : request.url.slice(q + 1));
    params.set('page', String(n));
    return `${appUrl ? appUrl.replace(/\/+$/, '') : ''}${path}?${params.toString()}`;
  };
  if (page.currentPage > 1) links.previous = linkTo(page.currentPage - 1);
  if (page.currentPage < totalPages) links.next = linkTo(page.currentPage + 1);
  return {
    total: page.total,
    count: page.count,
    per_page: page.perPage,
    current_page: page.currentPage,
    total_pages: totalPages,
    links,
  };
}

/** A paginated list envelope for one page of `data` out of `total`. */
export function paginatedList<T>(
  request: FastifyRequest,
  appUrl: string | undefined,
  data: T[],
  total: number,
  query: { page: number; per_page: number },
) {
  return {
    object: 'list' as const,
    data,
    meta: { pagination: paginationMeta(request, appUrl, { total, count: data.length, perPage: query.per_page, currentPage: query.page }) },
  };
}
