import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PolicyRow } from '#common/contracts/policy.ts';
import { premiumInForce, type TimelineSlice } from '#common/policy-timeline.ts';
import { grandTotalUnit, type PremiumItem } from '#common/premium.ts';
import { sendError } from '#server/http-errors.ts';
import { answerWhole, readCapped, upstreamHead } from '#server/upstream/proxy-common.ts';

/**
 * The policies list's row view (docs/decisions/004-list-rows.md). The upstream lists a policy
 * with its whole current timeline, about two thirds of each listed policy, while the list shows
 * one premium of it. The upstream offers no slimmer list, so the BFF asks for the full one and
 * answers the rows the table shows: `GET /api/{i}/insuranceservice/v1/policies?view=row&...`.
 * The parameter is the BFF's own and never reaches the upstream; the rest of the query (filters,
 * search, order, page token and size) passes unchanged, so paging and permissions are the
 * upstream's as for any other list call.
 */

const LIST_PATH = '/insuranceservice/v1/policies';
/** What the rows are made from: the timeline, the product's name and each item's unit. */
const ROW_EXPAND = 'timelines,product,premiumUnits';

/**
 * The upstream URL to ask instead when `upstreamUrl` (service path and query) is a GET of the
 * policies list with `view=row`; null for every other call, which passes untouched.
 */
export function policyRowsUpstreamUrl(method: string | undefined, upstreamUrl: string) {
  if (method !== 'GET') return null;
  const q = upstreamUrl.indexOf('?');
  if (q < 0 || upstreamUrl.slice(0, q) !== LIST_PATH) return null;
  const params = new URLSearchParams(upstreamUrl.slice(q + 1));
  if (params.get('view') !== 'row') return null;
  params.delete('view');
  params.set('expand', ROW_EXPAND);
  return `${LIST_PATH}?${params}`;
}

type Item = Record<string, unknown>;
type Slice = TimelineSlice & {
  premium?: { grandTotal: number; currency: string; premiumItems?: PremiumItem[] };
};

const HOLDER_FIELDS = ['type', 'title', 'firstName', 'lastName', 'companyName'] as const;

/** One listed policy (the upstream contract's `Policy` with its expansions) as a list row. */
export function policyRow(item: Item, now: Date): PolicyRow {
  const policy = item as Item & Pick<PolicyRow, Exclude<keyof PolicyRow, 'holder' | 'premium'>>;
  const holder = item.holder as Record<string, unknown> | null | undefined;
  const product = item.product as { name?: string } | undefined;
  const premium = premiumInForce(item.timeline as Slice[] | undefined, now);
  return {
    id: policy.id,
    code: policy.code,
    policyNumber: policy.policyNumber,
    productName: product?.name ?? policy.productName,
    productSlug: policy.productSlug,
    accountCode: policy.accountCode ?? null,
    status: policy.status,
    policyStartDate: policy.policyStartDate,
    createdAt: policy.createdAt,
    holder: holder
      ? (Object.fromEntries(
          HOLDER_FIELDS.filter((f) => holder[f] !== undefined).map((f) => [f, holder[f]]),
        ) as PolicyRow['holder'])
      : null,
    premium: premium
      ? {
          grandTotal: premium.grandTotal,
          currency: premium.currency,
          unit: grandTotalUnit(premium.premiumItems ?? []),
        }
      : null,
  };
}

/**
 * The list page with its items as rows, the page's other fields (`nextPageToken`, and
 * `itemsPerPage`, `totalItems` where the upstream sends them) unchanged; null when the body is
 * not a list page.
 */
export function policyRowsPage(body: unknown, now: Date): Item | null {
  if (typeof body !== 'object' || body === null || !Array.isArray((body as Item).items))
    return null;
  const page = body as Item & { items: unknown[] };
  if (!page.items.every((item) => typeof item === 'object' && item !== null)) return null;
  return { ...page, items: page.items.map((item) => policyRow(item as Item, now)) };
}

/** A page of policies with timelines is a few hundred KB at most; more is not a list page. */
const MAX_LIST_BYTES = 16 * 1024 * 1024;

/**
 * Writes the upstream's 2xx answer to a row-view call as rows. The call went upstream without
 * the browser's Accept-Encoding, so the body is plain JSON; the rows go back gzipped (level 1,
 * as every API answer of some size) when `gzipOk`. An answer that is not a list page is the
 * upstream's fault: 502 in the error shape, as for any other malformed upstream answer.
 */
export async function answerPolicyRows(
  proxyRes: IncomingMessage,
  res: ServerResponse,
  view: { gzipOk: boolean; now: Date },
): Promise<void> {
  const raw = await readCapped(proxyRes, MAX_LIST_BYTES);
  let page: Item | null = null;
  try {
    page = policyRowsPage(JSON.parse(raw.toString('utf8')), view.now);
  } catch {
    page = null;
  }
  if (!page) return sendError(res, 502, 'upstream_error');
  // The upstream's head, for the BFF's own JSON body (plain, as it was asked without encodings).
  const headers = upstreamHead(proxyRes);
  delete headers['content-encoding'];
  headers['content-type'] = 'application/json; charset=utf-8';
  const json = Buffer.from(JSON.stringify(page));
  return answerWhole(res, proxyRes.statusCode ?? 200, headers, json, view.gzipOk);
}
