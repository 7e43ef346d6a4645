/** '{page} | {product}' as the spec asks; the product name alone on a page without a title. */
export function documentTitle(page: string, product: string): string {
  return page ? `${page} | ${product}` : product;
}

export function setDocumentTitle(page: string, product: string): void {
  document.title = documentTitle(page, product);
}
