import { isAllowed } from '#common/permissions.ts';
import {
  menu,
  type MenuGroup,
  type MenuItem,
  type Product,
  type ScreenRoute,
} from './route-table.ts';

/** The menu as a given user may see it: entries without permission are hidden (spec). */
export function visibleMenu(permissions: readonly string[]): MenuGroup[] {
  return menu
    .map((group) => ({
      ...group,
      items: group.items.flatMap((item): MenuItem[] => {
        if (item.kind === 'screen') return isAllowed(permissions, item.screen.rule) ? [item] : [];
        const children = item.children.filter((s) => isAllowed(permissions, s.rule));
        return children.length ? [{ ...item, children }] : [];
      }),
    }))
    .filter((group) => group.items.length > 0);
}

/** /u/{i} opens the first non-nested menu item of the first product the user may use. */
export function firstScreen(
  permissions: readonly string[],
  products: readonly Product[] = ['eis', 'pbm'],
): ScreenRoute | undefined {
  for (const product of products) {
    for (const group of menu) {
      for (const item of group.items) {
        if (item.kind !== 'screen' || item.screen.product !== product) continue;
        if (isAllowed(permissions, item.screen.rule)) return item.screen;
      }
    }
  }
  return undefined;
}
