/** '{page} | {product}' as the spec asks; the product name alone on a page without a title. */
export function setDocumentTitle(page: string, product: string): void {
  document.title = page ? `${page} | ${product}` : product;
}
