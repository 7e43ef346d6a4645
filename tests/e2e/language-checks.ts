import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/** A locale file's texts by key (`detail.title`), plural forms and all. */
function textsOf(language: string, namespace: string): Map<string, string> {
  const texts = new Map<string, string>();
  const walk = (node: unknown, prefix: string) => {
    if (typeof node === 'string') texts.set(prefix, node);
    else if (node && typeof node === 'object')
      for (const [key, value] of Object.entries(node))
        walk(value, prefix ? `${prefix}.${key}` : key);
  };
  walk(JSON.parse(readFileSync(`locales/${language}/${namespace}.json`, 'utf8')), '');
  return texts;
}

/** A text i18next shows when it has no translation: the key itself (`detail.title`, `finance:x`). */
const RAW_KEY = /^([a-z_]+:)?[a-z_]+(\.[a-z0-9_]+)+$/;

/**
 * Nothing on the page's main part is left untranslated in `language`: no line is a raw
 * translation key, and none is one of `namespaces`' English texts that the language writes
 * otherwise ("Invoices" where Polish has "Faktury"; "Status", the same in both, is no sign).
 * Texts with placeholders are left out: they are never shown as they stand. `verbatim` lists
 * lines that are code, not words (a template's variables: `lead.number`).
 */
export async function expectNoUntranslatedText(
  page: Page,
  language: string,
  namespaces: readonly string[],
  verbatim: readonly string[] = [],
) {
  const english = new Set<string>();
  for (const namespace of namespaces) {
    const own = textsOf(language, namespace);
    for (const [key, text] of textsOf('en', namespace))
      if (!text.includes('{{') && own.get(key) !== text) english.add(text);
  }
  const lines = (await page.getByRole('main').innerText())
    .split(/[\n\t]/)
    .map((line) => line.trim())
    .filter((line) => line && !verbatim.includes(line));
  expect(lines.filter((line) => RAW_KEY.test(line))).toEqual([]);
  expect(lines.filter((line) => english.has(line))).toEqual([]);
}
