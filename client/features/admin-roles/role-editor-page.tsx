import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { sameLabels, storedLabels, type NameLabels } from '#common/name-labels.ts';
import { useTranslatedText } from '#client/i18n/translated-text.ts';
import { RoleTextTranslations } from './role-text-translations.tsx';
import { useNavigate, useParams } from 'react-router';
import { createRole, deleteRole, updateRole, type Role } from '#client/api/roles-client.ts';
import { roleQueries } from '#client/api/roles-queries.ts';
import { Alert } from '#client/ui/alert.tsx';
import { Button } from '#client/ui/button.tsx';
import { useConfirm } from '#client/ui/confirm-dialog.tsx';
import { validateForm, type FieldErrors } from '#client/ui/form/custom-schema.ts';
import { TextInput, TextareaInput } from '#client/ui/form/fields.tsx';
import { usePageTitle } from '#client/ui/page-title.ts';
import { Spinner } from '#client/ui/spinner.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { BackLink, LoadFailure } from './page-parts.tsx';
import { PermissionMatrix } from './permission-matrix.tsx';
import {
  roleErrorCode,
  roleFieldErrors,
  roleFormSchema,
  type RoleFormValues,
} from './role-form.ts';
import { ROLE_CODE_MAX, ROLE_DESCRIPTION_MAX, ROLE_LABEL_MAX } from '#common/contracts/tenant.ts';
import { samePermissions, ungrantable } from './role-matrix.ts';
import { loadStateOf, type LoadState } from '#client/ui/load-state.ts';
import { useRoleAbilities, type RoleAbilities } from './use-role-abilities.ts';

/**
 * The role editor (new: `admin/roles/new`, edit: `admin/roles/:roleId`). Holders of
 * `identity-management.roles.view` alone see the role read-only.
 */
export default function RoleEditorPage() {
  const { t } = useTranslation('admin_roles');
  const translated = useTranslatedText();
  const { roleId } = useParams();
  const abilities = useRoleAbilities();
  const { accountIndex } = abilities;
  const query = useQuery({
    ...roleQueries.detail(accountIndex, roleId ?? ''),
    enabled: roleId !== undefined,
  });
  // A new role has nothing to load.
  const newRole: LoadState<Role | null> = { kind: 'ready', value: null };
  const loaded = roleId === undefined ? newRole : loadStateOf(query);
  const retry = () => void query.refetch();
  const notFound = loaded.kind === 'failed' && roleErrorCode(loaded.error) === 'not_found';

  const title =
    loaded.kind === 'ready' && loaded.value
      ? t('editor.title_edit', { label: translated(loaded.value.label, loaded.value.labels) })
      : roleId === undefined
        ? t('editor.title_new')
        : t('editor.title');
  usePageTitle(title);

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
      {loaded.kind === 'loading' ? (
        <Spinner label={t('editor.loading')} />
      ) : loaded.kind === 'failed' ? (
        <LoadFailure
          message={notFound ? t('errors.not_found') : t('editor.load_failed')}
          onRetry={notFound ? null : retry}
          back={<BackToRoles accountIndex={accountIndex} />}
        />
      ) : (
        <RoleForm key={loaded.value?.id ?? 'new'} role={loaded.value} abilities={abilities} />
      )}
    </div>
  );
}

function BackToRoles({ accountIndex }: { accountIndex: number }) {
  const { t } = useTranslation('admin_roles');
  return <BackLink to={`/u/${accountIndex}/admin/roles`}>{t('editor.back')}</BackLink>;
}

function RoleForm({ role, abilities }: { role: Role | null; abilities: RoleAbilities }) {
  const { t } = useTranslation('admin_roles');
  const translated = useTranslatedText();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const toast = useToast();
  const id = useId();
  const isNew = role === null;
  const { accountIndex, held } = abilities;

  const saved = role?.permissions.map((p) => p.code) ?? [];
  const [savedPermissions] = useState(saved);
  const [values, setValues] = useState<RoleFormValues>({
    code: role?.code ?? '',
    label: role?.label ?? '',
    description: role?.description ?? '',
  });
  const [labelLabels, setLabelLabels] = useState<NameLabels>(role?.labels ?? {});
  const [descriptionLabels, setDescriptionLabels] = useState<NameLabels>(
    role?.descriptionLabels ?? {},
  );
  const [permissions, setPermissions] = useState<string[]>(saved);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [permissionsMissing, setPermissionsMissing] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // A role holding more than the signed-in user cannot be changed or deleted by them: the
  // service would answer 403 `escalation` to any save, so say so before they try.
  const beyondReach = ungrantable(held, savedPermissions);
  const mayChange = isNew ? abilities.canCreate : abilities.canUpdate && beyondReach.length === 0;
  const mayDelete = !isNew && abilities.canDelete && beyondReach.length === 0;
  const readOnly = !mayChange;
  const dirty =
    !samePermissions(permissions, savedPermissions) ||
    values.label !== (role?.label ?? '') ||
    values.description !== (role?.description ?? '') ||
    !sameLabels(labelLabels, role?.labels) ||
    !sameLabels(descriptionLabels, role?.descriptionLabels) ||
    values.code !== (role?.code ?? '');

  const labels = { code: t('editor.code'), label: t('editor.label') };
  const set = (field: keyof RoleFormValues) => (value: string) =>
    setValues((current) => ({ ...current, [field]: value }));
  const listPath = `/u/${accountIndex}/admin/roles`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (readOnly || busy) return;
    const result = validateForm(roleFormSchema(labels, isNew), values);
    setErrors(result.errors);
    setPermissionsMissing(permissions.length === 0);
    if (!result.success || permissions.length === 0) return;
    setBusy(true);
    setSubmitError(null);
    const body = {
      label: values.label.trim(),
      labels: storedLabels(labelLabels),
      description: values.description.trim(),
      descriptionLabels: storedLabels(descriptionLabels),
      permissions,
    };
    try {
      const { role: savedRole } = isNew
        ? await createRole(accountIndex, { ...body, code: values.code.trim() })
        : await updateRole(accountIndex, role.id, body);
      toast({
        message: t('editor.saved', { label: translated(savedRole.label, savedRole.labels) }),
        tone: 'success',
      });
      await navigate(listPath);
      void queryClient.invalidateQueries({ queryKey: roleQueries.all(accountIndex) });
    } catch (error) {
      // Everything typed and ticked stays as it is: only the message is new.
      console.error('role save failed', error);
      // A refusal at a field shows there, by its code (never the service's English words).
      const fields = roleFieldErrors(error);
      if (fields) setErrors(fields);
      setSubmitError(t(`errors.${roleErrorCode(error)}`));
      setBusy(false);
    }
  };

  const remove = useCallback(async () => {
    if (role === null) return;
    const deleted = await confirm({
      title: t('editor.confirm_delete_title'),
      message: t('editor.confirm_delete_message', { label: translated(role.label, role.labels) }),
      confirmLabel: t('editor.delete'),
      tone: 'danger',
      action: async () => {
        try {
          await deleteRole(accountIndex, role.id);
        } catch (error) {
          console.error('role delete failed', error);
          // A string: the dialog stays open and shows it (role_in_use, escalation, ...).
          throw t(`errors.${roleErrorCode(error)}`);
        }
      },
    });
    if (!deleted) return;
    toast({
      message: t('editor.deleted', { label: translated(role.label, role.labels) }),
      tone: 'success',
    });
    await navigate(listPath);
    void queryClient.invalidateQueries({ queryKey: roleQueries.all(accountIndex) });
  }, [accountIndex, confirm, listPath, navigate, queryClient, role, t, toast, translated]);

  const permissionsErrorId = `${id}-permissions-error`;
  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      className="flex flex-col gap-6"
      aria-busy={busy}
    >
      {isNew ? null : !abilities.canUpdate ? (
        <Alert tone="info">{t('editor.read_only')}</Alert>
      ) : beyondReach.length > 0 ? (
        <Alert tone="warning">
          {t('editor.not_changeable', { permissions: beyondReach.join(', ') })}
        </Alert>
      ) : null}

      <div className="grid max-w-3xl gap-4 md:grid-cols-2">
        <TextInput
          label={labels.code}
          name="code"
          required={isNew}
          value={values.code}
          onChange={set('code')}
          errors={errors.code}
          // The code names the role for good: asked for once, then shown read-only.
          {...(isNew
            ? { hint: t('editor.code_hint'), maxLength: ROLE_CODE_MAX, autoComplete: 'off' }
            : { readOnly: true })}
        />
        <TextInput
          label={labels.label}
          name="label"
          required
          value={values.label}
          onChange={set('label')}
          errors={errors.label}
          maxLength={ROLE_LABEL_MAX}
          readOnly={readOnly}
        />
        <RoleTextTranslations
          text="label"
          value={labelLabels}
          onChange={setLabelLabels}
          disabled={readOnly}
        />
        <div className="md:col-span-2">
          <TextareaInput
            label={t('editor.description')}
            name="description"
            rows={3}
            value={values.description}
            onChange={set('description')}
            errors={errors.description}
            maxLength={ROLE_DESCRIPTION_MAX}
            disabled={readOnly}
          />
        </div>
        <RoleTextTranslations
          text="description"
          value={descriptionLabels}
          onChange={setDescriptionLabels}
          disabled={readOnly}
        />
      </div>

      <PermissionMatrix
        permissions={permissions}
        saved={savedPermissions}
        onChange={(next) => {
          setPermissions(next);
          if (next.length > 0) setPermissionsMissing(false);
        }}
        held={held}
        readOnly={readOnly}
        errorId={permissionsMissing ? permissionsErrorId : undefined}
      />
      {permissionsMissing ? (
        <p id={permissionsErrorId} className="text-sm text-red-700">
          {t('validation.permissions_required')}
        </p>
      ) : null}

      {submitError ? <Alert tone="danger">{submitError}</Alert> : null}

      <div className="flex flex-wrap items-center gap-3">
        {readOnly ? null : (
          <Button type="submit" disabled={busy}>
            {busy ? t('editor.saving') : t('editor.save')}
          </Button>
        )}
        <BackToRoles accountIndex={accountIndex} />
        {mayDelete ? (
          <Button variant="danger" disabled={busy} onClick={() => void remove()}>
            {t('editor.delete')}
          </Button>
        ) : null}
        {dirty && !readOnly ? (
          <span role="status" className="text-sm text-slate-700">
            {t('editor.unsaved')}
          </span>
        ) : null}
      </div>
    </form>
  );
}
