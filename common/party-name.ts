/**
 * How a customer, a policy holder or a lead's applicant is named. One rule for the screens (the
 * customers, policies and leads lists and their detail pages) and the BFF's CSV export
 * (server/routes/csv-export.ts), so that a row of the file names the same party as the row on
 * screen.
 */

/** The name fields an account, a policy's holder and a lead's holder have in common. */
export interface NamedParty {
  type?: string | null;
  title?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  companyName?: string | null;
}

/**
 * An organisation by its company name, a person by title, first and last name. A holder given
 * with a policy or a lead may leave out its type: then a company name wins, as the one name
 * such a holder is sure to have given. Whichever is missing, the other stands in, so a party with
 * any name is never shown blank; '' when there is no party or no name at all.
 */
export function partyName(party: NamedParty | null | undefined): string {
  if (!party) return '';
  const person = [party.title, party.firstName, party.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  const company = party.companyName?.trim() ?? '';
  return party.type === 'person' ? person || company : company || person;
}

/**
 * Who applies for a lead: its customer, or the holder the prospect gave when there is no
 * customer account yet.
 */
export function applicantName(lead: {
  account?: NamedParty | null;
  policy?: { holder?: NamedParty | null } | null;
}): string {
  return partyName(lead.account ?? lead.policy?.holder);
}
