/**
 * Validation messages travel through valibot as strings: the `ui` namespace key plus its
 * interpolation values as a query string (`messages.numberMin?min=3`). Valibot stays free of
 * i18next, and the message is translated where it is shown, in the current language.
 */
export type MessageKey =
  | 'messages.fieldRequired'
  | 'messages.invalidEmail'
  | 'messages.invalidEmailFormat'
  | 'messages.invalidPhoneFormat'
  | 'messages.numberMin'
  | 'messages.numberMax'
  | 'messages.number_type'
  | 'messages.booleanTrueRequired'
  | 'messages.passwordLengthError'
  | 'messages.password_rules'
  | 'messages.notMatchPasswordError'
  | 'messages.not_equal'
  | 'messages.string_min'
  | 'messages.string_max'
  | 'messages.invalid_date'
  | 'messages.invalid_url'
  | 'messages.invalid_value';

export type MessageValues = Record<string, string | number>;

export function message(key: MessageKey, values?: MessageValues): string {
  if (values === undefined || Object.keys(values).length === 0) return key;
  const query = new URLSearchParams(
    Object.entries(values).map(([name, value]) => [name, String(value)]),
  );
  return `${key}?${query.toString()}`;
}

export function parseMessage(text: string): { key: string; values: Record<string, string> } {
  const at = text.indexOf('?');
  if (at === -1) return { key: text, values: {} };
  return {
    key: text.slice(0, at),
    values: Object.fromEntries(new URLSearchParams(text.slice(at + 1))),
  };
}

/** Translates an encoded message with `t` of the `ui` namespace; unknown keys show as is. */
export function translateMessage(
  t: (key: string, values: Record<string, string>) => string,
  text: string,
): string {
  const { key, values } = parseMessage(text);
  return t(key, values);
}
