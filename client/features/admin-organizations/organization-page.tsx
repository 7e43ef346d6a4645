import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import {
  listOrganizationUsers,
  updateOrganization,
  type Organization,
  type OrganizationAddress,
  type OrganizationUser,
} from '#client/api/organizations-client.ts';
import { organizationQueries } from '#client/api/organizations-queries.ts';
import { DetailPage } from '#client/entities/record/detail-page.tsx';
import { SaveFooter } from '#client/entities/record/record-edit-form.tsx';
import { validateForm, type FieldErrors } from '#client/ui/form/custom-schema.ts';
import { TextInput } from '#client/ui/form/fields.tsx';
import { InfiniteTable, type LoadTablePage, type TableColumn } from '#client/ui/infinite-table.tsx';
import { useToast } from '#client/ui/toast.tsx';
import { AddressFields, useFormLabels } from './address-fields.tsx';
import { OrganizationCustomData } from './organization-custom-data.tsx';
import { addressSchema, pickAddress } from './organization-form.ts';
import { pageQuery } from './table-order.ts';
import { useServiceCall } from './use-service-call.ts';
import {
  useOrganizationAbilities,
  useOrganizationCustomFields,
  type OrganizationAbilities,
} from './use-organization-context.ts';
import { useRoleNames } from '#client/i18n/translated-text.ts';

/** One organisation: its data (editable with the update permission) and its users. */
export default function OrganizationPage() {
  const { t } = useTranslation(['admin_organizations', 'common']);
  const { organizationId = '' } = useParams();
  const abilities = useOrganizationAbilities();
  const { accountIndex } = abilities;
  const queryClient = useQueryClient();
  const organization = organizationQueries.detail(accountIndex, organizationId);
  const query = useQuery(organization);
  // The saved organisation is the server's answer: shown without asking again.
  const replace = (saved: Organization) => queryClient.setQueryData(organization.queryKey, saved);

  return (
    <DetailPage
      query={query}
      back={{ to: `/u/${accountIndex}/admin/organizations`, label: t('detail.back') }}
      texts={{
        loading: t('common:status.loading'),
        title: t('detail.title'),
        notFound: t('detail.not_found'),
        failed: t('errors.generic'),
      }}
      pageTitle={(current) => current.name}
    >
      {(current) => ({
        title: current.name,
        sections: (
          <>
            <OrganizationForm
              key={current.id}
              organization={current}
              abilities={abilities}
              onSaved={replace}
            />
            <FurtherDetails organization={current} abilities={abilities} onSaved={replace} />
            <OrganizationUsers organizationId={current.id} abilities={abilities} />
          </>
        ),
      })}
    </DetailPage>
  );
}

/** The spec's organisation form: name read-only, the address required; read-only without update. */
function OrganizationForm({
  organization,
  abilities,
  onSaved,
}: {
  organization: Organization;
  abilities: OrganizationAbilities;
  onSaved: (organization: Organization) => void;
}) {
  const { t } = useTranslation(['admin_organizations', 'common']);
  const toast = useToast();
  const labels = useFormLabels();
  const schema = useMemo(() => addressSchema(labels), [labels]);
  const { accountIndex, canUpdate } = abilities;
  const [address, setAddress] = useState<OrganizationAddress>(() => pickAddress(organization));
  const [errors, setErrors] = useState<FieldErrors>({});
  const { busy, failure, fieldErrors, clearFailure, run } = useServiceCall();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = validateForm(schema, address);
    setErrors(result.errors);
    if (!result.success) return;
    // On failure what was typed stays in the form, so that it can be saved again.
    const saved = await run(() => updateOrganization(accountIndex, organization.id, result.output));
    if (!saved.ok) return;
    setAddress(pickAddress(saved.value.organization));
    onSaved(saved.value.organization);
    toast({ message: t('messages.saved'), tone: 'success' });
  };

  return (
    <section aria-labelledby="org-data" className="flex max-w-3xl flex-col gap-4">
      <h2 id="org-data" className="text-xl font-semibold text-slate-900">
        {t('detail.data')}
      </h2>
      {canUpdate ? null : (
        <p className="text-sm text-slate-700" data-testid="read-only-note">
          {t('detail.read_only')}
        </p>
      )}
      <form noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
        <TextInput
          name="name"
          label={labels.name}
          value={organization.name}
          hint={canUpdate ? t('detail.name_hint') : undefined}
          readOnly
          onChange={() => undefined}
        />
        <AddressFields
          values={address}
          errors={{ ...fieldErrors, ...errors }}
          required
          readOnly={!canUpdate}
          disabled={busy}
          onChange={(field, value) => setAddress((current) => ({ ...current, [field]: value }))}
        />
        <SaveFooter
          failure={failure}
          onDismiss={clearFailure}
          busy={busy}
          submitLabel={busy ? t('actions.saving') : t('common:actions.save')}
          canSave={canUpdate}
        />
      </form>
    </section>
  );
}

/** E-mail (shown, not edited: the spec's form has the address only) and the custom data. */
function FurtherDetails({
  organization,
  abilities,
  onSaved,
}: {
  organization: Organization;
  abilities: OrganizationAbilities;
  onSaved: (organization: Organization) => void;
}) {
  const { t } = useTranslation('admin_organizations');
  const schema = useOrganizationCustomFields(abilities.accountIndex);
  return (
    <>
      <section aria-labelledby="org-more" className="flex max-w-3xl flex-col gap-2">
        <h2 id="org-more" className="text-xl font-semibold text-slate-900">
          {t('detail.more')}
        </h2>
        <dl className="grid grid-cols-[minmax(8rem,max-content)_1fr] gap-x-6 gap-y-1 text-sm">
          <dt className="font-medium text-slate-800">{t('fields.email')}</dt>
          <dd className="text-slate-800">{organization.email || t('table.none')}</dd>
        </dl>
      </section>
      {schema.status === 'ready' ? (
        <OrganizationCustomData
          organization={organization}
          fields={schema.value}
          canUpdate={abilities.canUpdate}
          accountIndex={abilities.accountIndex}
          onSaved={onSaved}
        />
      ) : null}
      {schema.status === 'failed' ? (
        <p className="text-sm text-red-700" role="alert">
          {t('errors.generic')}
        </p>
      ) : null}
    </>
  );
}

const USER_ORDER_FIELDS: Record<string, string> = { email: 'email', name: 'lastName' };

/** The organisation's users: the users list filtered by organisation (own permission). */
function OrganizationUsers({
  organizationId,
  abilities,
}: {
  organizationId: number;
  abilities: OrganizationAbilities;
}) {
  const { t } = useTranslation('admin_organizations');
  const roleNames = useRoleNames();
  const { accountIndex, canViewUsers } = abilities;
  const loadPage = useCallback<LoadTablePage<OrganizationUser>>(
    async (input, signal) => {
      const page = await listOrganizationUsers(
        accountIndex,
        organizationId,
        pageQuery(input, USER_ORDER_FIELDS),
        signal,
      );
      return { rows: page.items, nextPageToken: page.nextPageToken };
    },
    [accountIndex, organizationId],
  );
  const columns: TableColumn<OrganizationUser>[] = [
    { id: 'email', header: t('columns.email'), sortable: true, width: '2fr', cell: (u) => u.email },
    {
      id: 'name',
      header: t('columns.person'),
      sortable: true,
      width: '1.5fr',
      cell: (u) => `${u.firstName} ${u.lastName}`.trim(),
    },
    {
      id: 'roles',
      header: t('columns.roles'),
      width: '1.5fr',
      cell: (u) => roleNames(u.roles) || t('table.none'),
    },
    {
      id: 'status',
      header: t('columns.status'),
      width: '7rem',
      cell: (u) => t(`status.${u.status}`),
    },
  ];
  return (
    <section aria-labelledby="org-users" className="flex flex-col gap-2">
      <h2 id="org-users" className="text-xl font-semibold text-slate-900">
        {t('detail.users')}
      </h2>
      {canViewUsers ? (
        <InfiniteTable
          label={t('table.users')}
          columns={columns}
          loadPage={loadPage}
          rowKey={(u) => String(u.id)}
          emptyMessage={t('table.empty_users')}
          height={330}
        />
      ) : (
        <p className="text-sm text-slate-700">{t('detail.users_hidden')}</p>
      )}
    </section>
  );
}
