import { readFileSync } from 'node:fs';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { errorIssues } from '#common/contracts/error.ts';
import { labelIn, type NameLabels } from '#common/name-labels.ts';
import { roleIsListed, visibleModules } from '#common/permission-catalogue.ts';
import {
  DEFAULT_DATE_DISPLAY,
  dateDisplayOf,
  formatDay,
  formatInstant,
  type DateDisplay,
} from '#common/date-display.ts';
import { applicantName, partyName, type NamedParty } from '#common/party-name.ts';
import { premiumInForce, type TimelineSlice } from '#common/policy-timeline.ts';
import { grandTotalUnit, type PremiumItem } from '#common/premium.ts';
import { sendError } from '#server/http-errors.ts';
import { fromRoot } from '#server/paths.ts';
import { SessionStoreUnavailable, type SessionKit } from '#server/session/session.ts';
import type { TokenService } from '#server/session/token-service.ts';

/**
 * `GET /api/{accountIndex}/export/{list}.csv?{the list's own query}`: exactly the rows the list
 * shows, as CSV. The BFF pages through the upstream list with the user's token and the same
 * filter, search and order, and writes each page as it arrives, so memory stays flat however long
 * the list is and the upstream's permission checks and tenant scope apply unchanged. It is built
 * here rather than in the sandbox, so that it works in front of the real services as well.
 */

type Item = Record<string, unknown>;
/** The file's language's texts (locales/{lang}/export.json): headers per list, value labels. */
type Texts = Record<string, Record<string, string> | undefined>;
interface Column {
  key: string;
  /** The cell; `texts` for values a person reads as words (statuses, units) in the file's language. */
  value: (item: Item, texts: Texts) => unknown;
  /**
   * A date cell, written in the tenant's formats as the lists show it: `day` a calendar day
   * (never moved by the zone), `utcDay` a day stored as midnight UTC (a policy's start),
   * `instant` a timestamp with its time in the tenant's zone.
   */
  date?: 'day' | 'utcDay' | 'instant';
}
interface ExportList {
  path: string;
  /** Query parameters the BFF always sends (expansions the columns read). */
  fixed?: Record<string, string>;
  columns: Column[];
  /**
   * The workspace's statuses of the list (tenant-defined, with labels per language): the status
   * column shows the label in the file's language, not the slug (issue 15 points 15 and 16).
   */
  statusesPath?: string;
  /**
   * The rows the list shows this user, by the permissions they hold: the file is the list on
   * screen, not more (roles outside the user's modules are not shown, so not exported either).
   */
  keep?: (item: Item, held: readonly string[]) => boolean;
}

const field =
  (name: string) =>
  (item: Item): unknown =>
    item[name];
const nested =
  (outer: string, inner: string) =>
  (item: Item): unknown =>
    (item[outer] as Item | null | undefined)?.[inner];
const columns = (...names: string[]): Column[] => names.map((key) => ({ key, value: field(key) }));
const dates = (date: NonNullable<Column['date']>, ...names: string[]): Column[] =>
  names.map((key) => ({ key, value: field(key), date }));

/** A policy's premium as the list shows it: the timeslice in force now carries it. */
function currentPremium(item: Item): Item | undefined {
  return premiumInForce(item.timeline as (TimelineSlice & { premium?: Item })[], new Date());
}

/** A lead's premium (a quote's, not a timeline's). */
const leadPremium = (item: Item) => item.premium as Item | null | undefined;

/** Names of what a list holds (roles, an organisation), joined as the list shows them. */
const labelsOf =
  (name: string, inner: string) =>
  (item: Item): string =>
    ((item[name] as Item[] | undefined) ?? []).map((r) => r[inner]).join(' | ');

/** An invitation's state as a word in the file's language: the list marks expired ones. */
const invitationState = (item: Item, texts: Texts) =>
  texts.invitation_states?.[item.isExpired ? 'expired' : 'open'];

/**
 * The administration lists (issue 16): users, roles, organisations and both kinds of open
 * invitations, with the same query as their pages and the upstream's permission per list
 * (`tenant-management.users.view`, `identity-management.roles.view`, `...organizations.view`).
 */
const ADMIN_LISTS: Record<string, ExportList> = {
  users: {
    path: '/tenantservice/v1/users',
    fixed: { expand: 'roles,organizations' },
    columns: [
      ...columns('code', 'email', 'firstName', 'lastName'),
      { key: 'organization', value: nested('organization', 'name') },
      { key: 'roles', value: labelsOf('roles', 'label') },
      {
        key: 'status',
        value: (item, texts) => texts.user_statuses?.[String(item.status)] ?? item.status,
      },
      ...dates('instant', 'createdAt'),
    ],
  },
  roles: {
    path: '/tenantservice/v1/roles',
    // As the roles list (client/features/admin-roles/roles-page.tsx): roles that grant nothing,
    // and those outside the modules the user may see, are left out.
    keep: (item, held) => {
      const codes = ((item.permissions as { code: string }[] | undefined) ?? []).map((p) => p.code);
      return roleIsListed(codes, visibleModules(held));
    },
    columns: [
      ...columns('code', 'label', 'description'),
      { key: 'permissions', value: labelsOf('permissions', 'code') },
      ...dates('instant', 'createdAt'),
    ],
  },
  organizations: {
    path: '/tenantservice/v1/organizations',
    columns: [
      ...columns('code', 'name', 'email', 'street', 'houseNumber', 'zipCode', 'city', 'country'),
      ...dates('instant', 'createdAt'),
    ],
  },
  'user-invites': {
    path: '/tenantservice/v1/users/invites',
    fixed: { expand: 'roles,organization' },
    columns: [
      ...columns('email'),
      { key: 'organization', value: nested('organization', 'name') },
      { key: 'roles', value: labelsOf('roles', 'label') },
      ...dates('instant', 'expiresOn'),
      { key: 'state', value: invitationState },
    ],
  },
  'organization-invitations': {
    path: '/tenantservice/v1/invitations/organizations',
    fixed: { expand: 'roles' },
    columns: [
      ...columns('name', 'email'),
      { key: 'roles', value: labelsOf('roles', 'label') },
      ...dates('instant', 'expiresAt'),
      { key: 'state', value: invitationState },
    ],
  },
};
export const EXPORT_LISTS: Record<string, ExportList> = {
  customers: {
    path: '/accountservice/v1/accounts',
    columns: columns(
      'accountNumber',
      'code',
      'type',
      'title',
      'firstName',
      'lastName',
      'companyName',
      'email',
      'phone',
      'street',
      'houseNumber',
      'zipCode',
      'city',
    ).concat(dates('day', 'birthDate'), dates('instant', 'createdAt')),
  },
  partners: {
    path: '/partnerservice/v1/partners',
    fixed: { expand: 'partnerType,tags' },
    columns: [
      ...columns('partnerNumber', 'code', 'displayName'),
      { key: 'partnerType', value: nested('partnerType', 'name') },
      {
        key: 'tags',
        value: (item) => ((item.tags as Item[] | undefined) ?? []).map((t) => t.label).join(' | '),
      },
      ...dates('instant', 'createdAt'),
    ],
  },
  policies: {
    path: '/insuranceservice/v1/policies',
    // premiumUnits: each premium item with its formula's unit, for the unit of the grand total.
    fixed: { expand: 'timelines,product,premiumUnits' },
    columns: [
      ...columns('policyNumber', 'code', 'productName'),
      // The status as the list shows it, in the file's language (issue 15).
      {
        key: 'status',
        value: (item, texts) =>
          texts.policy_statuses?.[String(item.status).toLowerCase()] ?? item.status,
      },
      ...columns('accountCode'),
      { key: 'holder', value: (item) => partyName(item.holder as NamedParty | null) },
      ...dates('utcDay', 'policyStartDate'),
      { key: 'grandTotal', value: (item) => currentPremium(item)?.grandTotal },
      // A total means little without its period: "per month" beside the amount, as on screen.
      {
        key: 'premiumUnit',
        value: (item, texts) => {
          const items = currentPremium(item)?.premiumItems;
          const unit = Array.isArray(items) ? grandTotalUnit(items as PremiumItem[]) : null;
          return unit ? (texts.premium_units?.[snakeCase(unit)] ?? unit) : '';
        },
      },
      { key: 'currency', value: (item) => currentPremium(item)?.currency },
      ...dates('instant', 'createdAt'),
    ],
  },
  leads: {
    path: '/insuranceservice/v1/leads',
    statusesPath: '/insuranceservice/v1/lead-statuses',
    columns: [
      ...columns('leadNumber', 'code', 'status', 'accountCode'),
      // The customer, or the holder a prospect gave: the list's applicant column.
      {
        key: 'applicant',
        value: (item) => applicantName(item as Parameters<typeof applicantName>[0]),
      },
      ...columns('productName', 'productSlug'),
      { key: 'grandTotal', value: (item) => leadPremium(item)?.grandTotal },
      { key: 'currency', value: (item) => leadPremium(item)?.currency },
      ...dates('instant', 'createdAt'),
    ],
  },
  claims: {
    path: '/claimservice/v1/claims',
    statusesPath: '/claimservice/v1/claim-statuses',
    columns: [
      ...columns('claimNumber', 'code', 'title', 'policyNumber', 'accountCode'),
      { key: 'holder', value: (item) => partyName(item.holder as NamedParty | null) },
      ...columns('status', 'claimType'),
      ...dates('day', 'damageDate', 'notificationDate'),
      // The service keeps cents; a spreadsheet wants the amount in the currency.
      ...(['reserve', 'payment', 'recourse'] as const).map((key) => ({
        key,
        value: (item: Item) => {
          const cents = nested('totals', key)(item);
          return typeof cents === 'number' ? cents / 100 : undefined;
        },
      })),
      { key: 'currency', value: nested('totals', 'currency') },
      ...dates('instant', 'createdAt'),
    ],
  },
  // Invoices (issue 18): amounts in the currency, as a spreadsheet sums them; status and type in
  // the file's language.
  invoices: {
    path: '/billingservice/v1/invoices',
    columns: [
      // The policy's number, which a clerk knows, before its code (issue 18).
      ...columns('invoiceNumber', 'code', 'policyNumber', 'policyCode', 'accountNumber'),
      {
        key: 'type',
        value: (item, texts) => texts.invoice_types?.[String(item.type)] ?? item.type,
      },
      {
        key: 'status',
        value: (item, texts) =>
          texts.invoice_statuses?.[String(item.status).replace(/-/g, '_')] ?? item.status,
      },
      ...dates('day', 'billingIntervalFrom', 'billingIntervalTo', 'dueDate'),
      ...(['netAmount', 'taxAmount', 'grossAmount', 'paidAmount', 'openAmount'] as const).map(
        (key) => ({
          key,
          value: (item: Item) => (typeof item[key] === 'number' ? item[key] / 100 : undefined),
        }),
      ),
      {
        key: 'currency',
        value: (item) =>
          typeof item.currency === 'object' && item.currency !== null
            ? (item.currency as { code?: unknown }).code
            : item.currency,
      },
      ...dates('instant', 'createdAt'),
    ],
  },
  ...ADMIN_LISTS,
  // The tenant's activity log (issue 16): who changed which user, role, organisation or setting.
  activity_log: {
    path: '/tenantservice/v1/audit-events',
    columns: [
      ...dates('instant', 'at'),
      ...columns('actorName'),
      {
        key: 'entityType',
        value: (item, texts) => texts.activity_kinds?.[String(item.entityType)] ?? item.entityType,
      },
      { key: 'entityLabel', value: (item) => item.entityLabel ?? item.entityId },
      {
        key: 'action',
        value: (item, texts) => texts.activity_actions?.[String(item.action)] ?? item.action,
      },
      // One cell for all the fields: "label: Old → New | permissions: a, b → a".
      {
        key: 'changes',
        value: (item) =>
          ((item.changes as { field: string; before: unknown; after: unknown }[]) ?? [])
            .map((c) => `${c.field}: ${changeValue(c.before)} → ${changeValue(c.after)}`)
            .join(' | '),
      },
    ],
  },
};

/** A changed value in the log's one cell: lists by comma, nothing as a dash. */
function changeValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '–';
  if (Array.isArray(value)) return value.map(changeValue).join(', ');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export const EXPORT_LANGUAGES = ['en', 'de', 'pl'] as const;
type Language = (typeof EXPORT_LANGUAGES)[number];
/** Rows beyond this end the file: a spreadsheet holds about a million, and a file this size is
 * already more than anybody reads; the filter narrows it. */
export const EXPORT_MAX_ROWS = 100_000;
/** The largest page every exported list accepts (spec section 9). */
const PAGE_SIZE = 50;

/**
 * German and Polish spreadsheets use the decimal comma and therefore the semicolon between
 * cells; English ones the comma and the point. Opening the file with a double click then puts
 * every value in its own cell, and amounts are numbers, not text.
 */
const FORMAT: Record<Language, { separator: string; decimal: string }> = {
  en: { separator: ',', decimal: '.' },
  de: { separator: ';', decimal: ',' },
  pl: { separator: ';', decimal: ',' },
};

/**
 * The workspace's statuses by slug, each as its label in `language` (else its name). A status
 * list that cannot be read leaves the slugs in the file rather than failing the export.
 */
async function statusLabels(
  url: string,
  accessToken: string,
  language: Language,
  timeoutMs: number,
): Promise<Map<string, string>> {
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await res.json().catch(() => null)) as {
    items?: { slug: string; name: string; labels?: NameLabels }[];
  } | null;
  if (!res.ok || !Array.isArray(body?.items)) return new Map();
  return new Map(body.items.map((s) => [s.slug, labelIn(s, language)]));
}

export function csvCell(value: unknown, language: Language): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number')
    return Number.isFinite(value) ? String(value).replace('.', FORMAT[language].decimal) : '';
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  // A cell starting like a formula would run as one in a spreadsheet (CSV injection): the
  // apostrophe makes it text. Numbers are never strings here, so "-5" text is rare and harmless.
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[";,\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: unknown[], language: Language): string {
  return values.map((v) => csvCell(v, language)).join(FORMAT[language].separator) + '\r\n';
}

/** Locale keys are snake_case (the locale test's rule); the columns are named after API fields. */
const snakeCase = (key: string) => key.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`);

function loadHeaders(): Record<Language, Texts> {
  const out = {} as Record<Language, Texts>;
  for (const lng of EXPORT_LANGUAGES) {
    const file = fromRoot(`locales/${lng}/export.json`);
    out[lng] = JSON.parse(readFileSync(file, 'utf8')) as Texts;
  }
  return out;
}

/** A cell's value, a date in the tenant's display. */
export function cellValue(column: Column, item: Item, display: DateDisplay, texts: Texts): unknown {
  const value = column.value(item, texts);
  if (!column.date || typeof value !== 'string') return value;
  const shown =
    column.date === 'instant'
      ? formatInstant(display, value)
      : formatDay(display, value, { utcDay: column.date === 'utcDay' });
  // A value the formatter cannot read is written as it came, rather than lost.
  return shown || value;
}

/**
 * The tenant's date display, read with the user's token (every user of the UI may read the
 * general settings); without it the file keeps to the spec's defaults rather than failing.
 */
async function tenantDisplay(upstreamUrl: string, token: string, timeoutMs: number) {
  try {
    const res = await fetch(`${upstreamUrl}/tenantservice/v1/general`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await res.json().catch(() => null)) as { general?: Item } | null;
    return res.ok && body?.general ? dateDisplayOf(body.general) : DEFAULT_DATE_DISPLAY;
  } catch {
    return DEFAULT_DATE_DISPLAY;
  }
}

/** Backpressure: waits until the browser took the last chunk, or went away. */
function drained(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export function csvExport(deps: {
  upstreamUrl: string;
  kit: SessionKit;
  tokens: TokenService;
  timeoutMs: number;
  log: Logger;
}) {
  const headers = loadHeaders();
  const { kit, tokens, log } = deps;

  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const { index, file } = req.params as { index: string; file: string };
      const name = file.endsWith('.csv') ? file.slice(0, -4) : '';
      const list = Object.hasOwn(EXPORT_LISTS, name) ? EXPORT_LISTS[name] : undefined;
      if (!list || !/^\d{1,3}$/.test(index)) return sendError(res, 404, 'not_found');
      const incoming = new URLSearchParams(req.url.includes('?') ? req.url.split('?')[1] : '');
      const lang = incoming.get('lang') ?? 'en';
      if (!(EXPORT_LANGUAGES as readonly string[]).includes(lang))
        return sendError(res, 400, 'bad_request', 'lang must be one of en, de, pl');
      const language = lang as Language;

      const sid = kit.readSid(req);
      if (!sid)
        return sendError(res, 401, 'session_expired', undefined, { accountIndex: Number(index) });

      // The list's own query (filter, filters, search, order) passes unchanged; paging is ours.
      const query = new URLSearchParams(incoming);
      for (const k of ['lang', 'pageSize', 'pageToken']) query.delete(k);
      for (const [k, value] of Object.entries(list.fixed ?? {})) query.set(k, value);
      query.set('pageSize', String(PAGE_SIZE));

      let aborted = false;
      res.on('close', () => {
        aborted = !res.writableFinished;
      });

      let rows = 0;
      let pageToken: string | null = null;
      let statusText: Map<string, string> | null = null;
      let display: DateDisplay | null = null;
      do {
        const t = await tokens.accessToken(sid, index);
        if (!t.ok) {
          if (res.headersSent) return void res.destroy();
          return sendError(res, t.status, t.error, undefined, { accountIndex: Number(index) });
        }
        if (list.statusesPath && !statusText) {
          statusText = await statusLabels(
            `${deps.upstreamUrl}${list.statusesPath}`,
            t.accessToken,
            language,
            deps.timeoutMs,
          );
        }
        if (pageToken) query.set('pageToken', pageToken);
        display ??= await tenantDisplay(deps.upstreamUrl, t.accessToken, deps.timeoutMs);
        const shownIn = display;
        const upstream = await fetch(`${deps.upstreamUrl}${list.path}?${query}`, {
          headers: { authorization: `Bearer ${t.accessToken}`, accept: 'application/json' },
          signal: AbortSignal.timeout(deps.timeoutMs),
        });
        const body = (await upstream.json().catch(() => null)) as {
          items?: Item[];
          nextPageToken?: string | null;
          error?: string;
          message?: string;
        } | null;
        if (!upstream.ok || !body || !Array.isArray(body.items)) {
          // Before the first byte the user gets the upstream's own refusal (a bad filter is a
          // 400, a missing permission a 403); later, a cut connection, so that a half file is
          // never taken for the whole list.
          if (res.headersSent) return void res.destroy();
          return sendError(
            res,
            upstream.ok ? 502 : upstream.status,
            body?.error ?? 'upstream_unavailable',
            body?.message,
            {},
            errorIssues(body),
          );
        }
        if (aborted) return;
        if (!res.headersSent) {
          const day = new Date().toISOString().slice(0, 10);
          res.status(200).set({
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': `attachment; filename="${name}-${day}.csv"`,
            'cache-control': 'no-store',
          });
          // Locale keys are snake_case; list names are the address's (`user-invites`).
          const labels = headers[language][name.replace(/-/g, '_')] ?? {};
          // The byte order mark tells spreadsheets the file is UTF-8 (umlauts, Polish letters).
          res.write(
            '\uFEFF' +
              csvLine(
                list.columns.map((c) => labels[snakeCase(c.key)] ?? c.key),
                language,
              ),
          );
        }
        let chunk = '';
        const texts = headers[language];
        for (const item of body.items) {
          if (rows >= EXPORT_MAX_ROWS) break;
          if (list.keep && !list.keep(item, t.account.permissions)) continue;
          chunk += csvLine(
            list.columns.map((c) =>
              c.key === 'status' && statusText
                ? (statusText.get(String(item.status)) ?? item.status)
                : cellValue(c, item, shownIn, texts),
            ),
            language,
          );
          rows++;
        }
        if (chunk && !res.write(chunk)) await drained(res);
        pageToken = rows < EXPORT_MAX_ROWS ? (body.nextPageToken ?? null) : null;
      } while (pageToken && !aborted);
      if (!aborted) res.end();
      log.debug({ list: name, rows }, 'csv export');
    } catch (err) {
      if (err instanceof SessionStoreUnavailable)
        return sendError(res, 503, 'session_store_unavailable');
      if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'TypeError')) {
        log.warn({ err: err.message }, 'csv export upstream failure');
        return err.name === 'TimeoutError'
          ? sendError(res, 504, 'upstream_timeout')
          : sendError(res, 502, 'upstream_unavailable');
      }
      return next(err);
    }
  };
}
