import type { TFunction } from 'i18next';

// The registry's types (server/sandbox/services/processmanager/task-registry.ts) -> their names'
// keys: a type holds dots, which i18next reads as nesting.
const TYPE_KEYS: Readonly<Record<string, string>> = {
  'claim.setStatus': 'claim_set_status',
  'notification.sendEmail': 'notification_send_email',
  'lead.createFollowUp': 'lead_create_follow_up',
};

/** A service task type as the user reads it, with the type as written beside it. */
export function taskTypeLabel(t: TFunction<'workflows'>, type: string): string {
  const key = TYPE_KEYS[type];
  return key ? `${t(`task_types.${key}` as 'task_types.claim_set_status')} (${type})` : type;
}
