import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Translated names of catalogue modules and resources (`modules.policy_management`); a name the
 * translations do not know (a module outside the catalogue) shows as it is.
 */
export function useCatalogueLabel(): (group: 'modules' | 'resources', name: string) => string {
  const { t } = useTranslation('admin_roles');
  return useCallback(
    (group, name) => t(`${group}.${name.replaceAll('-', '_')}` as never, { defaultValue: name }),
    [t],
  );
}
