import { describe, expect, it } from 'vitest';
import type { Claim } from '#client/api/claims-client.ts';
import { ApiError } from '#client/api/fetch-json.ts';
import { buildCustomSchema } from '#client/ui/form/custom-schema.ts';
import {
  claimChangesOf,
  conflictRows,
  customErrorsOf,
  emptyValues,
  serverFieldErrors,
  validateClaim,
  valuesOf,
  type ClaimValues,
} from './claim-form.ts';

const custom = buildCustomSchema([
  {
    name: 'damageLocation',
    label: 'Damage location',
    type: 'string',
    isRequired: true,
    minLength: 2,
  },
  {
    name: 'estimatedDamage',
    label: 'Estimated damage',
    type: 'number',
    isRequired: false,
    minimum: 0,
  },
]);
const context = { today: '2025-06-15', policyStart: '2024-01-01', customSchema: custom.schema };

const filled: ClaimValues = {
  title: '  Water in the cellar ',
  claimType: 'damage',
  damageDate: '2025-06-10',
  notificationDate: '2025-06-12',
  description: 'Pipe burst',
  custom: { damageLocation: 'Cellar', estimatedDamage: '1200,5', policeReportNumber: '' },
};

const claim = (over: Partial<Claim> = {}): Claim => ({
  id: 1,
  code: 'clm_1',
  claimNumber: 'S-000001',
  title: 'Water',
  description: '',
  policyCode: 'pol_1',
  policyNumber: 'POL-1',
  accountCode: null,
  productId: 1,
  status: 'open',
  damageDate: '2025-06-10',
  notificationDate: '2025-06-12',
  claimType: 'damage',
  customFields: { damageLocation: 'Cellar' },
  holder: null,
  totals: { reserve: 0, payment: 0, recourse: 0, currency: 'EUR' },
  version: 1,
  createdAt: '2025-06-12T10:00:00Z',
  updatedAt: '2025-06-12T10:00:00Z',
  createdBy: 'a',
  updatedBy: 'a',
  ...over,
});

describe('claim form', () => {
  it('sends the trimmed fields and the custom values the schema converts', () => {
    expect(validateClaim(filled, context)).toEqual({
      ok: true,
      input: {
        title: 'Water in the cellar',
        description: 'Pipe burst',
        damageDate: '2025-06-10',
        notificationDate: '2025-06-12',
        claimType: 'damage',
        // The number typed with a comma is a number; the empty value is left out.
        customFields: { damageLocation: 'Cellar', estimatedDamage: 1200.5 },
      },
    });
  });

  it("collects every refusal at its field, with the service's codes", () => {
    const result = validateClaim(
      { ...emptyValues('2025-06-15'), title: 'x'.repeat(201), custom: { damageLocation: 'K' } },
      context,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toMatchObject({
      title: ['claims:form.errors.too_long'],
      claimType: ['claims:form.errors.required'],
      damageDate: ['claims:form.errors.required'],
    });
    expect(customErrorsOf(result.errors).damageLocation).toHaveLength(1);
    expect(result.errors.notificationDate).toBeUndefined();
  });

  it('checks the dates against today, the policy start and each other', () => {
    const check = (damageDate: string, notificationDate: string, policyStart = '2024-01-01') => {
      const result = validateClaim(
        { ...filled, damageDate, notificationDate },
        {
          ...context,
          policyStart,
        },
      );
      return result.ok ? {} : result.errors;
    };
    expect(check('2025-06-16', '2025-06-16')).toEqual({
      damageDate: ['claims:form.errors.date_in_future'],
      notificationDate: ['claims:form.errors.date_in_future'],
    });
    expect(check('2023-12-31', '2024-01-02')).toEqual({
      damageDate: ['claims:form.errors.before_policy_start'],
    });
    expect(check('2025-06-10', '2025-06-09')).toEqual({
      notificationDate: ['claims:form.errors.before_damage_date'],
    });
    expect(check('10.06.2025', '2025-06-12')).toEqual({
      damageDate: ['claims:form.errors.invalid_date'],
    });
    // Without a known policy start only the service judges that rule.
    const unknownStart = validateClaim(
      { ...filled, damageDate: '2020-01-01', notificationDate: '2020-01-02' },
      { ...context, policyStart: null },
    );
    expect(unknownStart.ok).toBe(true);
  });

  it("puts the service's 400 at the fields its issues name, never reading the message", () => {
    const refused = (path: string, code: string) =>
      new ApiError(400, 'validation_error', 'English words the client must not parse', {
        error: 'validation_error',
        message: 'English words the client must not parse',
        issues: [{ path, code }],
      });
    const fields = ['title', 'damageDate', 'policyCode'];
    expect(serverFieldErrors(refused('damageDate', 'before_policy_start'), fields)).toEqual({
      damageDate: ['claims:form.errors.before_policy_start'],
    });
    expect(serverFieldErrors(refused('policyCode', 'unknown_policy'), fields)).toEqual({
      policyCode: ['claims:form.errors.unknown_policy'],
    });
    expect(serverFieldErrors(refused('customFields.damageLocation', 'too_short'), fields)).toEqual({
      'customFields.damageLocation': ['claims:form.errors.invalid'],
    });
    expect(serverFieldErrors(refused('customFields.damageLocation', 'required'), fields)).toEqual({
      'customFields.damageLocation': ['claims:form.errors.required'],
    });
    // The message alone names no field: only the issues count.
    const wordsOnly = new ApiError(400, 'validation_error', 'damageDate: before_policy_start', {});
    expect(serverFieldErrors(wordsOnly, fields)).toBeNull();
    // A field the form does not show, or another refusal: no field to put it at.
    expect(serverFieldErrors(refused('status', 'unknown_status'), fields)).toBeNull();
    expect(serverFieldErrors(new ApiError(409, 'claim_closed', 'closed', {}), fields)).toBeNull();
    expect(serverFieldErrors(new Error('offline'), fields)).toBeNull();
  });

  it('lists the fields somebody else changed meanwhile, beside the input', () => {
    const loaded = claim();
    const saved = claim({
      version: 2,
      title: 'Water, cellar and hall',
      customFields: { damageLocation: 'Hall' },
    });
    const mine = { ...valuesOf(loaded), title: 'Water in the cellar', description: 'mine only' };
    expect(conflictRows(loaded, mine, saved)).toEqual([
      {
        field: 'title',
        loaded: 'Water',
        mine: 'Water in the cellar',
        saved: 'Water, cellar and hall',
      },
      {
        field: 'customFields',
        loaded: 'damageLocation: Cellar',
        mine: 'damageLocation: Cellar',
        saved: 'damageLocation: Hall',
      },
    ]);
    // On screen the custom fields go by their labels in the reader's language, never by name.
    const labels: Record<string, string> = { damageLocation: 'Schadenort' };
    const labelled = conflictRows(loaded, mine, saved, (name) => labels[name] ?? name);
    expect(labelled.find((row) => row.field === 'customFields')).toEqual({
      field: 'customFields',
      loaded: 'Schadenort: Cellar',
      mine: 'Schadenort: Cellar',
      saved: 'Schadenort: Hall',
    });
  });
});

describe('claimChangesOf', () => {
  const input = {
    title: 'Water in the cellar',
    description: '',
    damageDate: '2026-11-01',
    claimType: 'damage' as const,
    customFields: { damageLocation: 'Kiel' },
  };

  it('sends only the fields the user changed, the custom fields under their own name', () => {
    expect(claimChangesOf(input, ['description', 'custom'])).toEqual({
      description: '',
      customFields: { damageLocation: 'Kiel' },
    });
    expect(claimChangesOf(input, ['title'])).toEqual({ title: 'Water in the cellar' });
  });

  it('sends a custom field emptied in the form as null: the service merges them by key', () => {
    expect(
      claimChangesOf(
        input,
        ['custom'],
        ['damageLocation', 'policeReportNumber', 'estimatedDamage'],
      ),
    ).toEqual({
      customFields: { damageLocation: 'Kiel', policeReportNumber: null, estimatedDamage: null },
    });
  });

  it('sends only the custom fields this user changed, per key, an emptied one as null', () => {
    const both = { ...input, customFields: { damageLocation: 'Kiel', estimatedDamage: 1200 } };
    expect(
      claimChangesOf(
        both,
        ['custom', 'custom.damageLocation'],
        ['damageLocation', 'policeReportNumber', 'estimatedDamage'],
      ),
    ).toEqual({ customFields: { damageLocation: 'Kiel' } });
    expect(
      claimChangesOf(both, ['custom', 'custom.policeReportNumber'], ['policeReportNumber']),
    ).toEqual({ customFields: { policeReportNumber: null } });
  });

  it('sends the title as it is when nothing changed: a save that changes nothing', () => {
    expect(claimChangesOf(input, [])).toEqual({ title: 'Water in the cellar' });
  });
});
