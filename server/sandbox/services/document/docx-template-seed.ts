import type { Db } from '#server/sandbox/platform/db.ts';
import { S3ObjectStore, type ObjectStore } from '#server/sandbox/platform/object-store.ts';
import { DOCX_CONTENT_TYPE } from '#common/contracts/docx-template.ts';
import { checkDocx, makeDocx } from './docx-templates.ts';

/**
 * Every workspace's demo docx template (issue 19): a policy confirmation letter, so that the demo
 * world has one to fill. One file for all (the same bytes under each workspace's key), the rows
 * in one statement; a workspace that ever had a docx template (a removed one too) gets none.
 */

const LETTER = [
  '{tenant.name}',
  '{policy.holder.name}',
  '{policy.holder.street}',
  '{policy.holder.zipCode} {policy.holder.city}',
  'Bestätigung Ihres Versicherungsschutzes',
  'Sehr geehrte/r {policy.holder.name},',
  'wir bestätigen Ihren Vertrag {policy.number} ({policy.productName}) ab dem {policy.startDate}.',
  '{#policy.premiumItems}{name}: {amount}{/policy.premiumItems}',
  'Beitrag: {policy.premium}',
  'Mit freundlichen Grüßen',
  '{tenant.name}, {issuedAt}',
];

export async function ensureDemoDocxTemplates(db: Db, store: ObjectStore, at: Date): Promise<void> {
  const bytes = makeDocx(LETTER);
  const { tags } = checkDocx(bytes, 'policy');
  const made = await db.query<{ s3_key: string }>(
    `INSERT INTO docx_templates (tenant_id, code, name, filename, entity_type, s3_key, status,
                                 tags, size_bytes, created_at, updated_at, created_by, updated_by)
     SELECT t.id, 'dxt_' || substr(md5('docx-demo:' || t.id), 1, 16), 'Versicherungsbestätigung',
            'versicherungsbestaetigung.docx', 'policy',
            t.slug || '/docx-templates/demo-policy-confirmation.docx', 'ready', $1, $2, $3, $3,
            'system', 'system'
       FROM tenants t
      WHERE NOT EXISTS (SELECT 1 FROM docx_templates d WHERE d.tenant_id = t.id)
     RETURNING s3_key`,
    [JSON.stringify(tags), bytes.length, at],
  );
  if (!made.length) return;
  const keys = made.map((r) => r.s3_key);
  if (store instanceof S3ObjectStore) {
    for (const key of keys) await store.put(key, bytes, DOCX_CONTENT_TYPE);
    return;
  }
  await db.query(
    `INSERT INTO storage_objects (bucket, key, content, content_type, size_bytes)
     SELECT $1, k, $2, $3, $4 FROM unnest($5::text[]) AS k ON CONFLICT (bucket, key) DO NOTHING`,
    [store.bucket, bytes, DOCX_CONTENT_TYPE, bytes.length, keys],
  );
}
