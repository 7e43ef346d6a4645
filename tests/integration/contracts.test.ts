import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { AccountSchema } from '#common/contracts/account.ts';
import {
  AccountAnswerSchema,
  BffConfigSchema,
  SessionAnswerSchema,
  SignInAnswerSchema,
  WorkspacesAnswerSchema,
} from '#common/contracts/bff.ts';
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
import {
  PolicyRowSchema,
  PolicySchema,
  PremiumCalculationSchema,
} from '#common/contracts/policy.ts';
import {
  InsuredObjectSchema,
  PremiumFormulaSchema,
  ProductFieldSchema,
  ProductFieldTypesSchema,
  ProductSchema,
  ProductVersionSchema,
} from '#common/contracts/product.ts';
import {
  BookingFunnelSchema,
  BookingFunnelSnapshotSchema,
  DefaultProductFieldSchema,
  FactorSummarySchema,
  FactorValuesSchema,
  InsuredObjectTypeSchema,
  NamedRangeSchema,
  ProductFactorSchema,
} from '#common/contracts/product-extras.ts';
import { pageOf, TransitionRuleSchema } from '#common/contracts/shared.ts';
import {
  DocumentOwnerSchema,
  DocumentSchema,
  PresignedPostSchema,
  SearchableDocumentSchema,
} from '#common/contracts/document.ts';
import { ErrorBodySchema } from '#common/contracts/error.ts';
import { NotificationPostedSchema } from '#common/contracts/notification.ts';
import { ProductLanguageSchema } from '#common/contracts/translation.ts';
import {
  AdminUserSchema,
  BatchEmailResultsSchema,
  BrandingRecordSchema,
  EffectivePermissionSchema,
  CustomSchemaRecordSchema,
  GeneralSettingsSchema,
  SettingValueSchema,
  TenantSettingValueSchema,
  TenantSchema,
  InviteSchema,
  ListViewSchema,
  OrganizationSchema,
  RoleSchema,
} from '#common/contracts/tenant.ts';
import { accountsParams } from '#client/api/accounts-client.ts';
import { claimsParams } from '#client/api/claims-client.ts';
import { leadsParams } from '#client/api/leads-client.ts';
import { partnersParams } from '#client/api/partners-client.ts';
import { policiesParams } from '#client/api/policies-client.ts';
import { policyRowsPage, policyRowsUpstreamUrl } from '#server/upstream/policy-rows.ts';
import { INSURANCE_USERS, serviceCalls, withSandbox } from '#tests/support/sandbox.ts';
import { Agent, startStack, type Stack } from '#tests/support/stack.ts';
import {
  api,
  apiUpload,
  latestMail,
  linkParam,
  type ApiResponse,
} from '#server/sandbox/testing.ts';
import {
  LoginAnswerSchema,
  OrganizationInvitationSchema,
  PasswordChallengeSchema,
  RegisteredUserSchema,
  ResetAccountSchema,
  SamlLinkSchema,
  TokensSchema,
  UserInviteSchema,
  WorkspaceSchema,
} from '#common/contracts/auth.ts';

/**
 * Drift: every answer the client reads, from the real sandbox with its seed, measured against its
 * contract in common/contracts/. The response schemas are strict objects, so a field renamed,
 * dropped, retyped or added without the contract fails here (common/contracts/README.md). Lists
 * are read a full page or more at a time, so that the seed's varied records (holders by value,
 * SEPA payments, terminated policies, drafts) all pass through the schema.
 */

const kit = withSandbox({ ...INSURANCE_USERS, admin: 'admin@demo.test' });
const { care, admin } = kit.sessions;
const partners = serviceCalls(kit, '/partnerservice/v1');
const accounts = serviceCalls(kit, '/accountservice/v1');
const insurance = serviceCalls(kit, '/insuranceservice/v1');
const claims = serviceCalls(kit, '/claimservice/v1');
const documents = serviceCalls(kit, '/documentservice/v1');
const translations = serviceCalls(kit, '/translationservice/v1');
const notifications = serviceCalls(kit, '/notificationservice/v1');
const tenant = serviceCalls(kit, '/tenantservice/v1');
const auth = serviceCalls(kit, '/authservice/v1');

/** The answer's body after checking its status and its shape. */
function conforming<S extends v.GenericSchema>(
  res: Pick<ApiResponse, 'status' | 'body'>,
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

  it('gives the policies list rows its contract says, from what the BFF asks the list for', async () => {
    // The very URL the BFF sends upstream for the table's `view=row` call.
    const rowCall = new URLSearchParams(policiesParams({ pageSize: 50 }));
    rowCall.set('view', 'row');
    const upstreamUrl = policyRowsUpstreamUrl('GET', `/insuranceservice/v1/policies?${rowCall}`);
    expect(upstreamUrl).not.toBeNull();
    const listed = conforming(
      await insurance.call(care, upstreamUrl!.replace('/insuranceservice/v1', '')),
      pageOf(PolicySchema),
    );
    const rows = policyRowsPage(listed, new Date());
    expect(contractProblems(pageOf(PolicyRowSchema), rows)).toEqual([]);
    // The seed's premiums have units: the rows must carry them, not only the amounts.
    const units = (rows as { items: { premium: { unit: string | null } | null }[] }).items.map(
      (row) => row.premium?.unit ?? null,
    );
    expect(units.some((unit) => unit !== null)).toBe(true);
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

  it('calculates a premium and sells an application as a policy', async () => {
    const [lead] = conforming(
      await insurance.call(care, `/leads?${leadsParams({ pageSize: 1, status: 'new' })}`),
      pageOf(LeadSchema),
    ).items;
    const application = {
      productVersionId: lead!.productVersionId,
      policyObjects: lead!.policy.policyObjects.map(({ insuredObjectId, data }) => ({
        insuredObjectId,
        data,
      })),
    };
    const quote = conforming(
      await insurance.send(care, 'POST', '/premiums/calculate', application),
      PremiumCalculationSchema,
    );
    expect(quote.premium).not.toBeNull();
    const { code: accountCode } = conforming(
      await accounts.call(care, `/accounts?${accountsParams({})}`),
      pageOf(AccountSchema),
    ).items[0]!;
    conforming(
      await insurance.send(care, 'POST', '/policies', { ...application, accountCode }),
      one('policy', PolicySchema),
      201,
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

describe('insuranceservice answers for products as its contract says', () => {
  const filtered = (route: string, filter: Record<string, string | number>, pageSize = 100) =>
    `${route}?${new URLSearchParams({
      pageSize: String(pageSize),
      filter: Object.entries(filter)
        .map(([key, value]) => `${key}=${value}`)
        .join('&'),
    })}`;

  it('lists products with their versions, and every part of each version', async () => {
    const products = conforming(
      await insurance.call(admin, '/products?pageSize=50&expand=versions'),
      pageOf(ProductSchema),
    );
    const car = products.items.find((p) => p.slug === 'car-comfort')!;
    conforming(
      await insurance.call(admin, `/products/${car.id}?expand=versions`),
      one('product', ProductSchema),
    );
    conforming(
      await insurance.call(admin, `/product-versions/${car.versions![0]!.id}`),
      one('productVersion', ProductVersionSchema),
    );
    // Every version of every product: drafts, the active ones, those with factors and ranges.
    for (const version of products.items.flatMap((p) => p.versions ?? [])) {
      const objects = conforming(
        await insurance.call(
          admin,
          `${filtered('/insured-objects', { productVersionId: version.id })}&expand=productFields`,
        ),
        pageOf(InsuredObjectSchema),
      );
      conforming(
        await insurance.call(
          admin,
          filtered('/product-fields', {
            insuredObjectId: objects.items.map((o) => o.id).join(','),
          }),
        ),
        pageOf(ProductFieldSchema),
      );
      conforming(
        await insurance.call(
          admin,
          filtered('/premium-formulas', { productVersionId: version.id }, 50),
        ),
        pageOf(PremiumFormulaSchema),
      );
      conforming(
        await insurance.call(admin, filtered('/product-factors', { productVersionId: version.id })),
        pageOf(ProductFactorSchema),
      );
      conforming(
        await insurance.call(admin, `/product-factors/for-version?productVersionId=${version.id}`),
        FactorValuesSchema,
      );
      conforming(
        await insurance.call(
          admin,
          filtered('/named-ranges', { productVersionId: version.id }, 1_000_000),
        ),
        pageOf(NamedRangeSchema),
      );
    }
    conforming(await insurance.call(admin, '/product-fields/types'), ProductFieldTypesSchema);
  });

  it('lists the insured object types, their default fields and the booking funnels', async () => {
    conforming(
      await insurance.call(admin, '/insured-object-types?pageSize=30'),
      pageOf(InsuredObjectTypeSchema),
    );
    conforming(
      await insurance.call(admin, '/default-product-fields?pageSize=100'),
      pageOf(DefaultProductFieldSchema),
    );
    const funnels = conforming(
      await insurance.call(admin, '/booking-funnels?pageSize=50'),
      pageOf(BookingFunnelSchema),
    );
    const [funnel] = funnels.items;
    conforming(
      await insurance.call(admin, `/booking-funnels/${funnel!.code}`),
      one('bookingFunnel', BookingFunnelSchema),
    );
    conforming(
      await insurance.call(admin, `/booking-funnels/${funnel!.code}/versions/${funnel!.version}`),
      one('bookingFunnel', BookingFunnelSnapshotSchema),
    );
  });

  it('answers each write of the product editor', async () => {
    const { product } = conforming(
      await insurance.send(admin, 'POST', '/products', {
        name: 'Vertragsprodukt',
        category: 'device',
      }),
      one('product', ProductSchema),
      201,
    );
    conforming(
      await insurance.send(admin, 'PUT', `/products/${product.id}`, {
        name: 'Vertragsprodukt Plus',
        category: 'device',
      }),
      one('product', ProductSchema),
    );
    const { productVersion } = conforming(
      await insurance.send(admin, 'POST', '/product-versions', {
        productId: product.id,
        description: 'Entwurf',
      }),
      one('productVersion', ProductVersionSchema),
      201,
    );
    conforming(
      await insurance.send(admin, 'PUT', `/product-versions/${productVersion.id}`, {
        description: 'Erster Entwurf',
      }),
      one('productVersion', ProductVersionSchema),
    );
    // A typed object: it starts with its type's default fields.
    const [deviceType] = conforming(
      await insurance.call(admin, '/insured-object-types?pageSize=30'),
      pageOf(InsuredObjectTypeSchema),
    ).items.filter((t) => t.name === 'mobile-device');
    const { insuredObject } = conforming(
      await insurance.send(admin, 'POST', '/insured-objects', {
        productVersionId: productVersion.id,
        insuredObjectTypeId: deviceType?.id ?? null,
        name: 'handy',
        label: 'Handy',
      }),
      one('insuredObject', InsuredObjectSchema),
      201,
    );
    const renamed = conforming(
      await insurance.send(admin, 'PUT', `/insured-objects/${insuredObject.id}`, {
        name: 'telefon',
        label: 'Telefon',
        version: insuredObject.version,
      }),
      one('insuredObject', InsuredObjectSchema),
    ).insuredObject;
    const { productField } = conforming(
      await insurance.send(admin, 'POST', '/product-fields', {
        insuredObjectId: renamed.id,
        name: 'price',
        label: 'Kaufpreis',
        type: 'number',
        minimum: 1,
        defaultValue: 100,
      }),
      one('productField', ProductFieldSchema),
      201,
    );
    conforming(
      await insurance.send(admin, 'PUT', `/product-fields/${productField.id}`, {
        name: 'price',
        label: 'Preis',
        type: 'number',
      }),
      one('productField', ProductFieldSchema),
    );
    const formula = {
      productVersionId: productVersion.id,
      group: 'Grundbeitrag',
      name: 'Beitrag',
      expression: 'telefon.price * 0.1',
      unit: 'month',
      variableName: 'base',
    };
    const { premiumFormula } = conforming(
      await insurance.send(admin, 'POST', '/premium-formulas', formula),
      one('premiumFormula', PremiumFormulaSchema),
      201,
    );
    conforming(
      await insurance.send(admin, 'PUT', `/premium-formulas/${premiumFormula.id}`, {
        ...formula,
        unit: 'year',
      }),
      one('premiumFormula', PremiumFormulaSchema),
    );
    const { namedRange } = conforming(
      await insurance.send(admin, 'POST', '/named-ranges', {
        productVersionId: productVersion.id,
        name: 'priceBand',
        bands: [{ from: 0, to: 500, value: 1 }],
      }),
      one('namedRange', NamedRangeSchema),
      201,
    );
    conforming(
      await insurance.send(admin, 'PUT', `/named-ranges/${namedRange.id}`, {
        name: 'priceBand',
        bands: [{ from: 0, to: null, value: 2 }],
        version: namedRange.version,
      }),
      one('namedRange', NamedRangeSchema),
    );
    const factor = {
      token: admin.accessToken,
      fields: { productVersionId: String(productVersion.id), name: 'zone' },
      file: { name: 'zone.csv', text: 'zip,value\n10115,1.2\n*,1\n' },
    };
    conforming(
      await apiUpload(kit.base, '/insuranceservice/v1/product-factors/validate', factor),
      v.strictObject({ summary: FactorSummarySchema }),
    );
    conforming(
      await apiUpload(kit.base, '/insuranceservice/v1/product-factors', factor),
      one('productFactor', ProductFactorSchema),
      201,
    );
    const { bookingFunnel } = conforming(
      await insurance.send(admin, 'POST', '/booking-funnels', {
        name: 'Online',
        productSlug: product.slug,
        productVersionId: productVersion.id,
        steps: [{ title: 'Gerät', fields: [{ insuredObject: 'telefon', field: 'price' }] }],
      }),
      one('bookingFunnel', BookingFunnelSchema),
      201,
    );
    conforming(
      await insurance.send(admin, 'PUT', `/booking-funnels/${bookingFunnel.code}`, {
        name: 'Online 2',
        productVersionId: productVersion.id,
        steps: bookingFunnel.steps,
        version: bookingFunnel.version,
      }),
      one('bookingFunnel', BookingFunnelSchema),
    );
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

describe('documentservice answers as its contract says', () => {
  it('lists the documents of a claim, a lead and a customer', async () => {
    const [claim] = await kit.db().query<{ entity_id: string; account_code: string }>(
      `SELECT entity_id, account_code FROM documents
        WHERE entity_type = 'ClaimDocument' AND status = 'stored' AND account_code IS NOT NULL
        ORDER BY id LIMIT 1`,
    );
    const [lead] = await kit
      .db()
      .query<{ entity_type: string; entity_id: string }>(
        `SELECT entity_type, entity_id FROM documents WHERE lead_code IS NOT NULL ORDER BY id LIMIT 1`,
      );
    const filters = [
      `entityType=ClaimDocument&entityId=${claim!.entity_id}`,
      `entityType=${lead!.entity_type}&entityId=${lead!.entity_id}`,
      `accountCode=${claim!.account_code}`,
    ];
    for (const filter of filters) {
      const list = conforming(
        await documents.call(care, `/documents?pageSize=100&filter=${encodeURIComponent(filter)}`),
        pageOf(DocumentSchema),
      );
      expect(list.items.length, filter).toBeGreaterThan(0);
    }
  });

  it('signs an upload, and searches documents by product and owner', async () => {
    const [claim] = conforming(
      await claims.call(care, `/claims?${claimsParams({ pageSize: 1 })}`),
      pageOf(ClaimSchema),
    ).items;
    conforming(
      await documents.send(care, 'POST', '/documents/pre-signed-post', {
        accountCode: claim!.accountCode,
        policyCode: claim!.policyCode,
        contentType: 'pdf',
        isoContentType: 'application/pdf',
        entityType: 'ClaimDocument',
        entityId: claim!.id,
        filename: 'report.pdf',
      }),
      PresignedPostSchema,
      201,
    );
    const [product] = await kit.db().query<{ slug: string }>(
      `SELECT DISTINCT pr.slug FROM documents d
         JOIN policies p ON p.code = d.policy_code JOIN products pr ON pr.id = p.product_id
        WHERE d.status = 'stored' ORDER BY pr.slug LIMIT 1`,
    );
    const owners = conforming(
      await documents.call(care, `/searchable-document-owners?product=${product!.slug}`),
      v.strictObject({ items: v.array(DocumentOwnerSchema) }),
    );
    expect(owners.items.length).toBeGreaterThan(0);
    const found = conforming(
      await documents.call(care, `/searchable-documents?product=${product!.slug}&ownerIds=*`),
      pageOf(SearchableDocumentSchema),
    );
    expect(found.items.length).toBeGreaterThan(0);
    const word = found.items[0]!.filename.slice(0, 3);
    conforming(
      await documents.call(care, `/search-keywords?searchText=${encodeURIComponent(word)}`),
      v.strictObject({ items: v.array(v.string()) }),
    );
  });
});

describe('translationservice answers as its contract says', () => {
  it('lists, adds and switches off a product language', async () => {
    conforming(
      await translations.call(admin, '/languages?pageSize=50'),
      pageOf(ProductLanguageSchema),
    );
    const { productLanguage } = conforming(
      await translations.send(admin, 'POST', '/languages', {
        productSlug: 'home-contents',
        language: 'fi',
      }),
      one('productLanguage', ProductLanguageSchema),
      201,
    );
    conforming(
      await translations.send(admin, 'PUT', `/languages/${productLanguage.id}`, {
        isActive: false,
        version: productLanguage.version,
      }),
      one('productLanguage', ProductLanguageSchema),
    );
  });
});

describe('notificationservice answers as its contract says', () => {
  it('answers a posted notification', async () => {
    conforming(
      await notifications.send(admin, 'POST', '/notifications', { title: 'Hallo', body: 'Welt' }),
      NotificationPostedSchema,
      201,
    );
  });
});

describe('tenantservice answers as its contract says', () => {
  it('lists users, invites, roles and organizations as the admin screens ask', async () => {
    conforming(
      await tenant.call(admin, '/users?pageSize=50&expand=roles,organizations'),
      pageOf(AdminUserSchema),
    );
    conforming(
      await tenant.call(
        admin,
        '/users/invites?pageSize=50&order=email:ASC&expand=roles,organization',
      ),
      pageOf(InviteSchema),
    );
    conforming(await tenant.call(admin, '/roles?pageSize=50'), pageOf(RoleSchema));
    conforming(
      await tenant.call(admin, '/organizations?pageSize=50&order=name:ASC'),
      pageOf(OrganizationSchema),
    );
  });

  it('reads the tenant, its settings, branding and custom schemas', async () => {
    conforming(await tenant.call(admin, '/tenants/1'), one('tenant', TenantSchema));
    conforming(await tenant.call(admin, '/general'), one('general', GeneralSettingsSchema));
    conforming(await tenant.call(admin, '/branding'), one('branding', BrandingRecordSchema));
    const schemas = conforming(
      await tenant.call(admin, '/custom-schemas'),
      pageOf(CustomSchemaRecordSchema),
    );
    expect(schemas.items.length).toBeGreaterThan(0);
    conforming(
      await tenant.call(admin, '/settings/tenant?keys=theme,pageSize'),
      v.strictObject({ values: v.array(TenantSettingValueSchema) }),
    );
    conforming(
      await tenant.call(admin, '/settings/user?keys=theme,pageSize'),
      v.strictObject({ values: v.array(SettingValueSchema) }),
    );
  });

  it('saves, lists and changes a list view', async () => {
    const { listView } = conforming(
      await tenant.send(care, 'POST', '/list-views', {
        list: 'policies',
        name: 'Aktive',
        query: 'status=ACTIVE',
        shared: true,
      }),
      one('listView', ListViewSchema),
      201,
    );
    conforming(
      await tenant.call(care, `/list-views?filter=${encodeURIComponent('list=policies')}`),
      pageOf(ListViewSchema),
    );
    conforming(
      await tenant.send(care, 'PUT', `/list-views/${listView.code}`, {
        name: 'Aktive Policen',
        query: 'status=ACTIVE',
        shared: false,
        version: listView.version,
      }),
      one('listView', ListViewSchema),
    );
  });
});

describe('tenantservice answers for users and roles as its contract says', () => {
  it('reads a user with roles and effective permissions, and answers a role written', async () => {
    const [user] = conforming(
      await tenant.call(admin, '/users?pageSize=50&expand=roles,organizations'),
      pageOf(AdminUserSchema),
    ).items;
    conforming(
      await tenant.call(admin, `/users/${user!.id}?expand=roles`),
      one('user', AdminUserSchema),
    );
    conforming(
      await tenant.call(admin, `/users/${user!.id}/effective-permissions`),
      v.strictObject({ items: v.array(EffectivePermissionSchema) }),
    );
    const { role } = conforming(
      await tenant.send(admin, 'POST', '/roles', {
        code: 'contract-clerk',
        label: 'Vertragsbearbeitung',
        permissions: ['policy-management.policies.view'],
      }),
      one('role', RoleSchema),
      201,
    );
    conforming(
      await tenant.send(admin, 'PUT', `/roles/${role.id}`, {
        label: 'Verträge',
        description: 'liest Verträge',
        permissions: ['policy-management.policies.view'],
      }),
      one('role', RoleSchema),
    );
  });
});

describe('authservice answers as its contract says, signed in and as a guest', () => {
  it('signs in, with or without a password change first, and lists the workspaces', async () => {
    const signIn = (username: string) =>
      api(kit.base, '/authservice/v1/login', { body: { username, password: 'Demo1234!' } });
    conforming(await signIn('care@demo.test'), TokensSchema);
    conforming(await signIn('newpass@demo.test'), PasswordChallengeSchema);
    conforming(await signIn('viewer@demo.test'), LoginAnswerSchema);
    conforming(
      await auth.call(admin, '/workspaces'),
      v.strictObject({ workspaces: v.array(WorkspaceSchema) }),
    );
    conforming(
      await api(kit.base, '/authservice/v1/saml-login-link?tenantSlug=demo'),
      SamlLinkSchema,
    );
  });

  it('answers the invitation links and the registration of a guest', async () => {
    const address = {
      street: 'Ringstraße',
      houseNumber: '7',
      zipCode: '04109',
      city: 'Leipzig',
      country: 'Deutschland',
    };
    conforming(
      await tenant.send(admin, 'POST', '/users/invites/batch', {
        emails: ['vera@contract.test'],
        roleCodes: ['show-only'],
      }),
      BatchEmailResultsSchema,
    );
    const token = linkParam((await latestMail(kit.base, 'vera@contract.test'))?.link, 'token');
    conforming(
      await api(kit.base, `/authservice/v1/verify-invite?token=${token}`),
      one('invite', UserInviteSchema),
    );
    conforming(
      await api(kit.base, '/authservice/v1/create-user', {
        body: {
          firstName: 'Vera',
          lastName: 'Vertrag',
          password: 'Fresh1234',
          isEulaAccepted: true,
          customFields: { registrationNumber: 'HRB 1' },
          invitationToken: token,
          ...address,
        },
      }),
      RegisteredUserSchema,
      201,
    );
    const invited = await tenant.send(admin, 'POST', '/invitations/organizations', {
      name: 'Vertragshaus',
      slug: 'vertragshaus',
      email: 'haus@contract.test',
      ...address,
      roleCodes: ['customer-care'],
      customFields: { registrationNumber: 'HRB 2' },
      offerSso: true,
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const orgToken = linkParam((await latestMail(kit.base, 'haus@contract.test'))?.link, 'token');
    conforming(
      await api(kit.base, `/authservice/v1/verify-org-invitation?invitationToken=${orgToken}`),
      one('invitation', OrganizationInvitationSchema),
    );
    const forgot = await api(kit.base, '/authservice/v1/forgot-password', {
      body: { email: 'vera@contract.test' },
    });
    expect(forgot.status).toBe(204);
    const reset = linkParam((await latestMail(kit.base, 'vera@contract.test'))?.link, 'resetToken');
    conforming(
      await api(kit.base, `/authservice/v1/verify-reset-password?resetToken=${reset}`),
      ResetAccountSchema,
    );
  });
});

/**
 * A refused body, on each endpoint whose body the sandbox checks with its contract's request
 * schema: 400 `validation_error` in the one error shape, each problem at its dotted path with a
 * machine code the client translates (client/api/error-text.ts).
 */
describe('a body against its request schema', () => {
  it.each([
    [
      'a customer',
      accounts,
      'POST',
      '/accounts',
      { type: 'org', email: 'x' },
      [
        { path: 'email', code: 'invalid_email' },
        // A missing key is valibot's `object` issue; an organisation needs its company name.
        { path: 'street', code: 'object' },
        { path: 'companyName', code: 'required' },
      ],
    ],
    [
      'a customer edit',
      accounts,
      'PUT',
      '/accounts/1',
      { type: 'teapot' },
      [
        { path: 'type', code: 'invalid_type' },
        { path: 'version', code: 'object' },
      ],
    ],
    [
      'a product',
      insurance,
      'POST',
      '/products',
      { name: ' ', category: 'boat' },
      [
        { path: 'name', code: 'non_empty' },
        { path: 'category', code: 'picklist' },
      ],
    ],
    [
      'a product version move',
      insurance,
      'PUT',
      '/product-versions/1',
      { status: 'gone' },
      [{ path: 'status', code: 'picklist' }],
    ],
    [
      'a product field',
      insurance,
      'POST',
      '/product-fields',
      { insuredObjectId: 0, name: '1st', type: 'text' },
      [
        { path: 'insuredObjectId', code: 'min_value' },
        { path: 'name', code: 'regex' },
        { path: 'label', code: 'object' },
        { path: 'type', code: 'picklist' },
      ],
    ],
    [
      'a premium formula',
      insurance,
      'POST',
      '/premium-formulas',
      { productVersionId: 1, group: 'G', name: 'N', expression: ' ', unit: 'hour' },
      [
        { path: 'expression', code: 'non_empty' },
        { path: 'unit', code: 'picklist' },
      ],
    ],
    [
      'an insured object rename',
      insurance,
      'PUT',
      '/insured-objects/1',
      { name: 'Auto', label: 'Auto' },
      [
        { path: 'name', code: 'regex' },
        { path: 'version', code: 'object' },
      ],
    ],
    [
      'a named range',
      insurance,
      'POST',
      '/named-ranges',
      { productVersionId: 1, name: 'age', bands: [] },
      [{ path: 'bands', code: 'min_length' }],
    ],
    [
      'a booking funnel',
      insurance,
      'POST',
      '/booking-funnels',
      { name: ' ', productSlug: 'Car', steps: [] },
      [
        { path: 'name', code: 'non_empty' },
        { path: 'productSlug', code: 'regex' },
        { path: 'steps', code: 'min_length' },
      ],
    ],
    [
      'a claim',
      claims,
      'POST',
      '/claims',
      {
        policyCode: 'nope',
        title: ' ',
        damageDate: '2024-01-01',
        claimType: 'meteor',
        status: 'x',
      },
      [
        { path: 'policyCode', code: 'unknown_policy' },
        { path: 'title', code: 'required' },
        { path: 'claimType', code: 'invalid_claim_type' },
        // Strict: a new claim starts in the tenant's first status.
        { path: 'status', code: 'strict_object' },
      ],
    ],
    [
      'a lead',
      insurance,
      'POST',
      '/leads',
      {
        status: 'Offen!',
        policy: { productVersionId: 0, holder: { email: 'x' }, policyObjects: [] },
      },
      [
        { path: 'status', code: 'invalid_status' },
        { path: 'policy.productVersionId', code: 'min_value' },
        { path: 'policy.holder.email', code: 'invalid_email' },
      ],
    ],
    [
      'a policy termination',
      insurance,
      'POST',
      '/policies/pol_1/terminate',
      { basedOnVersionId: 0, reason: 7 },
      [
        { path: 'basedOnVersionId', code: 'min_value' },
        { path: 'terminationDate', code: 'object' },
        { path: 'reason', code: 'string' },
      ],
    ],
    [
      'a saved list view',
      tenant,
      'POST',
      '/list-views',
      { list: 'Customers', name: ' ', query: '?page=2' },
      [
        { path: 'list', code: 'regex' },
        { path: 'name', code: 'min_length' },
        { path: 'query', code: 'check' },
      ],
    ],
    [
      'a role',
      tenant,
      'POST',
      '/roles',
      { code: 'Bad Code', label: ' ', permissions: ['nonsense'] },
      [
        { path: 'code', code: 'regex' },
        { path: 'label', code: 'non_empty' },
        { path: 'permissions.0', code: 'regex' },
      ],
    ],
    [
      'an invitation batch',
      tenant,
      'POST',
      '/users/invites/batch',
      { emails: ['nobody'] },
      [{ path: 'emails.0', code: 'email' }],
    ],
    [
      'a sign-in',
      auth,
      'POST',
      '/login',
      { username: ' ' },
      [
        { path: 'username', code: 'non_empty' },
        { path: 'password', code: 'object' },
      ],
    ],
    [
      'a registration',
      auth,
      'POST',
      '/create-user',
      { firstName: 'Vera', isEulaAccepted: false, invitationToken: 'x' },
      [
        { path: 'lastName', code: 'object' },
        { path: 'isEulaAccepted', code: 'literal' },
        { path: 'street', code: 'object' },
      ],
    ],
    [
      'a product language',
      translations,
      'POST',
      '/languages',
      {
        productSlug: 'home-contents',
        language: 'deu',
      },
      [{ path: 'language', code: 'regex' }],
    ],
    [
      'a product language switch',
      translations,
      'PUT',
      '/languages/1',
      {
        isActive: 'yes',
        version: 0,
      },
      [
        { path: 'isActive', code: 'boolean' },
        { path: 'version', code: 'min_value' },
      ],
    ],
    [
      'an upload to sign',
      documents,
      'POST',
      '/documents/pre-signed-post',
      {
        accountCode: '',
        entityId: 'clm_1',
      },
      [
        { path: 'accountCode', code: 'required' },
        { path: 'entityId', code: 'required' },
      ],
    ],
    [
      'a notification',
      notifications,
      'POST',
      '/notifications',
      { title: ' ', body: 7 },
      [
        { path: 'title', code: 'non_empty' },
        { path: 'body', code: 'string' },
      ],
    ],
  ] as const)(
    'refuses %s naming each field at fault',
    async (_what, service, method, route, body, issues) => {
      const res = await service.send(admin, method, route, body);
      const error = conforming(res, ErrorBodySchema, 400);
      expect(error.error).toBe('validation_error');
      expect(error.issues).toEqual(expect.arrayContaining(issues.map((i) => ({ ...i }))));
    },
  );
});

/**
 * The BFF's own answers (`/bff/*`, common/contracts/bff.ts), from the real BFF in front of its
 * embedded sandbox, called as the SPA calls them (client/api/bff-client.ts).
 */
describe('the BFF answers /bff/* as its contract says', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.stop());

  it('answers the config, the session, a sign-in, workspaces, a switch, a refresh and sign-out', async () => {
    const a = new Agent(stack.url);
    conforming(await a.json('/bff/config'), BffConfigSchema);
    expect(conforming(await a.json('/bff/session'), SessionAnswerSchema).accounts).toEqual([]);
    const signedIn = conforming(await a.login('admin@demo.test'), SignInAnswerSchema);
    expect(signedIn.account.userCode).toMatch(/^usr_/);
    conforming(await a.login('viewer@demo.test'), SignInAnswerSchema);
    const session = conforming(await a.json('/bff/session'), SessionAnswerSchema);
    expect(session.accounts.map((x) => x.accountIndex)).toEqual([0, 1]);
    const list = conforming(await a.json('/bff/accounts/0/workspaces'), WorkspacesAnswerSchema);
    expect(list.workspaces.length).toBeGreaterThan(1);
    const switched = conforming(
      await a.json('/bff/accounts/0/workspaces/switch', {
        json: { targetWorkspace: 'demo-sandbox' },
      }),
      AccountAnswerSchema,
    );
    expect(switched.account.workspace).toBe('demo-sandbox');
    conforming(await a.json('/bff/accounts/1/refresh', { method: 'POST' }), AccountAnswerSchema);
    expect((await a.fetch('/bff/accounts/1/logout', { method: 'POST' })).status).toBe(204);
    // An account the session does not hold: the one error shape, with the index beside it.
    const gone = conforming(
      await a.json('/bff/accounts/1/refresh', { method: 'POST' }),
      ErrorBodySchema,
      401,
    );
    expect(gone).toMatchObject({ error: 'session_expired', accountIndex: 1 });
  });

  it('answers a forced password change and a signed-in one with the account', async () => {
    const a = new Agent(stack.url);
    const forced = conforming(await a.login('newpass@demo.test'), SignInAnswerSchema);
    expect(forced.account).toMatchObject({ isRequiredToChangePassword: true, expiresAt: 0 });
    const changed = conforming(
      await a.json(`/bff/accounts/${forced.accountIndex}/change-password`, {
        json: { newPassword: 'Changed1234' },
      }),
      AccountAnswerSchema,
    );
    expect(changed.account.isRequiredToChangePassword).toBe(false);
    conforming(
      await a.json(`/bff/accounts/${forced.accountIndex}/change-password`, {
        json: { oldPassword: 'Changed1234', newPassword: 'Again12345' },
      }),
      AccountAnswerSchema,
    );
  });

  // Every /bff endpoint with a body: 400 `bad_request` in the one error shape, each problem at its
  // dotted path. The body is checked before anything else, so no account is needed.
  it.each([
    [
      'a sign-in',
      '/bff/login',
      { username: ' ', password: 7 },
      [
        { path: 'username', code: 'min_length' },
        { path: 'password', code: 'string' },
      ],
    ],
    [
      'a single sign-on',
      '/bff/login/saml',
      { tenantSlug: 'Demo!', code: '' },
      [
        { path: 'tenantSlug', code: 'regex' },
        { path: 'code', code: 'min_length' },
      ],
    ],
    [
      'a workspace switch',
      '/bff/accounts/0/workspaces/switch',
      { targetWorkspace: '../nordlicht' },
      [{ path: 'targetWorkspace', code: 'regex' }],
    ],
    [
      'a password change',
      '/bff/accounts/0/change-password',
      { oldPassword: 5, newPassword: 'Bad\u0000Word1' },
      [
        { path: 'oldPassword', code: 'string' },
        { path: 'newPassword', code: 'check' },
      ],
    ],
    [
      'an empty sign-in',
      '/bff/login',
      {},
      [
        { path: 'username', code: 'object' },
        { path: 'password', code: 'object' },
      ],
    ],
  ] as const)('refuses %s naming each field at fault', async (_what, path, body, issues) => {
    const res = await new Agent(stack.url).json(path, { json: body });
    const error = conforming(res, ErrorBodySchema, 400);
    expect(error.error).toBe('bad_request');
    expect(error.issues).toEqual(issues.map((i) => ({ ...i })));
  });
});
