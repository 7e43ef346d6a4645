import { parseNumberInput } from '#client/ui/form/values.ts';
import type { TypeRef } from './dmn-table.ts';

/**
 * The "try it" panel's inputs: one per input column, typed, turned into the variables the table's
 * input expressions read. An expression that is a variable's name (or a path into one,
 * `claim.amount`) gets the value typed at that name; another expression (`amount * 2`) is
 * computed by the service from the variables and cannot be typed in.
 */

export const TRY_TYPES = ['number', 'string', 'boolean'] as const;
export type TryType = (typeof TRY_TYPES)[number];

/** A column's type for typing a value: its declared type, else text. */
export const tryTypeOf = (typeRef: TypeRef): TryType => (typeRef === '' ? 'string' : typeRef);

const NAME_PATH = /^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$/;

/** The variable path an input expression reads, or null when it is no plain name. */
export function variablePath(expression: string): string[] | null {
  const text = expression.trim();
  return NAME_PATH.test(text) ? text.split('.') : null;
}

export type TryValue = { ok: true; value: unknown } | { ok: false };

/**
 * A typed value: a number as the user writes it in their language (`60 000` and `1,5` in
 * Polish), `true`/`false` for a yes/no, text as typed. Empty is null (FEEL's "no value").
 */
export function parseTryValue(text: string, type: TryType, language: string): TryValue {
  if (text.trim() === '') return { ok: true, value: null };
  if (type === 'number') {
    const value = parseNumberInput(text, language);
    return value === null ? { ok: false } : { ok: true, value };
  }
  if (type === 'boolean') {
    if (text === 'true') return { ok: true, value: true };
    if (text === 'false') return { ok: true, value: false };
    return { ok: false };
  }
  return { ok: true, value: text };
}

/** The variables of the typed values: each at its path (nested objects for `claim.amount`). */
export function variablesOf(entries: readonly { path: string[]; value: unknown }[]) {
  const variables: Record<string, unknown> = {};
  for (const { path, value } of entries) {
    let target = variables;
    for (const part of path.slice(0, -1)) {
      const next = target[part];
      target[part] =
        typeof next === 'object' && next !== null && !Array.isArray(next) ? next : ({} as object);
      target = target[part] as Record<string, unknown>;
    }
    target[path.at(-1)!] = value;
  }
  return variables;
}
