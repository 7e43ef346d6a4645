import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '#client/ui/button.tsx';
import { DateInput } from '#client/ui/form/fields.tsx';
import { FormDialog } from '#client/ui/form-dialog.tsx';
import { formatDate } from '#client/ui/form/dates.ts';

/**
 * Converting a lead whose term has begun already (issue 15, point 8): cover cannot start in the
 * past, so the dialog says so and asks for a new start (today by default) before the policy is
 * created. `error` is the refusal of the last attempt, shown at the field or below it.
 */
export function NewStartDialog({
  leadNumber,
  pastStart,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  leadNumber: string;
  pastStart: string;
  busy: boolean;
  error: { atField: boolean; message: string } | null;
  onSubmit: (start: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('leads');
  const [start, setStart] = useState(() => new Date().toISOString().slice(0, 10));
  const [shown, setShown] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const today = new Date().toISOString().slice(0, 10);
    // The same rule as the service's, checked first so that nothing is sent in vain.
    if (!/^\d{4}-\d{2}-\d{2}$/.test(start) || start < today) {
      setShown(t('new_start.start_in_past'));
      return;
    }
    setShown(null);
    onSubmit(start);
  };
  const fieldError = shown ?? (error?.atField ? error.message : null);
  return (
    <FormDialog
      title={t('new_start.title', { number: leadNumber })}
      busy={busy}
      onDismiss={onCancel}
    >
      <form noValidate onSubmit={submit} className="flex flex-col gap-4" aria-busy={busy}>
        <p role="alert" className="text-sm text-amber-900">
          {t('new_start.warning', { date: formatDate(pastStart) })}
        </p>
        <DateInput
          label={t('new_start.field')}
          required
          value={start}
          errors={fieldError ? [fieldError] : undefined}
          disabled={busy}
          onChange={(value) => {
            setShown(null);
            setStart(value);
          }}
        />
        {error && !error.atField ? <p className="text-sm text-red-700">{error.message}</p> : null}
        <div className="flex justify-end gap-3 pt-2">
          <Button variant="secondary" disabled={busy} onClick={onCancel}>
            {t('new_start.cancel')}
          </Button>
          <Button type="submit" disabled={busy}>
            {t('actions.create_policy')}
          </Button>
        </div>
      </form>
    </FormDialog>
  );
}
