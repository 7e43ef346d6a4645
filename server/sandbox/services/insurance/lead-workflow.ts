import { LEAD_ENTITY_TYPE } from '#common/leads.ts';
import { StatusWorkflow, seededStatusCode } from '#server/sandbox/platform/status-workflow.ts';

/**
 * Lead statuses and the moves between them: a quote can be reworked, a declined lead reopened, a
 * converted one is final. Nordlicht's brokers quote at the first contact (one more move) and
 * name the statuses in German, so the tenants differ.
 */
export const leadWorkflow = new StatusWorkflow({
  statusTable: 'lead_statuses',
  audited: true,
  entityType: LEAD_ENTITY_TYPE,
  defaults: {
    statuses: [
      ['new', 'New', ['contacted', 'declined']],
      ['contacted', 'Contacted', ['quoted', 'declined']],
      ['quoted', 'Quoted', ['approved', 'contacted', 'declined']],
      ['approved', 'Approved', ['converted', 'declined']],
      ['declined', 'Declined', ['new']],
      ['converted', 'Converted', []],
    ],
    code: seededStatusCode('lst', 'status'),
    labels: {
      new: { de: 'Neu', en: 'New', pl: 'Nowy' },
      contacted: { de: 'Kontaktiert', en: 'Contacted', pl: 'Po kontakcie' },
      quoted: { de: 'Angeboten', en: 'Quoted', pl: 'Oferta wysłana' },
      approved: { de: 'Angenommen', en: 'Approved', pl: 'Zaakceptowany' },
      declined: { de: 'Abgelehnt', en: 'Declined', pl: 'Odrzucony' },
      converted: { de: 'Umgewandelt', en: 'Converted', pl: 'Przekształcony' },
    },
    names: {
      nordlicht: {
        new: 'Neu',
        contacted: 'Kontaktiert',
        quoted: 'Angeboten',
        approved: 'Angenommen',
        declined: 'Abgelehnt',
        converted: 'Umgewandelt',
      },
    },
    moreRules: { nordlicht: [['new', 'quoted']] },
  },
});
