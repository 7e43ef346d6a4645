/**
 * What a variable's button inserts (paths as GET /template-kinds names them): `{{ path }}`; for
 * a list (`policy.premiumItems[]`) a loop over it, and for a member of a list's items
 * (`policy.premiumItems[].name`) that member of the loop's `item`, which the loop names.
 */
export function snippetOf(path: string): string {
  if (path.endsWith('[]')) return `{% for item in ${path.slice(0, -2)} %}{% endfor %}`;
  const member = path.lastIndexOf('[].');
  if (member >= 0) return `{{ item.${path.slice(member + 3)} }}`;
  return `{{ ${path} }}`;
}
