import { displayNameOf } from '#client/api/accounts-client.ts';
import type { Lead } from '#client/api/leads-client.ts';

/** Who applies: the customer's name, or the name the prospect gave (no customer account yet). */
export function applicantName(lead: Pick<Lead, 'account' | 'policy'>): string {
  if (lead.account) return displayNameOf(lead.account);
  const holder = lead.policy.holder;
  if (!holder) return '';
  return holder.companyName || [holder.firstName, holder.lastName].filter(Boolean).join(' ');
}
