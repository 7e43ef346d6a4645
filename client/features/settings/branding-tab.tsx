import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_TENANT_COLOR } from '#client/api/tenant-client.ts';
import { saveBranding, type BrandingRecord } from '#client/api/settings-client.ts';
import { settingsQueries } from '#client/api/settings-queries.ts';
import { announceBranding } from '#client/api/tenant-branding-events.ts';
import { Button } from '#client/ui/button.tsx';
import { TextInput } from '#client/ui/form/fields.tsx';
import { resizeImage } from '#client/ui/form/image-resize.ts';
import { translateMessage } from '#client/ui/form/messages.ts';
import { conflictRowsOf } from '#client/ui/conflict-rows.ts';
import { BRANDING_NAME_MAX } from '#common/contracts/tenant.ts';
import { checkBrandingName, checkColor } from './settings-forms.ts';
import { VersionedSettingsForm } from './tab-frame.tsx';
import { useSettingsAccount, useSettingsEdit } from './use-settings-tab.ts';

/**
 * The configured logo size (the header shows it at most 36 px high): uploads are scaled to fit,
 * as PNG, so a logo stays sharp and small enough to travel inside the branding record.
 */
export const LOGO_SIZE = { width: 240, height: 80, format: 'image/png', quality: 0.92 };
const MAX_LOGO_DATA_URL = 150_000;
const ACCEPTED_LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/** What the form edits of the record: all of it but the tenant and the version stamps. */
type BrandingValues = Pick<BrandingRecord, 'name' | 'address' | 'logo' | 'main_color'>;
/** The fields a conflict lists (the address has no field here; it is sent back as loaded). */
type BrandingField = 'name' | 'main_color' | 'logo';

const valuesOf = (branding: BrandingRecord): BrandingValues => ({
  name: branding.name,
  address: branding.address,
  logo: branding.logo,
  main_color: branding.main_color,
});

const comparable = (values: BrandingValues): Record<BrandingField, string> => ({
  name: values.name,
  main_color: values.main_color,
  logo: values.logo ?? '',
});

const conflictRows = (loaded: BrandingRecord, mine: BrandingValues, saved: BrandingRecord) =>
  conflictRowsOf<BrandingField>(
    ['name', 'main_color', 'logo'],
    comparable(loaded),
    comparable(mine),
    comparable(saved),
  );

function readAsDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(blob);
  });
}

/**
 * The branding, edited on `record-edit`: saved on top of the version read, so a save another
 * admin made meanwhile shows as a conflict instead of being overwritten.
 */
export function BrandingTab() {
  const { t } = useTranslation(['tenant_settings', 'ui']);
  const { t: tUi } = useTranslation('ui');
  const { accountIndex, canEdit } = useSettingsAccount();
  const form = useSettingsEdit({
    query: settingsQueries.branding(accountIndex),
    name: 'branding',
    valuesOf,
    emptyValues: (): BrandingValues => ({ name: '', address: null, logo: null, main_color: '' }),
    validate: (values: BrandingValues) => {
      const name = checkBrandingName(values.name, t('branding.name'));
      const color = checkColor(values.main_color);
      if (!name.ok || !color.ok) {
        return {
          ok: false,
          errors: { ...(name.ok ? {} : name.errors), ...(color.ok ? {} : color.errors) },
        };
      }
      return { ok: true, input: { ...values, name: name.value, main_color: color.value } };
    },
    // A refusal naming one of these fields is said at the field, in the user's language.
    fields: ['name', 'main_color'],
    send: async (input, version) =>
      (await saveBranding(accountIndex, { ...input, version })).branding,
    conflictRows,
    // The shell takes the new colour and logo at once.
    onSaved: (branding) => announceBranding(accountIndex, branding),
  });
  const { values, setValues, errors } = form;
  const [logoError, setLogoError] = useState<string | null>(null);
  const colorId = useId();
  const logoId = useId();
  const colorErrors = errors.main_color ?? [];

  async function onLogo(file: File | undefined) {
    setLogoError(null);
    if (!file) return;
    if (!ACCEPTED_LOGO_TYPES.includes(file.type)) {
      setLogoError(t('branding.logo_type'));
      return;
    }
    try {
      const resized = await resizeImage(file, LOGO_SIZE);
      const dataUrl = await readAsDataUrl(resized);
      if (dataUrl.length > MAX_LOGO_DATA_URL) {
        setLogoError(t('branding.logo_too_large'));
        return;
      }
      setValues((current) => ({ ...current, logo: dataUrl }));
    } catch (failure: unknown) {
      console.error('logo resize failed', failure);
      setLogoError(t('branding.logo_unreadable'));
    }
  }

  return (
    <VersionedSettingsForm
      form={form}
      title={t('branding.title')}
      intro={t('branding.intro')}
      canEdit={canEdit}
      label={(field: BrandingField) =>
        field === 'name'
          ? t('branding.name')
          : field === 'main_color'
            ? t('branding.main_color')
            : t('branding.logo')
      }
      shown={(field, value) => (field === 'logo' ? t('conflict.logo_set') : value)}
    >
      <TextInput
        label={t('branding.name')}
        name="name"
        value={values.name}
        required
        maxLength={BRANDING_NAME_MAX}
        errors={errors.name}
        disabled={!canEdit}
        onChange={(name) => setValues((current) => ({ ...current, name }))}
      />
      <div className="flex flex-col gap-1">
        <label htmlFor={colorId} className="text-sm font-medium text-slate-800">
          {t('branding.main_color')}
        </label>
        <div className="flex items-center gap-3">
          <input
            id={colorId}
            type="color"
            value={/^#[0-9a-f]{6}$/i.test(values.main_color) ? values.main_color : '#000000'}
            disabled={!canEdit}
            aria-invalid={colorErrors.length ? true : undefined}
            aria-describedby={
              colorErrors.length ? `${colorId}-value ${colorId}-errors` : `${colorId}-value`
            }
            className="h-10 w-16 rounded border border-slate-400"
            onChange={(event) =>
              setValues((current) => ({ ...current, main_color: event.target.value }))
            }
          />
          <output id={`${colorId}-value`} className="font-mono text-sm" data-testid="brand-value">
            {values.main_color}
          </output>
          {canEdit ? (
            <Button
              variant="secondary"
              disabled={values.main_color.toLowerCase() === DEFAULT_TENANT_COLOR}
              onClick={() =>
                setValues((current) => ({ ...current, main_color: DEFAULT_TENANT_COLOR }))
              }
            >
              {t('branding.reset_color', { color: DEFAULT_TENANT_COLOR })}
            </Button>
          ) : null}
        </div>
        {colorErrors.length ? (
          <ul id={`${colorId}-errors`} className="text-sm text-red-700">
            {colorErrors.map((message) => (
              // The field kit's messages (`messages.*`, a service's refusal) are in `ui`; this
              // tab's own come with their namespace (`tenant_settings:`).
              <li key={message}>
                {translateMessage((key, options) => tUi(key as never, options), message)}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <div className="flex flex-col gap-2">
        <label htmlFor={logoId} className="text-sm font-medium text-slate-800">
          {t('branding.logo')}
        </label>
        <div className="flex items-center gap-4">
          {values.logo ? (
            <img
              src={values.logo}
              alt={t('branding.logo_preview')}
              className="h-20 max-w-60 rounded border border-slate-200 object-contain"
            />
          ) : (
            <p className="text-sm text-slate-600">{t('branding.no_logo')}</p>
          )}
          {canEdit && values.logo ? (
            <Button
              variant="secondary"
              onClick={() => setValues((current) => ({ ...current, logo: null }))}
            >
              {t('branding.remove_logo')}
            </Button>
          ) : null}
        </div>
        {canEdit ? (
          <input
            id={logoId}
            type="file"
            accept={ACCEPTED_LOGO_TYPES.join(',')}
            aria-describedby={`${logoId}-hint`}
            className="text-sm"
            onChange={(event) => void onLogo(event.target.files?.[0])}
          />
        ) : null}
        <p id={`${logoId}-hint`} className="text-xs text-slate-600">
          {t('branding.logo_hint', { width: LOGO_SIZE.width, height: LOGO_SIZE.height })}
        </p>
        {logoError ? (
          <p role="alert" className="text-sm text-red-700">
            {logoError}
          </p>
        ) : null}
      </div>
    </VersionedSettingsForm>
  );
}
