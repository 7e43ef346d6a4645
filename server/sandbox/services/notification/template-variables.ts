/**
 * What each kind of notification template may use (issue 19): the variables' shape for the
 * check at save (template-engine.ts), and a sample record for the editor's preview and the test
 * e-mail. A kind is what the e-mail is about; the sandbox's own e-mails each have one.
 */

/** A variable's type: text, a number, a day (YYYY-MM-DD), a record of named ones, or a list. */
export type VariableType = 'text' | 'number' | 'date' | VariableRecord | readonly [VariableType];
export interface VariableRecord {
  readonly [name: string]: VariableType;
}

/** Every template may name its workspace and the recipient. */
const COMMON: VariableRecord = {
  tenant: { name: 'text' },
  recipient: { email: 'text' },
};

const KINDS = {
  // An invitation to a workspace; `workspace.name` may be empty (the tenant's own invitation).
  userInvitation: { link: 'text', workspace: { name: 'text' } },
  organizationInvitation: { link: 'text', organization: { name: 'text' } },
  passwordReset: { link: 'text' },
  adminPasswordReset: { link: 'text' },
  welcome: { link: 'text' },
  policyTerminated: { policy: { number: 'text', terminationDate: 'date' } },
  leadFollowUp: { lead: { number: 'text' } },
  // A letter about a policy, for templates a workspace adds itself.
  policy: {
    policy: {
      number: 'text',
      productName: 'text',
      startDate: 'date',
      holder: { name: 'text', email: 'text' },
      premiumItems: [{ name: 'text', amount: 'text' }],
      grossPremium: 'text',
    },
  },
} as const satisfies Record<string, VariableRecord>;

export type TemplateKind = keyof typeof KINDS;
export const TEMPLATE_KINDS = Object.keys(KINDS) as TemplateKind[];
export const isTemplateKind = (kind: string): kind is TemplateKind => Object.hasOwn(KINDS, kind);

/** The variables a template of `kind` may use, the common ones included. */
export const variablesOf = (kind: TemplateKind): VariableRecord => ({ ...COMMON, ...KINDS[kind] });

const SAMPLE_LINK = 'https://backoffice.example/registration?token=sample';

/** A believable record per kind: what the preview and the test e-mail render. */
const SAMPLES: Record<TemplateKind, Record<string, unknown>> = {
  userInvitation: { link: SAMPLE_LINK, workspace: { name: 'Nordlicht Versicherung' } },
  organizationInvitation: { link: SAMPLE_LINK, organization: { name: 'Maklerbüro Jäger GmbH' } },
  passwordReset: { link: SAMPLE_LINK },
  adminPasswordReset: { link: SAMPLE_LINK },
  welcome: { link: SAMPLE_LINK },
  policyTerminated: { policy: { number: 'POL-001995', terminationDate: '2026-12-31' } },
  leadFollowUp: { lead: { number: 'LEA-000412' } },
  policy: {
    policy: {
      number: 'POL-001995',
      productName: 'Kfz-Versicherung',
      startDate: '2026-01-01',
      holder: { name: 'Jürgen Wałęsa-Öztürk', email: 'juergen@example.com' },
      premiumItems: [
        { name: 'Haftpflicht', amount: '312,40 €' },
        { name: 'Teilkasko', amount: '98,10 €' },
      ],
      grossPremium: '488,72 €',
    },
  },
};

export const sampleOf = (
  kind: TemplateKind,
  common: { tenantName: string; recipientEmail: string },
): Record<string, unknown> => ({
  tenant: { name: common.tenantName },
  recipient: { email: common.recipientEmail },
  ...SAMPLES[kind],
});

/**
 * The variables as the editor lists them: each path with its type (`policy.premiumItems[]`
 * for a list, its members below it as `policy.premiumItems[].name`).
 */
export function variablePaths(
  record: VariableRecord,
  prefix = '',
): { path: string; type: string }[] {
  return Object.entries(record).flatMap(([name, type]) => {
    const path = prefix ? `${prefix}.${name}` : name;
    if (typeof type === 'string') return [{ path, type }];
    if (Array.isArray(type)) {
      const item = type[0] as VariableType;
      const listPath = `${path}[]`;
      return [
        { path: listPath, type: 'list' },
        ...(typeof item === 'string' ? [] : variablePaths(item as VariableRecord, listPath)),
      ];
    }
    return variablePaths(type as VariableRecord, path);
  });
}
