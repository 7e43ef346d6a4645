import type { Response, Router } from 'express';
import type { AuditEntityType } from '#common/contracts/activity-log.ts';
import * as v from 'valibot';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import type { Queryable } from '#server/sandbox/platform/db.ts';
import { getAuth, type AuthContext } from '#server/sandbox/platform/auth-context.ts';
import { HttpError, invalidInput } from '#server/sandbox/platform/errors.ts';
import { parseBody } from '#server/sandbox/platform/request-body.ts';
import { recordChange } from '#server/sandbox/platform/audit-trail.ts';
import { newCode } from '#server/sandbox/platform/admin-shared.ts';
import { callerNameOf, iso, recordKey, uniqueViolation } from '#server/sandbox/platform/records.ts';
import { listPage, readList, type ListSource } from '#server/sandbox/platform/list-sql.ts';
import { listTotals } from '#server/sandbox/platform/list-page.ts';
import { TEMPLATE_ACCESS, templateName, templateSource } from './template-access.ts';

/**
 * What the e-mail templates (template-routes.ts) and the document templates (the document
 * service's doc-template-routes.ts) keep alike (issue 19): a workspace's layouts and its
 * versioned templates, each created, listed, read, changed and deleted the same way, every
 * write in the activity log, every save of a template a version. The two differ in their sources
 * (an e-mail's bodies per language, a document's body; an e-mail layout's HTML and text, a
 * document layout's header and footer), their checks and their answers, which each passes in.
 */

const { view: VIEW, create: CREATE, update: UPDATE, delete: DELETE } = TEMPLATE_ACCESS;

/** What every layout and template row has. */
export interface RecordRow {
  id: number;
  code: string;
  name: string;
}

export interface TemplateRecordRow extends RecordRow {
  kind: string;
  is_system: boolean;
  layout_id: number | null;
  layout_code: string | null;
  version: number;
}

/** A layout named by its id or its code; null or '' for none. */
export interface LayoutRef {
  layoutId?: number | null;
  layoutCode?: string | null;
}

export interface RecordTable<R> {
  table: string;
  /** Its rows as answered: the SELECT with the table as `t`. */
  select: string;
  /** Its entity type in the activity log. */
  entityType: AuditEntityType;
  /** The prefix of its codes (`dly`). */
  codePrefix: string;
  /** A path names a row by its code alone, or by its numeric id too (records.ts recordKey). */
  byId: boolean;
  list: ListSource;
  /** What a 404 calls it: `<noun> not found`. */
  noun: string;
  present(row: R, expand: ReadonlySet<string> | 'all'): unknown;
}

/** Where a table's routes are, its single row's key in answers and why a row stays. */
interface Mounted<R> extends RecordTable<R> {
  path: string;
  key: string;
  undeletable(row: R): HttpError | null;
}

export interface LayoutTable<R extends RecordRow> extends RecordTable<R> {
  /** The flag of the workspace's standard layout, which stays, and the 409's code for it. */
  standard: { column: string; code: string };
  /** The Liquid sources: each one's name in bodies, answers and the log, and its column. */
  sources: Readonly<Record<string, string>>;
  /** Refuses sources that do not pass the checks at save. */
  check(sources: Readonly<Record<string, string>>): void;
}

/** A new template as a service reads it from a request's body, its sources at `content.field`. */
export interface TemplateDraft extends LayoutRef {
  /** Its key; without one, taken from its code. */
  slug?: string;
  name: string;
  /** One of the kinds (the body's schema checks it). */
  kind: string;
}

/** A change of a template as a service reads it: what it does not name stays. */
export interface TemplateChange extends LayoutRef {
  name?: string;
}

export interface TemplateTable<T extends TemplateRecordRow, C> extends RecordTable<T> {
  /** The table of its versions: every saved state with who saved it and when. */
  versions: string;
  /**
   * Its sources: the column (in the templates and the versions table), stored as JSON or text;
   * their name in bodies and answers, and in the log.
   */
  content: { column: string; json: boolean; field: string; logField: string };
  /** A new template's body, checked as to its form (400 otherwise). */
  readDraft(body: unknown): TemplateDraft;
  /** A PUT's body, checked as to its form; its sources, if any, at `content.field`. */
  readChange(body: unknown): TemplateChange;
  /** What the 409 says of a system template, which the sandbox uses and so stays. */
  systemTemplate: string;
  /** Refuses sources that do not pass the checks at save against the kind's variables. */
  check(kind: T['kind'], content: C): void;
  /** The variables a template of the kind may use, as its single answer names them. */
  variables(kind: T['kind']): unknown;
}

export interface TemplateCrud<L extends RecordRow, T extends TemplateRecordRow, C> {
  layouts: LayoutTable<L>;
  /** Mounted at `templates.path` (`/doc-templates`); the layouts at `/layouts`. */
  templates: TemplateTable<T, C> & { path: string };
}

const taken = (field: 'name' | 'slug', message: string) => () =>
  new HttpError(409, `${field}_taken`, message, undefined, [
    { path: field, code: `${field}_taken` },
  ]);
const layoutNameTaken = taken('name', 'the workspace has a layout of this name already');
const slugTaken = taken('slug', 'the workspace has a template with this key already');

/** Runs a write; a unique key's refusal becomes `conflict()`. */
async function uniquely<T>(write: () => Promise<T>, conflict: () => HttpError): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (uniqueViolation(error)) throw conflict();
    throw error;
  }
}

/** A 404 for a record of the kind that is not there. */
const notFound = (kind: { noun: string }) => () =>
  new HttpError(404, 'not_found', `${kind.noun} not found`);

const cell = (row: object, column: string) => (row as Record<string, unknown>)[column];

/**
 * Mounts the layouts' and the templates' routes on `router`: list, read, create, change (PUT)
 * and delete, and a template's versions, behind the templates permission. Answers what a
 * service's own routes (a preview, a test e-mail) use alike: a template by its path's key, and
 * the layout a body names.
 */
export function mountTemplateCrud<L extends RecordRow, T extends TemplateRecordRow, C>(
  router: Router,
  ctx: SandboxContext,
  spec: TemplateCrud<L, T, C>,
) {
  const layouts: Mounted<L> & LayoutTable<L> = {
    ...spec.layouts,
    path: '/layouts',
    key: 'layout',
    undeletable: (layout) =>
      cell(layout, spec.layouts.standard.column)
        ? new HttpError(409, spec.layouts.standard.code, 'the standard layout cannot be deleted')
        : null,
  };
  const templates: Mounted<T> & TemplateTable<T, C> = {
    ...spec.templates,
    key: 'template',
    undeletable: (row) =>
      row.is_system ? new HttpError(409, 'system_template', spec.templates.systemTemplate) : null,
  };
  const { db } = ctx;
  const now = () => new Date(ctx.clock.now());
  const who = (auth: AuthContext) => ({ auth, clock: ctx.clock });

  /** The column and value a path's key names a row by: its code, or its id where allowed. */
  function keyed(kind: RecordTable<unknown>, key: string) {
    if (!kind.byId) return { column: 'code', value: key as string | number };
    const { byId, value } = recordKey(key, kind.codePrefix, notFound(kind));
    return { column: byId ? 'id' : 'code', value };
  }

  /** A record by the path's key, in the workspace; 404 for none. */
  async function find<R>(
    q: Queryable,
    kind: RecordTable<R>,
    tenantId: number,
    key: string,
  ): Promise<R> {
    const by = keyed(kind, key);
    const [row] = await q.query<R>(
      `${kind.select} WHERE t.tenant_id = $1 AND t.${by.column} = $2`,
      [tenantId, by.value],
    );
    if (!row) throw notFound(kind)();
    return row;
  }

  const findLayout = (q: Queryable, tenantId: number, key: string) =>
    find(q, layouts, tenantId, key);
  const findTemplate = (q: Queryable, tenantId: number, key: string) =>
    find(q, templates, tenantId, key);

  /**
   * The layout a body names (by id or code), as its id: undefined when it names none, null for
   * none, 400 for one the workspace does not have.
   */
  async function layoutIdOf(
    q: Queryable,
    tenantId: number,
    ref: LayoutRef,
  ): Promise<number | null | undefined> {
    if (ref.layoutId === undefined && ref.layoutCode === undefined) return undefined;
    if (ref.layoutId === null || ref.layoutCode === null || ref.layoutCode === '') return null;
    const [row] = await q.query<{ id: number }>(
      `SELECT id FROM ${layouts.table} WHERE tenant_id = $1 AND ${
        ref.layoutId === undefined ? 'code' : 'id'
      } = $2`,
      [tenantId, ref.layoutId ?? ref.layoutCode],
    );
    if (!row)
      throw invalidInput(
        [{ path: ref.layoutId === undefined ? 'layoutCode' : 'layoutId', code: 'unknown_layout' }],
        'no such layout',
      );
    return row.id;
  }

  // Layouts and templates carry no money: a removal deletes the row and leaves it in the log.
  const remove = (auth: AuthContext, kind: RecordTable<unknown>, row: RecordRow) =>
    db.transaction(async (tx) => {
      await tx.query(`DELETE FROM ${kind.table} WHERE id = $1`, [row.id]);
      await recordChange(tx, who(auth), {
        entityType: kind.entityType,
        entityId: row.code,
        entityLabel: row.name,
        action: 'deleted',
      });
    });

  /** Writes a new record and its log entry (409 for a name or slug taken), answering it. */
  async function create<R>(
    res: Response,
    auth: AuthContext,
    kind: Mounted<R>,
    row: { code: string; name: string; taken: () => HttpError },
    write: (tx: Queryable) => Promise<void>,
  ) {
    await uniquely(
      () =>
        db.transaction(async (tx) => {
          await write(tx);
          await recordChange(tx, who(auth), {
            entityType: kind.entityType,
            entityId: row.code,
            entityLabel: row.name,
            action: 'created',
          });
        }),
      row.taken,
    );
    res
      .status(201)
      .json({ [kind.key]: kind.present(await find(db, kind, auth.tenantId, row.code), 'all') });
  }

  const stored = (content: unknown) => (templates.content.json ? JSON.stringify(content) : content);

  async function saveVersion(tx: Queryable, auth: AuthContext, row: T, at: Date) {
    await tx.query(
      `INSERT INTO ${templates.versions} (template_id, version, name, layout_id,
                                          ${templates.content.column},
                                          saved_at, saved_by, saved_by_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        row.id,
        row.version,
        row.name,
        row.layout_id,
        stored(cell(row, templates.content.column)),
        at,
        auth.userCode,
        await callerNameOf(tx, auth),
      ],
    );
  }

  /** The list and the single record of a table, each as the table presents it. */
  function mountReads<R>(kind: Mounted<R>, single: (row: R) => Record<string, unknown>) {
    router.get(kind.path, VIEW, async (req, res) => {
      const list = readList(req.query, kind.list);
      const page = await listPage<R>(db, list, kind.list, kind.select, {
        where: ['t.tenant_id = $1'],
        params: [getAuth(res).tenantId],
      });
      res.json({
        items: page.items.map((r) => kind.present(r, list.expand)),
        nextPageToken: page.nextPageToken,
        ...listTotals(page),
      });
    });
    router.get(`${kind.path}/:key`, VIEW, async (req, res) => {
      const row = await find(db, kind, getAuth(res).tenantId, String(req.params.key));
      res.json({ [kind.key]: kind.present(row, 'all'), ...single(row) });
    });
  }

  /** Deletes a row that may be deleted, answering 204. */
  function mountDelete<R extends RecordRow>(
    kind: Mounted<R>,
    stillUsed: (row: R) => Promise<void> = async () => {},
  ) {
    router.delete(`${kind.path}/:key`, DELETE, async (req, res) => {
      const auth = getAuth(res);
      const row = await find(db, kind, auth.tenantId, String(req.params.key));
      const refusal = kind.undeletable(row);
      if (refusal) throw refusal;
      await stillUsed(row);
      await remove(auth, kind, row);
      res.status(204).end();
    });
  }

  // ---- layouts ------------------------------------------------------------------------------

  const sourceFields = Object.keys(layouts.sources);
  const LayoutBody = v.object({
    name: templateName,
    ...Object.fromEntries(sourceFields.map((field) => [field, templateSource])),
  });
  const LayoutPatch = v.partial(LayoutBody);
  const sourcesOf = (row: L) =>
    Object.fromEntries(
      sourceFields.map((field) => [field, String(cell(row, layouts.sources[field]!))]),
    );
  const columns = sourceFields.map((field) => layouts.sources[field]!);

  mountReads(layouts, () => ({}));

  router.post(layouts.path, CREATE, async (req, res) => {
    const auth = getAuth(res);
    const { name, ...sources } = parseBody(LayoutBody, req.body) as {
      name: string;
      [field: string]: string;
    };
    layouts.check(sources);
    const code = newCode(layouts.codePrefix);
    const values = sourceFields.map((field) => sources[field]);
    const at = values.length + 4;
    await create(res, auth, layouts, { code, name, taken: layoutNameTaken }, async (tx) => {
      await tx.query(
        `INSERT INTO ${layouts.table} (tenant_id, code, name, ${columns.join(', ')},
                                       created_at, updated_at, created_by, updated_by)
         VALUES ($1, $2, $3, ${values.map((_, i) => `$${i + 4}`).join(', ')},
                 $${at}, $${at}, $${at + 1}, $${at + 1})`,
        [auth.tenantId, code, name, ...values, now(), auth.userCode],
      );
    });
  });

  router.put(`${layouts.path}/:key`, UPDATE, async (req, res) => {
    const auth = getAuth(res);
    const patch = parseBody(
      LayoutPatch,
      (req.body as { data?: unknown })?.data ?? req.body,
    ) as Partial<Record<string, string>>;
    const before = await findLayout(db, auth.tenantId, String(req.params.key));
    const was = sourcesOf(before);
    const sources = Object.fromEntries(
      sourceFields.map((field) => [field, patch[field] ?? was[field]!]),
    );
    const next = { name: patch.name ?? before.name, ...sources };
    layouts.check(sources);
    await uniquely(
      () =>
        db.transaction(async (tx) => {
          await tx.query(
            `UPDATE ${layouts.table}
                SET name = $2, ${columns.map((column, i) => `${column} = $${i + 3}`).join(', ')},
                    updated_at = $${columns.length + 3}, updated_by = $${columns.length + 4}
              WHERE id = $1`,
            [before.id, next.name, ...Object.values(sources), now(), auth.userCode],
          );
          await recordChange(tx, who(auth), {
            entityType: layouts.entityType,
            entityId: before.code,
            entityLabel: next.name,
            action: 'updated',
            before: { name: before.name, ...was },
            after: next,
          });
        }),
      layoutNameTaken,
    );
    res.json({
      [layouts.key]: layouts.present(await findLayout(db, auth.tenantId, before.code), 'all'),
    });
  });

  mountDelete(layouts, async (layout) => {
    const [used] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${templates.table} WHERE layout_id = $1`,
      [layout.id],
    );
    if (used!.n > 0)
      throw new HttpError(409, 'layout_in_use', `${used!.n} template(s) use this layout`, {
        templates: used!.n,
      });
  });

  // ---- templates ----------------------------------------------------------------------------

  const { column, field, logField } = templates.content;

  mountReads(templates, (row) => ({ variables: templates.variables(row.kind) }));

  router.get(`${templates.path}/:key/versions`, VIEW, async (req, res) => {
    const row = await findTemplate(db, getAuth(res).tenantId, String(req.params.key));
    const versions = await db.query<{
      version: number;
      name: string;
      saved_at: Date;
      saved_by_name: string;
    }>(
      `SELECT version, name, ${column}, saved_at, saved_by_name FROM ${templates.versions}
        WHERE template_id = $1 ORDER BY version DESC`,
      [row.id],
    );
    res.json({
      items: versions.map((r) => ({
        version: r.version,
        name: r.name,
        [field]: cell(r, column),
        savedAt: iso(r.saved_at),
        savedByName: r.saved_by_name,
      })),
    });
  });

  router.post(templates.path, CREATE, async (req, res) => {
    const auth = getAuth(res);
    const draft = templates.readDraft(req.body);
    const content = cell(draft, field) as C;
    const kind = draft.kind as T['kind'];
    templates.check(kind, content);
    const layoutId = (await layoutIdOf(db, auth.tenantId, draft)) ?? null;
    const code = newCode(templates.codePrefix);
    await create(res, auth, templates, { code, name: draft.name, taken: slugTaken }, async (tx) => {
      await tx.query(
        `INSERT INTO ${templates.table} (tenant_id, code, slug, name, kind, layout_id, ${column},
                                         created_at, updated_at, created_by, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $9)`,
        [
          auth.tenantId,
          code,
          draft.slug ?? code.replace('_', '-'),
          draft.name,
          kind,
          layoutId,
          stored(content),
          now(),
          auth.userCode,
        ],
      );
      await saveVersion(tx, auth, await findTemplate(tx, auth.tenantId, code), now());
    });
  });

  router.put(`${templates.path}/:key`, UPDATE, async (req, res) => {
    const auth = getAuth(res);
    const change = templates.readChange(req.body);
    const key = String(req.params.key);
    const saved = await db.transaction(async (tx) => {
      // Locked before it is read: two saves at once each make a version of their own.
      const by = keyed(templates, key);
      const [locked] = await tx.query<{ id: number }>(
        `SELECT id FROM ${templates.table} WHERE tenant_id = $1 AND ${by.column} = $2 FOR UPDATE`,
        [auth.tenantId, by.value],
      );
      if (!locked) throw notFound(templates)();
      const before = await findTemplate(tx, auth.tenantId, key);
      const content = (cell(change, field) ?? cell(before, column)) as C;
      templates.check(before.kind, content);
      const named = await layoutIdOf(tx, auth.tenantId, change);
      const layoutId = named === undefined ? before.layout_id : named;
      const name = change.name ?? before.name;
      const unchanged =
        name === before.name &&
        layoutId === before.layout_id &&
        JSON.stringify(content) === JSON.stringify(cell(before, column));
      if (unchanged) return before;
      await tx.query(
        `UPDATE ${templates.table}
            SET name = $2, layout_id = $3, ${column} = $4, version = version + 1,
                updated_at = $5, updated_by = $6
          WHERE id = $1`,
        [before.id, name, layoutId, stored(content), now(), auth.userCode],
      );
      const after = await findTemplate(tx, auth.tenantId, before.code);
      await saveVersion(tx, auth, after, now());
      await recordChange(tx, who(auth), {
        entityType: templates.entityType,
        entityId: before.code,
        entityLabel: name,
        action: 'updated',
        before: {
          name: before.name,
          layoutCode: before.layout_code,
          [logField]: cell(before, column),
        },
        after: { name: after.name, layoutCode: after.layout_code, [logField]: cell(after, column) },
      });
      return after;
    });
    res.json({ [templates.key]: templates.present(saved, 'all') });
  });

  mountDelete(templates);

  return { findTemplate, layoutIdOf };
}
