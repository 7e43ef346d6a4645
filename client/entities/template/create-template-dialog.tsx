import { useQuery, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '#client/api/fetch-json.ts';
import { SelectInput, TextInput } from '#client/ui/form/fields.tsx';
import { message } from '#client/ui/form/messages.ts';
import { SubmitDialog } from '#client/ui/submit-dialog.tsx';

// The notification service's rule for a key (template-routes.ts): checked here first, to say so at once.
const SLUG = /^[a-z0-9][a-z0-9-]{0,59}$/;

/** What the dialog asks; `slug` only where the service keys templates by one (e-mails). */
export interface NewTemplateFields {
  slug: string;
  name: string;
  kind: string;
  layoutCode: string | null;
}

/**
 * "New template" (e-mail or document, issue 19): a name, a key where the kind of template has one,
 * what it is about (its kind decides which variables it may use) and the layout it sits in. The
 * sources are written in the editor, which opens next.
 */
export function CreateTemplateDialog<T>({
  title,
  kindField,
  withSlug,
  kinds,
  layouts,
  kindLabel,
  create,
  onClose,
}: {
  title: string;
  kindField: string;
  withSlug: boolean;
  kinds: { queryKey: QueryKey; load: (signal: AbortSignal) => Promise<{ kind: string }[]> };
  layouts: {
    queryKey: QueryKey;
    load: (signal: AbortSignal) => Promise<readonly { code: string; name: string }[]>;
  };
  kindLabel: (kind: string) => string;
  create: (fields: NewTemplateFields) => Promise<T>;
  onClose: (created: T | null) => void;
}) {
  const { t } = useTranslation('templates');
  const [slug, setSlug] = useState('');
  const [name, setName] = useState('');
  const [kind, setKind] = useState('');
  const [layoutCode, setLayoutCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const kindList = useQuery({
    queryKey: kinds.queryKey,
    queryFn: ({ signal }) => kinds.load(signal),
  });
  const layoutList = useQuery({
    queryKey: layouts.queryKey,
    queryFn: ({ signal }) => layouts.load(signal),
  });

  // The dialog's flow (open, busy, refused with everything kept) is SubmitDialog's statechart.
  const submit = () => {
    const found: Record<string, string[]> = {};
    if (withSlug && !SLUG.test(slug.trim())) found.slug = [t('create.slug_invalid')];
    if (!name.trim()) found.name = [message('messages.fieldRequired', { field: t('create.name') })];
    if (!kind) found.kind = [message('messages.fieldRequired', { field: kindField })];
    setErrors(found);
    if (Object.keys(found).length) return false;
    return create({
      slug: slug.trim(),
      name: name.trim(),
      kind,
      layoutCode: layoutCode || null,
    }).then(onClose, (error: unknown) => {
      if (error instanceof ApiError && error.code === 'slug_taken')
        setErrors({ slug: [t('create.slug_taken')] });
      throw error;
    });
  };

  return (
    <SubmitDialog
      title={title}
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
      {withSlug ? (
        <TextInput
          label={t('create.slug')}
          value={slug}
          onChange={setSlug}
          required
          maxLength={60}
          hint={t('create.slug_hint')}
          errors={errors.slug}
        />
      ) : null}
      <SelectInput
        label={kindField}
        value={kind}
        onChange={setKind}
        required
        options={(kindList.data ?? []).map((k) => ({ value: k.kind, label: kindLabel(k.kind) }))}
        errors={errors.kind}
      />
      <SelectInput
        label={t('fields.layout')}
        value={layoutCode}
        onChange={setLayoutCode}
        options={(layoutList.data ?? []).map((l) => ({ value: l.code, label: l.name }))}
      />
    </SubmitDialog>
  );
}
