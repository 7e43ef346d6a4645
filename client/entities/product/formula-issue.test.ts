import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import de from '#locales/de/errors.json';
import en from '#locales/en/errors.json';
import pl from '#locales/pl/errors.json';
import { ApiError } from '#client/api/fetch-json.ts';
import { formulaRefusalText } from './formula-issue.ts';

/** The `errors` namespace of one language, as the screens translate with it. */
async function errorsIn(language: string, errors: object) {
  const instance = i18next.createInstance();
  await instance.init({
    lng: language,
    ns: ['errors'],
    defaultNS: 'errors',
    resources: { [language]: { errors } },
    interpolation: { escapeValue: false },
  });
  return instance.getFixedT(language, 'errors');
}

// A policy's premium refused over its values because a formula names a field the version does not
// have (issue 15 point 1): the service's issue names the formula and the unknown name.
const refusal = new ApiError(422, 'calculation_failed', 'the premium formula "Schaden"…', {
  issues: [
    {
      path: 'premium',
      code: 'unknown_name',
      position: 6,
      formula: 'Schaden',
      name: 'device.colour',
    },
  ],
});

describe('a formula refusal in words (issue 15)', () => {
  it.each([
    ['de', de, 'Beitragsformel „Schaden“: „device.colour“ ist weder ein Feld dieser Version'],
    ['en', en, 'Premium formula “Schaden”: “device.colour” is not a field of this version'],
    ['pl', pl, 'Formuła składki „Schaden”: „device.colour” nie jest polem tej wersji'],
  ])('names the formula and the unknown name in %s', async (language, errors, expected) => {
    const t = await errorsIn(language, errors);
    const text = formulaRefusalText(t as never, refusal);
    expect(text).toContain(expected);
    expect(text).toContain('7');
  });

  it('is null for a refusal that is not about a formula', async () => {
    const t = await errorsIn('en', en);
    expect(formulaRefusalText(t as never, new ApiError(400, 'validation_error', '', {}))).toBe(
      null,
    );
  });
});
