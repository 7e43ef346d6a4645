import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  cacheGeneralSettings,
  detectLanguage,
  loadedLanguage,
  storeChosenLanguage,
} from './language.ts';

function fakeStorage() {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
    clear: () => data.clear(),
  };
}

describe('detectLanguage', () => {
  beforeEach(() => {
    vi.stubGlobal('localStorage', fakeStorage());
  });

  it('defaults to English', () => {
    expect(detectLanguage([])).toBe('en');
    expect(detectLanguage(['fr-FR', 'es'])).toBe('en');
  });

  it('takes the first supported browser language', () => {
    expect(detectLanguage(['fr-FR', 'pl-PL', 'de'])).toBe('pl');
  });

  it('prefers the stored general setting over the browser', () => {
    cacheGeneralSettings({ language: 'de' });
    expect(detectLanguage(['pl-PL'])).toBe('de');
  });

  it("prefers the user's own choice over everything", () => {
    cacheGeneralSettings({ language: 'de' });
    storeChosenLanguage('pl');
    expect(detectLanguage(['en-US'])).toBe('pl');
  });

  it('ignores unsupported stored values', () => {
    cacheGeneralSettings({ language: 'xx' });
    expect(detectLanguage(['de-AT'])).toBe('de');
  });
});

describe('loadedLanguage', () => {
  it('keeps the language chosen on this browser', () => {
    expect(loadedLanguage('en', 'pl', 'de')).toBeUndefined();
  });

  it("takes the user's own setting before the tenant's", () => {
    expect(loadedLanguage(undefined, 'pl', 'de')).toBe('pl');
    expect(loadedLanguage(undefined, null, 'de')).toBe('de');
  });

  it('ignores values that are no interface language', () => {
    expect(loadedLanguage(undefined, 'fr', 'de-DE')).toBeUndefined();
    expect(loadedLanguage(undefined, 42, 'xx')).toBeUndefined();
  });
});
