import {
  getClaim,
  listClaimPartnerRoles,
  listClaimPartners,
  listClaimRules,
  listClaimStatuses,
  listSettlements,
} from './claims-client.ts';
import { CLAIM_ENTITY_TYPE } from '#common/claims.ts';
import { accountKey, keyedQuery } from './query-keys.ts';
import { getCustomSchema } from './settings-client.ts';
import { getGeneral } from './tenant-client.ts';

/** The keys and loads of claims and their parts, defined once. */
export const claimQueries = {
  all: (accountIndex: number) => [...accountKey(accountIndex), 'claims'] as const,
  /** The claim alone (its totals and status); its parts have keys of their own beside it. */
  detail: (accountIndex: number, code: string) =>
    keyedQuery([...claimQueries.all(accountIndex), 'detail', code], (signal) =>
      getClaim(accountIndex, code, signal),
    ),
  settlements: (accountIndex: number, code: string) =>
    keyedQuery(
      [...claimQueries.all(accountIndex), 'settlements', code],
      async (signal) => (await listSettlements(accountIndex, code, signal)).items,
    ),
  partners: (accountIndex: number, code: string) =>
    keyedQuery(
      [...claimQueries.all(accountIndex), 'partners', code],
      async (signal) => (await listClaimPartners(accountIndex, code, signal)).items,
    ),
  partnerRoles: (accountIndex: number) =>
    keyedQuery([...claimQueries.all(accountIndex), 'partner-roles'], (signal) =>
      listClaimPartnerRoles(accountIndex, signal),
    ),
  statuses: (accountIndex: number) =>
    keyedQuery([...claimQueries.all(accountIndex), 'statuses'], (signal) =>
      listClaimStatuses(accountIndex, signal),
    ),
  rules: (accountIndex: number) =>
    keyedQuery([...claimQueries.all(accountIndex), 'rules'], (signal) =>
      listClaimRules(accountIndex, signal),
    ),
  /**
   * What a claim form needs beyond the claim: the tenant's claim custom fields and the workspace's
   * time zone. A failed schema is a failure (the required custom fields would be unknown and the
   * save would only fail); without the general settings the time zone is null and the browser's
   * stands in, since the service checks the dates anyway.
   */
  formContext: (accountIndex: number) =>
    keyedQuery([...claimQueries.all(accountIndex), 'form-context'], async (signal) => {
      const [schema, timeZone] = await Promise.all([
        getCustomSchema(accountIndex, CLAIM_ENTITY_TYPE, signal),
        getGeneral(accountIndex, signal).then(
          ({ general }) => general.time_zone,
          (error: unknown) => {
            if (signal.aborted) throw error;
            console.warn('general settings failed; using the browser time zone', error);
            return null;
          },
        ),
      ]);
      return { fields: schema?.fields ?? [], timeZone };
    }),
};
