import { useTranslation } from 'react-i18next';
import { TextareaInput } from '#client/ui/form/fields.tsx';
import { LABEL_LANGUAGES, type NameLabels } from '#common/name-labels.ts';
import { ROLE_DESCRIPTION_MAX } from '#common/contracts/tenant.ts';

/**
 * A role's description per language (issue 16): one text box each for de, en and pl, with the
 * description's own limit. The roles list and the user role dialogs show the one of the reader's
 * language; an empty box leaves the description above in that language.
 */
export function DescriptionTranslations({
  value,
  onChange,
  disabled,
}: {
  value: NameLabels;
  onChange: (next: NameLabels) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation('admin_roles');
  return (
    <fieldset className="flex flex-col gap-3 md:col-span-2">
      <legend className="mb-1 text-sm font-medium text-slate-800">
        {t('editor.description_translations')}
      </legend>
      <p className="text-sm text-slate-600">{t('editor.description_hint')}</p>
      <div className="grid gap-3 md:grid-cols-3">
        {LABEL_LANGUAGES.map((language) => (
          <TextareaInput
            key={language}
            label={t(`editor.description_in.${language}`)}
            name={`description-${language}`}
            rows={2}
            value={value[language] ?? ''}
            onChange={(text) => onChange({ ...value, [language]: text })}
            maxLength={ROLE_DESCRIPTION_MAX}
            disabled={disabled}
          />
        ))}
      </div>
    </fieldset>
  );
}
