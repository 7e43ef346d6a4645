import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { AccountSchema } from '#common/contracts/account.ts';
import {
  ClaimPartnerRoleSchema,
  ClaimPartnerSchema,
  ClaimSchema,
  ClaimStatusSchema,
  SettlementSchema,
} from '#common/contracts/claim.ts';
import { contractProblems } from '#common/contracts/drift.ts';
import { LeadSchema, LeadStatusSchema, LeadVersionSchema } from '#common/contracts/lead.ts';
import { PartnerSchema, PartnerTagSchema, PartnerTypeSchema } from '#common/contracts/partner.ts';
import { PolicySchema } from '#common/contracts/policy.ts';
import { pageOf, TransitionRuleSchema } from '#common/contracts/shared.ts';
import { accountsParams } from '#client/api/accounts-client.ts';
import { claimsParams } from '#client/api/claims-client.ts';
import { leadsParams } from '#client/api/leads-client.ts';
import { partnersParams } from '#client/api/partners-client.ts';
import { policiesParams } from '#client/api/policies-client.ts';
import { INSURANCE_USERS, serviceCalls, withSandbox } from '#tests/support/sandbox.ts';
import type { ApiResponse } from '#server/sandbox/testing.ts';

/**
 * Drift: every answer the client reads, from the real sandbox with its seed, measured against its
 * contract in common/contracts/. The response schemas are strict objects, so a field renamed,
 * dropped, retyped or added without the contract fails here (common/contracts/README.md). Lists
 * are read a full page or more at a time, so that the seed's varied records (holders by value,
 * SEPA payments, terminated policies, drafts) all pass through the schema.
 */

const kit = withSandbox(INSURANCE_USERS);
const { care } = kit.sessions;
const partners = serviceCalls(kit, '/partnerservice/v1');
const accounts = serviceCalls(kit, '/accountservice/v1');
const insurance = serviceCalls(kit, '/insuranceservice/v1');
const claims = serviceCalls(kit, '/claimservice/v1');

/** The answer's body after checking its status and its shape. */
function conforming<S extends v.GenericSchema>(
  res: ApiResponse,
  schema: S,
  status = 200,
): v.InferOutput<S> {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(contractProblems(schema, res.body)).toEqual([]);
  return res.body as v.InferOutput<S>;
}

const one = <K extends string, S extends v.GenericSchema>(key: K, schema: S) =>
  v.strictObject({ [key]: schema } as Record<K, S>);

describe('partnerservice answers as its contract says', () => {
  it('lists partners, tags and types, and reads one partner', async () => {
    const list = conforming(
      await partners.call(care, `/partners?${partnersParams({ pageSize: 50 })}`),
      pageOf(PartnerSchema),
    );
    expect(list.items.length).toBeGreaterThan(0);
    const code = list.items[0]!.code;
    conforming(
      await partners.call(care, `/partners/${code}?expand=partnerType,tags`),
      one('partner', PartnerSchema),
    );
    conforming(await partners.call(care, '/tags'), pageOf(PartnerTagSchema));
    conforming(await partners.call(care, '/partner-types'), pageOf(PartnerTypeSchema));
  });
});

describe('accountservice answers as its contract says', () => {
  it('lists and reads customers', async () => {
    const list = conforming(
      await accounts.call(care, `/accounts?${accountsParams({})}`),
      pageOf(AccountSchema),
    );
    conforming(
      await accounts.call(care, `/accounts?${accountsParams({ type: 'org' })}`),
      pageOf(AccountSchema),
    );
    conforming(
      await accounts.call(care, `/accounts/${list.items[0]!.code}`),
      one('account', AccountSchema),
    );
  });

  it('answers a created and an updated customer', async () => {
    // An organisation: the person's fields (title, birth date, phone) come back as their empties.
    const address = { street: 'Am Hafen', houseNumber: '3', zipCode: '20457', city: 'Hamburg' };
    const fields = {
      type: 'org',
      companyName: 'Vertrag & Form GmbH',
      email: 'post@vf.test',
      ...address,
    };
    const { account } = conforming(
      await accounts.send(care, 'POST', '/accounts', fields),
      one('account', AccountSchema),
      201,
    );
    conforming(
      await accounts.send(care, 'PUT', `/accounts/${account.code}`, {
        ...fields,
        city: 'Bonn',
        version: account.version,
      }),
      one('account', AccountSchema),
    );
  });
});

describe('insuranceservice answers as its contract says', () => {
  it('lists policies as the policies table asks, in every status', async () => {
    const params = new URLSearchParams(policiesParams({ pageSize: 50 }));
    params.set('expand', 'timelines,product,premiumUnits');
    conforming(await insurance.call(care, `/policies?${params}`), pageOf(PolicySchema));
    const ended = new URLSearchParams(
      policiesParams({ pageSize: 50, statuses: ['TERMINATED', 'WITHDRAWN'] }),
    );
    const list = conforming(await insurance.call(care, `/policies?${ended}`), pageOf(PolicySchema));
    expect(list.items.length).toBeGreaterThan(0);
  });

  it('reads a policy with its versions, and answers a draft written on it', async () => {
    const active = new URLSearchParams(policiesParams({ pageSize: 1, statuses: ['ACTIVE'] }));
    const [first] = conforming(
      await insurance.call(care, `/policies?${active}`),
      pageOf(PolicySchema),
    ).items;
    const { policy } = conforming(
      await insurance.call(care, `/policies/${first!.code}?expand=versions,product`),
      one('policy', PolicySchema),
    );
    const { policy: drafted } = conforming(
      await insurance.send(care, 'POST', `/policies/${policy.code}/draft`, {
        basedOnVersionId: policy.currentVersionId,
      }),
      one('policy', PolicySchema),
      201,
    );
    expect(drafted.draftVersionId).not.toBeNull();
    conforming(
      await insurance.send(care, 'DELETE', `/policies/${policy.code}/draft`, {
        basedOnVersionId: drafted.draftVersionId,
      }),
      one('policy', PolicySchema),
    );
  });

  it('lists and reads leads, a lead version, the statuses and the rules', async () => {
    const list = conforming(
      await insurance.call(care, `/leads?${leadsParams({ pageSize: 50 })}`),
      pageOf(LeadSchema),
    );
    conforming(
      await insurance.call(care, `/leads?${leadsParams({ pageSize: 50, page: 5 })}`),
      pageOf(LeadSchema),
    );
    const { lead } = conforming(
      await insurance.call(care, `/leads/${list.items[0]!.code}`),
      one('lead', LeadSchema),
    );
    conforming(
      await insurance.call(care, `/leads/${lead.code}/versions/${lead.version}`),
      one('leadVersion', LeadVersionSchema),
    );
    conforming(await insurance.call(care, '/lead-statuses'), pageOf(LeadStatusSchema));
    for (const entityType of ['lead', 'claim']) {
      conforming(
        await insurance.call(care, `/status-transitions/rules?filter=entityType%3D${entityType}`),
        pageOf(TransitionRuleSchema),
      );
    }
  });
});

describe('claimservice answers as its contract says', () => {
  it('lists and reads claims with their settlements and partners', async () => {
    const list = conforming(
      await claims.call(care, `/claims?${claimsParams({ pageSize: 50 })}`),
      pageOf(ClaimSchema),
    );
    const code = list.items[0]!.code;
    conforming(await claims.call(care, `/claims/${code}`), one('claim', ClaimSchema));
    conforming(await claims.call(care, '/claim-statuses'), pageOf(ClaimStatusSchema));
    conforming(await claims.call(care, '/claim-partner-roles'), pageOf(ClaimPartnerRoleSchema));
    const linked = conforming(
      await claims.call(care, '/claim-partners?pageSize=50&expand=partner,role'),
      pageOf(ClaimPartnerSchema),
    );
    expect(linked.items.some((item) => item.partner && item.role)).toBe(true);
    const settled = conforming(
      await claims.call(care, '/settlements?pageSize=50'),
      pageOf(SettlementSchema),
    );
    expect(settled.items.length).toBeGreaterThan(0);
  });
});
