// Stand-in until #common/permissions.ts lands; same signature so the swap is an import change.

const GLOBAL = new Set(['*', '*.*', '*.*.*']);

function normalise(permission: string): string {
  return permission.trim().replace(/:/g, '.');
}

function matches(held: string, required: string): boolean {
  if (GLOBAL.has(held)) return true;
  const h = held.split('.');
  const r = required.split('.');
  for (let i = 0; i < h.length; i++) {
    const part = h[i];
    // A trailing * stands for the rest of the permission, however many segments that is.
    if (part === '*' && i === h.length - 1) return r.length > i;
    if (r[i] === undefined) return false;
    if (part !== '*' && part !== r[i]) return false;
  }
  return h.length === r.length;
}

export function hasPermission(held: readonly string[], required: string): boolean {
  const want = normalise(required);
  return held.some((p) => matches(normalise(p), want));
}
