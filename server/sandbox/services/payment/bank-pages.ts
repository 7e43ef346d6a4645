import { createHash } from 'node:crypto';
import { Router, type Response } from 'express';
import { maskIban } from '#common/payment-methods.ts';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import { getAuth, requireAuth, requirePermission } from '#server/sandbox/platform/auth-context.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import { formatDay } from '#common/date-display.ts';
import { dateDisplayOf } from '#common/date-display-settings.ts';
import {
  BANK_PAGE_LANGUAGES,
  BANK_PAGE_TEXTS,
  type BankPageLanguage,
  type BankPageTexts,
} from './bank-page-texts.ts';

/**
 * The bank pages (issue 18, docs/decisions/015-bank-pages.md): the spec's embedded apps
 * `/bank/transactions` and `/bank/orders`, stood in for by two server-rendered HTML pages made
 * from the billing data: the incoming payments seen on the workspace's bank account, and the
 * payment orders going out (refunds of negative invoices, direct debits of what is open on
 * policies paying by SEPA), each matched to its invoice by a link the shell opens (`_top`).
 *
 * `GET /bank-pages/{transactions|orders}?lang=de|en|pl&accountIndex=N`, with the caller's token
 * and the invoices' read permission. The BFF fetches a page with the user's token and serves it
 * under its own origin; the page's own headers allow no script at all, its one style by hash,
 * and framing only by the origin that serves it (`frame-ancestors 'self'`, `X-Frame-Options`).
 */

const canReadInvoices = requirePermission(
  'billing-management.invoices.view',
  'eis.finance.invoices.view',
);

/** The newest rows a page shows: an overview, not a ledger (the invoice list pages the rest). */
export const BANK_PAGE_ROWS = 100;

const CSS = `body{font:14px/1.45 system-ui,sans-serif;color:#0f172a;margin:0;padding:16px;background:#fff}
h1{font-size:18px;margin:0 0 4px}p{margin:0 0 12px;color:#334155}
table{border-collapse:collapse;width:100%;min-width:44rem}
th,td{padding:6px 10px;border-bottom:1px solid #e2e8f0;text-align:left;vertical-align:top}
th{font-size:12px;text-transform:uppercase;letter-spacing:.03em;color:#475569;background:#f8fafc}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
a{color:#1e40af;font-weight:600}a:focus{outline:2px solid #1e40af;outline-offset:2px}
.returned{color:#991b1b}.muted{color:#475569}`;

/** The page's headers: nothing runs, nothing loads, only the serving origin may frame it. */
export const BANK_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(CSS).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const esc = (value: unknown) => String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);

interface PageEnv {
  lang: BankPageLanguage;
  texts: BankPageTexts;
  money: (cents: number, currency: string) => string;
  day: (value: string) => string;
  invoiceLink: (code: string, number: string) => string;
}

interface TransactionRow {
  code: string;
  amount: string;
  currency: string;
  method: 'sepa' | 'invoice' | 'card' | 'bank-transfer';
  reference: string;
  status: string;
  booked_at: string;
  reversed_at: string | null;
  payer: string | null;
  account_number: string | null;
  invoices: { code: string; number: string }[];
}

async function transactions(db: Queryable, tenantId: number): Promise<TransactionRow[]> {
  return db.query<TransactionRow>(
    `SELECT p.code, p.amount, p.currency, p.method, p.reference, p.status,
            to_char(p.booked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS booked_at,
            to_char(p.reversed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS reversed_at,
            p.account_number,
            (SELECT coalesce(nullif(a.company_name, ''), trim(a.first_name || ' ' || a.last_name))
               FROM accounts a WHERE a.tenant_id = p.tenant_id
                AND a.account_number = p.account_number ORDER BY a.id LIMIT 1) AS payer,
            (SELECT coalesce(json_agg(json_build_object('code', i.code, 'number', i.invoice_number)
                                      ORDER BY a.id), '[]')
               FROM payment_allocations a JOIN invoices i ON i.id = a.invoice_id
              WHERE a.payment_id = p.id) AS invoices
       FROM payments p WHERE p.tenant_id = $1
      ORDER BY p.booked_at DESC, p.id DESC LIMIT ${BANK_PAGE_ROWS}`,
    [tenantId],
  );
}

interface OrderRow {
  kind: 'refund' | 'direct-debit';
  execution_date: string;
  amount: string;
  currency: string;
  invoice_code: string;
  invoice_number: string;
  holder: string | null;
  iban: string | null;
  mandate_reference: string | null;
}

/**
 * Orders to the bank: a refund (credit transfer) per negative invoice, and a direct debit of
 * what is open of each invoice whose policy pays by SEPA now, on its due date; the newest
 * `BANK_PAGE_ROWS / 2` of each kind.
 */
async function orders(db: Queryable, tenantId: number): Promise<OrderRow[]> {
  return db.query<OrderRow>(
    `WITH o AS (
       SELECT CASE WHEN i.gross_amount < 0 THEN 'refund' ELSE 'direct-debit' END AS kind,
              i.id, i.due_date,
              CASE WHEN i.gross_amount < 0 THEN -i.gross_amount
                   ELSE i.gross_amount - i.paid_amount END AS amount,
              i.currency, i.code AS invoice_code, i.invoice_number,
              coalesce(pm.holder_name, b.holder_name) AS holder, b.iban, pm.mandate_reference
         FROM invoices i
         LEFT JOIN policy_payment_methods ppm
                ON ppm.tenant_id = i.tenant_id AND ppm.policy_code = i.policy_code
               AND ppm.valid_to IS NULL
         LEFT JOIN payment_methods pm ON pm.id = ppm.payment_method_id AND pm.type = 'sepa'
         LEFT JOIN bank_accounts b ON b.id = pm.bank_account_id
        WHERE i.tenant_id = $1
          AND (i.gross_amount < 0
               OR (pm.id IS NOT NULL AND i.status IN ('open', 'partially-paid')
                   AND i.gross_amount > i.paid_amount))),
     -- The newest of each kind, half the page each, so that neither hides the other.
     ranked AS (
       SELECT o.*, row_number() OVER (PARTITION BY kind ORDER BY due_date DESC, id DESC) AS n
         FROM o)
     SELECT kind, to_char(due_date, 'YYYY-MM-DD') AS execution_date, amount, currency,
            invoice_code, invoice_number, holder, iban, mandate_reference
       FROM ranked WHERE n <= ${BANK_PAGE_ROWS / 2}
      ORDER BY due_date DESC, id DESC`,
    [tenantId],
  );
}

function page(env: PageEnv, kind: 'transactions' | 'orders', head: string[], body: string[]) {
  const t = env.texts[kind];
  const table = body.length
    ? `<table><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead>
<tbody>${body.join('\n')}</tbody></table>
<p class="muted">${esc(env.texts.latest.replace('{n}', String(BANK_PAGE_ROWS)))}</p>`
    : `<p>${esc(t.empty)}</p>`;
  return `<!doctype html>
<html lang="${env.lang}"><head><meta charset="utf-8"><title>${esc(t.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${CSS}</style></head>
<body><main><h1>${esc(t.title)}</h1><p>${esc(t.intro)}</p>
${table}</main></body></html>`;
}

function transactionsPage(env: PageEnv, rows: TransactionRow[]): string {
  const { texts } = env;
  const c = texts.columns;
  const body = rows.map((r) => {
    const returned = r.status === 'reversed';
    const invoices = r.invoices.length
      ? r.invoices.map((i) => env.invoiceLink(i.code, i.number)).join(', ')
      : `<span class="muted">${esc(texts.noInvoice)}</span>`;
    const status = returned
      ? `<span class="returned">${esc(texts.statuses.returned)} ${esc(env.day(r.reversed_at ?? ''))}</span>`
      : esc(texts.statuses.credited);
    return `<tr data-payment="${esc(r.code)}"><td>${esc(env.day(r.booked_at))}</td>
<td class="num">${esc(env.money(Number(r.amount), r.currency))}</td>
<td>${esc(r.payer ?? '')}${r.account_number ? ` <span class="muted">${esc(r.account_number)}</span>` : ''}</td>
<td>${esc(r.reference)} <span class="muted">${esc(texts.methods[r.method] ?? r.method)}</span></td>
<td>${invoices}</td><td>${status}</td></tr>`;
  });
  return page(
    env,
    'transactions',
    [c.date, c.amount, c.counterparty, c.reference, c.invoices, c.status],
    body,
  );
}

function ordersPage(env: PageEnv, rows: OrderRow[], today: string): string {
  const { texts } = env;
  const c = texts.columns;
  const body = rows.map((r) => {
    const account = [
      r.iban ? maskIban(r.iban) : '',
      r.mandate_reference ? `${texts.mandate} ${r.mandate_reference}` : '',
    ]
      .filter(Boolean)
      .join(' · ');
    const status = r.execution_date <= today ? texts.statuses.submitted : texts.statuses.scheduled;
    return `<tr data-invoice="${esc(r.invoice_code)}"><td>${esc(env.day(r.execution_date))}</td>
<td>${esc(texts.kinds[r.kind])}</td>
<td class="num">${esc(env.money(Number(r.amount), r.currency))}</td>
<td>${esc(r.holder ?? '')}</td><td>${esc(account)}</td>
<td>${env.invoiceLink(r.invoice_code, r.invoice_number)}</td><td>${esc(status)}</td></tr>`;
  });
  return page(
    env,
    'orders',
    [c.date, c.kind, c.amount, c.counterparty, c.account, c.invoices, c.status],
    body,
  );
}

function sendPage(res: Response, html: string) {
  res
    .status(200)
    .set({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': BANK_PAGE_CSP,
      'x-frame-options': 'SAMEORIGIN',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'cache-control': 'no-store',
    })
    .send(html);
}

export function bankPagesRouter(ctx: SandboxContext): Router {
  const { db } = ctx;
  const router = Router();
  router.use('/bank-pages', requireAuth(db, ctx.signer));

  router.get('/bank-pages/:page', canReadInvoices, async (req, res) => {
    const pageName = String(req.params.page);
    if (pageName !== 'transactions' && pageName !== 'orders')
      throw new HttpError(404, 'not_found', 'no such bank page');
    const lang = String(req.query.lang ?? 'en');
    if (!(BANK_PAGE_LANGUAGES as readonly string[]).includes(lang))
      throw new HttpError(400, 'invalid_query', 'lang must be one of de, en, pl');
    const index = String(req.query.accountIndex ?? '0');
    if (!/^\d{1,3}$/.test(index))
      throw new HttpError(400, 'invalid_query', 'accountIndex must be a number');
    const { tenantId } = getAuth(res);
    const [general] = await db.query<Record<string, unknown>>(
      'SELECT time_zone, format_dates, format_hours FROM general_settings WHERE tenant_id = $1',
      [tenantId],
    );
    const display = dateDisplayOf(general ?? {});
    const language = lang as BankPageLanguage;
    const numbers = new Map<string, Intl.NumberFormat>();
    const env: PageEnv = {
      lang: language,
      texts: BANK_PAGE_TEXTS[language],
      money: (cents, currency) => {
        let format = numbers.get(currency);
        if (!format) {
          format = new Intl.NumberFormat(language, { style: 'currency', currency });
          numbers.set(currency, format);
        }
        return format.format(cents / 100);
      },
      day: (value) => formatDay(display, value),
      // The shell's invoice page, opened in the whole window (the frame may navigate the top
      // window only on a click: allow-top-navigation-by-user-activation).
      invoiceLink: (code, number) =>
        `<a href="/u/${index}/finance-management/finance-invoices/${encodeURIComponent(code)}" target="_top">${esc(number)}</a>`,
    };
    const today = new Date(ctx.clock.now()).toISOString().slice(0, 10);
    sendPage(
      res,
      pageName === 'transactions'
        ? transactionsPage(env, await transactions(db, tenantId))
        : ordersPage(env, await orders(db, tenantId), today),
    );
  });

  return router;
}
