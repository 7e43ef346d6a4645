import { describe, expect, it } from 'vitest';
import type { Lead } from '#client/api/leads-client.ts';
import { policyFromLead } from './lead-conversion.ts';

const lead = (extra: Partial<Lead>): Lead => ({
  id: 7,
  code: 'lea_7',
  leadNumber: 'LEA-100007',
  status: 'approved',
  accountCode: null,
  account: null,
  updatedByName: null,
  productId: 3,
  productVersionId: 9,
  productSlug: 'home-contents',
  productName: 'Hausrat Zuhause',
  policy: {
    productVersionId: 9,
    accountCode: null,
    holder: { type: 'person', firstName: 'Edda', lastName: 'Probe' },
    policyObjects: [
      {
        insuredObjectId: 1,
        insuredObjectName: 'default',
        insuredObjectLabel: 'Contract',
        data: { policyStartDate: '2026-07-01' },
      },
      {
        insuredObjectId: 2,
        insuredObjectName: 'household',
        insuredObjectLabel: 'Household',
        data: { sumInsured: 60000 },
      },
    ],
    premiumOverride: null,
  },
  bankAccount: null,
  paymentMethod: null,
  customData: null,
  premiumOverride: null,
  premium: { premiumItems: [], grandTotal: 78, currency: 'EUR' },
  version: 5,
  ern: 'ern:insuranceservice:demo:lead/lea_7',
  createdAt: '',
  updatedAt: '',
  createdBy: '',
  updatedBy: '',
  ...extra,
});

describe('policyFromLead', () => {
  it("sends the prospect's lead as it is, with its code and without the objects' names", () => {
    expect(policyFromLead(lead({}))).toEqual({
      productVersionId: 9,
      accountCode: null,
      holder: { type: 'person', firstName: 'Edda', lastName: 'Probe' },
      policyObjects: [
        { insuredObjectId: 1, data: { policyStartDate: '2026-07-01' } },
        { insuredObjectId: 2, data: { sumInsured: 60000 } },
      ],
      premiumOverride: null,
      leadCode: 'lea_7',
    });
  });

  it("takes the customer's lead and its agreed totals in the policy's shape", () => {
    const body = policyFromLead(
      lead({
        accountCode: 'acc_1',
        productVersionId: 10,
        premiumOverride: [{ premiumFormulaId: 4, total: -2.35 }],
      }),
    );
    expect(body).toMatchObject({
      productVersionId: 10,
      accountCode: 'acc_1',
      premiumOverride: { premiumItems: [{ premiumFormulaId: 4, total: -2.35 }] },
    });
    // An empty list agrees nothing.
    expect(policyFromLead(lead({ premiumOverride: [] })).premiumOverride).toBeNull();
  });
});
