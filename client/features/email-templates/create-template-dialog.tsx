import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '#client/api/fetch-json.ts';
import {
  TEMPLATE_LANGUAGES,
  createTemplate,
  listLayouts,
  listTemplateKinds,
  type NotificationTemplate,
  type TemplateBodies,
} from '#client/api/templates-client.ts';
import { SelectInput, TextInput } from '#client/ui/form/fields.tsx';
import { message } from '#client/ui/form/messages.ts';
import { SubmitDialog } from '#client/ui/submit-dialog.tsx';
import { kindLabel } from './template-name.ts';

// The service's rule for a key (template-routes.ts): checked here first, to say so at once.
const SLUG = /^[a-z0-9][a-z0-9-]{0,59}$/;

/** A new template starts with its name as the subject and empty bodies, in every language. */
const startingBodies = (name: string): TemplateBodies =>
  Object.fromEntries(
    TEMPLATE_LANGUAGES.map((language) => [language, { subject: name, html: '', text: '' }]),
  ) as TemplateBodies;

/**
 * "New e-mail template": a key, a name, what it is about (its kind decides which variables it
 * may use) and the layout it sits in. The sources are written in the editor, which opens next.
 */
export function CreateTemplateDialog({
  accountIndex,
  onClose,
}: {
  accountIndex: number;
  onClose: (created: NotificationTemplate | null) => void;
}) {
  const { t } = useTranslation('templates');
  const [slug, setSlug] = useState('');
  const [name, setName] = useState('');
  const [kind, setKind] = useState('');
  const [layoutCode, setLayoutCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const kinds = useQuery({
    queryKey: ['template-kinds', accountIndex],
    queryFn: ({ signal }) => listTemplateKinds(accountIndex, signal),
  });
  const layouts = useQuery({
    queryKey: ['mail-layouts', accountIndex],
    queryFn: ({ signal }) => listLayouts(accountIndex, signal),
  });

  // The dialog's flow (open, busy, refused with everything kept) is SubmitDialog's statechart.
  const submit = () => {
    const found: Record<string, string[]> = {};
    if (!SLUG.test(slug.trim())) found.slug = [t('create.slug_invalid')];
    if (!name.trim()) found.name = [message('messages.fieldRequired', { field: t('create.name') })];
    if (!kind) found.kind = [message('messages.fieldRequired', { field: t('create.kind') })];
    setErrors(found);
    if (Object.keys(found).length) return false;
    return createTemplate(accountIndex, {
      slug: slug.trim(),
      name: name.trim(),
      kind,
      layoutCode: layoutCode || null,
      bodies: startingBodies(name.trim()),
    }).then(onClose, (error: unknown) => {
      if (error instanceof ApiError && error.code === 'slug_taken')
        setErrors({ slug: [t('create.slug_taken')] });
      throw error;
    });
  };

  return (
    <SubmitDialog
      title={t('create.title')}
      submitLabel={t('create.submit')}
      busyLabel={t('create.busy')}
      cancelLabel={t('create.cancel')}
      submit={submit}
      failureMessage={(error) =>
        error instanceof ApiError && error.code === 'slug_taken'
          ? t('create.slug_taken')
          : error instanceof ApiError && error.status === 403
            ? t('errors.forbidden')
            : t('errors.failed')
      }
      onCancel={() => onClose(null)}
    >
      <TextInput
        label={t('create.name')}
        value={name}
        onChange={setName}
        required
        maxLength={120}
        errors={errors.name}
      />
      <TextInput
        label={t('create.slug')}
        value={slug}
        onChange={setSlug}
        required
        maxLength={60}
        hint={t('create.slug_hint')}
        errors={errors.slug}
      />
      <SelectInput
        label={t('create.kind')}
        value={kind}
        onChange={setKind}
        required
        options={(kinds.data ?? []).map((k) => ({
          value: k.kind,
          label: kindLabel(t, k.kind),
        }))}
        errors={errors.kind}
      />
      <SelectInput
        label={t('fields.layout')}
        value={layoutCode}
        onChange={setLayoutCode}
        options={(layouts.data ?? []).map((l) => ({ value: l.code, label: l.name }))}
      />
    </SubmitDialog>
  );
}
