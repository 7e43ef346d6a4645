import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  MATRIX_ACTIONS,
  PERMISSION_CATALOGUE,
  permissionOf,
  type MatrixAction,
} from '#common/permission-catalogue.ts';
import { useCatalogueLabel } from './labels.ts';
import { cellState, extraPermissions, isGrantable, toggleCell } from './role-matrix.ts';

const actionKey = (action: MatrixAction) => (action === '*' ? 'all' : action);

/**
 * The permission matrix: one table per catalogue module, resources down, actions across, and
 * the role's permissions outside the catalogue in a list of their own. A box the signed-in user
 * may not set (a permission they do not hold) is disabled and says why; a box included in a
 * broader permission of the role (`claims.*` includes `claims.view`) is ticked and disabled.
 */
export function PermissionMatrix({
  permissions,
  saved,
  onChange,
  held,
  readOnly,
  errorId,
}: {
  permissions: readonly string[];
  /** The permissions as loaded: an unticked extra stays listed so it can be ticked again. */
  saved: readonly string[];
  onChange: (next: string[]) => void;
  held: readonly string[];
  readOnly: boolean;
  /** The id of the "choose at least one" message, when shown. */
  errorId?: string | undefined;
}) {
  const { t } = useTranslation('admin_roles');
  const label = useCatalogueLabel();
  const id = useId();
  const grantHintId = `${id}-grant-hint`;
  const extras = [...new Set([...extraPermissions(saved), ...extraPermissions(permissions)])];

  return (
    <fieldset className="flex flex-col gap-4" aria-describedby={errorId}>
      <legend className="mb-1 text-lg font-semibold text-slate-900">
        {t('editor.permissions')}
      </legend>
      {readOnly ? null : (
        <p id={grantHintId} className="text-sm text-slate-700">
          {t('editor.grant_hint')}
        </p>
      )}
      <div className="grid items-start gap-4 lg:grid-cols-2">
        {PERMISSION_CATALOGUE.map(({ module, resources }) => (
          // A narrow screen scrolls the table, not the page (issue 16 point 10).
          <div key={module} className="min-w-0 overflow-x-auto">
            <table className="w-full border-collapse rounded-lg border border-slate-200 bg-white text-sm">
              <caption className="px-3 py-2 text-left font-semibold text-slate-900">
                {label('modules', module)}
              </caption>
              <thead>
                <tr className="border-b border-slate-200 bg-slate-50 text-slate-700">
                  <th scope="col" className="px-3 py-1 text-left font-medium">
                    {t('editor.resource')}
                  </th>
                  {MATRIX_ACTIONS.map((action) => (
                    <th key={action} scope="col" className="w-16 px-1 py-1 text-center font-medium">
                      {t(`editor.actions.${actionKey(action)}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {resources.map((resource) => (
                  <tr key={resource} className="border-b border-slate-100 last:border-0">
                    <th scope="row" className="px-3 py-1 text-left font-normal text-slate-800">
                      {label('resources', resource)}
                    </th>
                    {MATRIX_ACTIONS.map((action) => {
                      const permission = permissionOf(module, resource, action);
                      const state = cellState(permissions, permission);
                      const grantable = isGrantable(held, permission);
                      const name = t('editor.cell', {
                        module: label('modules', module),
                        resource: label('resources', resource),
                        action: t(`editor.actions.${actionKey(action)}`),
                      });
                      return (
                        <td key={action} className="px-1 py-1 text-center">
                          <input
                            type="checkbox"
                            className="size-4"
                            aria-label={
                              state.includedBy
                                ? `${name} (${t('editor.included_by', { permission: state.includedBy })})`
                                : name
                            }
                            title={
                              state.includedBy
                                ? t('editor.included_by', { permission: state.includedBy })
                                : !grantable && !readOnly
                                  ? t('editor.not_grantable')
                                  : permission
                            }
                            aria-describedby={!grantable && !readOnly ? grantHintId : undefined}
                            checked={state.checked}
                            disabled={readOnly || !grantable || state.includedBy !== null}
                            onChange={(event) =>
                              onChange(
                                toggleCell(
                                  permissions,
                                  module,
                                  resource,
                                  action,
                                  event.target.checked,
                                ),
                              )
                            }
                          />
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
      </div>
      {extras.length > 0 ? (
        <OtherPermissions
          permissions={permissions}
          listed={extras}
          onChange={onChange}
          held={held}
          readOnly={readOnly}
          grantHintId={grantHintId}
        />
      ) : null}
    </fieldset>
  );
}

/** Permissions of the role that the matrix has no box for: kept unless unticked. */
function OtherPermissions({
  permissions,
  listed,
  onChange,
  held,
  readOnly,
  grantHintId,
}: {
  permissions: readonly string[];
  listed: readonly string[];
  onChange: (next: string[]) => void;
  held: readonly string[];
  readOnly: boolean;
  grantHintId: string;
}) {
  const { t } = useTranslation('admin_roles');
  return (
    <fieldset className="rounded-lg border border-slate-200 bg-white p-3">
      <legend className="px-1 font-semibold text-slate-900">{t('editor.other_permissions')}</legend>
      <p className="mb-2 text-sm text-slate-700">{t('editor.other_hint')}</p>
      <ul className="grid gap-1 sm:grid-cols-2">
        {listed.map((permission) => {
          const grantable = isGrantable(held, permission);
          return (
            <li key={permission}>
              <label className="flex items-center gap-2 font-mono text-sm text-slate-800">
                <input
                  type="checkbox"
                  className="size-4"
                  checked={permissions.includes(permission)}
                  disabled={readOnly || !grantable}
                  aria-describedby={!grantable && !readOnly ? grantHintId : undefined}
                  onChange={(event) =>
                    onChange(
                      event.target.checked
                        ? [...permissions, permission]
                        : permissions.filter((p) => p !== permission),
                    )
                  }
                />
                {permission}
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
