import { Router } from 'express';
import type { Db, Queryable } from '#server/sandbox/platform/db.ts';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import { HttpError } from '#server/sandbox/platform/errors.ts';
import {
  getAuth,
  requireAuth,
  requirePermission,
  requireServicePermission,
} from '#server/sandbox/platform/auth-context.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { pageOf, parseListQuery } from '#server/sandbox/platform/list-query.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import { cantLoadProduct } from '#server/sandbox/services/insurance/index.ts';
import { rawMultipart, readUploadForm } from '#server/sandbox/platform/multipart.ts';
import { invalidFile } from '#server/sandbox/platform/csv.ts';
import {
  LANGUAGE_CODE,
  LanguageCreateBody,
  LanguageUpdateBody,
  type TranslationStatus,
} from '#common/contracts/translation.ts';
import { parseTranslationFile, writeTranslationFile } from './translation-file.ts';
import { audit, idOf, uniqueViolation, type Audit } from '#server/sandbox/platform/records.ts';

/**
 * The translation service's product languages and translations (spec section 7: languages,
 * `POST /product/{slug}/upload?language=`, `GET /product/{slug}/download?language=`; shapes of
 * the upstream contract). Decisions in docs/contracts.md, "Insurance: product extras".
 */

const allow = (action: 'view' | 'create' | 'update') =>
  requireServicePermission('translation-management', 'translations', action);

interface LanguageRow extends Audit {
  id: number;
  code: string;
  product_id: number;
  product_slug: string;
  language: string;
  is_active: boolean;
  translation_status: TranslationStatus;
  version: number;
  translation_count: number;
}

const SELECT = `SELECT l.*, p.slug AS product_slug,
         (SELECT count(*)::int FROM translations t WHERE t.product_language_id = l.id) AS translation_count
    FROM product_languages l JOIN products p ON p.id = l.product_id`;

const present = (r: LanguageRow) => ({
  id: r.id,
  code: r.code,
  productSlug: r.product_slug,
  language: r.language,
  isActive: r.is_active,
  translationStatus: r.translation_status,
  translationCount: r.translation_count,
  version: r.version,
  ...audit(r),
});

const languageNotFound = () => new HttpError(404, 'not_found', 'product language not found');

async function productBySlug(db: Queryable, tenantId: number, slug: string) {
  const [product] = await db.query<{ id: number; slug: string; default_language: string }>(
    'SELECT id, slug, default_language FROM products WHERE tenant_id = $1 AND slug = $2',
    [tenantId, slug],
  );
  if (!product) throw cantLoadProduct();
  return product;
}

/** The product's language `?language=` names; it must have been added first. */
async function languageOf(db: Queryable, tenantId: number, productId: number, language: unknown) {
  if (typeof language !== 'string' || !LANGUAGE_CODE.test(language)) {
    throw new HttpError(400, 'invalid_query', 'language: a two-letter language code like de');
  }
  const [row] = await db.query<LanguageRow>(
    `${SELECT} WHERE l.tenant_id = $1 AND l.product_id = $2 AND l.language = $3`,
    [tenantId, productId, language],
  );
  if (!row) {
    throw new HttpError(404, 'not_found', `the product has no language ${language}; add it first`);
  }
  return row;
}

/**
 * A language is complete when it has a text for every key of the product's default language (the
 * default language itself, or any language while the default has none: when it has any text).
 */
async function refreshStatuses(tx: Queryable, tenantId: number, productId: number, by: string) {
  await tx.query(
    `WITH ref AS (
       SELECT t.key FROM translations t
         JOIN product_languages l ON l.id = t.product_language_id
         JOIN products p ON p.id = l.product_id AND p.default_language = l.language
        WHERE l.product_id = $2 AND t.value <> ''
     ), status AS (
       SELECT l.id,
              CASE
                WHEN NOT EXISTS (SELECT 1 FROM translations t WHERE t.product_language_id = l.id AND t.value <> '')
                  THEN 'none'
                WHEN EXISTS (SELECT 1 FROM ref r WHERE NOT EXISTS (
                       SELECT 1 FROM translations t WHERE t.product_language_id = l.id AND t.key = r.key
                          AND t.value <> ''))
                  THEN 'incomplete'
                ELSE 'complete'
              END AS s
         FROM product_languages l WHERE l.tenant_id = $1 AND l.product_id = $2
     )
     UPDATE product_languages l SET translation_status = status.s, updated_at = now(), updated_by = $3,
            version = l.version + 1
       FROM status WHERE status.id = l.id AND l.translation_status <> status.s`,
    [tenantId, productId, by],
  );
}

export function translationRouter(ctx: SandboxContext): Router {
  const db: Db = ctx.db;
  const router = Router();
  router.use(requireAuth(db, ctx.signer));

  router.get('/languages', allow('view'), async (req, res) => {
    const { tenantId } = getAuth(res);
    const list = parseListQuery(req.query, {
      filters: ['productSlug', 'language', 'isActive'],
      orders: [],
      expands: [],
    });
    const isActive = list.filter.get('isActive');
    if (isActive !== undefined && isActive !== 'true' && isActive !== 'false') {
      throw new HttpError(400, 'invalid_query', 'isActive must be true or false');
    }
    const rows = await db.query<LanguageRow>(
      `${SELECT} WHERE l.tenant_id = $1 AND ($2::text IS NULL OR p.slug = $2)
          AND ($3::text IS NULL OR l.language = $3) AND ($4::boolean IS NULL OR l.is_active = $4)
        ORDER BY p.slug, l.language LIMIT $5 OFFSET $6`,
      [
        tenantId,
        list.filter.get('productSlug') ?? null,
        list.filter.get('language') ?? null,
        isActive === undefined ? null : isActive === 'true',
        list.pageSize + 1,
        (list.page - 1) * list.pageSize,
      ],
    );
    const page = pageOf(rows, list);
    res.json({ items: page.items.map(present), nextPageToken: page.nextPageToken });
  });

  router.post('/languages', allow('create'), async (req, res) => {
    const { tenantId, userCode } = getAuth(res);
    const body = parseBody(LanguageCreateBody, req.body);
    const product = await productBySlug(db, tenantId, body.productSlug);
    try {
      const [inserted] = await db.query<{ id: number }>(
        `INSERT INTO product_languages (tenant_id, code, product_id, language, created_by, updated_by)
         VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`,
        [tenantId, newCode('pla'), product.id, body.language, userCode],
      );
      const [row] = await db.query<LanguageRow>(`${SELECT} WHERE l.id = $1`, [inserted!.id]);
      res.status(201).json({ productLanguage: present(row!) });
    } catch (error) {
      if (uniqueViolation(error)) {
        throw new HttpError(
          409,
          'language_exists',
          `the product already has the language ${body.language}`,
        );
      }
      throw error;
    }
  });

  router.put('/languages/:id', allow('update'), async (req, res) => {
    const { tenantId, userCode } = getAuth(res);
    const id = idOf(String(req.params.id), languageNotFound);
    const [current] = await db.query<LanguageRow>(
      `${SELECT} WHERE l.tenant_id = $1 AND l.id = $2`,
      [tenantId, id],
    );
    if (!current) throw languageNotFound();
    const body = parseBody(LanguageUpdateBody, req.body);
    const conflict = () =>
      new HttpError(409, 'version_conflict', 'the language was changed since it was loaded', {
        productLanguage: present(current),
      });
    if (body.version !== current.version) throw conflict();
    if (body.isActive && current.translation_status === 'none') {
      throw new HttpError(
        409,
        'no_translations',
        'a language without translations cannot be activated',
      );
    }
    const [updated] = await db.query<{ id: number }>(
      `UPDATE product_languages SET is_active = $4, version = version + 1, updated_at = now(), updated_by = $5
        WHERE tenant_id = $1 AND id = $2 AND version = $3 RETURNING id`,
      [tenantId, id, body.version, body.isActive, userCode],
    );
    if (!updated) throw conflict();
    const [row] = await db.query<LanguageRow>(`${SELECT} WHERE l.id = $1`, [id]);
    res.json({ productLanguage: present(row!) });
  });

  router.post('/product/:slug/upload', allow('update'), rawMultipart, async (req, res) => {
    const { tenantId, userCode } = getAuth(res);
    const product = await productBySlug(db, tenantId, String(req.params.slug));
    const language = await languageOf(db, tenantId, product.id, req.query.language);
    const form = await readUploadForm(req);
    const parsed = parseTranslationFile(form.filename, form.text);
    if (!parsed.ok) throw invalidFile(parsed.problems);
    const entries = [...parsed.entries];
    const translations = await db.transaction(async (tx) => {
      // The file is the language's whole set: keys it no longer has are gone.
      await tx.query('DELETE FROM translations WHERE tenant_id = $1 AND product_language_id = $2', [
        tenantId,
        language.id,
      ]);
      const rows = await tx.query<{ id: number; key: string; value: string }>(
        `INSERT INTO translations (tenant_id, product_language_id, key, value)
         SELECT $1, $2, k, val FROM unnest($3::text[], $4::text[]) AS x(k, val)
         RETURNING id, key, value`,
        [tenantId, language.id, entries.map(([k]) => k), entries.map(([, value]) => value)],
      );
      await tx.query(
        'UPDATE product_languages SET updated_at = now(), updated_by = $2 WHERE id = $1',
        [language.id, userCode],
      );
      await refreshStatuses(tx, tenantId, product.id, userCode);
      return rows;
    });
    res.json({
      translations: translations
        .sort((a, b) => a.key.localeCompare(b.key))
        .map((t) => ({ id: t.id, key: t.key, language: language.language, value: t.value })),
    });
  });

  /**
   * The texts of a product version's product in one language, for screens that show its fields
   * (issue 15, point 4: "Fahrzeugwert" in German): a key `<object>.<field>` is a field's label,
   * `<object>.label` an object's. Whoever reads products reads their texts; only an active
   * language is shown (a language being written is not), else `texts` is empty and the screens
   * keep the fields' own labels.
   */
  router.get(
    '/product-texts',
    requirePermission(
      'translation-management.translations.view',
      'policy-management.products.view',
      'eis.translations.view',
      'eis.products.view',
    ),
    async (req, res) => {
      const { tenantId } = getAuth(res);
      const versionId = Number(req.query.productVersionId);
      const language = req.query.language;
      if (!Number.isInteger(versionId) || versionId < 1 || versionId > 2_147_483_647) {
        throw new HttpError(400, 'invalid_query', 'productVersionId: a product version id');
      }
      if (typeof language !== 'string' || !LANGUAGE_CODE.test(language)) {
        throw new HttpError(400, 'invalid_query', 'language: a two-letter language code like de');
      }
      const [version] = await db.query<{ id: number }>(
        'SELECT id FROM product_versions WHERE tenant_id = $1 AND id = $2',
        [tenantId, versionId],
      );
      if (!version) throw new HttpError(404, 'not_found', 'product version not found');
      const rows = await db.query<{ key: string; value: string }>(
        `SELECT t.key, t.value FROM translations t
           JOIN product_languages l ON l.id = t.product_language_id
           JOIN product_versions v ON v.product_id = l.product_id
          WHERE l.tenant_id = $1 AND v.id = $2 AND l.language = $3 AND l.is_active AND t.value <> ''
          ORDER BY t.key`,
        [tenantId, versionId, language],
      );
      res.json({ language, texts: Object.fromEntries(rows.map((r) => [r.key, r.value])) });
    },
  );

  router.get('/product/:slug/download', allow('view'), async (req, res) => {
    const { tenantId } = getAuth(res);
    const product = await productBySlug(db, tenantId, String(req.params.slug));
    const language = await languageOf(db, tenantId, product.id, req.query.language);
    const format = req.query.format ?? 'json';
    if (format !== 'json' && format !== 'csv') {
      throw new HttpError(400, 'invalid_query', 'format: json or csv');
    }
    const rows = await db.query<{ key: string; value: string }>(
      'SELECT key, value FROM translations WHERE tenant_id = $1 AND product_language_id = $2 ORDER BY key',
      [tenantId, language.id],
    );
    const body = writeTranslationFile(
      format,
      rows.map((r) => [r.key, r.value]),
    );
    res
      .status(200)
      .set({
        'Content-Type':
          format === 'json' ? 'application/json; charset=utf-8' : 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${product.slug}-${language.language}.${format}"`,
      })
      .send(body);
  });

  return router;
}
