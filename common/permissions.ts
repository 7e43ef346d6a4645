/**
 * Permission strings shared by the client (menus, routes, buttons), the BFF (sign-in UI check)
 * and the sandbox (endpoint checks). Pure functions, no imports: the same rules run everywhere.
 *
 * Canonical form is dotted: `module.resource.action` (`policy-management.policies.view`).
 * Module and resource names may contain hyphens, so only `:` and `_` are treated as separators.
 *
 * Decisions the spec leaves open (see the report in docs and the tests):
 * - Colon form `resource:action` has no module. It normalises to `*.resource.action`, so a
 *   holder of `users:view` may view users in every module. Three-part colon form
 *   `module:resource:action` is simply the dotted form with other separators.
 * - Underscore form with more than three parts (`document_management_documents_delete`): the last
 *   two parts are resource and action, the rest is the module joined with hyphens
 *   (`document-management.documents.delete`), because upstream module names are hyphenated and
 *   the underscore form cannot carry hyphens. Two parts behave like the colon form.
 * - A string that contains a dot is already dotted and is returned trimmed, unchanged. Without a
 *   dot, `:` and `_` are both separators (a mix like `eis_claims:view` is accepted).
 * - Matching is asymmetric: wildcards in a *held* permission widen it; a `*` in a *required*
 *   permission is a demand for a wildcard grant, not a discount (holding
 *   `partner-management.partners.view` does not satisfy `partner-management.partners.*`).
 * - `admin` is the spec's `*.*` and is treated as a global wildcard everywhere, including the
 *   forbidden-list exemption and the UI check (the admin role passes every check).
 * - Matching is case-sensitive: upstream permissions are lower-case.
 */

/** Held permissions that match every requirement. `admin` is the spec's alias for `*.*`. */
const GLOBAL_WILDCARDS: ReadonlySet<string> = new Set(['*', '*.*', '*.*.*', 'admin']);

/** Normalises one permission to the dotted form (see the module comment for the rules). */
export function normalizePermission(p: string): string {
  const trimmed = p.trim();
  if (trimmed.includes('.')) return trimmed;
  if (!/[:_]/.test(trimmed)) return trimmed;
  // Both separators at once, so that a mix (`eis_claims:view`) and leftovers (`_:`) normalise in
  // one step and normalising again changes nothing.
  const parts = trimmed
    .split(/[:_]/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length <= 1) return parts[0] ?? '';
  if (parts.length === 2) return `*.${parts[0]}.${parts[1]}`;
  const action = parts[parts.length - 1];
  const resource = parts[parts.length - 2];
  const module = parts.slice(0, -2).join('-');
  return `${module}.${resource}.${action}`;
}

/**
 * Parses the upstream's comma-separated permission string (or an already split list) into
 * normalised, trimmed, non-empty, de-duplicated permissions in their original order.
 */
export function parsePermissions(input: string | readonly string[] | null | undefined): string[] {
  if (input === null || input === undefined) return [];
  const raw = typeof input === 'string' ? [input] : input;
  const result: string[] = [];
  const seen = new Set<string>();
  for (const entry of raw) {
    for (const piece of entry.split(',')) {
      const permission = normalizePermission(piece);
      if (permission === '' || seen.has(permission)) continue;
      seen.add(permission);
      result.push(permission);
    }
  }
  return result;
}

/** True for `*`, `*.*`, `*.*.*` and `admin` (in any of the accepted forms). */
export function isGlobalWildcard(permission: string): boolean {
  return GLOBAL_WILDCARDS.has(normalizePermission(permission));
}

/**
 * Does one held permission (a pattern) cover one required permission?
 * A `*` segment matches any one segment; a trailing `*` matches the rest (zero or more segments,
 * so `translation-management.*` also covers the module-level `translation-management`).
 */
export function permissionCovers(heldPermission: string, requiredPermission: string): boolean {
  const held = normalizePermission(heldPermission);
  const required = normalizePermission(requiredPermission);
  if (held === '' || required === '') return false;
  if (GLOBAL_WILDCARDS.has(held)) return true;
  const heldParts = held.split('.');
  const requiredParts = required.split('.');
  for (let i = 0; i < heldParts.length; i++) {
    const segment = heldParts[i];
    if (segment === '*' && i === heldParts.length - 1) return true;
    if (i >= requiredParts.length) return false;
    if (segment !== '*' && segment !== requiredParts[i]) return false;
  }
  return heldParts.length === requiredParts.length;
}

/** Does the user, holding `held`, have `required`? Admin and global wildcards pass everything. */
export function hasPermission(held: readonly string[], required: string): boolean {
  return held.some((permission) => permissionCovers(permission, required));
}

/** Holds `*`, `*.*`, `*.*.*` or `admin`: passes every check and ignores forbidden lists. */
export function hasGlobalWildcard(held: readonly string[]): boolean {
  return held.some(isGlobalWildcard);
}

/**
 * The sign-in rule: at least one user-interface permission. The spec's fixed set is not shown;
 * the decision (docs/contracts.md) is `ui.*.*`, `ui.*`, the global wildcards, and every
 * permission whose module is `ui` (`ui.eis.view`). `admin` counts, as it passes every check.
 */
export function hasUiPermission(held: readonly string[]): boolean {
  return held.some((permission) => {
    const normalised = normalizePermission(permission);
    return GLOBAL_WILDCARDS.has(normalised) || normalised.split('.')[0] === 'ui';
  });
}

/**
 * A menu item's or route's permission rule.
 * - `anyOf`: alternatives; each alternative is a list that must all be held. Empty or absent
 *   allows (an alternative that is an empty list allows too).
 * - `forbidden`: denies when the user holds any of these, unless they hold a global wildcard.
 */
export type PermissionRule = {
  anyOf?: readonly (readonly string[])[];
  forbidden?: readonly string[];
};

/**
 * A forbidden entry is "held" when a held permission covers it, or when the forbidden entry is a
 * pattern that covers a held permission (`eis.finance.*` forbids `eis.finance.dashboards.view`).
 * Both directions, because a forbidden list exists to hide things from whoever has that access.
 */
function holdsForbidden(held: readonly string[], forbidden: string): boolean {
  return (
    hasPermission(held, forbidden) ||
    held.some((permission) => permissionCovers(forbidden, permission))
  );
}

/** Evaluates a {@link PermissionRule} for the held permissions. */
export function isAllowed(held: readonly string[], rule: PermissionRule): boolean {
  if (hasGlobalWildcard(held)) return true;
  if (rule.forbidden?.some((forbidden) => holdsForbidden(held, forbidden))) return false;
  const alternatives = rule.anyOf ?? [];
  if (alternatives.length === 0) return true;
  return alternatives.some((all) => all.every((required) => hasPermission(held, required)));
}
