import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../locales');
const languages = ['de', 'en', 'pl'];

function leafKeys(value: unknown, prefix = ''): string[] {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([key, child]) =>
      leafKeys(child, prefix ? `${prefix}.${key}` : key),
    );
  }
  return [prefix];
}

function load(language: string, file: string): unknown {
  return JSON.parse(readFileSync(join(root, language, file), 'utf8'));
}

describe('locale files', () => {
  it('every language has the same namespaces', () => {
    const files = languages.map((l) => readdirSync(join(root, l)).sort());
    for (const list of files) expect(list).toEqual(files[0]);
  });

  const namespaceFiles = readdirSync(join(root, 'en')).filter((f) => f.endsWith('.json'));
  it.each(namespaceFiles)('%s has the same keys in de, en and pl', (file) => {
    const keys = Object.fromEntries(languages.map((l) => [l, leafKeys(load(l, file)).sort()]));
    for (const language of languages) {
      const missing = keys.en!.filter((k) => !keys[language]!.includes(k));
      const extra = keys[language]!.filter((k) => !keys.en!.includes(k));
      expect({ language, missing, extra }).toEqual({ language, missing: [], extra: [] });
    }
  });

  it.each(namespaceFiles)('%s has no empty texts and keeps the placeholders', (file) => {
    const en = load('en', file);
    for (const language of languages) {
      const data = load(language, file);
      for (const key of leafKeys(en)) {
        const get = (obj: unknown) =>
          key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], obj);
        const text = get(data);
        expect(typeof text, `${language}/${file} ${key}`).toBe('string');
        expect((text as string).trim(), `${language}/${file} ${key}`).not.toBe('');
        const placeholders = (s: string) =>
          [...s.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();
        expect(placeholders(text as string), `${language}/${file} ${key}`).toEqual(
          placeholders(get(en) as string),
        );
      }
    }
  });

  it('uses snake_case leaves, apart from the message keys the spec names', () => {
    const specKeys = new Set([
      'noAccessUser',
      'fieldRequired',
      'invalidEmail',
      'invalidPhoneFormat',
      'invalidEmailFormat',
      'passwordLengthError',
      'notMatchPasswordError',
      'numberMax',
      'numberMin',
      'booleanTrueRequired',
      'loginError',
      'changePasswordError',
      'noAccessBackend',
      'errorSave',
      'onRejectFileExtension',
    ]);
    for (const file of namespaceFiles) {
      for (const key of leafKeys(load('en', file))) {
        for (const part of key.split('.')) {
          if (specKeys.has(part)) continue;
          expect(part, `${file} ${key}`).toMatch(/^[a-z][a-z0-9_]*$/);
        }
      }
    }
  });
});
