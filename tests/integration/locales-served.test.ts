import { readdir, readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '#tests/support/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const LANGUAGES = ['de', 'en', 'pl'];

describe('locale files', () => {
  // German and Polish come from the server for every namespace, feature namespaces included: a
  // file the route refuses would silently show English on that screen.
  it('serves every file of every language with its content', async () => {
    for (const lng of LANGUAGES) {
      const files = (await readdir(new URL(`../../locales/${lng}/`, import.meta.url))).filter((f) =>
        f.endsWith('.json'),
      );
      expect(files.length).toBeGreaterThan(5);
      for (const file of files) {
        const res = await fetch(`${stack.url}/locales/${lng}/${file}?v=test`);
        expect(res.status, `${lng}/${file}`).toBe(200);
        const onDisk = JSON.parse(
          await readFile(new URL(`../../locales/${lng}/${file}`, import.meta.url), 'utf8'),
        ) as unknown;
        expect(await res.json(), `${lng}/${file}`).toEqual(onDisk);
      }
    }
  });

  it('refuses names outside {lng}/{namespace}.json', async () => {
    for (const path of [
      'xx/shell.json',
      'de/../package.json',
      'de/%2e%2e/package.json',
      'de/Shell.json',
      'de/shell.js',
    ]) {
      const res = await fetch(`${stack.url}/locales/${path}`);
      expect(res.status, path).toBe(404);
    }
  });
});
