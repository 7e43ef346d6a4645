import { beforeAll, describe, expect, it } from 'vitest';
import { composeIban } from '#common/leads.ts';
import { api } from '#server/sandbox/testing.ts';
import { serviceCalls, withSandbox } from '#tests/support/sandbox.ts';

/**
 * The payment service's payment methods, policy payment methods and bank accounts (issue 18):
 * every rule and bad input, permissions, tenant isolation, masking and the audit trail.
 */

const kit = withSandbox({
  care: 'care@demo.test',
  viewer: 'viewer@demo.test',
  noui: 'noui@demo.test',
  nord: 'admin@nordlicht.test',
  admin: 'admin@demo.test',
});
const { care, viewer, noui, nord, admin } = kit.sessions;
const { call, send } = serviceCalls(kit, '/paymentservice/v1');

const IBAN = 'DE89 3704 0044 0532 0130 00';
/** A valid German IBAN of a bank code the BLZ table knows, for the n-th test. */
const ibanOf = (n: number) => {
  const bban = `50010517${String(4000000000 + n)}`;
  return composeIban('DE', bban);
};

interface Pick {
  account: string;
  policy: string;
  other: string;
}
let demo: Pick;
let nordAccount: string;

beforeAll(async () => {
  // A customer of the demo workspace with a policy, and another customer.
  const [row] = await kit.db().query<{ account: string; policy: string }>(
    `SELECT p.account_code AS account, p.code AS policy FROM policies p
       JOIN tenants t ON t.id = p.tenant_id AND t.slug = 'demo'
      WHERE p.account_code IS NOT NULL ORDER BY p.id LIMIT 1`,
  );
  const [other] = await kit.db().query<{ code: string }>(
    `SELECT a.code FROM accounts a JOIN tenants t ON t.id = a.tenant_id AND t.slug = 'demo'
      WHERE a.code <> $1 ORDER BY a.id LIMIT 1`,
    [row!.account],
  );
  demo = { account: row!.account, policy: row!.policy, other: other!.code };
  const [n] = await kit.db().query<{ code: string }>(
    `SELECT a.code FROM accounts a JOIN tenants t ON t.id = a.tenant_id AND t.slug = 'nordlicht'
      ORDER BY a.id LIMIT 1`,
  );
  nordAccount = n!.code;
});

const sepa = (extra: Record<string, unknown> = {}, account?: string) => ({
  // Read when called: the table rows of it.each are built before beforeAll picks the customer.
  get accountCode() {
    return account ?? demo.account;
  },
  type: 'sepa',
  sepa: { iban: IBAN, holderName: 'Erika Mustermann', mandateSignedAt: '2025-01-15', ...extra },
});

describe('payment methods', () => {
  it('creates a SEPA method: IBAN normalised and masked, bank from the BLZ table, mandate given', async () => {
    const res = await send(care, 'POST', '/payment-methods', sepa({ iban: ibanOf(1) }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const method = res.body.paymentMethod;
    expect(method).toMatchObject({
      code: expect.stringMatching(/^pm_/),
      accountCode: demo.account,
      type: 'sepa',
      createdByName: 'Clara Care',
      sepa: {
        holderName: 'Erika Mustermann',
        bankName: 'ING-DiBa',
        bic: 'INGDDEFFXXX',
        mandateReference: expect.stringMatching(/^MNDT-[A-Z0-9]{6,}$/),
        mandateSignedAt: '2025-01-15',
      },
    });
    const iban = ibanOf(1);
    expect(method.sepa.ibanMasked).toBe(
      `DE••${'•'.repeat(iban.length - 8)}${iban.slice(-4)}`.replace(/(.{4})(?=.)/g, '$1 '),
    );
    expect(JSON.stringify(res.body)).not.toContain(iban.slice(4, 16));
    // Stored whole and normalised, shown masked in the list too; its bank account listed.
    const [stored] = await kit
      .db()
      .query<{ iban: string }>('SELECT iban FROM bank_accounts WHERE code = $1', [
        method.sepa.bankAccountCode,
      ]);
    expect(stored!.iban).toBe(iban);
    const list = await call(care, `/payment-methods?filter=accountCode%3D${demo.account}`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((m: { code: string }) => m.code)).toContain(method.code);
    expect(JSON.stringify(list.body)).not.toMatch(/DE\d{20}/);
    const banks = await call(
      care,
      `/bank-accounts?filter=accountCode%3D${demo.account}&expand=account`,
    );
    expect(banks.status).toBe(200);
    const bank = banks.body.items.find(
      (b: { code: string }) => b.code === method.sepa.bankAccountCode,
    );
    expect(bank).toMatchObject({ bankName: 'ING-DiBa', account: { code: demo.account } });
  });

  it('keeps a given mandate reference and refuses it for a second mandate (409)', async () => {
    const first = await send(
      care,
      'POST',
      '/payment-methods',
      sepa({ iban: ibanOf(2), mandateReference: 'M-2025-0042' }),
    );
    expect(first.status).toBe(201);
    expect(first.body.paymentMethod.sepa.mandateReference).toBe('M-2025-0042');
    const again = await send(
      care,
      'POST',
      '/payment-methods',
      sepa({ iban: ibanOf(3), mandateReference: 'M-2025-0042' }),
    );
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('mandate_reference_taken');
    expect(again.body.issues).toEqual([
      { path: 'sepa.mandateReference', code: 'mandate_reference_taken' },
    ]);
  });

  it('creates an invoice method and a card stand-in with brand, last four and expiry only', async () => {
    const invoice = await send(care, 'POST', '/payment-methods', {
      accountCode: demo.account,
      type: 'invoice',
    });
    expect(invoice.status).toBe(201);
    expect(invoice.body.paymentMethod).toMatchObject({ type: 'invoice' });
    const card = await send(care, 'POST', '/payment-methods', {
      accountCode: demo.account,
      type: 'card',
      card: { brand: 'visa', last4: '4242', expiryMonth: 12, expiryYear: 2099 },
    });
    expect(card.status, JSON.stringify(card.body)).toBe(201);
    expect(card.body.paymentMethod.card).toEqual({
      brand: 'visa',
      last4: '4242',
      expiryMonth: 12,
      expiryYear: 2099,
      holderName: null,
    });
  });

  it.each([
    [
      'a full card number as the holder name',
      { holderName: '4111 1111 1111 1111' },
      'card.holderName',
    ],
    ['a card number in last4', { last4: '4111111111111111' }, 'card.last4'],
    ['a card number in an unknown field', { number: '4111-1111-1111-1111' }, 'card.number'],
  ])('refuses %s (400 card_number_refused, nothing stored)', async (_, extra, path) => {
    const before = await kit.db().query('SELECT count(*)::int AS n FROM payment_methods');
    const res = await send(care, 'POST', '/payment-methods', {
      accountCode: demo.account,
      type: 'card',
      card: { brand: 'visa', last4: '1111', expiryMonth: 1, expiryYear: 2099, ...extra },
    });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ path, code: 'card_number_refused' }]);
    const after = await kit.db().query('SELECT count(*)::int AS n FROM payment_methods');
    expect(after).toEqual(before);
  });

  it.each([
    ['an invalid IBAN', sepa({ iban: 'DE89370400440532013001' }), 'sepa.iban', 'invalid_iban'],
    [
      'an IBAN of a wrong length',
      sepa({ iban: 'DE8937040044053201300' }),
      'sepa.iban',
      'invalid_iban',
    ],
    ['an invalid BIC', sepa({ bic: 'COBAD3FF' }), 'sepa.bic', 'invalid_bic'],
    ['a BIC of another country', sepa({ bic: 'ABNANL2A' }), 'sepa.bic', 'bic_country_mismatch'],
    ['no holder name', sepa({ holderName: ' ' }), 'sepa.holderName', 'required'],
    [
      'a mandate signed in the future',
      sepa({ mandateSignedAt: '2999-01-01' }),
      'sepa.mandateSignedAt',
      'date_in_future',
    ],
    [
      'a bad mandate date',
      sepa({ mandateSignedAt: '15.01.2025' }),
      'sepa.mandateSignedAt',
      'invalid_date',
    ],
    [
      'a bad mandate reference',
      sepa({ mandateReference: 'ÄÖÜ#' }),
      'sepa.mandateReference',
      'invalid_mandate_reference',
    ],
    ['an unknown type', { accountCode: 'acc_x', type: 'cash' }, 'type', 'invalid_payment_method'],
    [
      'an expired card',
      {
        accountCode: 'acc_x',
        type: 'card',
        card: { brand: 'visa', last4: '1234', expiryMonth: 1, expiryYear: 2001 },
      },
      'card.expiryYear',
      'card_expired',
    ],
    [
      'a card month 13',
      {
        accountCode: 'acc_x',
        type: 'card',
        card: { brand: 'visa', last4: '1234', expiryMonth: 13, expiryYear: 2099 },
      },
      'card.expiryMonth',
      'invalid_expiry',
    ],
  ])('refuses %s with a 400 naming the field', async (_, body, path, code) => {
    const res = await send(care, 'POST', '/payment-methods', body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toBe('validation_error');
    expect(res.body.issues).toContainEqual({ path, code });
    expect(res.body.message).toContain(path);
  });

  it('answers 404 for a customer of another tenant, and lists only its own tenant', async () => {
    const res = await send(nord, 'POST', '/payment-methods', {
      accountCode: demo.account,
      type: 'invoice',
    });
    expect(res.status).toBe(404);
    const theirs = await call(nord, `/payment-methods?filter=accountCode%3D${demo.account}`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.items).toEqual([]);
    const mine = await call(care, '/payment-methods?pageSize=1');
    const code = mine.body.items[0].code;
    expect((await call(nord, `/payment-methods/${code}`)).status).toBe(404);
    const own = await send(nord, 'POST', '/payment-methods', {
      accountCode: nordAccount,
      type: 'invoice',
    });
    expect(own.status).toBe(201);
  });

  it('needs the permissions: a viewer reads but does not create, a bare user does neither', async () => {
    expect((await call(viewer, '/payment-methods')).status).toBe(200);
    expect((await call(viewer, '/bank-accounts')).status).toBe(200);
    const created = await send(viewer, 'POST', '/payment-methods', {
      accountCode: demo.account,
      type: 'invoice',
    });
    expect(created.status).toBe(403);
    expect(
      (
        await send(viewer, 'POST', '/bank-accounts', {
          accountCode: demo.account,
          iban: IBAN,
          holderName: 'X',
        })
      ).status,
    ).toBe(403);
    expect((await call(noui, '/payment-methods')).status).toBe(403);
    expect((await call(noui, '/policy-payment-methods')).status).toBe(403);
    expect((await call(noui, '/bank-accounts')).status).toBe(403);
  });

  it('accepts the legacy eis.finance.* permissions', async () => {
    const db = kit.db();
    const [role] = await db.query<{ id: number }>(
      `SELECT r.id FROM roles r JOIN user_roles ur ON ur.role_id = r.id
         JOIN users u ON u.id = ur.user_id WHERE u.email = 'noui@demo.test' LIMIT 1`,
    );
    await db.query(
      `INSERT INTO role_permissions (tenant_id, role_id, permission)
       SELECT tenant_id, id, 'eis.finance.*' FROM roles WHERE id = $1`,
      [role!.id],
    );
    await kit.signIn();
    expect((await call(noui, '/payment-methods')).status).toBe(200);
    expect((await call(noui, '/bank-accounts')).status).toBe(200);
  });
});

describe('bank accounts', () => {
  it('creates one (also at create-bank-account, the pages host stand-in) and refuses the same IBAN twice', async () => {
    const iban = ibanOf(10);
    const res = await send(care, 'POST', '/create-bank-account', {
      accountCode: demo.other,
      iban: iban.replace(/(.{4})/g, '$1 ').toLowerCase(),
      holderName: 'Max Mustermann',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.bankAccount).toMatchObject({
      accountCode: demo.other,
      country: 'DE',
      bic: 'INGDDEFFXXX',
      bankName: 'ING-DiBa',
      createdByName: 'Clara Care',
    });
    expect(
      res.body.bankAccount.ibanMasked.endsWith(iban.slice(-4, -2) + ' ' + iban.slice(-2)),
    ).toBe(true);
    const twice = await send(care, 'POST', '/bank-accounts', {
      accountCode: demo.other,
      iban,
      holderName: 'Max Mustermann',
    });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('bank_account_exists');
    const byNumber = await call(
      care,
      `/bank-accounts?filter=accountNumber%3D${res.body.bankAccount.accountNumber}`,
    );
    expect(byNumber.body.items.map((b: { code: string }) => b.code)).toContain(
      res.body.bankAccount.code,
    );
  });

  it('takes a foreign IBAN with its BIC, bank name unknown', async () => {
    const res = await send(care, 'POST', '/bank-accounts', {
      accountCode: demo.other,
      iban: 'NL91ABNA0417164300',
      bic: 'abnanl2a',
      holderName: 'Jan de Vries',
    });
    expect(res.status).toBe(201);
    expect(res.body.bankAccount).toMatchObject({ bic: 'ABNANL2A', bankName: null, country: 'NL' });
  });

  it.each([
    [{ iban: 'DE00370400440532013000' }, 'iban', 'invalid_iban'],
    [{ iban: 42 }, 'iban', 'invalid_iban'],
    [{ bic: 'XXXX' }, 'bic', 'invalid_bic'],
    [{ holderName: '' }, 'holderName', 'required'],
    [{ accountCode: 'nope' }, 'accountCode', 'invalid_account'],
  ])('refuses %o with a 400 naming the field', async (extra, path, code) => {
    const res = await send(care, 'POST', '/bank-accounts', {
      accountCode: demo.other,
      iban: IBAN,
      holderName: 'Max',
      ...extra,
    });
    expect(res.status).toBe(400);
    expect(res.body.issues).toContainEqual({ path, code });
  });

  it('is a 404 for another tenant', async () => {
    const res = await send(nord, 'POST', '/bank-accounts', {
      accountCode: demo.other,
      iban: IBAN,
      holderName: 'X',
    });
    expect(res.status).toBe(404);
    const mine = await call(care, '/bank-accounts?pageSize=1');
    expect((await call(nord, `/bank-accounts/${mine.body.items[0].code}`)).status).toBe(404);
  });
});

describe('policy payment methods', () => {
  it('sets the method a policy pays with, keeps the earlier one as history and audits the change', async () => {
    const created = await send(care, 'POST', '/payment-methods', sepa({ iban: ibanOf(20) }));
    const method = created.body.paymentMethod;
    const set = await send(care, 'POST', '/policy-payment-methods', {
      policyCode: demo.policy,
      paymentMethodCode: method.code,
    });
    expect(set.status, JSON.stringify(set.body)).toBe(201);
    expect(set.body.policyPaymentMethod).toMatchObject({
      policyCode: demo.policy,
      paymentMethodCode: method.code,
      isCurrent: true,
      validTo: null,
      createdByName: 'Clara Care',
    });
    // The same again changes nothing.
    const same = await send(care, 'POST', '/policy-payment-methods', {
      policyCode: demo.policy,
      paymentMethodCode: method.code,
    });
    expect(same.status).toBe(200);
    expect(same.body.policyPaymentMethod.code).toBe(set.body.policyPaymentMethod.code);

    const invoice = await send(care, 'POST', '/payment-methods', {
      accountCode: demo.account,
      type: 'invoice',
    });
    const changed = await send(care, 'POST', '/policy-payment-methods', {
      policyCode: demo.policy,
      paymentMethodCode: invoice.body.paymentMethod.code,
    });
    expect(changed.status).toBe(201);
    const history = await call(care, `/policy-payment-methods?filter=policyCode%3D${demo.policy}`);
    expect(history.status).toBe(200);
    const items = history.body.items as {
      code: string;
      isCurrent: boolean;
      paymentMethod: { type: string };
    }[];
    expect(items.filter((i) => i.isCurrent)).toHaveLength(1);
    expect(items[0]).toMatchObject({ isCurrent: true, paymentMethod: { type: 'invoice' } });
    expect(items.map((i) => i.code)).toContain(set.body.policyPaymentMethod.code);
    const current = await call(
      care,
      `/policy-payment-methods?filter=policyCode%3D${demo.policy}%26current%3Dtrue`,
    );
    expect(current.body.items).toHaveLength(1);

    const [event] = await kit.db().query<{ actor_name: string; action: string; changes: unknown }>(
      `SELECT actor_name, action, changes FROM audit_events
        WHERE entity_type = 'policy' AND entity_id = $1 ORDER BY id DESC LIMIT 1`,
      [demo.policy],
    );
    expect(event).toMatchObject({
      actor_name: 'Clara Care',
      action: 'payment_method_changed',
      changes: [
        { field: 'paymentMethod', before: expect.stringMatching(/^sepa DE/), after: 'invoice' },
      ],
    });
  });

  it('keeps one current method when two changes arrive at once', async () => {
    const a = await send(care, 'POST', '/payment-methods', {
      accountCode: demo.account,
      type: 'invoice',
    });
    const b = await send(care, 'POST', '/payment-methods', sepa({ iban: ibanOf(21) }));
    const both = await Promise.all(
      [a, b].map((m) =>
        send(care, 'POST', '/policy-payment-methods', {
          policyCode: demo.policy,
          paymentMethodCode: m.body.paymentMethod.code,
        }),
      ),
    );
    expect(both.map((r) => r.status)).toEqual([201, 201]);
    const [row] = await kit
      .db()
      .query<{ n: number }>(
        `SELECT count(*)::int AS n FROM policy_payment_methods WHERE policy_code = $1 AND valid_to IS NULL`,
        [demo.policy],
      );
    expect(row!.n).toBe(1);
  });

  it('refuses a method of another customer (422), an unknown policy or method (404), another tenant (404)', async () => {
    const theirs = await send(care, 'POST', '/payment-methods', {
      accountCode: demo.other,
      type: 'invoice',
    });
    const other = await send(care, 'POST', '/policy-payment-methods', {
      policyCode: demo.policy,
      paymentMethodCode: theirs.body.paymentMethod.code,
    });
    expect(other.status).toBe(422);
    expect(other.body.issues).toEqual([
      { path: 'paymentMethodCode', code: 'payment_method_of_other_account' },
    ]);
    expect(
      (
        await send(care, 'POST', '/policy-payment-methods', {
          policyCode: 'pol_nope',
          paymentMethodCode: theirs.body.paymentMethod.code,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await send(care, 'POST', '/policy-payment-methods', {
          policyCode: demo.policy,
          paymentMethodCode: 'pm_nope',
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await send(care, 'POST', '/policy-payment-methods', {
          policyCode: demo.policy,
          paymentMethodCode: 'nope',
        })
      ).status,
    ).toBe(400);
    const nordMethod = await send(nord, 'POST', '/payment-methods', {
      accountCode: nordAccount,
      type: 'invoice',
    });
    expect(
      (
        await send(nord, 'POST', '/policy-payment-methods', {
          policyCode: demo.policy,
          paymentMethodCode: nordMethod.body.paymentMethod.code,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await send(care, 'POST', '/policy-payment-methods', {
          policyCode: demo.policy,
          paymentMethodCode: nordMethod.body.paymentMethod.code,
        })
      ).status,
    ).toBe(404);
    const list = await call(nord, `/policy-payment-methods?filter=policyCode%3D${demo.policy}`);
    expect(list.body.items).toEqual([]);
  });
});

describe('the seed', () => {
  it('gives most demo customers a method (SEPA most, some invoice, a few cards) and their policies one', async () => {
    const kinds = await kit.db().query<{ type: string; n: number }>(
      `SELECT m.type, count(DISTINCT m.account_code)::int AS n FROM payment_methods m
         JOIN tenants t ON t.id = m.tenant_id AND t.slug = 'demo'
        WHERE m.created_by = 'system' GROUP BY m.type`,
    );
    const by = (type: string) => kinds.find((k) => k.type === type)?.n ?? 0;
    expect(by('sepa')).toBeGreaterThan(by('invoice'));
    expect(by('invoice')).toBeGreaterThan(by('card'));
    expect(by('card')).toBeGreaterThan(0);
    const [bare] = await kit.db().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM policies p JOIN tenants t ON t.id = p.tenant_id AND t.slug = 'demo'
        WHERE p.created_by = 'system' AND EXISTS (SELECT 1 FROM payment_methods m WHERE m.account_code = p.account_code)
          AND NOT EXISTS (SELECT 1 FROM policy_payment_methods x WHERE x.policy_code = p.code)`,
    );
    expect(bare!.n).toBe(0);
  });
});

describe('tenant payment settings', () => {
  const T = '/tenantservice/v1/settings/tenant';
  const save = (key: string, value: unknown) =>
    api(kit.base, T, { method: 'POST', token: admin.accessToken, body: { key, value } });
  const config = { environment: 'sandbox', merchantId: 'merchant_1', publicKey: 'pk_1' };

  it('never answers the Braintree private key whole, keeps it on a save without it, logs no value', async () => {
    const saved = await save('braintree_config', { ...config, privateKey: 'prv_secret_4711' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.value).toEqual({ ...config, privateKey: '••••4711' });
    const read = await api(kit.base, `${T}?keys=braintree_config,active_psp`, {
      token: admin.accessToken,
    });
    expect(JSON.stringify(read.body)).not.toContain('prv_secret');
    // The form sends the mask back (or nothing): the stored secret stays.
    const again = await save('braintree_config', {
      ...config,
      merchantId: 'merchant_2',
      privateKey: '••••4711',
    });
    expect(again.body.value).toEqual({
      ...config,
      merchantId: 'merchant_2',
      privateKey: '••••4711',
    });
    const [row] = await kit.db().query<{ value: { privateKey: string }; is_sensitive: boolean }>(
      `SELECT s.value, s.is_sensitive FROM settings s JOIN tenants t ON t.id = s.tenant_id
        WHERE t.slug = 'demo' AND s.key = 'braintree_config'`,
    );
    expect(row).toMatchObject({ value: { privateKey: 'prv_secret_4711' }, is_sensitive: true });
    const events = await kit
      .db()
      .query<{ changes: unknown }>(
        `SELECT changes FROM audit_events WHERE entity_type = 'setting' AND entity_id = 'braintree_config'`,
      );
    expect(JSON.stringify(events)).not.toContain('prv_secret');
  });

  it('refuses an unknown provider, bad access, and a provider before its access (clear codes)', async () => {
    const unknown = await save('active_psp', 'stripe');
    expect(unknown.status).toBe(400);
    expect(unknown.body.issues).toEqual([{ path: 'value', code: 'invalid_provider' }]);
    const bad = await save('braintree_config', { ...config, merchantId: 'x y' });
    expect(bad.status).toBe(400);
    expect(bad.body.issues).toEqual([{ path: 'value.merchantId', code: 'invalid_credential' }]);
    const extra = await save('braintree_config', { ...config, secret: 'x' });
    expect(extra.status).toBe(400);
    await save('braintree_config', null);
    const early = await api(kit.base, T, {
      method: 'POST',
      token: nord.accessToken,
      body: { key: 'active_psp', value: 'braintree' },
    });
    expect(early.status).toBe(422);
    expect(early.body.error).toBe('psp_not_configured');
    expect((await save('active_psp', 'none')).status).toBe(200);
  });

  it('needs the settings permission', async () => {
    const res = await api(kit.base, T, {
      method: 'POST',
      token: care.accessToken,
      body: { key: 'active_psp', value: 'none' },
    });
    expect(res.status).toBe(403);
  });
});
