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
  | 'messages.password_control_character'
  | 'messages.notMatchPasswordError'
  | 'messages.not_equal'
  | 'messages.string_min'
  | 'messages.string_max'
  | 'messages.invalid_date'
  | 'messages.invalid_url'
  | 'messages.invalid_value'
  | 'messages.required'
  | 'messages.too_long'
  | 'messages.invalid_zip';

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
  // A text translated already (a formula problem naming `vehicle.value` at "Zeichen 1: …") is
  // shown as it is: read as a key, its `:` and `.` would split it into namespace and path and cut
  // it short. Keys never hold whitespace; their values travel URL-encoded.
  if (/\s/.test(text)) return text;
  const { key, values } = parseMessage(text);
  return t(key, values);
}

/**
 * The message of a refusal known only by its code: valibot's issue type (`max_length`), a code a
 * schema gave as its message (`too_long`) or a service's issue code. Raw valibot text ("Invalid
 * length: Expected <=200 but received 241") never reaches the screen; `requirement` is the limit
 * when the issue carries one. Unknown codes read as "the value is invalid".
 */
export function messageOfCode(code: string, requirement?: unknown): string {
  const limit = typeof requirement === 'number' ? requirement : undefined;
  // The limit in the message when the issue has one, else the message without it.
  const limited = (key: MessageKey, name: string, without: MessageKey) =>
    limit === undefined ? message(without) : message(key, { [name]: limit });
  switch (code) {
    case 'required':
    case 'non_empty':
      return message('messages.required');
    case 'max_length':
    case 'too_long':
      return limited('messages.string_max', 'max', 'messages.too_long');
    case 'min_length':
      return limited('messages.string_min', 'min', 'messages.required');
    case 'email':
    case 'invalid_email':
      return message('messages.invalidEmail');
    case 'min_value':
      return limited('messages.numberMin', 'min', 'messages.invalid_value');
    case 'max_value':
      return limited('messages.numberMax', 'max', 'messages.invalid_value');
    case 'number':
      return message('messages.number_type');
    case 'url':
      return message('messages.invalid_url');
    case 'iso_date':
    case 'iso_timestamp':
      return message('messages.invalid_date');
    // A postcode not of its country's format (common/postcodes.ts).
    case 'invalid_zip':
      return message('messages.invalid_zip');
    default:
      return message('messages.invalid_value');
  }
}

/** Whether a text is an encoded message of this module (else it is raw validator text). */
export const isEncodedMessage = (text: string): boolean => text.startsWith('messages.');
