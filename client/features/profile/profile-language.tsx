import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { saveUserSetting } from '#client/api/settings-client.ts';
import {
  USER_LANGUAGE_SETTING,
  isLanguage,
  languages,
  storeChosenLanguage,
} from '#client/i18n/language.ts';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { SelectInput } from '#client/ui/form/fields.tsx';

/**
 * The user's own language: saved as their setting (so it follows them to other browsers), kept
 * as this browser's choice and applied at once, without a reload.
 */
export function ProfileLanguage({ accountIndex }: { accountIndex: number }) {
  const { t, i18n } = useTranslation(['profile', 'common']);
  const [language, setLanguage] = useState(i18n.language);
  const [state, setState] = useState<'idle' | 'saving' | 'saved' | 'failed'>('idle');

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!isLanguage(language)) return;
    setState('saving');
    try {
      await saveUserSetting(accountIndex, { key: USER_LANGUAGE_SETTING, value: language });
      storeChosenLanguage(language);
      await i18n.changeLanguage(language);
      setState('saved');
    } catch (error: unknown) {
      console.error('language save failed', error);
      setState('failed');
    }
  }

  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4"
    >
      <SelectInput
        label={t('profile.language')}
        name="language"
        value={language}
        hint={t('profile.language_hint')}
        required
        options={languages.map((value) => ({ value, label: t(`common:languages.${value}`) }))}
        onChange={(value) => {
          setLanguage(value);
          setState('idle');
        }}
      />
      <div>
        <Button type="submit" disabled={state === 'saving' || !isLanguage(language)}>
          {t('profile.save_language')}
        </Button>
      </div>
      {state === 'saved' ? <Alert tone="success">{t('profile.language_saved')}</Alert> : null}
      {state === 'failed' ? <Alert tone="danger">{t('profile.language_failed')}</Alert> : null}
    </form>
  );
}
