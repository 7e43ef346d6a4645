import { describe, expect, it } from 'vitest';
import de from '#locales/de/bpmn_js.json';
import en from '#locales/en/bpmn_js.json';
import { bpmnTextKey, bpmnTranslate } from './bpmn-translate.ts';

const german = (key: string) => (de as Record<string, string>)[key];

describe('bpmnTranslate', () => {
  it('keys every English text of the namespace by its own snake case', () => {
    for (const [key, english] of Object.entries(en)) expect(bpmnTextKey(english)).toBe(key);
  });

  it('answers bpmn-js in the namespace language and fills its placeholders', () => {
    const translate = bpmnTranslate(() => german);
    expect(translate('Create task')).toBe('Aufgabe erstellen');
    expect(translate('Open {element}', { element: 'Unterprozess' })).toBe('Unterprozess öffnen');
  });

  it('keeps an unknown text English and an unfilled placeholder as written', () => {
    const translate = bpmnTranslate(() => german);
    expect(translate('A text of a newer bpmn-js')).toBe('A text of a newer bpmn-js');
    expect(translate('Open {element}')).toBe('{element} öffnen');
  });

  it('reads the texts at each call, so a language chosen later is used', () => {
    let texts = german;
    const translate = bpmnTranslate(() => texts);
    expect(translate('Delete')).toBe('Löschen');
    texts = () => undefined;
    expect(translate('Delete')).toBe('Delete');
  });
});
