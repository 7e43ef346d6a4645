import { useTranslation } from 'react-i18next';
import { TextareaInput, TextInput } from '#client/ui/form/fields.tsx';
import { LABEL_LANGUAGES, type NameLabels } from '#common/name-labels.ts';
import { ROLE_DESCRIPTION_MAX, ROLE_LABEL_MAX } from '#common/contracts/tenant.ts';

/**
 * A role's name or description per language (issue 16): one box each for de, en and pl, with the
 * text's own limit. Lists, filters and the role dialogs show the one of the reader's language; an
 * empty box leaves the name or description above in that language. Each box names its text and
 * language ("Name in German"), as two groups of language boxes share the page.
 */
export function RoleTextTranslations({
  text,
  value,
  onChange,
  disabled,
}: {
  text: 'label' | 'description';
  value: NameLabels;
  onChange: (next: NameLabels) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation('admin_roles');
  return (
    <fieldset className="flex flex-col gap-3 md:col-span-2">
      <legend className="mb-1 text-sm font-medium text-slate-800">
        {t(`editor.${text}_translations`)}
      </legend>
      <p className="text-sm text-slate-600">{t(`editor.${text}_hint`)}</p>
      <div className="grid gap-3 md:grid-cols-3">
        {LABEL_LANGUAGES.map((language) => {
          const props = {
            label: t(`editor.${text}_in.${language}`),
            name: `${text}-${language}`,
            value: value[language] ?? '',
            onChange: (next: string) => onChange({ ...value, [language]: next }),
          };
          return text === 'label' ? (
            <TextInput key={language} {...props} maxLength={ROLE_LABEL_MAX} readOnly={disabled} />
          ) : (
            <TextareaInput
              key={language}
              {...props}
              rows={2}
              maxLength={ROLE_DESCRIPTION_MAX}
              disabled={disabled}
            />
          );
        })}
      </div>
    </fieldset>
  );
}
