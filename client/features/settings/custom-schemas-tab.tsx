import { useQuery } from '@tanstack/react-query';
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
import { CheckboxInput, NumberInput, SelectInput, TextInput } from '#client/ui/form/fields.tsx';
import type { FieldErrors } from '#client/ui/form/custom-schema.ts';
import { translateMessage } from '#client/ui/form/messages.ts';
import {
  checkSchemaDrafts,
  emptyFieldDraft,
  toFieldDraft,
  type FieldDraft,
} from './settings-forms.ts';
import { QueryTab, SettingsForm } from './tab-frame.tsx';
import { useSave, useSettingsAccount } from './use-settings-tab.ts';

/** The tenant's general schema of an entity: the first without a product (what forms read). */
function draftsOf(items: readonly CustomSchemaRecord[], entity: CustomSchemaEntity): FieldDraft[] {
  const schema = items.find((item) => item.entity === entity && item.productCode === null);
  return (schema?.fields ?? []).map(toFieldDraft);
}

export function CustomSchemasTab() {
  const { accountIndex } = useSettingsAccount();
  const query = useQuery(settingsQueries.customSchemas(accountIndex));
  return (
    <QueryTab
      query={query}
      render={(items, account) => <SchemaEditor items={items} {...account} />}
    />
  );
}

function SchemaEditor({
  items: initialItems,
  accountIndex,
  canEdit,
}: {
  items: CustomSchemaRecord[];
  accountIndex: number;
  canEdit: boolean;
}) {
  const { t } = useTranslation(['tenant_settings', 'ui']);
  const [items, setItems] = useState(initialItems);
  const [entity, setEntity] = useState<CustomSchemaEntity>('organization');
  const [drafts, setDrafts] = useState(() => draftsOf(initialItems, 'organization'));
  const [errors, setErrors] = useState<FieldErrors>({});
  const { saving, error, save } = useSave();
  const translate = (message: string) =>
    translateMessage((key, values) => t(key as never, values), message);

  const update = (row: number, patch: Partial<FieldDraft>) =>
    setDrafts((current) => current.map((draft, i) => (i === row ? { ...draft, ...patch } : draft)));

  return (
    <SettingsForm
      title={t('custom_schemas.title')}
      intro={t('custom_schemas.intro')}
      saving={saving}
      error={error}
      canEdit={canEdit}
      onSubmit={() => {
        const checked = checkSchemaDrafts(drafts);
        setErrors(checked.ok ? {} : checked.errors);
        if (!checked.ok) return;
        void save(async () => {
          const { schema } = await saveCustomSchema(accountIndex, entity, checked.value);
          setItems((current) => [...current.filter((item) => item.id !== schema.id), schema]);
          setDrafts(schema.fields.map(toFieldDraft));
        });
      }}
    >
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
          if (!next) return;
          setEntity(next);
          setDrafts(draftsOf(items, next));
          setErrors({});
        }}
      />
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
            <SelectInput
              label={t('custom_schemas.type')}
              name={`fields.${row}.type`}
              value={draft.type}
              required
              errors={at('type')}
              disabled={!canEdit}
              options={CUSTOM_FIELD_TYPES.map((value) => ({
                value,
                label: t(`custom_schemas.types.${value}`),
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
                  onClick={() => {
                    setDrafts((current) => current.filter((_, i) => i !== row));
                    setErrors({});
                  }}
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
    </SettingsForm>
  );
}
