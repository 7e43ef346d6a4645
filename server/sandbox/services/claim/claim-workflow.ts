import { CLAIM_ENTITY_TYPE } from '#common/claims.ts';
import { StatusWorkflow, seededStatusCode } from '#server/sandbox/platform/status-workflow.ts';

/**
 * Claim statuses and the moves between them (docs/contracts.md): a rejected claim can be
 * reopened, a closed one is final. Nordlicht names them in German, so the tenants differ.
 */
export const claimWorkflow = new StatusWorkflow({
  statusTable: 'claim_statuses',
  entityType: CLAIM_ENTITY_TYPE,
  defaults: {
    statuses: [
      ['open', 'Open', ['in-review', 'rejected']],
      ['in-review', 'In review', ['waiting-for-documents', 'approved', 'rejected']],
      ['waiting-for-documents', 'Waiting for documents', ['in-review']],
      ['approved', 'Approved', ['settled']],
      ['settled', 'Settled', ['closed']],
      ['rejected', 'Rejected', ['closed', 'open']],
      ['closed', 'Closed', []],
    ],
    code: seededStatusCode('cst', 'claim-status'),
    labels: {
      open: { de: 'Offen', en: 'Open', pl: 'Otwarta' },
      'in-review': { de: 'In Prüfung', en: 'In review', pl: 'W weryfikacji' },
      'waiting-for-documents': {
        de: 'Warten auf Unterlagen',
        en: 'Waiting for documents',
        pl: 'Oczekuje na dokumenty',
      },
      approved: { de: 'Anerkannt', en: 'Approved', pl: 'Uznana' },
      settled: { de: 'Reguliert', en: 'Settled', pl: 'Rozliczona' },
      rejected: { de: 'Abgelehnt', en: 'Rejected', pl: 'Odrzucona' },
      closed: { de: 'Geschlossen', en: 'Closed', pl: 'Zamknięta' },
    },
    names: {
      nordlicht: {
        open: 'Offen',
        'in-review': 'In Prüfung',
        'waiting-for-documents': 'Warten auf Unterlagen',
        approved: 'Anerkannt',
        settled: 'Reguliert',
        rejected: 'Abgelehnt',
        closed: 'Geschlossen',
      },
    },
  },
});
