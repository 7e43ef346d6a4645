/**
 * bpmn-js's own texts (palette, context pad, replace menu) in the user's language. bpmn-js asks
 * a `translate(template, replacements)` service for every text it draws, with the English text
 * as the template and `{name}` placeholders; this module answers it from the `bpmn_js`
 * namespace, keyed by the English text in snake case ("Create task" is `create_task`). A text
 * the namespace lacks (a newer bpmn-js) stays English.
 */

/** The text for a key, or undefined when the namespace has none. */
export type BpmnTexts = (key: string) => string | undefined;

/** "Ad-hoc sub-process (collapsed)" -> "ad_hoc_sub_process_collapsed". */
export const bpmnTextKey = (english: string): string =>
  english
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

export function bpmnTranslate(texts: () => BpmnTexts) {
  return (template: string, replacements: Record<string, string> = {}): string =>
    (texts()(bpmnTextKey(template)) ?? template).replace(
      /{([^}]+)}/g,
      (whole, key: string) => replacements[key] ?? whole,
    );
}

/** The diagram-js module that replaces the built-in (English only) `translate` service. */
export function bpmnTranslateModule(texts: () => BpmnTexts) {
  return { translate: ['value', bpmnTranslate(texts)] };
}
