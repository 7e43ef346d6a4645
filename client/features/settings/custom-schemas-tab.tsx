import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CUSTOM_FIELD_TYPES,
  CUSTOM_SCHEMA_ENTITIES,
  type CustomSchemaEntity,
} from '#common/custom-schema-field.ts';
import { saveCustomSchema, type CustomSchemaRecord } from '#client/api/settings-client.ts';
import { settingsQueries } from '#client/api/settings-queries.ts';
import { Button } from '#client/ui/button.tsx';
import { conflictRowsOf } from '#client/ui/conflict-rows.ts';
import { CheckboxInput, NumberInput, SelectInput, TextInput } from '#client/ui/form/fields.tsx';
import { translateMessage } from '#client/ui/form/messages.ts';
import { LABEL_LANGUAGES } from '#common/name-labels.ts';
import {
  checkSchemaDrafts,
  emptyFieldDraft,
  toFieldDraft,
  type FieldDraft,
} from './settings-forms.ts';
import { VersionedSettingsForm } from './tab-frame.tsx';
import { useSettingsAccount, useSettingsEdit } from './use-settings-tab.ts';

/** The general schema of an entity as the tab edits it: its fields and version stamps. */
type EntitySchema = Pick<
  CustomSchemaRecord,
  'entity' | 'fields' | 'version' | 'updatedAt' | 'updatedBy'
>;
type SchemaField = 'fields';

const draftsOf = (schema: EntitySchema): FieldDraft[] => schema.fields.map(toFieldDraft);

/** The fields in short, to compare in a conflict: name and type of each, in order. */
const summary = (drafts: readonly FieldDraft[]) =>
  drafts.map((draft) => `${draft.name} (${draft.type})`).join(', ');

const conflictRows = (loaded: EntitySchema, mine: FieldDraft[], saved: EntitySchema) =>
  conflictRowsOf<SchemaField>(
    ['fields'],
    { fields: summary(draftsOf(loaded)) },
    { fields: summary(mine) },
    { fields: summary(draftsOf(saved)) },
  );

/**
 * The custom fields of one entity at a time. The entity is chosen outside the form: each entity's
 * schema is a record of its own, edited on `record-edit` (another entity's editor starts afresh,
 * dropping what was typed, as switching did before).
 */
export function CustomSchemasTab() {
  const { t } = useTranslation('tenant_settings');
  const [entity, setEntity] = useState<CustomSchemaEntity>('organization');
  return (
    <div className="flex flex-col gap-4">
      <div className="max-w-2xl">
        <SelectInput
          label={t('custom_schemas.entity')}
          name="entity"
          value={entity}
          options={CUSTOM_SCHEMA_ENTITIES.map((value) => ({
            value,
            label: t(`custom_schemas.entities.${value}`),
          }))}
          onChange={(value) => {
            const next = CUSTOM_SCHEMA_ENTITIES.find((candidate) => candidate === value);
            if (next) setEntity(next);
          }}
        />
      </div>
      <SchemaEditor key={entity} entity={entity} />
    </div>
  );
}

function SchemaEditor({ entity }: { entity: CustomSchemaEntity }) {
  const { t } = useTranslation(['tenant_settings', 'ui']);
  const { accountIndex, canEdit } = useSettingsAccount();
  const form = useSettingsEdit({
    query: settingsQueries.customSchema(accountIndex, entity),
    name: 'schema',
    valuesOf: draftsOf,
    emptyValues: (): FieldDraft[] => [],
    validate: (drafts: FieldDraft[]) => {
      const checked = checkSchemaDrafts(drafts);
      return checked.ok ? { ok: true, input: checked.value } : checked;
    },
    send: async (input, version) =>
      (await saveCustomSchema(accountIndex, entity, input, version)).schema,
    conflictRows,
  });
  const { values: drafts, setValues: setDrafts, errors } = form;
  const translate = (message: string) =>
    translateMessage((key, values) => t(key as never, values), message);

  const update = (row: number, patch: Partial<FieldDraft>) =>
    setDrafts((current) => current.map((draft, i) => (i === row ? { ...draft, ...patch } : draft)));

  return (
    <VersionedSettingsForm
      form={form}
      title={t('custom_schemas.title')}
      intro={t('custom_schemas.intro')}
      canEdit={canEdit}
      label={() => t('conflict.fields')}
      shown={(_, value) => value}
    >
      {drafts.length === 0 ? (
        <p className="text-sm text-slate-600">{t('custom_schemas.empty')}</p>
      ) : null}
      {(errors[''] ?? []).map((message) => (
        <p key={message} role="alert" className="text-sm text-red-700">
          {translate(message)}
        </p>
      ))}
      {drafts.map((draft, row) => {
        const number = row + 1;
        const at = (name: string) => errors[`${row}.${name}`];
        const text = draft.type === 'string' || draft.type === 'email';
        return (
          <fieldset
            key={row}
            className="grid gap-3 rounded-md border border-slate-300 p-3 sm:grid-cols-2"
          >
            <legend className="px-1 text-sm font-semibold">
              {t('custom_schemas.field_legend', { number })}
            </legend>
            <TextInput
              label={t('custom_schemas.name')}
              name={`fields.${row}.name`}
              value={draft.name}
              required
              errors={at('name')}
              disabled={!canEdit}
              maxLength={50}
              onChange={(name) => update(row, { name })}
            />
            <TextInput
              label={t('custom_schemas.label')}
              name={`fields.${row}.label`}
              value={draft.label}
              required
              errors={at('label')}
              disabled={!canEdit}
              maxLength={200}
              onChange={(label) => update(row, { label })}
            />
            <fieldset className="flex flex-col gap-2 sm:col-span-2">
              <legend className="text-sm font-medium text-slate-800">
                {t('custom_schemas.label_in.legend', { number })}
              </legend>
              <p className="text-sm text-slate-600">{t('custom_schemas.labels_hint')}</p>
              <div className="grid gap-3 sm:grid-cols-3">
                {LABEL_LANGUAGES.map((language) => (
                  <TextInput
                    key={language}
                    label={t(`custom_schemas.label_in.${language}`)}
                    name={`fields.${row}.labels.${language}`}
                    value={draft.labels[language] ?? ''}
                    errors={at(`labels.${language}`)}
                    disabled={!canEdit}
                    maxLength={200}
                    onChange={(text) =>
                      update(row, { labels: { ...draft.labels, [language]: text } })
                    }
                  />
                ))}
              </div>
            </fieldset>
            <SelectInput
              label={t('custom_schemas.type')}
              name={`fields.${row}.type`}
              value={draft.type}
              required
              errors={at('type')}
              disabled={!canEdit}
              options={CUSTOM_FIELD_TYPES.map((value) => ({
                value,
                // Locale keys are snake_case; the type names are the schema's.
                label: t(`custom_schemas.types.${value === 'dateTime' ? 'date_time' : value}`),
              }))}
              onChange={(value) => {
                const type = CUSTOM_FIELD_TYPES.find((candidate) => candidate === value);
                if (type) update(row, { type });
              }}
            />
            <CheckboxInput
              label={t('custom_schemas.is_required')}
              name={`fields.${row}.isRequired`}
              checked={draft.isRequired}
              disabled={!canEdit}
              onChange={(isRequired) => update(row, { isRequired })}
            />
            {text ? (
              <>
                <NumberInput
                  label={t('custom_schemas.min_length')}
                  name={`fields.${row}.minLength`}
                  value={draft.minLength}
                  errors={at('minLength')}
                  disabled={!canEdit}
                  onChange={(minLength) => update(row, { minLength })}
                />
                <NumberInput
                  label={t('custom_schemas.max_length')}
                  name={`fields.${row}.maxLength`}
                  value={draft.maxLength}
                  errors={at('maxLength')}
                  disabled={!canEdit}
                  onChange={(maxLength) => update(row, { maxLength })}
                />
              </>
            ) : null}
            {draft.type === 'number' ? (
              <>
                <NumberInput
                  label={t('custom_schemas.minimum')}
                  name={`fields.${row}.minimum`}
                  value={draft.minimum}
                  errors={at('minimum')}
                  disabled={!canEdit}
                  onChange={(minimum) => update(row, { minimum })}
                />
                <NumberInput
                  label={t('custom_schemas.maximum')}
                  name={`fields.${row}.maximum`}
                  value={draft.maximum}
                  errors={at('maximum')}
                  disabled={!canEdit}
                  onChange={(maximum) => update(row, { maximum })}
                />
              </>
            ) : null}
            {draft.type === 'string' || draft.type === 'array' || draft.type === 'object' ? (
              <TextInput
                label={t('custom_schemas.options')}
                name={`fields.${row}.options`}
                value={draft.options}
                hint={t('custom_schemas.options_hint')}
                errors={at('options')}
                disabled={!canEdit}
                onChange={(options) => update(row, { options })}
              />
            ) : null}
            {(errors[String(row)] ?? []).map((message) => (
              <p key={message} role="alert" className="text-sm text-red-700 sm:col-span-2">
                {translate(message)}
              </p>
            ))}
            {canEdit ? (
              <div className="sm:col-span-2">
                <Button
                  variant="secondary"
                  onClick={() => setDrafts((current) => current.filter((_, i) => i !== row))}
                >
                  {t('custom_schemas.remove_field', { number })}
                </Button>
              </div>
            ) : null}
          </fieldset>
        );
      })}
      {canEdit ? (
        <div>
          <Button
            variant="secondary"
            onClick={() => setDrafts((current) => [...current, emptyFieldDraft()])}
          >
            {t('custom_schemas.add_field')}
          </Button>
        </div>
      ) : null}
    </VersionedSettingsForm>
  );
}
